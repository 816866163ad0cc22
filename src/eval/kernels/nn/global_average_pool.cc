// GlobalAveragePool: the mean over all spatial axes, kept as length 1.
#include "pool_common.h"

namespace onnxscript::eval {

void register_nn_global_average_pool(KernelRegistry& registry) {
  registry.add("", "GlobalAveragePool", 1, global_pool_kernel<PoolKind::kAverage>);
}

}  // namespace onnxscript::eval
