// RandomNormal: a tensor of the `shape` attribute and the `dtype` attribute's
// floating type (float by default) drawn from the normal distribution with
// mean `mean` and standard deviation `scale`. With a `seed` the draw repeats
// from call to call; without one it does not (see random_util.h).
#include "random_util.h"

namespace onnxscript::eval {
namespace {

void random_normal(KernelContext& ctx) {
  const DataType dtype = random_output_type(ctx, DataType::kFloat);
  ctx.set_output(0, random_normal_tensor(ctx, dtype, random_shape_attribute(ctx)));
}

}  // namespace

void register_generator_random_normal(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 22}) registry.add("", "RandomNormal", v, random_normal);
}

}  // namespace onnxscript::eval
