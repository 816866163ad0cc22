// SequenceAt: the element at a (possibly negative) position.
#include "eval/kernels/sequence/sequence_util.h"

namespace onnxscript::eval {
namespace {
void sequence_at(KernelContext& ctx) {
  const SequenceValue& seq = input_sequence(ctx, 0);
  const int64_t size = static_cast<int64_t>(seq.items.size());
  ctx.set_output(0, seq.items[sequence_position(ctx, ctx.input_tensor(1), size, false)]);
}
}  // namespace

void register_sequence_sequence_at(KernelRegistry& registry) {
  registry.add("", "SequenceAt", 11, sequence_at);
}

}  // namespace onnxscript::eval
