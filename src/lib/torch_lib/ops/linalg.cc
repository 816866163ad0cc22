// Matrix products: matmul, bmm, linear.

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"

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

void register_linear_algebra(Registry& r) {
  using detail::overload;
  r.add(overload<aten_matmul>("aten::matmul(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_bmm>("aten::bmm(Tensor self, Tensor mat2) -> Tensor"));
  r.add(overload<aten_linear>(
      "aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor"));
}

}  // namespace onnxscript::torch_lib
