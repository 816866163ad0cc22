// ReduceMean: arithmetic mean over the reduced axes (integer types divide with truncation). v11
// allows negative axes; v13 adds bfloat16. Shared machinery, axes and keepdims rules:
// reduce_common.h.
#include "reduce_common.h"

namespace onnxscript::eval {

void register_reduce_reduce_mean(KernelRegistry& registry) {
  for (int64_t v : {1, 11, 13}) registry.add("", "ReduceMean", v, reduce_kernel<ReduceKind::kMean>);
}

}  // namespace onnxscript::eval
