// ReduceSum: sum over the reduced axes. v11 allows negative axes; v13 moves axes to an optional
// input and adds noop_with_empty_axes. Shared machinery, axes and keepdims rules: reduce_common.h.
#include "reduce_common.h"

namespace onnxscript::eval {

void register_reduce_reduce_sum(KernelRegistry& registry) {
  for (int64_t v : {1, 11, 13}) registry.add("", "ReduceSum", v, reduce_kernel<ReduceKind::kSum>);
}

}  // namespace onnxscript::eval
