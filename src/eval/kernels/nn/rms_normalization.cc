// RMSNormalization (v23): normalises over the axes [axis, rank):
// Y = X / sqrt(mean(X^2) + epsilon) * scale, with scale broadcast to
// X.shape[axis:]. Computed in double, which is at least stash_type's
// precision.
#include <cmath>

#include <fmt/format.h>

#include "nn_util.h"

namespace onnxscript::eval {
namespace {

void rms_normalization(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const Tensor& scale_t = ctx.input_tensor(1);
  const int64_t rank = x.rank();
  const int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", -1), rank);
  const double eps = ctx.attr_float("epsilon", 1e-5f);
  const std::vector<int64_t> norm_shape(x.shape().begin() + axis, x.shape().end());
  const int64_t outer = shape_product(x.shape(), 0, axis);
  const int64_t inner = shape_product(norm_shape, 0, norm_shape.size());
  if (broadcast_shapes(ctx, scale_t.shape(), norm_shape) != norm_shape)
    ctx.fail(fmt::format("scale {} does not broadcast to {}", shape_string(scale_t.shape()),
                         shape_string(norm_shape)));
  const std::vector<double> scale = float_values(ctx, broadcast_to(scale_t, norm_shape));
  std::vector<double> xv = float_values(ctx, x);
  for (int64_t o = 0; o < outer; ++o) {
    double* p = xv.data() + o * inner;
    double sq = 0;
    for (int64_t i = 0; i < inner; ++i) sq += p[i] * p[i];
    const double r = 1.0 / std::sqrt(sq / static_cast<double>(inner) + eps);
    for (int64_t i = 0; i < inner; ++i) p[i] = p[i] * r * scale[i];
  }
  ctx.set_output(0, float_tensor(ctx, x.dtype(), x.shape(), xv));
}

}  // namespace

void register_nn_rms_normalization(KernelRegistry& registry) {
  // 23: the operator's first version.
  registry.add("", "RMSNormalization", 23, rms_normalization);
}

}  // namespace onnxscript::eval
