// SequenceConstruct: a sequence of the input tensors, which share one element type.
#include "eval/kernels/sequence/sequence_util.h"

namespace onnxscript::eval {
namespace {
void sequence_construct(KernelContext& ctx) {
  if (ctx.num_inputs() == 0) ctx.fail("needs at least one input");
  std::vector<RuntimeValue> items;
  items.reserve(ctx.num_inputs());
  const DataType dtype = ctx.input_tensor(0).dtype();
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    const Tensor& t = ctx.input_tensor(i);
    if (t.dtype() != dtype)
      ctx.fail(fmt::format("input {} is {} but input 0 is {}", i, ir::data_type_name(t.dtype()),
                           ir::data_type_name(dtype)));
    items.emplace_back(t);
  }
  ctx.set_output(0, RuntimeValue::sequence(tensor_elem_type(dtype), std::move(items)));
}
}  // namespace

void register_sequence_sequence_construct(KernelRegistry& registry) {
  registry.add("", "SequenceConstruct", 11, sequence_construct);
}

}  // namespace onnxscript::eval
