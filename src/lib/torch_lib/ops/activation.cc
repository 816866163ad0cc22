// Activations: relu, gelu, hardsigmoid, hardswish, hardtanh, softmax.

#include <cmath>
#include <numbers>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"

namespace onnxscript::torch_lib {

Value aten_relu(Value self) { return op::Relu(self); }

Value aten_gelu(Value self, std::string approximate) {
  // Gelu is an operator from opset 20; at 18 it is its definition.
  if (approximate == "none") {
    // x/2 * (1 + erf(x / sqrt(2)))
    const Value inner = op::Erf(op::Mul(self, 1.0 / std::numbers::sqrt2));
    return op::Mul(op::Mul(self, 0.5), op::Add(inner, 1.0));
  }
  if (approximate == "tanh") {
    // x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))
    const Value cube = op::Mul(op::Mul(self, self), self);
    const Value inner =
        op::Mul(op::Add(self, op::Mul(cube, 0.044715)), std::sqrt(2.0 / std::numbers::pi));
    return op::Mul(op::Mul(self, 0.5), op::Add(op::Tanh(inner), 1.0));
  }
  throw TypeError("aten::gelu: approximate must be 'none' or 'tanh', got '" + approximate + "'");
}

namespace {

// max(0, min(1, x/6 + 1/2)) spelled out, for double tensors: HardSigmoid's
// alpha is a float attribute, and a float 1/6 is off by 1e-8 relative,
// which a double result shows (HardSwish's kernels use the same float 1/6).
Value exact_hardsigmoid(const Value& self) {
  return op::Clip(op::Add(op::Div(self, 6.0), 0.5), 0.0, 1.0);
}

}  // namespace

Value aten_hardsigmoid(Value self) {
  if (self.dtype() == DataType::kDouble) return exact_hardsigmoid(self);
  // relu6(x + 3) / 6 = max(0, min(1, x/6 + 1/2)): ONNX's HardSigmoid with
  // alpha 1/6 and beta 1/2.
  return op::HardSigmoid(self, {.alpha = 1.0f / 6.0f, .beta = 0.5f});
}

Value aten_hardswish(Value self) {
  if (self.dtype() == DataType::kDouble) return op::Mul(self, exact_hardsigmoid(self));
  return op::HardSwish(self);
}

Value aten_hardtanh(Value self, Value min_val, Value max_val) {
  return op::Clip(self, min_val, max_val);
}

Value aten_softmax(Value self, int64_t dim, std::optional<int64_t> dtype) {
  if (dtype) self = op::Cast(self, {.to = onnx_dtype(*dtype)});
  if (self.rank() == 0) {
    // The softmax of one element is 1; ONNX's Softmax needs rank >= 1.
    return op::Squeeze(op::Softmax(op::Unsqueeze(self, int64s({0})), {.axis = 0}));
  }
  return op::Softmax(self, {.axis = dim});
}

void register_activations(Registry& r) {
  using detail::overload;
  r.add(overload<aten_relu>("aten::relu(Tensor self) -> Tensor"));
  r.add(overload<aten_relu>("aten::relu_(Tensor(a!) self) -> Tensor(a!)"));
  r.add(overload<aten_gelu>("aten::gelu(Tensor self, *, str approximate='none') -> Tensor"));
  r.add(overload<aten_hardsigmoid>("aten::hardsigmoid(Tensor self) -> Tensor"));
  r.add(overload<aten_hardswish>("aten::hardswish(Tensor self) -> Tensor"));
  r.add(overload<aten_hardswish>("aten::hardswish_(Tensor(a!) self) -> Tensor(a!)"));
  r.add(overload<aten_hardtanh>(
      "aten::hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor"));
  r.add(overload<aten_hardtanh>(
      "aten::hardtanh_(Tensor(a!) self, Scalar min_val=-1, Scalar max_val=1) -> Tensor(a!)"));
  r.add(overload<aten_softmax>(
      "aten::softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor"));
}

}  // namespace onnxscript::torch_lib
