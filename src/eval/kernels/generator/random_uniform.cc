// RandomUniform: a tensor of the `shape` attribute and the `dtype` attribute's
// floating type (float by default) drawn uniformly from [low, high). With a
// `seed` the draw repeats from call to call; without one it does not (see
// random_util.h).
#include "random_util.h"

namespace onnxscript::eval {
namespace {

void random_uniform(KernelContext& ctx) {
  const DataType dtype = random_output_type(ctx, DataType::kFloat);
  ctx.set_output(0, random_uniform_tensor(ctx, dtype, random_shape_attribute(ctx)));
}

}  // namespace

void register_generator_random_uniform(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 22}) registry.add("", "RandomUniform", v, random_uniform);
}

}  // namespace onnxscript::eval
