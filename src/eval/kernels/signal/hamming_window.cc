// HammingWindow (opset 17): w[n] = 25/46 - 21/46 cos(2 pi n / N); N = size
// (periodic, the default) or size - 1 (symmetric). ONNX uses the exact
// coefficients 25/46 and 21/46 (its function body's 0.543478 and 0.456522),
// not the rounded 0.54 and 0.46. See window_common.h.
#include "window_common.h"

namespace onnxscript::eval {
namespace {

void hamming_window(KernelContext& ctx) { cosine_window(ctx, 25.0 / 46.0, 21.0 / 46.0, 0.0); }

}  // namespace

void register_signal_hamming_window(KernelRegistry& registry) {
  registry.add("", "HammingWindow", 17, hamming_window);
}

}  // namespace onnxscript::eval
