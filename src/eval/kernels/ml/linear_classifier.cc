// LinearClassifier (ai.onnx.ml 1): scores = X W^T + intercepts, where the
// `coefficients` list holds W row-major as [C, F] (F = X's feature count) and
// `intercepts` is empty (zeros) or has C entries. Y is the label of the
// highest score (the first one on ties), Z the scores after post_transform,
// [N, C]. With C equal to the number of labels each row is one class; with a
// single row (C = 1) and two labels the model is binary: s is the score of
// the second class, Y = labels[1] when s > 0 and labels[0] otherwise, and Z
// is post_transform([-s, s]) (ONNX's reference evaluator does the same; ONNX
// Runtime writes [1 - s, s] and applies no transform but PROBIT there).
// `multi_class` does not change the computation (no runtime uses it).
#include <fmt/format.h>

#include "eval/kernels/ml/ml_util.h"

namespace onnxscript::eval {
namespace {

void linear_classifier(KernelContext& ctx) {
  const ml::FeatureMatrix x = ml::read_features(ctx, ctx.input_tensor(0));
  const ml::ClassLabels labels =
      ml::read_class_labels(ctx, "classlabels_ints", "classlabels_strings");
  const ml::PostTransform transform = ml::read_post_transform(ctx);
  const std::vector<float> coefficients = ctx.attr_floats("coefficients");
  const std::vector<float> intercepts = ctx.attr_floats("intercepts");
  const int64_t features = x.features;
  if (coefficients.empty()) ctx.fail("coefficients must be given");
  if (features == 0 || static_cast<int64_t>(coefficients.size()) % features != 0)
    ctx.fail(fmt::format("{} coefficients are not a whole number of rows of {} features",
                         coefficients.size(), features));
  const int64_t rows = static_cast<int64_t>(coefficients.size()) / features;
  if (!intercepts.empty() && static_cast<int64_t>(intercepts.size()) != rows)
    ctx.fail(fmt::format("{} intercepts for {} coefficient rows", intercepts.size(), rows));
  const bool binary = rows == 1 && labels.size() == 2;
  if (!binary && rows != labels.size())
    ctx.fail(fmt::format("the coefficients give {} score columns for {} class labels", rows,
                         labels.size()));

  const int64_t n = x.rows;
  const int64_t columns = binary ? 2 : rows;
  Tensor y = labels.make_output(n);
  std::vector<double> z(static_cast<size_t>(n * columns));
  std::vector<double> scores(static_cast<size_t>(rows));
  for (int64_t r = 0; r < n; ++r) {
    const double* features_row = x.row(r);
    for (int64_t c = 0; c < rows; ++c) {
      double s = intercepts.empty() ? 0.0 : intercepts[c];
      for (int64_t f = 0; f < features; ++f) s += features_row[f] * coefficients[c * features + f];
      scores[c] = s;
    }
    std::span<double> out_row(z.data() + r * columns, static_cast<size_t>(columns));
    if (binary) {
      labels.write(y, r, scores[0] > 0 ? 1 : 0);
      out_row[0] = -scores[0];
      out_row[1] = scores[0];
    } else {
      labels.write(y, r, ml::top_class(std::span<const double>(scores)));
      std::copy(scores.begin(), scores.end(), out_row.begin());
    }
    ml::apply_post_transform(transform, out_row);
  }
  ctx.set_output(0, y);
  if (ctx.num_outputs() > 1) ctx.set_output(1, ml::float_tensor({n, columns}, z));
}

}  // namespace

void register_ml_linear_classifier(KernelRegistry& registry) {
  registry.add("ai.onnx.ml", "LinearClassifier", 1, linear_classifier);
}

}  // namespace onnxscript::eval
