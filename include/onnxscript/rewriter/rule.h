#pragma once
/// \file
/// Rewrite rules written with the eDSL: a pattern (a traced lambda over
/// pattern inputs), a replacement (another traced lambda, which also sees the
/// match) and an optional condition over the match.
///
/// ```cpp
/// namespace op = onnxscript::opset18;
/// using rewriter::IntsVar;
/// Rule r("transpose-transpose", {"x"},
///        [](Value x) {
///          return op::Transpose(op::Transpose(x, {.perm = IntsVar("p1")}), {.perm =
///          IntsVar("p2")});
///        },
///        [](const Match& m, Value x) { return op::Transpose(x, {.perm = compose(m)}); },
///        [](const Match& m) { return m.attribute("p1") && m.attribute("p2"); });
/// ```
///
/// How a pattern matches (see docs/optimizer.md, "Rewriter"):
/// - from the pattern's first output backwards, node by node: operator and
///   domain equal ("" and "ai.onnx" are one), the same number of inputs
///   (trailing omitted ones ignored), each input matched in turn;
/// - a pattern input binds to any graph value; used twice, the two graph
///   values must be one value or two constants with the same contents;
/// - an attribute the pattern sets must be on the graph node with the same
///   value; an attribute variable (AttrVar) matches any value, or the
///   attribute's absence, and binds it; an attribute the pattern leaves out
///   is not looked at (a rule whose replacement depends on one binds it);
/// - the inputs of Add, Mul, And, Or, Max, Min, Sum and Equal match in any
///   order unless RuleOptions::commute is false;
/// - further pattern outputs are matched after the first, from any node of
///   the graph with their operator;
/// - every value that the matched nodes compute, other than the pattern's
///   outputs, must be read by matched nodes only (the match is deleted).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "onnxscript/ir/model.h"
#include "onnxscript/script/value.h"

namespace onnxscript::rewriter {

/// An attribute variable of a pattern. Given for an operator attribute
/// (`{.perm = IntsVar("p1")}`), it matches whatever the graph node holds
/// there, including nothing, and the match gives it by name
/// (Match::attribute). The same variable on two pattern nodes requires equal
/// attributes. Inside the eDSL it is an attribute reference (ONNX
/// ref_attr_name) named after the variable, so only patterns should use it.
template <typename T>
class AttrVar {
 public:
  /// A variable called `name`, unique within its pattern.
  explicit AttrVar(std::string name) : name_(std::move(name)) {}
  /// Always true: the eDSL writes a reference, which the matcher binds.
  bool is_reference() const { return true; }
  /// The variable's name.
  std::string_view reference_name() const { return name_; }
  /// Never read (is_reference() is true); here for the eDSL's attribute field.
  const T& value() const { return unused_; }

 private:
  std::string name_;
  T unused_{};
};

/// An int attribute variable.
using IntVar = AttrVar<int64_t>;
/// An ints attribute variable.
using IntsVar = AttrVar<std::vector<int64_t>>;
/// A float attribute variable.
using FloatVar = AttrVar<float>;

namespace detail {
struct RuleImpl;    // src/rewriter/rule_impl.h
struct MatchState;  // src/rewriter/rule_impl.h
}  // namespace detail

/// A match of a rule's pattern in a graph: what the condition and the
/// replacement read.
class Match {
 public:
  /// The graph value bound to pattern input `input`; throws Error for a name
  /// the rule does not declare. Null for an omitted optional input.
  ir::Value* value(std::string_view input) const;
  /// The tensor of the bound value when it is a constant (an initializer that
  /// is not a graph input, or a Constant node's value), or null.
  const ir::Tensor* constant(std::string_view input) const;
  /// The bound value's type: declared, its constant's, or inferred from the
  /// nodes that compute it (up to 32 back; inference records the types it
  /// finds on those values, which changes no file: only value_info entries
  /// are written). Nullopt when unknown.
  std::optional<ir::Type> type(std::string_view input) const;
  /// The rank of the bound value when its type says it.
  std::optional<int64_t> rank(std::string_view input) const;
  /// The attribute bound to attribute variable `var`, or null when the graph
  /// node does not have it (the schema default applies). Throws Error for a
  /// variable the pattern does not use.
  const ir::Attribute* attribute(std::string_view var) const;
  /// The graph node matched by the pattern node whose output was named
  /// `name` (`.named("bn")` in the pattern); throws Error for an unknown name.
  ir::Node* node(std::string_view name) const;
  /// The matched graph nodes, in the order the pattern's nodes were traced.
  std::vector<ir::Node*> nodes() const;
  /// The model being rewritten.
  const ir::Model& model() const;
  /// The graph the match is in.
  ir::Graph& graph() const;
  /// The version of `domain` the graph's nodes run at (the enclosing
  /// function's import, else the model's), if imported.
  std::optional<int64_t> opset(std::string_view domain = "") const;
  /// Records why the condition refused the match (debug reports show it) and
  /// returns false, for `return m.reject("...")`.
  bool reject(std::string reason) const;

  /// For the rewriter: a view of `state` in `model`'s `graph`.
  Match(const detail::RuleImpl& rule, const detail::MatchState& state, const ir::Model& model,
        ir::Graph& graph, const ir::Function* function);
  /// The reason given to reject(), if any.
  const std::string& rejection() const { return rejection_; }

 private:
  const detail::RuleImpl* rule_;
  const detail::MatchState* state_;
  const ir::Model* model_;
  ir::Graph* graph_;
  const ir::Function* function_;
  mutable std::string rejection_;
};

/// A rule's condition: true to rewrite the match.
using Condition = std::function<bool(const Match&)>;
/// A traced pattern: pattern inputs in, pattern outputs out.
using PatternFn = std::function<std::vector<Value>(std::span<const Value>)>;
/// A traced replacement: the match and the bound inputs in, one value per
/// pattern output out.
using ReplacementFn = std::function<std::vector<Value>(const Match&, std::span<const Value>)>;

/// How a rule matches.
struct RuleOptions {
  /// Match the inputs of commutative operators (Add, Mul, And, Or, Max, Min,
  /// Sum, Equal) in any order.
  bool commute = true;
};

namespace detail {
/// The number of parameters of a callable (a lambda or a function): a
/// lambda's is its call operator's.
template <typename F>
struct Arity : Arity<decltype(&F::operator())> {};
/// A const call operator's parameter count.
template <typename C, typename R, typename... A>
struct Arity<R (C::*)(A...) const> {
  static constexpr size_t value = sizeof...(A);  ///< The count.
};
/// A mutable lambda's call operator's parameter count.
template <typename C, typename R, typename... A>
struct Arity<R (C::*)(A...)> {
  static constexpr size_t value = sizeof...(A);  ///< The count.
};
/// A function pointer's parameter count.
template <typename R, typename... A>
struct Arity<R (*)(A...)> {
  static constexpr size_t value = sizeof...(A);  ///< The count.
};

/// A lambda's result as a list: one Value, a vector, or a tuple/array of Values.
inline std::vector<Value> as_results(Value v) { return {std::move(v)}; }
/// As above, for a vector.
inline std::vector<Value> as_results(std::vector<Value> v) { return v; }
/// As above, for a tuple or array of values.
template <typename T>
requires requires { std::tuple_size<T>::value; }
std::vector<Value> as_results(const T& t) {
  return std::apply([](const auto&... v) { return std::vector<Value>{Value(v)...}; }, t);
}

/// Calls a pattern lambda with the first sizeof...(I) values of `args`.
template <typename F, size_t... I>
std::vector<Value> call_pattern(const F& f, std::span<const Value> args,
                                std::index_sequence<I...>) {
  return as_results(f(args[I]...));
}
/// Calls a replacement lambda with the match, then the values of `args`.
template <typename F, size_t... I>
std::vector<Value> call_replacement(const F& f, const Match& m, std::span<const Value> args,
                                    std::index_sequence<I...>) {
  return as_results(f(m, args[I]...));
}
}  // namespace detail

/// A rewrite rule. Cheap to copy (copies share the traced pattern).
class Rule {
 public:
  /// A rule called `name` over pattern inputs `inputs`. `pattern` takes one
  /// Value per input; `replacement` takes the Match, then one Value per
  /// input, and returns a Value per pattern output (a Value, a vector, or a
  /// tuple). The pattern is traced here; throws Error naming the rule when
  /// the counts disagree or the pattern is not one a matcher can use.
  template <typename P, typename R>
  Rule(std::string name, std::vector<std::string> inputs, P pattern, R replacement,
       Condition condition = {}, RuleOptions options = {})
      : Rule(std::move(name), std::move(inputs), detail::Arity<P>::value,
             PatternFn([pattern](std::span<const Value> a) {
               return detail::call_pattern(pattern, a,
                                           std::make_index_sequence<detail::Arity<P>::value>());
             }),
             ReplacementFn([replacement](const Match& m, std::span<const Value> a) {
               return detail::call_replacement(replacement, m, a,
                                               std::make_index_sequence<detail::Arity<P>::value>());
             }),
             std::move(condition), options) {
    static_assert(detail::Arity<R>::value == detail::Arity<P>::value + 1,
                  "the replacement takes the Match, then the pattern's inputs");
  }
  /// The type-erased form of the constructor above; `arity` is the number of
  /// pattern inputs the functions take.
  Rule(std::string name, std::vector<std::string> inputs, size_t arity, PatternFn pattern,
       ReplacementFn replacement, Condition condition, RuleOptions options);

  /// The rule's name.
  const std::string& name() const;
  /// The traced pattern (inputs named as declared), for printing.
  const ir::Graph& pattern() const;
  /// The shared implementation, for the rewriter.
  const detail::RuleImpl& impl() const { return *impl_; }

 private:
  std::shared_ptr<const detail::RuleImpl> impl_;
};

/// Copies every attribute of `from` onto the node that produces `v` (a value
/// traced by a replacement): for a replacement that keeps an operator's
/// attributes (Conv's strides, pads, ...). The node's output types, which
/// inference gave it without those attributes, are cleared (a replaced
/// pattern output takes the type of the value it replaces). Returns `v`.
Value with_attributes_of(Value v, const ir::Node& from);

}  // namespace onnxscript::rewriter
