// Random sampling: rand, randn, rand_like, randn_like, randint (and .low),
// randint_like (and .low_dtype), bernoulli (and .p), normal (four
// overloads), multinomial. The draws are ONNX's random operators', not
// PyTorch's generator's: only the distributions match. Generator arguments
// must be None.

#include <fmt/format.h>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"
#include "lib/torch_lib/promotion.h"

namespace onnxscript::torch_lib {

namespace {

// A float32 tensor of zeros of `size` (1-D int64 at run time): the shape the
// *Like random operators copy.
Value zeros_of_size(const Value& size) {
  return op::ConstantOfShape(op::Cast(size, {.to = DataType::kInt64}),
                             {.value = Tensor::from<float>({0}, {1})});
}

// The float type of a sampled tensor: dtype when it is floating, float32
// otherwise.
DataType float_type(std::optional<int64_t> dtype) {
  if (dtype && is_floating(onnx_dtype(*dtype))) return onnx_dtype(*dtype);
  return DataType::kFloat;
}

// Uniform integers in [low, high) of self's shape, as `type`.
Value uniform_integers(const Value& like, int64_t low, int64_t high, DataType type,
                       std::string_view aten_op) {
  if (high <= low)
    throw TypeError(fmt::format("{}: needs low < high, got {} and {}", aten_op, low, high));
  const Value u = op::RandomUniformLike(like, {.dtype = static_cast<int64_t>(DataType::kDouble),
                                               .high = static_cast<float>(high),
                                               .low = static_cast<float>(low)});
  // floor of a draw in [low, high); min guards the float rounding up to high.
  const Value draw = op::Min(std::vector<Value>{
      op::Floor(u), Value(Tensor::scalar<double>(static_cast<double>(high - 1)))});
  return op::Cast(draw, {.to = type});
}

// The tensor to take a shape from for the *_like samplers.
Value shape_source(const Value& self) { return op::Cast(self, {.to = DataType::kFloat}); }

}  // namespace

Value aten_rand(Value size, std::optional<int64_t> dtype, std::optional<int64_t> /*layout*/,
                std::optional<std::string> /*device*/, std::optional<bool> /*pin_memory*/) {
  return op::RandomUniformLike(zeros_of_size(size),
                               {.dtype = static_cast<int64_t>(float_type(dtype))});
}

Value aten_randn(Value size, std::optional<int64_t> dtype, std::optional<int64_t> /*layout*/,
                 std::optional<std::string> /*device*/, std::optional<bool> /*pin_memory*/) {
  return op::RandomNormalLike(zeros_of_size(size),
                              {.dtype = static_cast<int64_t>(float_type(dtype))});
}

Value aten_rand_like(Value self, std::optional<int64_t> dtype, std::optional<int64_t> /*layout*/,
                     std::optional<std::string> /*device*/, std::optional<bool> /*pin_memory*/,
                     std::optional<std::string> /*memory_format*/) {
  const DataType type = dtype ? onnx_dtype(*dtype) : self.dtype().value_or(DataType::kFloat);
  return op::RandomUniformLike(shape_source(self), {.dtype = static_cast<int64_t>(type)});
}

Value aten_randn_like(Value self, std::optional<int64_t> dtype, std::optional<int64_t> /*layout*/,
                      std::optional<std::string> /*device*/, std::optional<bool> /*pin_memory*/,
                      std::optional<std::string> /*memory_format*/) {
  const DataType type = dtype ? onnx_dtype(*dtype) : self.dtype().value_or(DataType::kFloat);
  return op::RandomNormalLike(shape_source(self), {.dtype = static_cast<int64_t>(type)});
}

Value aten_randint_low(int64_t low, int64_t high, Value size, std::optional<int64_t> dtype,
                       std::optional<int64_t> /*layout*/, std::optional<std::string> /*device*/,
                       std::optional<bool> /*pin_memory*/) {
  const DataType type = dtype ? onnx_dtype(*dtype) : DataType::kInt64;
  return uniform_integers(zeros_of_size(size), low, high, type, "aten::randint");
}

Value aten_randint(int64_t high, Value size, std::optional<int64_t> dtype,
                   std::optional<int64_t> layout, std::optional<std::string> device,
                   std::optional<bool> pin_memory) {
  return aten_randint_low(0, high, size, dtype, layout, device, pin_memory);
}

Value aten_randint_like_low(Value self, int64_t low, int64_t high, std::optional<int64_t> dtype,
                            std::optional<int64_t> /*layout*/,
                            std::optional<std::string> /*device*/,
                            std::optional<bool> /*pin_memory*/,
                            std::optional<std::string> /*memory_format*/) {
  const DataType type = dtype ? onnx_dtype(*dtype) : self.dtype().value_or(DataType::kInt64);
  return uniform_integers(shape_source(self), low, high, type, "aten::randint_like");
}

Value aten_randint_like(Value self, int64_t high, std::optional<int64_t> dtype,
                        std::optional<int64_t> layout, std::optional<std::string> device,
                        std::optional<bool> pin_memory, std::optional<std::string> memory_format) {
  return aten_randint_like_low(self, 0, high, dtype, layout, device, pin_memory, memory_format);
}

namespace {

// 1 where a uniform draw in [0, 1) falls below the probability p, else 0,
// in `like`'s type: 1 with probability p. Not ONNX's Bernoulli, which ONNX
// Runtime 1.30 runs as ONNX's function body, and that body compares the
// other way round (1 with probability 1 - p).
Value draw_below(const Value& p, const Value& like) {
  return op::CastLike(op::Less(op::RandomUniformLike(p), p), like);
}

}  // namespace

Value aten_bernoulli(Value self, std::optional<std::string> /*generator*/) {
  // Draws of 1 with self's probabilities, in self's type.
  return draw_below(floating_or_float32(self), self);
}

Value aten_bernoulli_p(Value self, double p, std::optional<std::string> /*generator*/) {
  if (p < 0 || p > 1)
    throw TypeError(fmt::format("aten::bernoulli.p: p must be in [0, 1], got {}", p));
  const Value probabilities =
      op::ConstantOfShape(op::Shape(self), {.value = Tensor::from<double>({p}, {1})});
  return draw_below(probabilities, self);
}

Value aten_normal_tensor_float(Value mean, double std, std::optional<std::string> /*generator*/) {
  return op::Add(op::Mul(op::RandomNormalLike(mean), std), mean);
}

Value aten_normal_float_tensor(double mean, Value std, std::optional<std::string> /*generator*/) {
  return op::Add(op::Mul(op::RandomNormalLike(std), std), mean);
}

Value aten_normal_tensor_tensor(Value mean, Value std, std::optional<std::string> /*generator*/) {
  // Draws of the broadcast shape of mean and std.
  return op::Add(op::Mul(op::RandomNormalLike(op::Add(mean, std)), std), mean);
}

Value aten_normal_functional(Value self, double mean, double std,
                             std::optional<std::string> /*generator*/) {
  // Draws of self's shape and type (self's values are not used).
  // mean and std in self's type (a literal would pass through float32 first).
  auto constant = [&](double v) {
    return self.dtype() ? scalar_of(*self.dtype(), v) : op::CastLike(Value(v), self);
  };
  return op::Add(op::Mul(op::RandomNormalLike(self), constant(std)), constant(mean));
}

Value aten_normal_float_float(double mean, double std, Value size,
                              std::optional<std::string> /*generator*/,
                              std::optional<int64_t> dtype, std::optional<int64_t> /*layout*/,
                              std::optional<std::string> /*device*/,
                              std::optional<bool> /*pin_memory*/) {
  return op::RandomNormalLike(zeros_of_size(size),
                              {.dtype = static_cast<int64_t>(float_type(dtype)),
                               .mean = static_cast<float>(mean),
                               .scale = static_cast<float>(std)});
}

Value aten_multinomial(Value self, int64_t num_samples, bool replacement,
                       std::optional<std::string> /*generator*/) {
  // ONNX's Multinomial draws with replacement from log-probabilities.
  if (!replacement && num_samples > 1) {
    throw TypeError(
        "aten::multinomial: drawing several samples without replacement has no ONNX "
        "Multinomial equivalent");
  }
  const int64_t rank = require_rank(self, "aten::multinomial");
  if (rank != 1 && rank != 2) throw TypeError("aten::multinomial: needs a 1-D or 2-D tensor");
  const Value rows = rank == 1 ? op::Unsqueeze(self, int64s({0})) : self;
  const Value samples = op::Multinomial(
      op::Log(floating_or_float32(rows)),
      {.dtype = static_cast<int64_t>(DataType::kInt64), .sample_size = num_samples});
  return rank == 1 ? op::Squeeze(samples, int64s({0})) : samples;
}

void register_random(Registry& r) {
  using detail::overload;
  r.add(overload<aten_rand>(
      "aten::rand(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_randn>(
      "aten::randn(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_rand_like>(
      "aten::rand_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"));
  r.add(overload<aten_randn_like>(
      "aten::randn_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"));
  r.add(overload<aten_randint>(
      "aten::randint(int high, int[] size, *, ScalarType? dtype=4, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_randint_low>(
      "aten::randint.low(int low, int high, int[] size, *, ScalarType? dtype=4, Layout? "
      "layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"));
  r.add(overload<aten_randint_like>(
      "aten::randint_like(Tensor self, int high, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"));
  r.add(overload<aten_randint_like_low>(
      "aten::randint_like.low_dtype(Tensor self, int low, int high, *, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? "
      "memory_format=None) -> Tensor"));
  r.add(overload<aten_bernoulli>(
      "aten::bernoulli(Tensor self, *, Generator? generator=None) -> Tensor"));
  r.add(overload<aten_bernoulli_p>(
      "aten::bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor"));
  r.add(overload<aten_normal_tensor_float>(
      "aten::normal.Tensor_float(Tensor mean, float std=1., *, Generator? generator=None) -> "
      "Tensor"));
  r.add(overload<aten_normal_float_tensor>(
      "aten::normal.float_Tensor(float mean, Tensor std, *, Generator? generator=None) -> "
      "Tensor"));
  r.add(overload<aten_normal_tensor_tensor>(
      "aten::normal.Tensor_Tensor(Tensor mean, Tensor std, *, Generator? generator=None) -> "
      "Tensor"));
  r.add(overload<aten_normal_float_float>(
      "aten::normal.float_float(float mean, float std, int[] size, *, Generator? "
      "generator=None, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? "
      "pin_memory=None) -> Tensor"));
  r.add(overload<aten_normal_functional>(
      "aten::normal_functional(Tensor self, float mean=0., float std=1., *, Generator? "
      "generator=None) -> Tensor"));
  r.add(overload<aten_multinomial>(
      "aten::multinomial(Tensor self, int num_samples, bool replacement=False, *, Generator? "
      "generator=None) -> Tensor"));
}

}  // namespace onnxscript::torch_lib
