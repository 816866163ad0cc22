// GlobalLpPool: (sum of |x|^p over all spatial axes)^(1/p), kept as length
// 1. p is a float attribute in v1 and an int from v2.
#include "pool_common.h"

namespace onnxscript::eval {

void register_nn_global_lp_pool(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 2, 22})
    registry.add("", "GlobalLpPool", v, global_pool_kernel<PoolKind::kLp>);
}

}  // namespace onnxscript::eval
