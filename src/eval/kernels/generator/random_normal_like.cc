// RandomNormalLike: a tensor of the input's shape (and, unless `dtype` says
// otherwise, its element type, which must then be floating) drawn from the
// normal distribution with mean `mean` and standard deviation `scale`. The
// input's values are not read. With a `seed` the draw repeats from call to
// call; without one it does not (see random_util.h).
#include "random_util.h"

namespace onnxscript::eval {
namespace {

void random_normal_like(KernelContext& ctx) {
  const Tensor& like = ctx.input_tensor(0);
  const DataType dtype = random_output_type(ctx, like.dtype());
  ctx.set_output(0, random_normal_tensor(ctx, dtype, like.shape()));
}

}  // namespace

void register_generator_random_normal_like(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 22}) registry.add("", "RandomNormalLike", v, random_normal_like);
}

}  // namespace onnxscript::eval
