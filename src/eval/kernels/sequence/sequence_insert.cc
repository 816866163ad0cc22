// SequenceInsert: a new sequence with a tensor inserted at a position (the end by default).
#include "eval/kernels/sequence/sequence_util.h"

namespace onnxscript::eval {
namespace {
void sequence_insert(KernelContext& ctx) {
  const SequenceValue& seq = input_sequence(ctx, 0);
  const Tensor& t = ctx.input_tensor(1);
  if (seq.elem_type.is_tensor() && seq.elem_type.elem_type != DataType::kUndefined &&
      seq.elem_type.elem_type != t.dtype())
    ctx.fail(fmt::format("cannot insert a {} tensor into a sequence of {}",
                         ir::data_type_name(t.dtype()), seq.elem_type.to_string()));
  const int64_t size = static_cast<int64_t>(seq.items.size());
  const int64_t pos =
      ctx.has_input(2) ? sequence_position(ctx, ctx.input_tensor(2), size, true) : size;
  std::vector<RuntimeValue> items;
  items.reserve(seq.items.size() + 1);
  items.insert(items.end(), seq.items.begin(), seq.items.begin() + pos);
  items.emplace_back(t);
  items.insert(items.end(), seq.items.begin() + pos, seq.items.end());
  ir::Type elem = seq.elem_type.kind == ir::TypeKind::kUnspecified ? tensor_elem_type(t.dtype())
                                                                   : seq.elem_type;
  ctx.set_output(0, RuntimeValue::sequence(std::move(elem), std::move(items)));
}
}  // namespace

void register_sequence_sequence_insert(KernelRegistry& registry) {
  registry.add("", "SequenceInsert", 11, sequence_insert);
}

}  // namespace onnxscript::eval
