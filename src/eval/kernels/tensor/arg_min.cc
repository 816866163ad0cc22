// ArgMin: index of the smallest element along `axis` (see arg_reduce.h).
// v11 allows negative axes, v12 adds select_last_index, v13 bfloat16.
#include "arg_reduce.h"

namespace onnxscript::eval {

void register_tensor_arg_min(KernelRegistry& registry) {
  for (int64_t v : {1, 11, 12, 13}) registry.add("", "ArgMin", v, arg_reduce<false>);
}

}  // namespace onnxscript::eval
