// ReduceMin: minimum over the reduced axes (NaN propagates). v11 negative axes, v12 int8/uint8, v13
// bfloat16. Shared machinery, axes and keepdims rules: reduce_common.h.
#include "reduce_common.h"

namespace onnxscript::eval {

void register_reduce_reduce_min(KernelRegistry& registry) {
  // 18 moves axes to an optional input and adds noop_with_empty_axes; reduce_kernel reads both.
  for (int64_t v : {1, 11, 12, 13, 18})
    registry.add("", "ReduceMin", v, reduce_kernel<ReduceKind::kMin>);
  registry.add("", "ReduceMin", 20, reduce_kernel_with_bool<ReduceKind::kMin>);  // adds bool
}

}  // namespace onnxscript::eval
