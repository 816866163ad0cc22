// RandomUniform: a tensor of the `shape` attribute and the `dtype` attribute's
// floating type (float by default) drawn uniformly from [low, high). With a
// `seed` the draw repeats from call to call; without one it does not (see
// random_util.h).
#include <cmath>

#include <fmt/format.h>

#include "random_util.h"

namespace onnxscript::eval {
namespace {

void random_uniform(KernelContext& ctx) {
  const std::vector<int64_t> shape = ctx.required_attribute("shape").as_ints();
  for (int64_t d : shape)
    if (d < 0) ctx.fail(fmt::format("shape has a negative dimension {}", d));
  const DataType dtype = random_output_type(ctx, DataType::kFloat);
  const float low = ctx.attr_float("low", 0.0f);
  const float high = ctx.attr_float("high", 1.0f);
  if (!std::isfinite(low) || !std::isfinite(high) || !(low <= high))
    ctx.fail(fmt::format("low {} and high {} must be finite with low <= high", low, high));
  RandomEngine seeded;
  RandomEngine& engine = random_engine(ctx, seeded);
  std::uniform_real_distribution<double> uniform(low, high);
  ctx.set_output(0, random_float_tensor(
                        ctx, dtype, shape, [&] { return uniform(engine); },
                        std::pair<double, double>(low, high)));
}

}  // namespace

void register_generator_random_uniform(KernelRegistry& registry) {
  registry.add("", "RandomUniform", 1, random_uniform);
}

}  // namespace onnxscript::eval
