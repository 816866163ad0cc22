// RandomUniformLike: a tensor of the input's shape (and, unless `dtype` says
// otherwise, its element type) drawn uniformly from [low, high). With a
// `seed` the draw repeats from call to call; without one it does not (see
// random_util.h).
#include "random_util.h"

namespace onnxscript::eval {
namespace {

void random_uniform_like(KernelContext& ctx) {
  const Tensor& like = ctx.input_tensor(0);
  const DataType dtype = random_output_type(ctx, like.dtype());
  ctx.set_output(0, random_uniform_tensor(ctx, dtype, like.shape()));
}

}  // namespace

void register_generator_random_uniform_like(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 22}) registry.add("", "RandomUniformLike", v, random_uniform_like);
}

}  // namespace onnxscript::eval
