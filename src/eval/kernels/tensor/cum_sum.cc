// CumSum: running sum along the axis given by a scalar int32/int64 input
// (exclusive, reverse: cumulative.h). v14 adds float16 and bfloat16.
#include "cumulative.h"

namespace onnxscript::eval {

void register_tensor_cum_sum(KernelRegistry& registry) {
  for (int64_t v : {11, 14}) {
    registry.add("", "CumSum", v, [](KernelContext& ctx) {
      cumulative_kernel(ctx, 0, [](auto acc, auto v) { return acc + v; });
    });
  }
}

}  // namespace onnxscript::eval
