// ReduceProd: product over the reduced axes. v11 allows negative axes; v13 adds bfloat16.
// Shared machinery, axes and keepdims rules: reduce_common.h.
#include "reduce_common.h"

namespace onnxscript::eval {

void register_reduce_reduce_prod(KernelRegistry& registry) {
  // 18 moves axes to an optional input and adds noop_with_empty_axes; reduce_kernel reads both.
  for (int64_t v : {1, 11, 13, 18})
    registry.add("", "ReduceProd", v, reduce_kernel<ReduceKind::kProd>);
}

}  // namespace onnxscript::eval
