// Tensor factories and fills: ones, full, empty (zeros), the *_like and new_*
// factories, scalar_tensor, tensor.float / .int / .bool, arange, linspace,
// empty_strided, the hann / hamming / blackman windows, and fill.

#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"
#include "lib/torch_lib/promotion.h"

namespace onnxscript::torch_lib {

namespace {

// A one-element tensor holding `v` of `type`, shaped for ConstantOfShape.
Tensor fill_tensor(DataType type, double v) { return scalar_of(type, v).tensor().reshaped({1}); }

// The element type PyTorch gives a factory: dtype when given, else the
// fallback.
DataType factory_type(std::optional<int64_t> dtype, DataType fallback) {
  return dtype ? onnx_dtype(*dtype) : fallback;
}

// The type of a literal fill value on its own (torch.full infers it).
DataType fill_type(const Value& fill) {
  switch (fill.kind()) {
    case Value::Kind::kBoolLiteral:
      return DataType::kBool;
    case Value::Kind::kIntLiteral:
      return DataType::kInt64;
    case Value::Kind::kFloatLiteral:
      return DataType::kFloat;
    default:
      return fill.dtype().value_or(DataType::kFloat);
  }
}

// A tensor of `shape` (a 1-D int64 value) filled with `fill` as `type`.
Value filled(const Value& shape, const Value& fill, DataType type) {
  const Value sizes = op::Cast(shape, {.to = DataType::kInt64});
  if (fill.is_literal())
    return op::ConstantOfShape(sizes, {.value = fill_tensor(type, fill.literal_as_double())});
  return op::Expand(op::Cast(fill, {.to = type}), sizes);
}

// A tensor of self's shape filled with `x`, of `dtype` or self's type.
Value filled_like(const Value& self, double x, std::optional<int64_t> dtype) {
  const std::optional<DataType> type = dtype ? std::optional(onnx_dtype(*dtype)) : self.dtype();
  if (type) return op::ConstantOfShape(op::Shape(self), {.value = fill_tensor(*type, x)});
  // self's type is known only at run time: a CastLike of the fill.
  return op::Expand(op::CastLike(Value(Tensor::scalar<double>(x)), self), op::Shape(self));
}

}  // namespace

Value aten_ones(Value size, std::optional<int64_t> dtype, std::optional<int64_t> /*layout*/,
                std::optional<std::string> /*device*/, std::optional<bool> /*pin_memory*/) {
  return filled(size, Value(1.0), factory_type(dtype, DataType::kFloat));
}

Value aten_full(Value size, Value fill_value, std::optional<int64_t> dtype,
                std::optional<int64_t> /*layout*/, std::optional<std::string> /*device*/,
                std::optional<bool> /*pin_memory*/) {
  return filled(size, fill_value, factory_type(dtype, fill_type(fill_value)));
}

Value aten_empty(Value size, std::optional<int64_t> dtype, std::optional<int64_t> /*layout*/,
                 std::optional<std::string> /*device*/, std::optional<bool> /*pin_memory*/,
                 std::optional<std::string> /*memory_format*/) {
  // Uninitialised memory has no ONNX meaning: zeros.
  return filled(size, Value(0.0), factory_type(dtype, DataType::kFloat));
}

Value aten_zeros_like(Value self, std::optional<int64_t> dtype, std::optional<int64_t> /*layout*/,
                      std::optional<std::string> /*device*/, std::optional<bool> /*pin_memory*/,
                      std::optional<std::string> /*memory_format*/) {
  return filled_like(self, 0, dtype);
}

Value aten_ones_like(Value self, std::optional<int64_t> dtype, std::optional<int64_t> /*layout*/,
                     std::optional<std::string> /*device*/, std::optional<bool> /*pin_memory*/,
                     std::optional<std::string> /*memory_format*/) {
  return filled_like(self, 1, dtype);
}

Value aten_full_like(Value self, Value fill_value, std::optional<int64_t> dtype,
                     std::optional<int64_t> /*layout*/, std::optional<std::string> /*device*/,
                     std::optional<bool> /*pin_memory*/,
                     std::optional<std::string> /*memory_format*/) {
  if (fill_value.is_literal()) return filled_like(self, fill_value.literal_as_double(), dtype);
  const Value fill =
      dtype ? op::Cast(fill_value, {.to = onnx_dtype(*dtype)}) : op::CastLike(fill_value, self);
  return op::Expand(fill, op::Shape(self));
}

namespace {

// The type of the new_* factories: dtype, or self's.
DataType new_type(const Value& self, std::optional<int64_t> dtype, std::string_view aten_op) {
  if (dtype) return onnx_dtype(*dtype);
  if (const std::optional<DataType> t = self.dtype()) return *t;
  throw TypeError(fmt::format("{}: the element type of {} must be known while exporting", aten_op,
                              self.describe()));
}

}  // namespace

Value aten_new_zeros(Value self, Value size, std::optional<int64_t> dtype,
                     std::optional<int64_t> /*layout*/, std::optional<std::string> /*device*/,
                     std::optional<bool> /*pin_memory*/) {
  return filled(size, Value(0.0), new_type(self, dtype, "aten::new_zeros"));
}

Value aten_new_ones(Value self, Value size, std::optional<int64_t> dtype,
                    std::optional<int64_t> /*layout*/, std::optional<std::string> /*device*/,
                    std::optional<bool> /*pin_memory*/) {
  return filled(size, Value(1.0), new_type(self, dtype, "aten::new_ones"));
}

Value aten_new_full(Value self, Value size, Value fill_value, std::optional<int64_t> dtype,
                    std::optional<int64_t> /*layout*/, std::optional<std::string> /*device*/,
                    std::optional<bool> /*pin_memory*/) {
  return filled(size, fill_value, new_type(self, dtype, "aten::new_full"));
}

Value aten_scalar_tensor(Value s, std::optional<int64_t> dtype, std::optional<int64_t> /*layout*/,
                         std::optional<std::string> /*device*/,
                         std::optional<bool> /*pin_memory*/) {
  const DataType type = factory_type(dtype, DataType::kFloat);
  if (s.is_literal()) return scalar_of(type, s.literal_as_double());
  return op::Cast(op::Reshape(s, int64s({})), {.to = type});
}

Value aten_arange_start_step(Value start, Value end, Value step, std::optional<int64_t> dtype,
                             std::optional<int64_t> /*layout*/,
                             std::optional<std::string> /*device*/,
                             std::optional<bool> /*pin_memory*/) {
  // The type: dtype, else float32 when a bound is a float, else int64.
  bool any_float = false;
  for (const Value* v : {&start, &end, &step}) {
    if (v->kind() == Value::Kind::kFloatLiteral || (v->dtype() && is_floating(*v->dtype())))
      any_float = true;
  }
  const DataType type = factory_type(dtype, any_float ? DataType::kFloat : DataType::kInt64);
  // Integer results of float bounds: the float range, cast (PyTorch counts
  // the elements in floating point).
  // Range has no float16: float16 results come from a float range.
  const bool via_double = any_float && !is_floating(type);
  const bool via_float = type == DataType::kFloat16 || type == DataType::kBfloat16;
  const DataType compute = via_double ? DataType::kDouble : via_float ? DataType::kFloat : type;
  auto bound = [&](const Value& v) {
    if (v.is_literal()) return scalar_of(compute, v.literal_as_double());
    return op::Cast(op::Reshape(v, int64s({})), {.to = compute});
  };
  const Value range = op::Range(bound(start), bound(end), bound(step));
  return via_double || via_float ? op::Cast(range, {.to = type}) : range;
}

Value aten_arange_start(Value start, Value end, std::optional<int64_t> dtype,
                        std::optional<int64_t> layout, std::optional<std::string> device,
                        std::optional<bool> pin_memory) {
  return aten_arange_start_step(start, end, Value(int64_t{1}), dtype, layout, device, pin_memory);
}

Value aten_arange(Value end, std::optional<int64_t> dtype, std::optional<int64_t> layout,
                  std::optional<std::string> device, std::optional<bool> pin_memory) {
  return aten_arange_start_step(Value(int64_t{0}), end, Value(int64_t{1}), dtype, layout, device,
                                pin_memory);
}

Value aten_fill(Value self, Value value) {
  if (value.is_literal()) return filled_like(self, value.literal_as_double(), std::nullopt);
  return op::Expand(op::CastLike(op::Reshape(value, int64s({})), self), op::Shape(self));
}

Value aten_linspace(Value start, Value end, int64_t steps, std::optional<int64_t> dtype,
                    std::optional<int64_t> /*layout*/, std::optional<std::string> /*device*/,
                    std::optional<bool> /*pin_memory*/) {
  if (steps < 0) throw TypeError(fmt::format("aten::linspace: steps must be >= 0, got {}", steps));
  const DataType type = factory_type(dtype, DataType::kFloat);
  auto as_double = [](const Value& v) {
    if (v.is_literal()) return scalar_of(DataType::kDouble, v.literal_as_double());
    return op::Cast(op::Reshape(v, int64s({})), {.to = DataType::kDouble});
  };
  // start + i * (end - start) / (steps - 1), computed in double.
  const Value a = as_double(start), b = as_double(end);
  const Value i = op::Range(scalar_of(DataType::kDouble, 0),
                            scalar_of(DataType::kDouble, static_cast<double>(steps)),
                            scalar_of(DataType::kDouble, 1));
  const Value delta = steps > 1 ? op::Div(op::Sub(b, a), static_cast<double>(steps - 1))
                                : scalar_of(DataType::kDouble, 0);
  return op::Cast(op::Add(a, op::Mul(i, delta)), {.to = type});
}

Value aten_tensor(Value t, std::optional<int64_t> dtype, std::optional<std::string> /*device*/,
                  bool /*requires_grad*/) {
  // torch.tensor of a Python number: float32, int64 or bool by its kind.
  const DataType type = factory_type(dtype, fill_type(t));
  if (t.is_literal()) return scalar_of(type, t.literal_as_double());
  return op::Cast(op::Reshape(t, int64s({})), {.to = type});
}

Value aten_empty_strided(Value size, std::vector<int64_t> /*stride*/, std::optional<int64_t> dtype,
                         std::optional<int64_t> layout, std::optional<std::string> device,
                         std::optional<bool> pin_memory) {
  // Strides describe memory, which ONNX has no notion of: zeros of size.
  return aten_empty(size, dtype, layout, device, pin_memory, std::nullopt);
}

Value aten_new_empty_strided(Value self, Value size, std::vector<int64_t> /*stride*/,
                             std::optional<int64_t> dtype, std::optional<int64_t> layout,
                             std::optional<std::string> device, std::optional<bool> pin_memory) {
  return aten_new_zeros(self, size, dtype, layout, device, pin_memory);
}

namespace {

// A generalized cosine window a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N),
// N the length (periodic) or the length - 1 (symmetric): a constant, since
// the length is known while exporting.
Value cosine_window(int64_t length, bool periodic, double a0, double a1, double a2,
                    std::optional<int64_t> dtype, std::string_view aten_op) {
  if (length < 0)
    throw TypeError(fmt::format("{}: window_length must be >= 0, got {}", aten_op, length));
  std::vector<double> w;
  if (length == 1) w.push_back(1.0);
  const double n_total = static_cast<double>(periodic ? length : length - 1);
  for (int64_t n = 0; length > 1 && n < length; ++n) {
    const double phase = 2.0 * std::numbers::pi * static_cast<double>(n) / n_total;
    w.push_back(a0 - a1 * std::cos(phase) + a2 * std::cos(2.0 * phase));
  }
  const Value window(Tensor::from_span<double>(w, {length}));
  return op::Cast(window, {.to = factory_type(dtype, DataType::kFloat)});
}

}  // namespace

Value aten_hann_window(int64_t window_length, bool periodic, std::optional<int64_t> dtype,
                       std::optional<int64_t> /*layout*/, std::optional<std::string> /*device*/,
                       std::optional<bool> /*pin_memory*/) {
  return cosine_window(window_length, periodic, 0.5, 0.5, 0, dtype, "aten::hann_window");
}

Value aten_hamming_window(int64_t window_length, bool periodic, double alpha, double beta,
                          std::optional<int64_t> dtype, std::optional<int64_t> /*layout*/,
                          std::optional<std::string> /*device*/,
                          std::optional<bool> /*pin_memory*/) {
  return cosine_window(window_length, periodic, alpha, beta, 0, dtype, "aten::hamming_window");
}

Value aten_blackman_window(int64_t window_length, bool periodic, std::optional<int64_t> dtype,
                           std::optional<int64_t> /*layout*/, std::optional<std::string> /*device*/,
                           std::optional<bool> /*pin_memory*/) {
  return cosine_window(window_length, periodic, 0.42, 0.5, 0.08, dtype, "aten::blackman_window");
}

// The window overloads without periodic (True) or alpha / beta (0.54, 0.46).
Value aten_hann_window_default(int64_t window_length, std::optional<int64_t> dtype,
                               std::optional<int64_t> layout, std::optional<std::string> device,
                               std::optional<bool> pin_memory) {
  return aten_hann_window(window_length, true, dtype, layout, device, pin_memory);
}
Value aten_hamming_window_default(int64_t window_length, std::optional<int64_t> dtype,
                                  std::optional<int64_t> layout, std::optional<std::string> device,
                                  std::optional<bool> pin_memory) {
  return aten_hamming_window(window_length, true, 0.54, 0.46, dtype, layout, device, pin_memory);
}
Value aten_hamming_window_periodic(int64_t window_length, bool periodic,
                                   std::optional<int64_t> dtype, std::optional<int64_t> layout,
                                   std::optional<std::string> device,
                                   std::optional<bool> pin_memory) {
  return aten_hamming_window(window_length, periodic, 0.54, 0.46, dtype, layout, device,
                             pin_memory);
}
Value aten_hamming_window_alpha(int64_t window_length, bool periodic, double alpha,
                                std::optional<int64_t> dtype, std::optional<int64_t> layout,
                                std::optional<std::string> device, std::optional<bool> pin_memory) {
  return aten_hamming_window(window_length, periodic, alpha, 0.46, dtype, layout, device,
                             pin_memory);
}
Value aten_blackman_window_default(int64_t window_length, std::optional<int64_t> dtype,
                                   std::optional<int64_t> layout, std::optional<std::string> device,
                                   std::optional<bool> pin_memory) {
  return aten_blackman_window(window_length, true, dtype, layout, device, pin_memory);
}

void register_factories(Registry& r) {
  using detail::overload;
  r.add(overload<aten_ones>(
      "aten::ones(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_full>(
      "aten::full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? "
      "layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_empty>(
      "aten::empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"));
  r.add(overload<aten_zeros_like>(
      "aten::zeros_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"));
  r.add(overload<aten_zeros_like>(
      "aten::empty_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"));
  r.add(overload<aten_ones_like>(
      "aten::ones_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"));
  r.add(overload<aten_full_like>(
      "aten::full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, Layout? "
      "layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? "
      "memory_format=None) -> Tensor"));
  r.add(overload<aten_new_zeros>(
      "aten::new_zeros(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? "
      "layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_new_zeros>(
      "aten::new_empty(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? "
      "layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_new_ones>(
      "aten::new_ones(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? "
      "layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_new_full>(
      "aten::new_full(Tensor self, SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_scalar_tensor>(
      "aten::scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_arange>(
      "aten::arange(Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_arange_start>(
      "aten::arange.start(Scalar start, Scalar end, *, ScalarType? dtype=None, Layout? "
      "layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_arange_start_step>(
      "aten::arange.start_step(Scalar start, Scalar end, Scalar step=1, *, ScalarType? "
      "dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_fill>("aten::fill.Scalar(Tensor self, Scalar value) -> Tensor"));
  r.add(overload<aten_fill>("aten::fill.Tensor(Tensor self, Tensor value) -> Tensor"));
  r.add(overload<aten_fill>("aten::fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)"));
  r.add(overload<aten_fill>("aten::fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)"));
  r.add(overload<aten_linspace>(
      "aten::linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None, Layout? "
      "layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_tensor>(
      "aten::tensor.float(float t, *, ScalarType? dtype=None, Device? device=None, bool "
      "requires_grad=False) -> Tensor"));
  r.add(overload<aten_tensor>(
      "aten::tensor.int(int t, *, ScalarType? dtype=None, Device? device=None, bool "
      "requires_grad=False) -> Tensor"));
  r.add(overload<aten_tensor>(
      "aten::tensor.bool(bool t, *, ScalarType? dtype=None, Device? device=None, bool "
      "requires_grad=False) -> Tensor"));
  r.add(overload<aten_empty_strided>(
      "aten::empty_strided(SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? "
      "layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_new_empty_strided>(
      "aten::new_empty_strided(Tensor self, SymInt[] size, SymInt[] stride, *, ScalarType? "
      "dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_hann_window_default>(
      "aten::hann_window(int window_length, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_hann_window>(
      "aten::hann_window.periodic(int window_length, bool periodic, *, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_hamming_window_default>(
      "aten::hamming_window(int window_length, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_hamming_window_periodic>(
      "aten::hamming_window.periodic(int window_length, bool periodic, *, ScalarType? "
      "dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_hamming_window_alpha>(
      "aten::hamming_window.periodic_alpha(int window_length, bool periodic, float alpha, *, "
      "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) "
      "-> Tensor"));
  r.add(overload<aten_hamming_window>(
      "aten::hamming_window.periodic_alpha_beta(int window_length, bool periodic, float alpha, "
      "float beta, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? "
      "pin_memory=None) -> Tensor"));
  r.add(overload<aten_blackman_window_default>(
      "aten::blackman_window(int window_length, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_blackman_window>(
      "aten::blackman_window.periodic(int window_length, bool periodic, *, ScalarType? "
      "dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"));
}

}  // namespace onnxscript::torch_lib
