// HannWindow (opset 17): w[n] = 0.5 - 0.5 cos(2 pi n / N); N = size
// (periodic, the default) or size - 1 (symmetric). See window_common.h.
#include "window_common.h"

namespace onnxscript::eval {
namespace {

void hann_window(KernelContext& ctx) { cosine_window(ctx, 0.5, 0.5, 0.0); }

}  // namespace

void register_signal_hann_window(KernelRegistry& registry) {
  registry.add("", "HannWindow", 17, hann_window);
}

}  // namespace onnxscript::eval
