// RandomUniformLike: a tensor of the input's shape (and, unless `dtype` says
// otherwise, its element type) drawn uniformly from [low, high). With a
// `seed` the draw repeats from call to call; without one it does not (see
// random_util.h).
#include <cmath>

#include <fmt/format.h>

#include "random_util.h"

namespace onnxscript::eval {
namespace {

void random_uniform_like(KernelContext& ctx) {
  const Tensor& like = ctx.input_tensor(0);
  const DataType dtype = random_output_type(ctx, like.dtype());
  const float low = ctx.attr_float("low", 0.0f);
  const float high = ctx.attr_float("high", 1.0f);
  if (!std::isfinite(low) || !std::isfinite(high) || !(low <= high))
    ctx.fail(fmt::format("low {} and high {} must be finite with low <= high", low, high));
  RandomEngine seeded;
  RandomEngine& engine = random_engine(ctx, seeded);
  std::uniform_real_distribution<double> uniform(low, high);
  ctx.set_output(0, random_float_tensor(
                        ctx, dtype, like.shape(), [&] { return uniform(engine); },
                        std::pair<double, double>(low, high)));
}

}  // namespace

void register_generator_random_uniform_like(KernelRegistry& registry) {
  registry.add("", "RandomUniformLike", 1, random_uniform_like);
}

}  // namespace onnxscript::eval
