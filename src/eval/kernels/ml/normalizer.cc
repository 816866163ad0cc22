// Normalizer (ai.onnx.ml 1): scales each row of X (1-D is one row, 2-D
// [N, C] is N rows) by a divisor computed over that row, giving float:
//   MAX  divisor max(x)
//   L1   divisor sum(|x|)        (the L1 norm the spec's "sum(X)" names)
//   L2   divisor sqrt(sum(x^2))  (Y = x / ||x||, keeping each sign; the spec's
//                                 sqrt(X^2 / sum(X^2)) is the same magnitude)
// A zero divisor leaves the row as it is.
#include <cmath>

#include <fmt/format.h>

#include "eval/kernels/ml/ml_util.h"

namespace onnxscript::eval {
namespace {

void normalizer(KernelContext& ctx) {
  const Tensor& input = ctx.input_tensor(0);
  const ml::FeatureMatrix x = ml::read_features(ctx, input);
  const std::string norm = ctx.attr_string("norm", "MAX");
  if (norm != "MAX" && norm != "L1" && norm != "L2")
    ctx.fail(fmt::format("norm '{}' is not one of MAX, L1, L2", norm));
  std::vector<double> y = x.values;
  for (int64_t r = 0; r < x.rows; ++r) {
    double* row = y.data() + r * x.features;
    double divisor = 0;
    if (norm == "MAX") {
      divisor = -INFINITY;
      for (int64_t c = 0; c < x.features; ++c) divisor = std::max(divisor, row[c]);
    } else if (norm == "L1") {
      for (int64_t c = 0; c < x.features; ++c) divisor += std::fabs(row[c]);
    } else {
      for (int64_t c = 0; c < x.features; ++c) divisor += row[c] * row[c];
      divisor = std::sqrt(divisor);
    }
    if (divisor == 0 || x.features == 0) continue;
    for (int64_t c = 0; c < x.features; ++c) row[c] /= divisor;
  }
  ctx.set_output(0, ml::float_tensor(input.shape(), y));
}

}  // namespace

void register_ml_normalizer(KernelRegistry& registry) {
  registry.add("ai.onnx.ml", "Normalizer", 1, normalizer);
}

}  // namespace onnxscript::eval
