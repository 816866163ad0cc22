// TreeEnsemble (ai.onnx.ml 5): the consolidated tree ensemble that replaces
// TreeEnsembleRegressor and TreeEnsembleClassifier. Y [N, n_targets] has the
// element type of X [N, F] (or [F], one row): float, double or float16.
//
// Interior nodes are the parallel nodes_* lists; leaves the parallel leaf_*
// lists (leaf_targetids, leaf_weights). tree_roots[t] is the index of tree
// t's root in nodes_*. A node's true (false) child is nodes_truenodeids[i]
// (nodes_falsenodeids[i]), an index into leaf_* when nodes_trueleafs[i]
// (nodes_falseleafs[i]) is 1 and into nodes_* when it is 0; a one-leaf tree
// is a node whose two children are that leaf. nodes_modes (a uint8 tensor)
// holds the comparison of x[nodes_featureids[i]] with nodes_splits[i]:
//   0 BRANCH_LEQ  1 BRANCH_LT  2 BRANCH_GTE  3 BRANCH_GT  4 BRANCH_EQ
//   5 BRANCH_NEQ  6 BRANCH_MEMBER (x is in the node's set)
// The sets of the BRANCH_MEMBER nodes, in node order, are membership_values
// split at NaN. A missing feature (NaN) goes true when
// nodes_missing_value_tracks_true[i] is 1, false otherwise (the shared rule of
// tree_ensemble.h). Each tree's leaf adds leaf_weights[j] to target
// leaf_targetids[j]; aggregate_function (0 AVERAGE, 1 SUM, 2 MIN, 3 MAX)
// combines the trees (VoteAggregator), and post_transform (0 NONE, 1 SOFTMAX,
// 2 LOGISTIC, 3 SOFTMAX_ZERO, 4 PROBIT) is applied to each row. nodes_splits,
// leaf_weights and membership_values have the type of X; comparisons and
// sums are made in double (exact for float and float16 comparisons) and Y
// is rounded once. Without n_targets, the target count is the largest
// leaf_targetids entry plus one. nodes_hitrates only guides performance and
// is ignored.
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include <fmt/format.h>

#include "eval/kernels/ml/tree_ensemble.h"
#include "eval/util/dispatch.h"
#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

using TreeEnsembleTypes = TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16>;

/// The elements of tensor attribute `name` (which must have X's type `dtype`)
/// as doubles; empty when the attribute is absent.
std::vector<double> tree_ensemble_tensor(const KernelContext& ctx, const char* name,
                                         DataType dtype) {
  const ir::Attribute* a = ctx.attribute(name);
  if (!a) return {};
  if (a->type != ir::AttributeType::kTensor)
    ctx.fail(fmt::format("attribute '{}' must be a tensor", name));
  const Tensor& t = a->as_tensor();
  if (t.dtype() != dtype)
    ctx.fail(fmt::format("attribute '{}' holds {} but X is {}; they must have one type", name,
                         ir::data_type_name(t.dtype()), ir::data_type_name(dtype)));
  std::vector<double> out(static_cast<size_t>(t.numel()));
  dispatch<TreeEnsembleTypes>(dtype, ctx, [&]<typename T>() {
    const T* p = t.data<T>();
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = static_cast<double>(static_cast<compute_t<T>>(p[i]));
  });
  return out;
}

/// One interior node, resolved: children are indices into nodes (or leaves).
struct TreeEnsembleNode {
  ml::BranchMode mode = ml::BranchMode::kLeq;  // unused for membership nodes
  bool member = false;                         // BRANCH_MEMBER
  int64_t feature = 0;
  double split = 0;
  bool missing_goes_true = false;
  int64_t child[2] = {0, 0};  // [false, true]
  bool is_leaf[2] = {false, false};
  std::vector<double> set;  // BRANCH_MEMBER only
};

struct TreeEnsembleModel {
  std::vector<TreeEnsembleNode> nodes;
  std::vector<int64_t> roots;
  std::vector<int64_t> leaf_targets;
  std::vector<double> leaf_weights;
};

TreeEnsembleModel read_tree_ensemble(const KernelContext& ctx, DataType dtype, int64_t features,
                                     int64_t& targets) {
  TreeEnsembleModel e;
  const std::vector<int64_t> feature_ids = ctx.attr_ints("nodes_featureids");
  const std::vector<int64_t> true_ids = ctx.attr_ints("nodes_truenodeids");
  const std::vector<int64_t> false_ids = ctx.attr_ints("nodes_falsenodeids");
  const std::vector<int64_t> true_leafs = ctx.attr_ints("nodes_trueleafs");
  const std::vector<int64_t> false_leafs = ctx.attr_ints("nodes_falseleafs");
  const std::vector<int64_t> missing = ctx.attr_ints("nodes_missing_value_tracks_true");
  const std::vector<double> splits = tree_ensemble_tensor(ctx, "nodes_splits", dtype);
  const std::vector<double> members = tree_ensemble_tensor(ctx, "membership_values", dtype);
  e.roots = ctx.attr_ints("tree_roots");
  e.leaf_targets = ctx.attr_ints("leaf_targetids");
  e.leaf_weights = tree_ensemble_tensor(ctx, "leaf_weights", dtype);

  const ir::Attribute* modes_attr = ctx.attribute("nodes_modes");
  if (!modes_attr || modes_attr->type != ir::AttributeType::kTensor ||
      modes_attr->as_tensor().dtype() != DataType::kUint8)
    ctx.fail("nodes_modes must be given as a uint8 tensor");
  const Tensor& modes = modes_attr->as_tensor();

  const size_t count = feature_ids.size();
  auto check_length = [&](size_t n, const char* name) {
    if (n != count)
      ctx.fail(fmt::format("{} has {} entries but nodes_featureids has {}", name, n, count));
  };
  check_length(true_ids.size(), "nodes_truenodeids");
  check_length(false_ids.size(), "nodes_falsenodeids");
  check_length(true_leafs.size(), "nodes_trueleafs");
  check_length(false_leafs.size(), "nodes_falseleafs");
  check_length(splits.size(), "nodes_splits");
  check_length(static_cast<size_t>(modes.numel()), "nodes_modes");
  if (!missing.empty()) check_length(missing.size(), "nodes_missing_value_tracks_true");
  if (e.leaf_targets.size() != e.leaf_weights.size())
    ctx.fail(fmt::format("leaf_targetids has {} entries but leaf_weights has {}",
                         e.leaf_targets.size(), e.leaf_weights.size()));

  if (ctx.attribute("n_targets")) {
    targets = ctx.attr_int("n_targets", 1);
    if (targets < 1) ctx.fail(fmt::format("n_targets {} must be positive", targets));
  } else {
    targets = 0;
    for (int64_t t : e.leaf_targets) targets = std::max(targets, t + 1);
  }
  for (int64_t t : e.leaf_targets)
    if (t < 0 || t >= targets)
      ctx.fail(fmt::format("leaf_targetids entry {} is outside [0, {})", t, targets));

  // The member sets, in the order of the BRANCH_MEMBER nodes.
  std::vector<std::vector<double>> sets(1);
  for (double v : members) {
    if (std::isnan(v))
      sets.emplace_back();
    else
      sets.back().push_back(v);
  }
  if (!members.empty() && std::isnan(members.back())) sets.pop_back();
  size_t next_set = 0;

  const int64_t node_count = static_cast<int64_t>(count);
  const int64_t leaf_count = static_cast<int64_t>(e.leaf_targets.size());
  static constexpr ml::BranchMode kModes[] = {ml::BranchMode::kLeq, ml::BranchMode::kLt,
                                              ml::BranchMode::kGte, ml::BranchMode::kGt,
                                              ml::BranchMode::kEq,  ml::BranchMode::kNeq};
  e.nodes.resize(count);
  for (size_t i = 0; i < count; ++i) {
    TreeEnsembleNode& node = e.nodes[i];
    const uint8_t mode = modes.data<uint8_t>()[i];
    if (mode > 6)
      ctx.fail(fmt::format("nodes_modes entry {} of node {} is not a mode (0 to 6)", mode, i));
    if (mode == 6) {
      node.member = true;
      if (members.empty() || next_set >= sets.size())
        ctx.fail(fmt::format(
            "node {} is BRANCH_MEMBER but membership_values has no set left for it", i));
      node.set = std::move(sets[next_set++]);
    } else {
      node.mode = kModes[mode];
    }
    if (feature_ids[i] < 0 || feature_ids[i] >= features)
      ctx.fail(fmt::format("node {} reads feature {}, but X has {} features", i, feature_ids[i],
                           features));
    node.feature = feature_ids[i];
    node.split = splits[i];
    node.missing_goes_true = !missing.empty() && missing[i] != 0;
    const int64_t ids[2] = {false_ids[i], true_ids[i]};
    const int64_t leafs[2] = {false_leafs[i], true_leafs[i]};
    for (int side = 0; side < 2; ++side) {
      const char* which = side ? "true" : "false";
      if (leafs[side] != 0 && leafs[side] != 1)
        ctx.fail(
            fmt::format("nodes_{}leafs entry {} of node {} must be 0 or 1", which, leafs[side], i));
      node.is_leaf[side] = leafs[side] == 1;
      const int64_t limit = node.is_leaf[side] ? leaf_count : node_count;
      if (ids[side] < 0 || ids[side] >= limit)
        ctx.fail(fmt::format("node {} has {} child {}, outside the {} {}", i, which, ids[side],
                             limit, node.is_leaf[side] ? "leaves" : "nodes"));
      node.child[side] = ids[side];
    }
  }
  for (int64_t root : e.roots)
    if (root < 0 || root >= node_count)
      ctx.fail(fmt::format("tree_roots entry {} is outside the {} nodes", root, node_count));
  return e;
}

/// The leaf (index into leaf_*) that the tree rooted at node `root` reaches
/// for the row `x`.
int64_t tree_ensemble_leaf(const KernelContext& ctx, const TreeEnsembleModel& e, int64_t root,
                           const double* x) {
  int64_t index = root;
  // A tree reaches a leaf in at most as many steps as there are nodes.
  for (size_t steps = 0; steps <= e.nodes.size(); ++steps) {
    const TreeEnsembleNode& node = e.nodes[static_cast<size_t>(index)];
    const double v = x[node.feature];
    bool go_true = false;
    if (!node.member) {
      go_true = ml::branch_goes_true(node.mode, v, node.split, node.missing_goes_true);
    } else if (std::isnan(v)) {
      go_true = node.missing_goes_true;
    } else {
      for (double m : node.set) go_true = go_true || v == m;
    }
    const int side = go_true ? 1 : 0;
    if (node.is_leaf[side]) return node.child[side];
    index = node.child[side];
  }
  ctx.fail(fmt::format("the tree rooted at node {} has a cycle", root));
}

void tree_ensemble(KernelContext& ctx) {
  const Tensor& xt = ctx.input_tensor(0);
  require_type(TreeEnsembleTypes{}, xt.dtype(), ctx);
  if (xt.rank() != 1 && xt.rank() != 2)
    ctx.fail(fmt::format("X must be 1-D [F] or 2-D [N, F], got rank {}", xt.rank()));
  const int64_t n = xt.rank() == 1 ? 1 : xt.shape()[0];
  const int64_t features = xt.shape().back();
  std::vector<double> x(static_cast<size_t>(xt.numel()));
  dispatch<TreeEnsembleTypes>(xt.dtype(), ctx, [&]<typename T>() {
    const T* p = xt.data<T>();
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = static_cast<double>(static_cast<compute_t<T>>(p[i]));
  });

  const int64_t aggregate_code = ctx.attr_int("aggregate_function", 1);
  static constexpr ml::Aggregate kAggregates[] = {ml::Aggregate::kAverage, ml::Aggregate::kSum,
                                                  ml::Aggregate::kMin, ml::Aggregate::kMax};
  if (aggregate_code < 0 || aggregate_code > 3)
    ctx.fail(
        fmt::format("aggregate_function {} is not one of 0 (AVERAGE), 1 (SUM), 2 (MIN), 3 (MAX)",
                    aggregate_code));
  const int64_t transform_code = ctx.attr_int("post_transform", 0);
  static constexpr ml::PostTransform kTransforms[] = {
      ml::PostTransform::kNone, ml::PostTransform::kSoftmax, ml::PostTransform::kLogistic,
      ml::PostTransform::kSoftmaxZero, ml::PostTransform::kProbit};
  if (transform_code < 0 || transform_code > 4)
    ctx.fail(fmt::format(
        "post_transform {} is not one of 0 (NONE), 1 (SOFTMAX), 2 (LOGISTIC), 3 (SOFTMAX_ZERO), "
        "4 (PROBIT)",
        transform_code));

  int64_t targets = 0;
  const TreeEnsembleModel e = read_tree_ensemble(ctx, xt.dtype(), features, targets);
  std::vector<double> y(static_cast<size_t>(n * targets));
  ml::VoteAggregator votes(kAggregates[aggregate_code]);
  for (int64_t r = 0; r < n; ++r) {
    std::span<double> row(y.data() + r * targets, static_cast<size_t>(targets));
    votes.start(row);
    for (int64_t root : e.roots) {
      const int64_t leaf = tree_ensemble_leaf(ctx, e, root, x.data() + r * features);
      votes.add(e.leaf_targets[static_cast<size_t>(leaf)],
                e.leaf_weights[static_cast<size_t>(leaf)]);
    }
    votes.finish(e.roots.size());
    ml::apply_post_transform(kTransforms[transform_code], row);
  }
  Tensor out(xt.dtype(), {n, targets});
  dispatch<TreeEnsembleTypes>(xt.dtype(), ctx, [&]<typename T>() {
    T* p = out.data<T>();
    for (size_t i = 0; i < y.size(); ++i) p[i] = static_cast<T>(static_cast<compute_t<T>>(y[i]));
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_ml_tree_ensemble(KernelRegistry& registry) {
  registry.add("ai.onnx.ml", "TreeEnsemble", 5, tree_ensemble);
}

}  // namespace onnxscript::eval
