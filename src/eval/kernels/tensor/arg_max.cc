// ArgMax: index of the largest element along `axis` (see arg_reduce.h).
// v11 allows negative axes, v12 adds select_last_index, v13 bfloat16.
#include "arg_reduce.h"

namespace onnxscript::eval {

void register_tensor_arg_max(KernelRegistry& registry) {
  for (int64_t v : {1, 11, 12, 13}) registry.add("", "ArgMax", v, arg_reduce<true>);
}

}  // namespace onnxscript::eval
