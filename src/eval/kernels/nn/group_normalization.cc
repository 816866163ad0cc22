// GroupNormalization: X is (N, C, D1, ...); the C channels split into
// num_groups groups, each (n, group) is normalised by its own mean and
// variance: Y = (X - mean) / sqrt(var + epsilon) * scale + bias. In v18 scale
// and bias have one value per group; from v21 one per channel. Computed in
// double, which is at least stash_type's precision.
#include <cmath>

#include <fmt/format.h>

#include "nn_util.h"

namespace onnxscript::eval {
namespace {

void group_normalization(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  if (x.rank() < 2) ctx.fail(fmt::format("X {} needs rank 2 or more", shape_string(x.shape())));
  const int64_t n = x.shape()[0], c = x.shape()[1];
  const int64_t groups = ctx.required_attribute("num_groups").as_int();
  if (groups <= 0 || c % groups != 0)
    ctx.fail(fmt::format("num_groups {} does not divide the {} channels", groups, c));
  const double eps = ctx.attr_float("epsilon", 1e-5f);
  const bool per_channel = ctx.version() >= 21;
  const int64_t params = per_channel ? c : groups;
  const std::vector<double> scale = float_values(ctx, ctx.input_tensor(1));
  const std::vector<double> bias = float_values(ctx, ctx.input_tensor(2));
  if (static_cast<int64_t>(scale.size()) != params || static_cast<int64_t>(bias.size()) != params)
    ctx.fail(fmt::format("scale and bias need {} values (one per {}), got {} and {}", params,
                         per_channel ? "channel" : "group", scale.size(), bias.size()));
  const int64_t spatial = shape_product(x.shape(), 2, x.rank());
  const int64_t per_group = c / groups;
  const int64_t span = per_group * spatial;
  std::vector<double> xv = float_values(ctx, x);
  for (int64_t i = 0; i < n * groups; ++i) {
    double* p = xv.data() + i * span;
    double mean = 0, var = 0;
    for (int64_t j = 0; j < span; ++j) mean += p[j];
    mean /= static_cast<double>(span);
    for (int64_t j = 0; j < span; ++j) var += (p[j] - mean) * (p[j] - mean);
    var /= static_cast<double>(span);
    const double r = 1.0 / std::sqrt(var + eps);
    const int64_t g = i % groups;
    for (int64_t j = 0; j < span; ++j) {
      const int64_t k = per_channel ? g * per_group + j / spatial : g;
      p[j] = (p[j] - mean) * r * scale[k] + bias[k];
    }
  }
  ctx.set_output(0, float_tensor(ctx, x.dtype(), x.shape(), xv));
}

}  // namespace

void register_nn_group_normalization(KernelRegistry& registry) {
  // 18: scale and bias hold one value per group.
  registry.add("", "GroupNormalization", 18, group_normalization);
  // 21: scale and bias hold one value per channel; adds stash_type.
  registry.add("", "GroupNormalization", 21, group_normalization);
}

}  // namespace onnxscript::eval
