// Matrix products: matmul, bmm, linear.

#include "lib/torch_lib/common.h"

namespace onnxscript::torch_lib {

Value aten_matmul(Value self, Value other) { return op::MatMul(self, other); }

Value aten_bmm(Value self, Value mat2) { return op::MatMul(self, mat2); }

Value aten_linear(Value input, Value weight, std::optional<Value> bias) {
  // Gemm computes input @ weight^T + bias in one node, but only for rank-2
  // input; other ranks (and unknown ones) take MatMul with the transposed
  // weight, then Add.
  if (input.rank() == 2 && weight.rank() == 2 && bias)
    return op::Gemm(input, weight, *bias, {.transB = 1});
  Value weight_t = weight.rank() == 1 ? weight : op::Transpose(weight, {.perm = {1, 0}});
  Value product = op::MatMul(input, weight_t);
  if (!bias) return product;
  return op::Add(product, *bias);
}

}  // namespace onnxscript::torch_lib
