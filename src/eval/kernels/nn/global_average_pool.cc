// GlobalAveragePool: the mean over all spatial axes, kept as length 1.
#include "pool_common.h"

namespace onnxscript::eval {

void register_nn_global_average_pool(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 22})
    registry.add("", "GlobalAveragePool", v, global_pool_kernel<PoolKind::kAverage>);
}

}  // namespace onnxscript::eval
