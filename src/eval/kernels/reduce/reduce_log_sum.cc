// ReduceLogSum: log of the sum over the reduced axes. v11 allows negative axes; v13 adds bfloat16.
// Shared machinery, axes and keepdims rules: reduce_common.h.
#include "reduce_common.h"

namespace onnxscript::eval {

void register_reduce_reduce_log_sum(KernelRegistry& registry) {
  for (int64_t v : {1, 11, 13})
    registry.add("", "ReduceLogSum", v, reduce_kernel<ReduceKind::kLogSum>);
}

}  // namespace onnxscript::eval
