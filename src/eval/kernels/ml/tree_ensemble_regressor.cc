// TreeEnsembleRegressor (ai.onnx.ml 1, 3): every tree routes a row of X to a
// leaf (see tree_ensemble.h), whose votes (target_ids, target_weights) are
// aggregated per target by aggregate_function:
//   SUM      the sum of the votes
//   AVERAGE  the sum divided by the number of trees
//   MIN/MAX  the smallest/largest vote (0 when no tree votes for the target)
// then base_values[t] is added (empty: 0) and post_transform is applied to
// each row. Y is [N, n_targets] float. Opset 3 also takes the *_as_tensor
// forms of the float lists (double values).
#include <limits>

#include <fmt/format.h>

#include "eval/kernels/ml/tree_ensemble.h"

namespace onnxscript::eval {
namespace {

void tree_ensemble_regressor(KernelContext& ctx) {
  const ml::FeatureMatrix x = ml::read_features(ctx, ctx.input_tensor(0));
  const ml::PostTransform transform = ml::read_post_transform(ctx);
  const bool opset3 = ctx.version() >= 3;
  if (!ml::has_attr(ctx, "n_targets")) ctx.fail("n_targets must be given");
  const int64_t targets = ctx.attr_int("n_targets", 1);
  if (targets < 1) ctx.fail(fmt::format("n_targets {} must be positive", targets));
  const std::string aggregate_name = ctx.attr_string("aggregate_function", "SUM");
  ml::Aggregate aggregate = ml::Aggregate::kSum;
  if (aggregate_name == "AVERAGE")
    aggregate = ml::Aggregate::kAverage;
  else if (aggregate_name == "MIN")
    aggregate = ml::Aggregate::kMin;
  else if (aggregate_name == "MAX")
    aggregate = ml::Aggregate::kMax;
  else if (aggregate_name != "SUM")
    ctx.fail(fmt::format("aggregate_function '{}' is not one of SUM, AVERAGE, MIN, MAX",
                         aggregate_name));
  const ml::TreeEnsemble trees(ctx, "target", targets, x.features, opset3);
  const std::vector<double> base = opset3 ? ml::attr_floats_or_tensor(ctx, "base_values")
                                          : ml::tree_floats(ctx, "base_values", false);
  if (!base.empty() && static_cast<int64_t>(base.size()) != targets)
    ctx.fail(fmt::format("base_values has {} entries for {} targets", base.size(), targets));

  const int64_t n = x.rows;
  std::vector<double> y(static_cast<size_t>(n * targets));
  std::vector<const ml::TreeEnsemble::Node*> leaves;
  ml::VoteAggregator votes(aggregate);
  for (int64_t r = 0; r < n; ++r) {
    std::span<double> row(y.data() + r * targets, static_cast<size_t>(targets));
    votes.start(row);
    trees.leaves(x.row(r), leaves);
    for (const auto* leaf : leaves)
      for (const auto& vote : leaf->votes) votes.add(vote.target, vote.weight);
    votes.finish(trees.tree_count());
    if (!base.empty())
      for (int64_t t = 0; t < targets; ++t) row[t] += base[t];
    ml::apply_post_transform(transform, row);
  }
  ctx.set_output(0, ml::float_tensor({n, targets}, y));
}

}  // namespace

void register_ml_tree_ensemble_regressor(KernelRegistry& registry) {
  for (int64_t v : {1, 3})
    registry.add("ai.onnx.ml", "TreeEnsembleRegressor", v, tree_ensemble_regressor);
}

}  // namespace onnxscript::eval
