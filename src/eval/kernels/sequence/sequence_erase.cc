// SequenceErase: a new sequence without the element at a position (the last by default).
#include "eval/kernels/sequence/sequence_util.h"

namespace onnxscript::eval {
namespace {
void sequence_erase(KernelContext& ctx) {
  const SequenceValue& seq = input_sequence(ctx, 0);
  const int64_t size = static_cast<int64_t>(seq.items.size());
  if (size == 0) ctx.fail("cannot erase from an empty sequence");
  const int64_t pos =
      ctx.has_input(1) ? sequence_position(ctx, ctx.input_tensor(1), size, false) : size - 1;
  std::vector<RuntimeValue> items = seq.items;
  items.erase(items.begin() + pos);
  ctx.set_output(0, RuntimeValue::sequence(seq.elem_type, std::move(items)));
}
}  // namespace

void register_sequence_sequence_erase(KernelRegistry& registry) {
  registry.add("", "SequenceErase", 11, sequence_erase);
}

}  // namespace onnxscript::eval
