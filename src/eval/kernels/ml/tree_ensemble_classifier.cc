// TreeEnsembleClassifier (ai.onnx.ml 1, 3): every tree routes a row of X to a
// leaf (see tree_ensemble.h), and the leaf's votes (class_ids, class_weights)
// add up per class. Y is a label, Z the [N, L] scores after post_transform.
// Opset 3 also takes the *_as_tensor forms of the float lists (double values).
// - In general, score[c] = base_values[c] (0 when absent) + the weights voted
//   for class c, and Y is the class of the highest raw score (the first on
//   ties; classes nobody voted for score their base value).
// - The binary case, two labels with every vote for one class id k (how
//   converters write boosted binary models), reads the sum s (plus
//   base_values[0] when there is one base value, base_values[k] when there
//   are two) as the score of the second class. Z is post_transform of
//   [1 - s, s] when s is a probability (post_transform NONE with no negative
//   weight, or PROBIT) and of [-s, s] otherwise (a margin: NONE with negative
//   weights, LOGISTIC, SOFTMAX, SOFTMAX_ZERO); Y is labels[1] when Z[1] > Z[0].
//   This agrees with ONNX Runtime 1.30 for NONE, and for LOGISTIC with
//   negative weights. With no negative weight ONNX Runtime picks labels[1]
//   only for s > 0.5 whatever the transform (so under LOGISTIC its label can
//   contradict its own Z), leaves SOFTMAX and SOFTMAX_ZERO untransformed as
//   [1 - s, s], and writes PROBIT as [probit(s), 0].
// - With two labels and votes for both, ONNX Runtime 1.30 returns 0 or 1
//   rather than a class label (labels [10, 20] give 1); Y here is the label.
#include <fmt/format.h>

#include "eval/kernels/ml/tree_ensemble.h"

namespace onnxscript::eval {
namespace {

void tree_ensemble_classifier(KernelContext& ctx) {
  const ml::FeatureMatrix x = ml::read_features(ctx, ctx.input_tensor(0));
  const ml::ClassLabels labels =
      ml::read_class_labels(ctx, "classlabels_int64s", "classlabels_strings");
  const ml::PostTransform transform = ml::read_post_transform(ctx);
  const bool opset3 = ctx.version() >= 3;
  const int64_t classes = labels.size();
  const ml::TreeEnsemble trees(ctx, "class", classes, x.features, opset3);
  const std::vector<double> base = opset3 ? ml::attr_floats_or_tensor(ctx, "base_values")
                                          : ml::tree_floats(ctx, "base_values", false);

  const std::vector<int64_t>& ids = trees.vote_ids();
  bool binary = classes == 2 && !ids.empty();
  for (int64_t id : ids) binary = binary && id == ids.front();
  bool all_positive = true;
  for (double w : trees.weights()) all_positive = all_positive && w >= 0;
  if (binary ? base.size() > 2 : !base.empty() && static_cast<int64_t>(base.size()) != classes)
    ctx.fail(fmt::format("base_values has {} entries for {} classes", base.size(), classes));

  const int64_t n = x.rows;
  Tensor y = labels.make_output(n);
  std::vector<double> z(static_cast<size_t>(n * classes));
  std::vector<const ml::TreeEnsemble::Node*> leaves;
  std::vector<double> scores(static_cast<size_t>(classes));
  for (int64_t r = 0; r < n; ++r) {
    std::fill(scores.begin(), scores.end(), 0.0);
    trees.leaves(x.row(r), leaves);
    for (const auto* leaf : leaves)
      for (const auto& vote : leaf->votes) scores[vote.target] += vote.weight;
    std::span<double> row(z.data() + r * classes, static_cast<size_t>(classes));
    if (binary) {
      const int64_t k = ids.front();
      double s = scores[k];
      if (base.size() == 1) s += base[0];
      if (base.size() == 2) s += base[k];
      const bool probability = (transform == ml::PostTransform::kNone && all_positive) ||
                               transform == ml::PostTransform::kProbit;
      row[0] = probability ? 1 - s : -s;
      row[1] = s;
      ml::apply_post_transform(transform, row);
      labels.write(y, r, row[1] > row[0] ? 1 : 0);
    } else {
      for (int64_t c = 0; c < classes; ++c) row[c] = scores[c] + (base.empty() ? 0.0 : base[c]);
      labels.write(y, r, ml::top_class(std::span<const double>(row)));
      ml::apply_post_transform(transform, row);
    }
  }
  ctx.set_output(0, y);
  if (ctx.num_outputs() > 1) ctx.set_output(1, ml::float_tensor({n, classes}, z));
}

}  // namespace

void register_ml_tree_ensemble_classifier(KernelRegistry& registry) {
  for (int64_t v : {1, 3})
    registry.add("ai.onnx.ml", "TreeEnsembleClassifier", v, tree_ensemble_classifier);
}

}  // namespace onnxscript::eval
