// Scatter (v9; deprecated at v11 in favour of ScatterElements, which has the
// same semantics): output = data with updates written at indices along axis.
#include "scatter_reduce.h"

namespace onnxscript::eval {

void register_tensor_scatter(KernelRegistry& registry) {
  // v11 only marks the operator deprecated; models importing it still run.
  for (int64_t v : {9, 11}) registry.add("", "Scatter", v, scatter_elements_kernel);
}

}  // namespace onnxscript::eval
