// More linear algebra: det, linalg_det, logdet, bilinear.

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"

namespace onnxscript::torch_lib {

Value aten_det(Value self) {
  if (self.rank() && *self.rank() < 2)
    throw TypeError("aten::det: needs a (batch of) square matrices");
  return op::Det(self);
}

Value aten_logdet(Value self) {
  // log(det): NaN for a negative determinant and -inf for 0, as PyTorch gives.
  return op::Log(aten_det(self));
}

Value aten_bilinear(Value input1, Value input2, Value weight, std::optional<Value> bias) {
  // y[..., o] = sum_ij x1[..., i] W[o, i, j] x2[..., j] (+ b[o]).
  const Value y =
      op::Einsum(std::vector<Value>{input1, weight, input2}, {.equation = "...i,oij,...j->...o"});
  return bias ? op::Add(y, *bias) : y;
}

void register_more_linear_algebra(Registry& r) {
  using detail::overload;
  r.add(overload<aten_det>("aten::det(Tensor self) -> Tensor"));
  r.add(overload<aten_det>("aten::linalg_det(Tensor A) -> Tensor"));
  r.add(overload<aten_logdet>("aten::logdet(Tensor self) -> Tensor"));
  r.add(overload<aten_bilinear>(
      "aten::bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> Tensor"));
}

}  // namespace onnxscript::torch_lib
