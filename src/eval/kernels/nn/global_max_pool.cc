// GlobalMaxPool: the maximum over all spatial axes, kept as length 1.
#include "pool_common.h"

namespace onnxscript::eval {

void register_nn_global_max_pool(KernelRegistry& registry) {
  registry.add("", "GlobalMaxPool", 1, global_pool_kernel<PoolKind::kMax>);
}

}  // namespace onnxscript::eval
