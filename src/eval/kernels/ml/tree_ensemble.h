#pragma once
// The decision trees shared by TreeEnsembleClassifier and
// TreeEnsembleRegressor: the nodes_* attributes read into one node table,
// checked, and walked for each row of features.
//
// A node is (tree id, node id); the first node listed for a tree id is its
// root. A branch node compares x[feature] with its threshold by its mode
// (BRANCH_LEQ x <= t, BRANCH_LT x < t, BRANCH_GTE x >= t, BRANCH_GT x > t,
// BRANCH_EQ x == t, BRANCH_NEQ x != t) and continues at its true or false
// child (node ids of the same tree). A missing feature (NaN) takes the true
// branch when nodes_missing_value_tracks_true is 1 for the node, otherwise
// the false branch, whatever the mode (the spec's rule; ONNX Runtime sends
// NaN down the true branch of BRANCH_NEQ regardless). Comparisons are made in
// double, which for float features and float thresholds is the same as in
// float. Leaves (mode LEAF) carry the votes of the {class,target}_* lists.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "eval/kernels/ml/ml_util.h"

namespace onnxscript::eval::ml {

/// The comparison a branch node makes (kLeaf: none, the node is a leaf).
enum class BranchMode { kLeq, kLt, kGte, kGt, kEq, kNeq, kLeaf };

/// Whether a branch node of `mode` with threshold `t` sends feature value `v`
/// down its true branch. NaN (a missing value) goes where
/// `missing_goes_true` says, whatever the mode.
inline bool branch_goes_true(BranchMode mode, double v, double t, bool missing_goes_true) {
  if (std::isnan(v)) return missing_goes_true;
  switch (mode) {
    case BranchMode::kLeq:
      return v <= t;
    case BranchMode::kLt:
      return v < t;
    case BranchMode::kGte:
      return v >= t;
    case BranchMode::kGt:
      return v > t;
    case BranchMode::kEq:
      return v == t;
    case BranchMode::kNeq:
      return v != t;
    case BranchMode::kLeaf:
      break;
  }
  return false;
}

/// How the votes of the leaves for one target are combined.
enum class Aggregate { kSum, kAverage, kMin, kMax };

/// Aggregates the leaf votes of one row into its per-target scores:
/// SUM adds them, AVERAGE divides the sum by the number of trees, MIN and MAX
/// keep the smallest and largest vote (0 for a target no leaf votes for).
class VoteAggregator {
 public:
  explicit VoteAggregator(Aggregate aggregate) : aggregate_(aggregate) {}
  /// Starts a row: every score 0, no votes yet.
  void start(std::span<double> row) {
    row_ = row;
    std::fill(row_.begin(), row_.end(), 0.0);
    voted_.assign(row_.size(), false);
  }
  /// Adds a vote `weight` for target `target` (an index into the row).
  void add(int64_t target, double weight) {
    double& acc = row_[static_cast<size_t>(target)];
    const bool first = !voted_[static_cast<size_t>(target)];
    if (aggregate_ == Aggregate::kMin)
      acc = first ? weight : std::min(acc, weight);
    else if (aggregate_ == Aggregate::kMax)
      acc = first ? weight : std::max(acc, weight);
    else
      acc += weight;
    voted_[static_cast<size_t>(target)] = true;
  }
  /// Ends a row over `trees` trees (AVERAGE divides by it).
  void finish(size_t trees) {
    if (aggregate_ == Aggregate::kAverage && trees > 0)
      for (double& v : row_) v /= static_cast<double>(trees);
  }

 private:
  Aggregate aggregate_;
  std::span<double> row_;
  std::vector<bool> voted_;
};

class TreeEnsemble {
 public:
  using Mode = BranchMode;

  /// One vote of a leaf: `weight` for output column `target`.
  struct Vote {
    int64_t target;
    double weight;
  };

  struct Node {
    Mode mode = Mode::kLeaf;
    int64_t feature = 0;
    double threshold = 0;
    int64_t if_true = -1, if_false = -1;  // indices into nodes
    bool missing_goes_true = false;
    std::vector<Vote> votes;
  };

  /// Reads the nodes_* attributes and the votes `<prefix>_treeids`,
  /// `<prefix>_nodeids`, `<prefix>_ids` and `<prefix>_weights` (prefix "class"
  /// or "target"), whose ids must be in [0, outputs). `features` is the
  /// feature count of X. `_as_tensor` attributes are read when
  /// `allow_tensors` (ai.onnx.ml opset 3). Every inconsistency is a KernelError.
  TreeEnsemble(const KernelContext& ctx, const std::string& prefix, int64_t outputs,
               int64_t features, bool allow_tensors);

  /// The leaf each tree reaches for one row of features, in tree order.
  void leaves(const double* x, std::vector<const Node*>& out) const;

  /// Number of trees.
  size_t tree_count() const { return roots_.size(); }
  /// Every vote weight, for the classifier's "are all weights positive" test.
  const std::vector<double>& weights() const { return weights_; }
  /// The vote ids, in attribute order.
  const std::vector<int64_t>& vote_ids() const { return vote_ids_; }

 private:
  const KernelContext& ctx_;
  std::vector<Node> nodes_;
  std::vector<int64_t> roots_;
  std::vector<double> weights_;
  std::vector<int64_t> vote_ids_;
};

inline std::vector<double> tree_floats(const KernelContext& ctx, const std::string& name,
                                       bool allow_tensors) {
  if (allow_tensors) return attr_floats_or_tensor(ctx, name);
  const std::vector<float> v = ctx.attr_floats(name);
  return std::vector<double>(v.begin(), v.end());
}

inline TreeEnsemble::TreeEnsemble(const KernelContext& ctx, const std::string& prefix,
                                  int64_t outputs, int64_t features, bool allow_tensors)
    : ctx_(ctx) {
  const std::vector<int64_t> tree_ids = ctx.attr_ints("nodes_treeids");
  const std::vector<int64_t> node_ids = ctx.attr_ints("nodes_nodeids");
  const std::vector<int64_t> feature_ids = ctx.attr_ints("nodes_featureids");
  const std::vector<std::string> modes = attr_strings(ctx, "nodes_modes");
  const std::vector<double> thresholds = tree_floats(ctx, "nodes_values", allow_tensors);
  const std::vector<int64_t> true_ids = ctx.attr_ints("nodes_truenodeids");
  const std::vector<int64_t> false_ids = ctx.attr_ints("nodes_falsenodeids");
  const std::vector<int64_t> missing = ctx.attr_ints("nodes_missing_value_tracks_true");
  const size_t count = tree_ids.size();
  auto check_length = [&](size_t n, const char* name, bool optional) {
    if (n != count && !(optional && n == 0))
      ctx.fail(fmt::format("{} has {} entries but nodes_treeids has {}", name, n, count));
  };
  check_length(node_ids.size(), "nodes_nodeids", false);
  check_length(feature_ids.size(), "nodes_featureids", false);
  check_length(modes.size(), "nodes_modes", false);
  check_length(thresholds.size(), "nodes_values", false);
  check_length(true_ids.size(), "nodes_truenodeids", false);
  check_length(false_ids.size(), "nodes_falsenodeids", false);
  check_length(missing.size(), "nodes_missing_value_tracks_true", true);

  std::map<std::pair<int64_t, int64_t>, int64_t> index;  // (tree, node) -> position
  std::map<int64_t, int64_t> root_of_tree;
  nodes_.resize(count);
  for (size_t i = 0; i < count; ++i) {
    if (!index.emplace(std::pair{tree_ids[i], node_ids[i]}, static_cast<int64_t>(i)).second)
      ctx.fail(fmt::format("node {} of tree {} is listed twice", node_ids[i], tree_ids[i]));
    if (root_of_tree.emplace(tree_ids[i], static_cast<int64_t>(i)).second)
      roots_.push_back(static_cast<int64_t>(i));
  }
  static const std::pair<const char*, Mode> kModes[] = {
      {"BRANCH_LEQ", Mode::kLeq}, {"BRANCH_LT", Mode::kLt}, {"BRANCH_GTE", Mode::kGte},
      {"BRANCH_GT", Mode::kGt},   {"BRANCH_EQ", Mode::kEq}, {"BRANCH_NEQ", Mode::kNeq},
      {"LEAF", Mode::kLeaf}};
  for (size_t i = 0; i < count; ++i) {
    Node& node = nodes_[i];
    bool known = false;
    for (const auto& [name, mode] : kModes)
      if (modes[i] == name) {
        node.mode = mode;
        known = true;
      }
    if (!known) ctx.fail(fmt::format("nodes_modes entry '{}' is not a known mode", modes[i]));
    if (node.mode == Mode::kLeaf) continue;
    if (feature_ids[i] < 0 || feature_ids[i] >= features)
      ctx.fail(fmt::format("node {} of tree {} reads feature {}, but X has {} features",
                           node_ids[i], tree_ids[i], feature_ids[i], features));
    node.feature = feature_ids[i];
    node.threshold = thresholds[i];
    node.missing_goes_true = !missing.empty() && missing[i] != 0;
    auto child = [&](int64_t id, const char* which) {
      auto it = index.find({tree_ids[i], id});
      if (it == index.end())
        ctx.fail(fmt::format("node {} of tree {} has {} child {}, which is not a node of the tree",
                             node_ids[i], tree_ids[i], which, id));
      return it->second;
    };
    node.if_true = child(true_ids[i], "true");
    node.if_false = child(false_ids[i], "false");
  }

  const std::vector<int64_t> vote_trees = ctx.attr_ints(prefix + "_treeids");
  const std::vector<int64_t> vote_nodes = ctx.attr_ints(prefix + "_nodeids");
  vote_ids_ = ctx.attr_ints(prefix + "_ids");
  weights_ = tree_floats(ctx, prefix + "_weights", allow_tensors);
  const size_t votes = vote_ids_.size();
  if (vote_trees.size() != votes || vote_nodes.size() != votes || weights_.size() != votes)
    ctx.fail(
        fmt::format("{0}_treeids, {0}_nodeids, {0}_ids and {0}_weights differ in length "
                    "({1}, {2}, {3}, {4})",
                    prefix, vote_trees.size(), vote_nodes.size(), votes, weights_.size()));
  for (size_t v = 0; v < votes; ++v) {
    auto it = index.find({vote_trees[v], vote_nodes[v]});
    if (it == index.end())
      ctx.fail(fmt::format("a vote names node {} of tree {}, which does not exist", vote_nodes[v],
                           vote_trees[v]));
    if (vote_ids_[v] < 0 || vote_ids_[v] >= outputs)
      ctx.fail(fmt::format("{}_ids entry {} is outside [0, {})", prefix, vote_ids_[v], outputs));
    nodes_[it->second].votes.push_back({vote_ids_[v], weights_[v]});
  }
}

inline void TreeEnsemble::leaves(const double* x, std::vector<const Node*>& out) const {
  out.clear();
  for (int64_t root : roots_) {
    const Node* node = &nodes_[root];
    // A well-formed tree reaches a leaf in fewer steps than it has nodes.
    size_t steps = 0;
    while (node->mode != Mode::kLeaf) {
      if (++steps > nodes_.size()) ctx_.fail("a tree has a cycle (a node is its own descendant)");
      const bool go_true =
          branch_goes_true(node->mode, x[node->feature], node->threshold, node->missing_goes_true);
      node = &nodes_[go_true ? node->if_true : node->if_false];
    }
    out.push_back(node);
  }
}

}  // namespace onnxscript::eval::ml
