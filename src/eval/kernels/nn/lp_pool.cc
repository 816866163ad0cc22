// LpPool: (sum over each window of |x|^p)^(1/p) (pool_common.h). p is a
// float attribute in v1 and an int from v2; v11 refines auto_pad docs.
#include "pool_common.h"

namespace onnxscript::eval {

void register_nn_lp_pool(KernelRegistry& registry) {
  // 18 adds ceil_mode and dilations, which pool_common.h applies; 22 only adds bfloat16.
  for (int64_t v : {1, 2, 11, 18, 22})
    registry.add("", "LpPool", v, pool_kernel<PoolKind::kLp, kFloatTypes>);
}

}  // namespace onnxscript::eval
