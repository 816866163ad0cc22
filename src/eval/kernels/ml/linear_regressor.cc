// LinearRegressor (ai.onnx.ml 1): Y = X W^T + intercepts, [N, targets], where
// `coefficients` holds W row-major as [targets, F] (each target's weights
// contiguous) and `intercepts` is empty (zeros) or has one entry per target.
// post_transform is then applied to each row of targets (ONNX Runtime applies
// only PROBIT when there is a single target; a softmax of one value is 1).
#include <fmt/format.h>

#include "eval/kernels/ml/ml_util.h"

namespace onnxscript::eval {
namespace {

void linear_regressor(KernelContext& ctx) {
  const ml::FeatureMatrix x = ml::read_features(ctx, ctx.input_tensor(0));
  const ml::PostTransform transform = ml::read_post_transform(ctx);
  const std::vector<float> coefficients = ctx.attr_floats("coefficients");
  const std::vector<float> intercepts = ctx.attr_floats("intercepts");
  const int64_t targets = ctx.attr_int("targets", 1);
  if (targets < 1) ctx.fail(fmt::format("targets {} must be positive", targets));
  const int64_t features = x.features;
  // More targets than coefficients cannot fit (and targets * features could overflow).
  if (targets > static_cast<int64_t>(coefficients.size()))
    ctx.fail(fmt::format("{} coefficients for {} targets", coefficients.size(), targets));
  if (static_cast<int64_t>(coefficients.size()) != targets * features)
    ctx.fail(fmt::format("{} coefficients for {} targets of {} features; expected {}",
                         coefficients.size(), targets, features, targets * features));
  if (!intercepts.empty() && static_cast<int64_t>(intercepts.size()) != targets)
    ctx.fail(fmt::format("{} intercepts for {} targets", intercepts.size(), targets));
  std::vector<double> y(static_cast<size_t>(x.rows * targets));
  for (int64_t r = 0; r < x.rows; ++r) {
    std::span<double> out_row(y.data() + r * targets, static_cast<size_t>(targets));
    for (int64_t t = 0; t < targets; ++t) {
      double s = intercepts.empty() ? 0.0 : intercepts[t];
      for (int64_t f = 0; f < features; ++f) s += x.row(r)[f] * coefficients[t * features + f];
      out_row[t] = s;
    }
    ml::apply_post_transform(transform, out_row);
  }
  ctx.set_output(0, ml::float_tensor({x.rows, targets}, y));
}

}  // namespace

void register_ml_linear_regressor(KernelRegistry& registry) {
  registry.add("ai.onnx.ml", "LinearRegressor", 1, linear_regressor);
}

}  // namespace onnxscript::eval
