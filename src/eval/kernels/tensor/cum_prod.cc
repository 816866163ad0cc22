// CumProd (26): running product along the axis given by a scalar int32/int64
// input; exclusive=1 makes the first output 1 (cumulative.h).
#include "cumulative.h"

namespace onnxscript::eval {

void register_tensor_cum_prod(KernelRegistry& registry) {
  registry.add("", "CumProd", 26, [](KernelContext& ctx) {
    cumulative_kernel(ctx, 1, [](auto acc, auto v) { return acc * v; });
  });
}

}  // namespace onnxscript::eval
