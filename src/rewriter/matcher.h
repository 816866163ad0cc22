#pragma once
// Matching one rule's pattern at one graph node: backtracking over the
// choices (commutative input orders, candidates for further outputs), with
// the checks that make a match safe to replace.

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "onnxscript/ir/model.h"
#include "optimizer/graph_util.h"
#include "rewriter/rule_impl.h"

namespace onnxscript::rewriter::detail {

/// What the matcher needs to know about the graph it searches.
struct MatchContext {
  const ir::Model* model;
  ir::Graph* graph;
  const ir::Function* function;                      // the enclosing function, or null
  const optimizer::detail::OuterOutputs* outer;      // values subgraphs return from outside
  const std::unordered_set<const ir::Node*>* taken;  // nodes rewritten in this sweep
  /// The graph's nodes by operator, for patterns with several outputs.
  const std::unordered_map<std::string, std::vector<ir::Node*>>* by_op;
};

/// Matches one rule; remembers the best failed attempt for debug reports.
class Matcher {
 public:
  /// A matcher of `rule` in `context`.
  Matcher(const RuleImpl& rule, const MatchContext& context) : rule_(rule), ctx_(context) {}
  /// Tries the pattern with its first output at `node`; the complete match
  /// (checks and condition passed), or nullopt.
  std::optional<MatchState> match_at(ir::Node* node);
  /// Pattern nodes matched by the best failed attempt so far.
  size_t best_matched() const { return best_matched_; }
  /// Why that attempt failed; empty when none was made.
  const std::string& best_failure() const { return best_failure_; }

 private:
  struct Item {
    const ir::Value* pattern;
    ir::Value* graph;
  };
  bool solve(MatchState state, std::vector<Item> pending);
  bool finish(const MatchState& state);
  bool fail(const MatchState& state, std::string reason);
  std::string node_mismatch(const ir::Node& pn, ir::Node& gn, MatchState& state) const;

  const RuleImpl& rule_;
  const MatchContext& ctx_;
  std::optional<MatchState> result_;
  size_t best_matched_ = 0;
  std::string best_failure_;
};

/// True when the two attributes hold the same value (names aside).
bool same_attribute_value(const ir::Attribute& a, const ir::Attribute& b);

/// A short description of a graph node for messages: "'name' (Op)" or
/// "the Op producing 'out'".
std::string describe(const ir::Node& node);

}  // namespace onnxscript::rewriter::detail
