// ReduceProd: product over the reduced axes. v11 allows negative axes; v13 adds bfloat16.
// Shared machinery, axes and keepdims rules: reduce_common.h.
#include "reduce_common.h"

namespace onnxscript::eval {

void register_reduce_reduce_prod(KernelRegistry& registry) {
  for (int64_t v : {1, 11, 13}) registry.add("", "ReduceProd", v, reduce_kernel<ReduceKind::kProd>);
}

}  // namespace onnxscript::eval
