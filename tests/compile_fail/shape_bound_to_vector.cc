// expect-error: invalid initialization of reference of type .*vector<long int>&.* from .*Dims
// A shape bound to a vector reference: with an implicit conversion this
// compiled into a copy of the dimensions (a heap allocation) that nobody
// asked for. Dims converts to std::vector only when asked (explicitly).
#include "onnxscript/ir/tensor.h"

size_t rank_of(const onnxscript::ir::Tensor& t) {
  const std::vector<int64_t>& dims = t.shape();
  return dims.size();
}
