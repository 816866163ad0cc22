// LRN: local response normalisation across channels:
// Y = X / (bias + alpha / size * sum of X^2 over channels
//          [c - floor((size-1)/2), c + ceil((size-1)/2)])^beta.
// v13 adds bfloat16.
#include <cmath>

#include <fmt/format.h>

#include "nn_util.h"

namespace onnxscript::eval {
namespace {

void lrn(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  if (x.rank() < 3) ctx.fail(fmt::format("X must have rank >= 3, not {}", x.rank()));
  const int64_t size = ctx.required_attribute("size").as_int();
  if (size <= 0) ctx.fail("size must be positive");
  const double alpha = ctx.attr_float("alpha", 1e-4f), beta = ctx.attr_float("beta", 0.75f);
  const double bias = ctx.attr_float("bias", 1.0f);
  const int64_t n = x.shape()[0], c = x.shape()[1];
  const int64_t spatial = shape_product(x.shape(), 2, x.rank());
  const int64_t before = (size - 1) / 2, after = size - 1 - before;
  const std::vector<double> xv = float_values(ctx, x);
  std::vector<double> y(xv.size());
  for (int64_t b = 0; b < n; ++b)
    for (int64_t ci = 0; ci < c; ++ci)
      for (int64_t s = 0; s < spatial; ++s) {
        double sq = 0;
        for (int64_t k = std::max<int64_t>(0, ci - before); k <= std::min(c - 1, ci + after); ++k) {
          const double v = xv[(b * c + k) * spatial + s];
          sq += v * v;
        }
        const int64_t at = (b * c + ci) * spatial + s;
        y[at] = xv[at] / std::pow(bias + alpha / static_cast<double>(size) * sq, beta);
      }
  ctx.set_output(0, float_tensor(ctx, x.dtype(), x.shape(), y));
}

}  // namespace

void register_nn_lrn(KernelRegistry& registry) {
  for (int64_t v : {1, 13}) registry.add("", "LRN", v, lrn);
}

}  // namespace onnxscript::eval
