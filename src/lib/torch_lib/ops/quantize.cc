// Fake quantization: fake_quantize_per_tensor_affine (scale and zero point as
// numbers or as tensors) and fake_quantize_per_channel_affine.
//
// PyTorch computes (clamp(nearbyint(x * (1 / scale)) + zero_point, quant_min,
// quant_max) - zero_point) * scale, with the scale and 1 / scale in float32. It is written here as
// that arithmetic rather than as QuantizeLinear + DequantizeLinear: QuantizeLinear divides by the
// scale (x / scale rounds differently from x * (1 / scale) at the halves) and saturates to its
// 8-bit type, not to an arbitrary [quant_min, quant_max].

#include <fmt/format.h>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"
#include "lib/torch_lib/promotion.h"

namespace onnxscript::torch_lib {

namespace {

// Checks the quantized range; throws a TypeError naming the operator.
void check_range(int64_t quant_min, int64_t quant_max, std::string_view aten_op) {
  if (quant_min > quant_max) {
    throw TypeError(fmt::format("{}: quant_min ({}) must not be greater than quant_max ({})",
                                aten_op, quant_min, quant_max));
  }
}

// The floating type of `self`, or a TypeError naming the operator.
DataType floating_type(const Value& self, std::string_view aten_op) {
  const std::optional<DataType> t = self.dtype();
  if (!t || (*t != DataType::kFloat && *t != DataType::kDouble && *t != DataType::kFloat16)) {
    throw TypeError(fmt::format("{}: takes a float, double or float16 tensor, got {}", aten_op,
                                self.describe()));
  }
  return *t;
}

// The fake quantization of `self` by float32 `scale` and `zero_point`
// (float32, broadcasting against self). `zero_point_first` adds the zero
// point before rounding, as PyTorch does for a floating per-channel zero
// point.
Value fake_quantize(const Value& self, DataType type, const Value& scale, const Value& zero_point,
                    int64_t quant_min, int64_t quant_max, bool zero_point_first) {
  // x * (1 / scale) in float32, or in double for a double self (float16
  // computes as float32, as c10::Half arithmetic does).
  const DataType compute = type == DataType::kDouble ? DataType::kDouble : DataType::kFloat;
  const Value inv_scale = op::Div(scalar_of(DataType::kFloat, 1), scale);
  const Value x = op::Cast(self, {.to = compute});
  const Value product = op::Mul(x, op::Cast(inv_scale, {.to = compute}));
  const Value zp = op::Cast(zero_point, {.to = compute});
  const Value q =
      zero_point_first ? op::Round(op::Add(product, zp)) : op::Add(op::Round(product), zp);
  const Value clamped = op::Clip(q, scalar_of(compute, static_cast<double>(quant_min)),
                                 scalar_of(compute, static_cast<double>(quant_max)));
  // (q - zero_point) * scale: a small integer times a float32, exact in
  // double and rounded once in float32, as PyTorch's double arithmetic
  // rounds it once into self's type.
  const Value result = op::Mul(op::Sub(clamped, zp), op::Cast(scale, {.to = compute}));
  return op::Cast(result, {.to = type});
}

}  // namespace

Value aten_fake_quantize_per_tensor_affine(Value self, double scale, int64_t zero_point,
                                           int64_t quant_min, int64_t quant_max) {
  constexpr const char* kOp = "aten::fake_quantize_per_tensor_affine";
  check_range(quant_min, quant_max, kOp);
  if (zero_point < quant_min || zero_point > quant_max) {
    throw TypeError(fmt::format("{}: zero_point ({}) must lie in [quant_min, quant_max] = [{}, {}]",
                                kOp, zero_point, quant_min, quant_max));
  }
  const DataType type = floating_type(self, kOp);
  return fake_quantize(self, type, scalar_of(DataType::kFloat, scale),
                       scalar_of(DataType::kFloat, static_cast<double>(zero_point)), quant_min,
                       quant_max, false);
}

Value aten_fake_quantize_per_tensor_affine_tensor(Value self, Value scale, Value zero_point,
                                                  int64_t quant_min, int64_t quant_max) {
  constexpr const char* kOp = "aten::fake_quantize_per_tensor_affine.tensor_qparams";
  check_range(quant_min, quant_max, kOp);
  const DataType type = floating_type(self, kOp);
  // One-element tensors: their first element, as a scalar.
  auto first = [](const Value& v) {
    return op::Reshape(op::Slice(op::Reshape(v, int64s({-1})), int64s({0}), int64s({1})),
                       int64s({}));
  };
  return fake_quantize(self, type, op::Cast(first(scale), {.to = DataType::kFloat}),
                       op::Cast(first(zero_point), {.to = DataType::kFloat}), quant_min, quant_max,
                       false);
}

Value aten_fake_quantize_per_channel_affine(Value self, Value scale, Value zero_point, int64_t axis,
                                            int64_t quant_min, int64_t quant_max) {
  constexpr const char* kOp = "aten::fake_quantize_per_channel_affine";
  check_range(quant_min, quant_max, kOp);
  const DataType type = floating_type(self, kOp);
  const int64_t rank = require_rank(self, kOp);
  const int64_t channel_axis = wrap_dim(axis, std::max<int64_t>(rank, 1), kOp);
  // scale and zero_point hold one value per channel: shaped [C, 1, ...] to
  // broadcast along the axis.
  std::vector<int64_t> shape(static_cast<size_t>(rank - channel_axis), 1);
  shape[0] = -1;
  auto per_channel = [&](const Value& v) { return op::Reshape(v, int64s(shape)); };
  const std::optional<DataType> zp_type = zero_point.dtype();
  const bool floating_zero_point = zp_type && is_floating(*zp_type);
  return fake_quantize(self, type, per_channel(op::Cast(scale, {.to = DataType::kFloat})),
                       per_channel(op::Cast(zero_point, {.to = DataType::kFloat})), quant_min,
                       quant_max, floating_zero_point);
}

void register_quantize(Registry& r) {
  using detail::overload;
  r.add(overload<aten_fake_quantize_per_tensor_affine>(
      "aten::fake_quantize_per_tensor_affine(Tensor self, float scale, int zero_point, int "
      "quant_min, int quant_max) -> Tensor"));
  r.add(overload<aten_fake_quantize_per_tensor_affine_tensor>(
      "aten::fake_quantize_per_tensor_affine.tensor_qparams(Tensor self, Tensor scale, Tensor "
      "zero_point, int quant_min, int quant_max) -> Tensor"));
  r.add(overload<aten_fake_quantize_per_channel_affine>(
      "aten::fake_quantize_per_channel_affine(Tensor self, Tensor scale, Tensor zero_point, int "
      "axis, int quant_min, int quant_max) -> Tensor"));
}

}  // namespace onnxscript::torch_lib
