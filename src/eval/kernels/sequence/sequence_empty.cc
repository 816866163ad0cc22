// SequenceEmpty: an empty sequence of tensors of the `dtype` attribute (float by default).
#include "eval/kernels/sequence/sequence_util.h"

namespace onnxscript::eval {
namespace {
void sequence_empty(KernelContext& ctx) {
  const int64_t dtype = ctx.attr_int("dtype", static_cast<int64_t>(DataType::kFloat));
  if (!ir::is_known_data_type(static_cast<int32_t>(dtype)))
    ctx.fail(fmt::format("dtype {} is unknown", dtype));
  ctx.set_output(0, RuntimeValue::sequence(tensor_elem_type(static_cast<DataType>(dtype)), {}));
}
}  // namespace

void register_sequence_sequence_empty(KernelRegistry& registry) {
  registry.add("", "SequenceEmpty", 11, sequence_empty);
}

}  // namespace onnxscript::eval
