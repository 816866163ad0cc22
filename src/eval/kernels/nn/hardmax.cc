// Hardmax: 1 at the first maximum, 0 elsewhere, along an axis.
// Before opset 13 the input is coerced to 2-D at `axis` (default 1); from 13
// the operation runs along the one axis (default -1). See softmax_common.h.
#include "softmax_common.h"

namespace onnxscript::eval {

void register_nn_hardmax(KernelRegistry& registry) {
  for (int64_t v : {1, 11, 13})
    registry.add("", "Hardmax", v, softmax_kernel<SoftmaxKind::kHardmax>);
}

}  // namespace onnxscript::eval
