// More activations: silu, elu, selu, celu, leaky_relu, softplus, mish,
// log_softmax, relu6, prelu, glu, threshold, hardshrink, softshrink,
// log_sigmoid, and the in-place forms TorchScript records. The scalar
// parameters may be known only at run time, so most are written as their
// definitions with Where rather than with ONNX operators that take them as
// attributes.

#include <fmt/format.h>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"
#include "lib/torch_lib/promotion.h"

namespace onnxscript::torch_lib {

Value aten_silu(Value self) {
  // x / (1 + exp(-x)) for double: ONNX Runtime fuses x * Sigmoid(x) into its
  // QuickGelu, which has no double kernel, and then cannot load the model.
  if (self.dtype() == DataType::kDouble) return op::Div(self, op::Add(op::Exp(op::Neg(self)), 1.0));
  return op::Mul(self, op::Sigmoid(self));
}

Value aten_elu(Value self, Value alpha, Value scale, Value input_scale) {
  // scale * (x if x > 0 else alpha * (exp(x * input_scale) - 1)).
  const Value negative = op::Mul(op::Sub(op::Exp(op::Mul(self, input_scale)), 1.0), alpha);
  const Value y = op::Where(op::Greater(self, 0.0), self, negative);
  return is_known_scalar(scale, 1.0) ? y : op::Mul(y, scale);
}

Value aten_selu(Value self) {
  // ONNX's Selu defaults are PyTorch's constants, but as float attributes:
  // double computes with the constants at double precision.
  if (self.dtype() == DataType::kDouble) {
    constexpr double alpha = 1.6732632423543772848170429916717;
    constexpr double scale = 1.0507009873554804934193349852946;
    const Value negative = op::Mul(op::Sub(op::Exp(self), 1.0), alpha);
    return op::Mul(op::Where(op::Greater(self, 0.0), self, negative), scale);
  }
  return op::Selu(self);
}

Value aten_celu(Value self, Value alpha) {
  // max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
  const Value negative = op::Mul(op::Sub(op::Exp(op::Div(self, alpha)), 1.0), alpha);
  return op::Add(
      op::Relu(self),
      op::Min(std::vector<Value>{negative, op::CastLike(Value(Tensor::scalar<float>(0)), self)}));
}

Value aten_leaky_relu(Value self, Value negative_slope) {
  return op::Where(op::Greater(self, 0.0), self, op::Mul(self, negative_slope));
}

Value aten_softplus(Value self, Value beta, Value threshold) {
  // log(1 + exp(beta x)) / beta, and x itself where beta x > threshold.
  const Value bx = is_known_scalar(beta, 1.0) ? self : op::Mul(self, beta);
  Value soft = op::Log(op::Add(op::Exp(bx), 1.0));
  if (!is_known_scalar(beta, 1.0)) soft = op::Div(soft, beta);
  return op::Where(op::Greater(bx, threshold), self, soft);
}

Value aten_mish(Value self) { return op::Mish(self); }

Value aten_log_softmax(Value self, int64_t dim, std::optional<int64_t> dtype) {
  if (dtype) self = op::Cast(self, {.to = onnx_dtype(*dtype)});
  if (self.rank() == 0) {
    // One element: log(1) = 0. LogSoftmax needs rank >= 1.
    return op::Squeeze(op::LogSoftmax(op::Unsqueeze(self, int64s({0})), {.axis = 0}));
  }
  return op::LogSoftmax(self, {.axis = dim});
}

Value aten_log_softmax_half(Value self, int64_t dim, bool half_to_float) {
  if (half_to_float && self.dtype() == DataType::kFloat16)
    self = op::Cast(self, {.to = DataType::kFloat});
  return aten_log_softmax(self, dim, std::nullopt);
}

Value aten_relu6(Value self) {
  return op::Clip(self, op::CastLike(Value(Tensor::scalar<float>(0)), self),
                  op::CastLike(Value(Tensor::scalar<float>(6)), self));
}

Value aten_prelu(Value self, Value weight) {
  // PyTorch applies weight's C entries along dimension 1; ONNX's PRelu
  // broadcasts from the trailing dimension, so a [C] weight becomes
  // [C, 1, ..., 1].
  const std::optional<int64_t> rank = self.rank();
  const std::optional<ir::Shape> wshape = weight.shape();
  if (rank && *rank >= 2 && wshape && wshape->size() == 1) {
    std::vector<int64_t> shape(static_cast<size_t>(*rank - 1), 1);
    shape[0] = -1;
    weight = op::Reshape(weight, int64s(shape));
  }
  return op::PRelu(self, weight);
}

Value aten_glu(Value self, int64_t dim) {
  const int64_t rank = require_rank(self, "aten::glu");
  if (rank == 0) throw TypeError("aten::glu: needs a tensor of rank 1 or more");
  const int64_t axis = wrap_dim(dim, rank, "aten::glu");
  if (const std::optional<ir::Shape> shape = self.shape();
      shape && (*shape)[axis].is_static() && (*shape)[axis].value() % 2 != 0) {
    throw TypeError(fmt::format("aten::glu: the size along dimension {} must be even, got {}", dim,
                                (*shape)[axis].value()));
  }
  // The first half times the sigmoid of the second.
  const std::vector<Value> halves = op::Split(self, {.axis = axis, .num_outputs = 2});
  return op::Mul(halves[0], op::Sigmoid(halves[1]));
}

Value aten_threshold(Value self, Value threshold, Value value) {
  if (!value.is_literal()) value = op::CastLike(value, self);
  return op::Where(op::Greater(self, threshold), self, value);
}

Value aten_hardshrink(Value self, Value lambd) {
  const Value zero = op::CastLike(Value(Tensor::scalar<float>(0)), self);
  return op::Where(op::Greater(op::Abs(self), lambd), self, zero);
}

Value aten_softshrink(Value self, Value lambd) {
  // x - lambd above lambd, x + lambd below -lambd, 0 between.
  const Value zero = op::CastLike(Value(Tensor::scalar<float>(0)), self);
  const Value below = op::Where(op::Greater(op::Neg(self), lambd), op::Add(self, lambd), zero);
  return op::Where(op::Greater(self, lambd), op::Sub(self, lambd), below);
}

Value aten_log_sigmoid(Value self) {
  // log(sigmoid(x)) = min(x, 0) - log(1 + exp(-|x|)), which does not overflow.
  const Value zero = op::CastLike(Value(Tensor::scalar<float>(0)), self);
  return op::Sub(op::Min(std::vector<Value>{self, zero}),
                 op::Log(op::Add(op::Exp(op::Neg(op::Abs(self))), 1.0)));
}

Value aten_softmax_half(Value self, int64_t dim, bool half_to_float) {
  if (half_to_float && self.dtype() == DataType::kFloat16)
    self = op::Cast(self, {.to = DataType::kFloat});
  return aten_softmax(self, dim, std::nullopt);
}

Value aten_hardtanh_backward(Value grad_output, Value self, Value min_val, Value max_val) {
  // The gradient passes where min_val < self < max_val, and is 0 elsewhere.
  const Value inside = op::And(op::Greater(self, min_val), op::Less(self, max_val));
  return op::Where(inside, grad_output, op::CastLike(Value(Tensor::scalar<float>(0)), grad_output));
}

void register_more_activations(Registry& r) {
  using detail::overload;
  r.add(overload<aten_silu>("aten::silu(Tensor self) -> Tensor"));
  r.add(overload<aten_silu>("aten::silu_(Tensor(a!) self) -> Tensor(a!)"));
  r.add(overload<aten_elu>(
      "aten::elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor"));
  r.add(overload<aten_elu>(
      "aten::elu_(Tensor(a!) self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> "
      "Tensor(a!)"));
  r.add(overload<aten_selu>("aten::selu(Tensor self) -> Tensor"));
  r.add(overload<aten_selu>("aten::selu_(Tensor(a!) self) -> Tensor(a!)"));
  r.add(overload<aten_celu>("aten::celu(Tensor self, Scalar alpha=1.) -> Tensor"));
  r.add(overload<aten_celu>("aten::celu_(Tensor(a!) self, Scalar alpha=1.) -> Tensor(a!)"));
  r.add(overload<aten_leaky_relu>(
      "aten::leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor"));
  r.add(overload<aten_leaky_relu>(
      "aten::leaky_relu_(Tensor(a!) self, Scalar negative_slope=0.01) -> Tensor(a!)"));
  r.add(overload<aten_softplus>(
      "aten::softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor"));
  r.add(overload<aten_mish>("aten::mish(Tensor self) -> Tensor"));
  r.add(overload<aten_mish>("aten::mish_(Tensor(a!) self) -> Tensor(a!)"));
  r.add(overload<aten_log_softmax>(
      "aten::log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor"));
  r.add(overload<aten_log_softmax>(
      "aten::special_log_softmax(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor"));
  r.add(overload<aten_log_softmax_half>(
      "aten::_log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor"));
  r.add(overload<aten_softmax_half>(
      "aten::_softmax(Tensor self, int dim, bool half_to_float) -> Tensor"));
  r.add(overload<aten_hardtanh_backward>(
      "aten::hardtanh_backward(Tensor grad_output, Tensor self, Scalar min_val, Scalar max_val) "
      "-> Tensor"));
  r.add(overload<aten_relu6>("aten::relu6(Tensor self) -> Tensor"));
  r.add(overload<aten_relu6>("aten::relu6_(Tensor(a!) self) -> Tensor(a!)"));
  r.add(overload<aten_prelu>("aten::prelu(Tensor self, Tensor weight) -> Tensor"));
  r.add(overload<aten_glu>("aten::glu(Tensor self, int dim=-1) -> Tensor"));
  r.add(overload<aten_threshold>(
      "aten::threshold(Tensor self, Scalar threshold, Scalar value) -> Tensor"));
  r.add(overload<aten_threshold>(
      "aten::threshold_(Tensor(a!) self, Scalar threshold, Scalar value) -> Tensor(a!)"));
  r.add(overload<aten_hardshrink>("aten::hardshrink(Tensor self, Scalar lambd=0.5) -> Tensor"));
  r.add(overload<aten_softshrink>("aten::softshrink(Tensor self, Scalar lambd=0.5) -> Tensor"));
  r.add(overload<aten_log_sigmoid>("aten::log_sigmoid(Tensor self) -> Tensor"));
  r.add(overload<aten_hardsigmoid>("aten::hardsigmoid_(Tensor(a!) self) -> Tensor(a!)"));
}

}  // namespace onnxscript::torch_lib
