// SequenceLength: the number of elements, as an int64 scalar.
#include "eval/kernels/sequence/sequence_util.h"

namespace onnxscript::eval {
namespace {
void sequence_length(KernelContext& ctx) {
  ctx.set_output(
      0, Tensor::scalar<int64_t>(static_cast<int64_t>(input_sequence(ctx, 0).items.size())));
}
}  // namespace

void register_sequence_sequence_length(KernelRegistry& registry) {
  registry.add("", "SequenceLength", 11, sequence_length);
}

}  // namespace onnxscript::eval
