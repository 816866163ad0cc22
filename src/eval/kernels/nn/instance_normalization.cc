// InstanceNormalization: for each (n, c), normalises over the spatial axes:
// Y = scale[c] * (X - mean) / sqrt(var + epsilon) + B[c], var biased.
// v1 and v6 differ only by the dropped consumed_inputs attribute.
#include <cmath>

#include <fmt/format.h>

#include "nn_util.h"

namespace onnxscript::eval {
namespace {

void instance_normalization(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  if (x.rank() < 2) ctx.fail(fmt::format("input must have rank >= 2, not {}", x.rank()));
  const int64_t n = x.shape()[0], c = x.shape()[1];
  const int64_t spatial = shape_product(x.shape(), 2, x.rank());
  const std::vector<double> scale = float_values(ctx, ctx.input_tensor(1));
  const std::vector<double> bias = float_values(ctx, ctx.input_tensor(2));
  if (static_cast<int64_t>(scale.size()) != c || static_cast<int64_t>(bias.size()) != c)
    ctx.fail(fmt::format("scale and B must have {} elements", c));
  const double eps = ctx.attr_float("epsilon", 1e-5f);
  std::vector<double> xv = float_values(ctx, x);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t ci = 0; ci < c; ++ci) {
      double* p = xv.data() + (b * c + ci) * spatial;
      double mean = 0, var = 0;
      for (int64_t s = 0; s < spatial; ++s) mean += p[s];
      mean /= static_cast<double>(spatial);
      for (int64_t s = 0; s < spatial; ++s) var += (p[s] - mean) * (p[s] - mean);
      var /= static_cast<double>(spatial);
      const double k = scale[ci] / std::sqrt(var + eps);
      for (int64_t s = 0; s < spatial; ++s) p[s] = (p[s] - mean) * k + bias[ci];
    }
  ctx.set_output(0, float_tensor(ctx, x.dtype(), x.shape(), xv));
}

}  // namespace

void register_nn_instance_normalization(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 6, 22}) registry.add("", "InstanceNormalization", v, instance_normalization);
}

}  // namespace onnxscript::eval
