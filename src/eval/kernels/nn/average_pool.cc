// AveragePool: the mean over each window (pool_common.h). v7 adds
// count_include_pad (padding counts toward the divisor), v10 ceil_mode.
#include "pool_common.h"

namespace onnxscript::eval {

void register_nn_average_pool(KernelRegistry& registry) {
  // 19 adds dilations, which pool_common.h applies; 22 only adds bfloat16.
  for (int64_t v : {1, 7, 10, 11, 19, 22})
    registry.add("", "AveragePool", v, pool_kernel<PoolKind::kAverage, kFloatTypes>);
}

}  // namespace onnxscript::eval
