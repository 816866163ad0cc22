#pragma once
/// \file
/// The rewriter as an optimizer pass ("rewrite"), and optimize() with it.
///
/// The rewriter sits above the eDSL (its patterns are traced lambdas) and the
/// optimizer (it is one more optimizer::Pass); the optimizer knows nothing
/// of it. optimize_with_rewrites() runs the optimizer's default list with
/// "rewrite" placed after "fold" and "identity" (so rules see folded
/// constants) and before "cse" and "dce" (which clean up after it).

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "onnxscript/ir/model.h"
#include "onnxscript/optimizer/optimize.h"
#include "onnxscript/optimizer/pass.h"
#include "onnxscript/rewriter/rule.h"

namespace onnxscript::rewriter {

/// How the rewriter runs.
struct RewriteOptions {
  /// Record, for each rule that did not fire on a graph, the best partial
  /// match (RewritePass::reports()). Costs a little: every failed attempt
  /// is described.
  bool debug = false;
};

/// Why a rule did not fire on one graph: its best partial match.
struct RuleReport {
  std::string rule;   ///< The rule's name.
  std::string graph;  ///< The graph ("main", "function <domain>.<name>", or a subgraph's name).
  size_t matched_nodes = 0;  ///< Pattern nodes matched by the best attempt.
  size_t pattern_nodes = 0;  ///< Nodes in the pattern.
  std::string failure;       ///< Where the best attempt failed and why.
  /// One line: "<rule> on <graph>: <matched>/<pattern> nodes matched; <failure>".
  std::string to_string() const;
};

/// The "rewrite" pass: one sweep over every graph of the model (main graph,
/// function bodies, subgraphs) per run, each node tried as the first pattern
/// output of each rule in list order, last node first (so a longer pattern
/// is found at its root before a shorter one at an inner node). Nodes that a
/// rewrite consumed or created are not matched again in the same sweep, so
/// rewrites never overlap; the PassManager's next round sees them.
class RewritePass final : public optimizer::Pass {
 public:
  /// A pass applying `rules`.
  explicit RewritePass(std::vector<Rule> rules, RewriteOptions options = {});
  /// "rewrite".
  std::string_view name() const override { return "rewrite"; }
  /// The rules, in order.
  const std::vector<Rule>& rules() const { return rules_; }
  /// How often each rule fired, over every run.
  const std::map<std::string, size_t>& fired() const { return fired_; }
  /// With RewriteOptions::debug, the rules that did not fire in the last
  /// run, per graph, with their best partial match.
  const std::vector<RuleReport>& reports() const { return reports_; }

 protected:
  bool run_once(ir::Model& model) override;

 private:
  std::vector<Rule> rules_;
  RewriteOptions options_;
  std::map<std::string, size_t> fired_;
  std::vector<RuleReport> reports_;
};

/// A "rewrite" pass over `rules` (by default, default_rules()).
std::unique_ptr<RewritePass> make_rewrite_pass(std::vector<Rule> rules,
                                               RewriteOptions options = {});
/// A "rewrite" pass over default_rules().
std::unique_ptr<RewritePass> make_rewrite_pass();

/// optimizer::pass_names() with "rewrite" after "identity": the default list
/// of optimize_with_rewrites().
std::vector<std::string> pass_names_with_rewrite();

/// optimizer::optimize() with the rewriter: `options.passes` may name
/// "rewrite" (empty: pass_names_with_rewrite()), which applies `rules`.
optimizer::PassManagerResult optimize_with_rewrites(ir::Model& model,
                                                    const optimizer::OptimizeOptions& options,
                                                    std::vector<Rule> rules);
/// As above, with default_rules().
optimizer::PassManagerResult optimize_with_rewrites(ir::Model& model,
                                                    const optimizer::OptimizeOptions& options = {});

}  // namespace onnxscript::rewriter
