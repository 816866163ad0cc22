#pragma once
// The random engine shared by the generator kernels (RandomUniform,
// RandomNormal, their *Like forms, Bernoulli, Multinomial), and the float
// tensor fill and normal draw they have in common.
//
// With a `seed` attribute a call gets a fresh engine seeded from the seed's
// bits, so the same seed gives the same output on every call (ONNX Runtime
// instead continues one seeded stream per node from run to run; a kernel here
// has no per-node state). Without a seed the calls draw from one stream per
// thread, which goes on from call to call (so repeated calls differ) but
// starts at the same point in every thread: a whole run can be repeated, and
// tests that compare against draws made elsewhere (ONNX's bernoulli cases,
// numpy's stream) fail the same way each time instead of passing by chance.
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "eval/util/dispatch.h"
#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval {

/// The engine type of every generator kernel.
using RandomEngine = std::mt19937_64;

/// The engine for one call: `seeded` reseeded from the `seed` attribute when
/// there is one, otherwise the thread's running stream.
inline RandomEngine& random_engine(const KernelContext& ctx, RandomEngine& seeded) {
  thread_local RandomEngine unseeded{0x5eed};
  const ir::Attribute* seed = ctx.attribute("seed");
  if (!seed) return unseeded;
  // The seed is a float; its bits (not its truncation) pick the stream, so
  // seeds 0.25 and 0.75 differ.
  seeded.seed(std::bit_cast<uint32_t>(seed->as_float()));
  return seeded;
}

/// The output element type: the `dtype` attribute, or `fallback` without one.
inline DataType random_output_type(const KernelContext& ctx, DataType fallback) {
  return static_cast<DataType>(ctx.attr_int("dtype", static_cast<int64_t>(fallback)));
}

/// A tensor of `dtype` (a floating type) and `shape` whose elements are
/// successive results of `draw()` (a double), rounded to the element type.
/// With `low_high` = (low, high), an element that rounds up to high or beyond
/// is drawn again (64 times at most; then it becomes the rounded low), which
/// keeps uniform draws inside [low, high) for float16 and float too.
template <typename Draw>
Tensor random_float_tensor(const KernelContext& ctx, DataType dtype, ir::Dims shape, Draw&& draw,
                           std::optional<std::pair<double, double>> low_high = {}) {
  Tensor out(dtype, std::move(shape));
  dispatch<kFloatTypes>(dtype, ctx, [&]<typename T>() {
    auto round = [](double v) {
      if constexpr (std::is_same_v<T, double>)
        return v;
      else
        return static_cast<T>(static_cast<float>(v));
    };
    T* data = out.data<T>();
    for (int64_t i = 0; i < out.numel(); ++i) {
      T v = round(draw());
      if (low_high && low_high->first < low_high->second) {
        using Wide = std::conditional_t<std::is_same_v<T, double>, double, float>;
        for (int tries = 0; static_cast<Wide>(v) >= low_high->second && tries <= 64; ++tries)
          v = tries < 64 ? round(draw()) : round(low_high->first);
      }
      data[i] = v;
    }
  });
  return out;
}

/// A tensor of `dtype` and `shape` drawn from N(mean, scale^2), from the
/// node's `mean` and `scale` attributes (RandomNormal, RandomNormalLike).
/// scale 0 gives `mean` everywhere (std::normal_distribution needs a positive
/// deviation); a negative or non-finite scale, or a non-finite mean, is an error.
inline Tensor random_normal_tensor(const KernelContext& ctx, DataType dtype, ir::Dims shape) {
  const float mean = ctx.attr_float("mean", 0.0f);
  const float scale = ctx.attr_float("scale", 1.0f);
  if (!std::isfinite(mean) || !std::isfinite(scale) || scale < 0)
    ctx.fail(fmt::format("mean {} must be finite and scale {} finite and >= 0", mean, scale));
  RandomEngine seeded;
  RandomEngine& engine = random_engine(ctx, seeded);
  if (scale == 0) return random_float_tensor(ctx, dtype, std::move(shape), [&] { return mean; });
  std::normal_distribution<double> normal(mean, scale);
  return random_float_tensor(ctx, dtype, std::move(shape), [&] { return normal(engine); });
}

/// A tensor of `dtype` and `shape` drawn uniformly from [low, high), from the
/// node's `low` and `high` attributes (RandomUniform, RandomUniformLike);
/// non-finite bounds or low > high are an error.
inline Tensor random_uniform_tensor(const KernelContext& ctx, DataType dtype, ir::Dims shape) {
  const float low = ctx.attr_float("low", 0.0f);
  const float high = ctx.attr_float("high", 1.0f);
  if (!std::isfinite(low) || !std::isfinite(high) || !(low <= high))
    ctx.fail(fmt::format("low {} and high {} must be finite with low <= high", low, high));
  RandomEngine seeded;
  RandomEngine& engine = random_engine(ctx, seeded);
  std::uniform_real_distribution<double> uniform(low, high);
  return random_float_tensor(
      ctx, dtype, std::move(shape), [&] { return uniform(engine); },
      std::pair<double, double>(low, high));
}

/// The `shape` attribute of RandomUniform and RandomNormal; a negative
/// dimension is an error.
inline std::vector<int64_t> random_shape_attribute(const KernelContext& ctx) {
  std::vector<int64_t> shape = ctx.required_attribute("shape").as_ints();
  for (int64_t d : shape)
    if (d < 0) ctx.fail(fmt::format("shape has a negative dimension {}", d));
  return shape;
}

}  // namespace onnxscript::eval
