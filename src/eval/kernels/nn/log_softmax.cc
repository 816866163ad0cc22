// LogSoftmax: x - max - log(sum(exp(x - max))), along an axis.
// Before opset 13 the input is coerced to 2-D at `axis` (default 1); from 13
// the operation runs along the one axis (default -1). See softmax_common.h.
#include "softmax_common.h"

namespace onnxscript::eval {

void register_nn_log_softmax(KernelRegistry& registry) {
  for (int64_t v : {1, 11, 13})
    registry.add("", "LogSoftmax", v, softmax_kernel<SoftmaxKind::kLogSoftmax>);
}

}  // namespace onnxscript::eval
