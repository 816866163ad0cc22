#pragma once
// What a Rule holds once its pattern is traced, and the state of a match in
// progress: shared by rule.cc (the Match accessors), matcher.cc and the pass.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "onnxscript/ir/model.h"
#include "onnxscript/rewriter/rule.h"

namespace onnxscript::rewriter::detail {

/// A rule with its traced pattern, indexed for the matcher.
struct RuleImpl {
  std::string name;
  std::vector<std::string> input_names;
  size_t arity = 0;
  ReplacementFn replacement;
  Condition condition;
  RuleOptions options;

  /// The traced pattern graph; its inputs are the pattern inputs, in order.
  std::unique_ptr<ir::Graph> pattern;
  /// The pattern's nodes that some output depends on, in traced order.
  std::vector<const ir::Node*> nodes;
  std::unordered_map<const ir::Node*, size_t> node_index;
  /// The pattern outputs (each a node output).
  std::vector<const ir::Value*> outputs;
  std::unordered_map<const ir::Value*, size_t> input_index;
  /// Attribute variables, by name.
  std::vector<std::string> attr_vars;
  std::unordered_map<std::string, size_t> attr_index;
  /// Pattern nodes whose output the pattern named (`.named("bn")`).
  std::unordered_map<std::string, size_t> named_nodes;

  /// Index of pattern input `name`; throws Error naming the rule when unknown.
  size_t input(std::string_view name) const;
};

/// A match in progress (or complete): what each pattern node, input and
/// attribute variable stands for in the graph.
struct MatchState {
  std::vector<ir::Node*> nodes;                     // per pattern node; null: not yet
  std::vector<ir::Value*> inputs;                   // per pattern input
  std::vector<bool> input_bound;                    // per pattern input
  std::vector<std::optional<ir::Attribute>> attrs;  // per variable; nullopt: absent
  std::vector<bool> attr_bound;                     // per variable
  size_t matched = 0;                               // nodes matched so far

  /// An empty state for `rule`.
  explicit MatchState(const RuleImpl& rule)
      : nodes(rule.nodes.size(), nullptr),
        inputs(rule.input_names.size(), nullptr),
        input_bound(rule.input_names.size(), false),
        attrs(rule.attr_vars.size()),
        attr_bound(rule.attr_vars.size(), false) {}
};

}  // namespace onnxscript::rewriter::detail
