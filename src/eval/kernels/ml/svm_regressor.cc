// SVMRegressor (ai.onnx.ml 1): one score per row of X, [N, 1] float.
// - With n_supports > 0 (support vectors given): s = sum_j coefficients[j] *
//   K(x, support_vectors[j]) + rho[0], K being kernel_type with kernel_params.
// - With n_supports = 0 (a linear model): s = <x, coefficients> + rho[0]; the
//   kernel is not used (as in ONNX Runtime and ONNX's reference evaluator).
// With one_class = 1 the output is the one-class SVM decision: 1 when s > 0,
// else -1. post_transform is applied to the one-element score row (ONNX
// Runtime applies only PROBIT to a single score).
#include <fmt/format.h>

#include "eval/kernels/ml/ml_util.h"

namespace onnxscript::eval {
namespace {

void svm_regressor(KernelContext& ctx) {
  const ml::FeatureMatrix x = ml::read_features(ctx, ctx.input_tensor(0));
  const ml::PostTransform transform = ml::read_post_transform(ctx);
  const ml::SvmKernel kernel = ml::read_svm_kernel(ctx);
  const std::vector<float> coefficients = ctx.attr_floats("coefficients");
  const std::vector<float> support_vectors = ctx.attr_floats("support_vectors");
  const std::vector<float> rho = ctx.attr_floats("rho");
  const int64_t supports = ctx.attr_int("n_supports", 0);
  const bool one_class = ctx.attr_int("one_class", 0) != 0;
  const int64_t features = x.features;
  if (rho.empty()) ctx.fail("rho must have one entry");
  if (supports < 0) ctx.fail(fmt::format("n_supports {} is negative", supports));
  if (supports > 0) {
    if (static_cast<int64_t>(coefficients.size()) != supports)
      ctx.fail(
          fmt::format("{} coefficients for {} support vectors", coefficients.size(), supports));
    if (static_cast<int64_t>(support_vectors.size()) != supports * features)
      ctx.fail(fmt::format("{} support_vectors values for {} vectors of {} features",
                           support_vectors.size(), supports, features));
  } else if (static_cast<int64_t>(coefficients.size()) != features) {
    ctx.fail(
        fmt::format("a linear model (n_supports 0) needs one coefficient per feature ({}), got {}",
                    features, coefficients.size()));
  }
  std::vector<double> y(static_cast<size_t>(x.rows));
  for (int64_t r = 0; r < x.rows; ++r) {
    double s = rho[0];
    if (supports > 0) {
      for (int64_t j = 0; j < supports; ++j)
        s += coefficients[j] * kernel(x.row(r), support_vectors.data() + j * features, features);
    } else {
      for (int64_t f = 0; f < features; ++f) s += x.row(r)[f] * coefficients[f];
    }
    if (one_class) s = s > 0 ? 1.0 : -1.0;
    y[r] = s;
    ml::apply_post_transform(transform, std::span<double>(&y[r], 1));
  }
  ctx.set_output(0, ml::float_tensor({x.rows, 1}, y));
}

}  // namespace

void register_ml_svm_regressor(KernelRegistry& registry) {
  registry.add("ai.onnx.ml", "SVMRegressor", 1, svm_regressor);
}

}  // namespace onnxscript::eval
