// BlackmanWindow (opset 17): w[n] = 0.42 - 0.5 cos(2 pi n / N)
// + 0.08 cos(4 pi n / N); N = size (periodic, the default) or size - 1
// (symmetric). See window_common.h.
#include "window_common.h"

namespace onnxscript::eval {
namespace {

void blackman_window(KernelContext& ctx) { cosine_window(ctx, 0.42, 0.5, 0.08); }

}  // namespace

void register_signal_blackman_window(KernelRegistry& registry) {
  registry.add("", "BlackmanWindow", 17, blackman_window);
}

}  // namespace onnxscript::eval
