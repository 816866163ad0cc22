// RandomNormal: a tensor of the `shape` attribute and the `dtype` attribute's
// floating type (float by default) drawn from the normal distribution with
// mean `mean` and standard deviation `scale`. With a `seed` the draw repeats
// from call to call; without one it does not (see random_util.h).
#include "random_util.h"

namespace onnxscript::eval {
namespace {

void random_normal(KernelContext& ctx) {
  const std::vector<int64_t> shape = ctx.required_attribute("shape").as_ints();
  for (int64_t d : shape)
    if (d < 0) ctx.fail(fmt::format("shape has a negative dimension {}", d));
  ctx.set_output(0, random_normal_tensor(ctx, random_output_type(ctx, DataType::kFloat), shape));
}

}  // namespace

void register_generator_random_normal(KernelRegistry& registry) {
  registry.add("", "RandomNormal", 1, random_normal);
}

}  // namespace onnxscript::eval
