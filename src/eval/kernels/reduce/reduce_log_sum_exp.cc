// ReduceLogSumExp: log(sum(exp(x))) over the reduced axes, computed as max + log(sum(exp(x - max)))
// so large inputs do not overflow. v11 allows negative axes; v13 adds bfloat16. Shared machinery,
// axes and keepdims rules: reduce_common.h.
#include "reduce_common.h"

namespace onnxscript::eval {

void register_reduce_reduce_log_sum_exp(KernelRegistry& registry) {
  // 18 moves axes to an optional input and adds noop_with_empty_axes; reduce_kernel reads both.
  for (int64_t v : {1, 11, 13, 18})
    registry.add("", "ReduceLogSumExp", v, reduce_kernel<ReduceKind::kLogSumExp>);
}

}  // namespace onnxscript::eval
