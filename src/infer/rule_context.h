#pragma once
// What a rule of the project's own sees of a node, and the helpers rules
// share. Rules for operator versions beyond libonnx 1.12 are written against
// ir::Node and ir::Type directly (rules_beyond_libonnx.h says which rule
// types which version).
//
// A rule types what it can and leaves the rest untyped: an output whose
// shape needs data that is not a constant gets its element type and, where
// it is known, its rank. A rule calls fail() when the node is definitely
// wrong; infer_node_outputs reports that as an InferenceError when every
// input type is known, and otherwise leaves the node untyped (the failure may
// come from missing information).

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "infer/inference_memo.h"
#include "onnxscript/ir/graph.h"

namespace onnxscript::infer {

// Thrown by RuleContext::fail; infer_node_outputs turns it into an
// InferenceError (or ignores it when some input type is unknown).
class RuleFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One node under inference: its inputs, attributes and constant operands,
// and the output types the rule sets.
class RuleContext {
 public:
  explicit RuleContext(const ir::Node& node) : node_(node), outputs_(node.outputs().size()) {}

  const ir::Node& node() const { return node_; }
  size_t num_inputs() const { return node_.inputs().size(); }
  size_t num_outputs() const { return outputs_.size(); }
  // True when input `i` is given (not past the end, not an omitted optional).
  bool has_input(size_t i) const { return i < num_inputs() && node_.input(i) != nullptr; }
  // The type of input `i`; null when it is omitted or its type is unknown.
  const ir::Type* input_type(size_t i) const;
  // The type of input `i` when it is a tensor type; null otherwise.
  const ir::Type* tensor_input(size_t i) const;
  // The shape of tensor input `i`; null when the rank is unknown.
  const ir::Shape* input_shape(size_t i) const;
  // The values of input `i` when it is a constant integer tensor (an
  // initializer or a Constant node's output); nullopt otherwise. Asking
  // makes the result depend on data, so it is not memoized.
  std::optional<std::vector<int64_t>> input_ints(size_t i);
  // The values of constant floating-point input `i`, as doubles.
  std::optional<std::vector<double>> input_floats(size_t i);

  // Attribute accessors: the default when the attribute is absent.
  int64_t attr_int(std::string_view name, int64_t fallback) const;
  float attr_float(std::string_view name, float fallback) const;
  std::string attr_string(std::string_view name, std::string fallback) const;
  std::optional<std::vector<int64_t>> attr_ints(std::string_view name) const;
  bool has_attr(std::string_view name) const { return node_.attribute(name) != nullptr; }
  // A required int attribute: fails when absent.
  int64_t required_int(std::string_view name);

  // Sets the type of output `i` (ignored past the node's outputs).
  void set_output(size_t i, ir::Type type);
  // Output `i` gets the type of input `j` when that is known.
  void copy_input_type(size_t j, size_t i);

  // Rejects the node: `message` says what is wrong (the operator's name and
  // input types are added by the caller).
  [[noreturn]] void fail(const std::string& message) const { throw RuleFailure(message); }

  bool data_requested() const { return data_requested_; }
  InferredTypes& outputs() { return outputs_; }

 private:
  const ir::Node& node_;
  InferredTypes outputs_;
  bool data_requested_ = false;
};

// The value of `v` when it is known while building: an initializer, or the
// output of a Constant node holding a tensor. Null otherwise.
const ir::Tensor* known_data(const ir::Value* v);

// A rule of the project's own.
using OwnRule = void (*)(RuleContext&);

// --- Shape helpers shared by the rules ---

// The product of two dimensions: static when both are, else unknown.
ir::Dim dim_mul(const ir::Dim& a, const ir::Dim& b);
// `a` / `b` when both are static and `b` divides `a`; unknown otherwise.
// Fails when both are static and `b` does not divide `a` (`what` names them).
ir::Dim dim_div(RuleContext& ctx, const ir::Dim& a, const ir::Dim& b, std::string_view what);
// `a` + `b` when both are static; unknown otherwise.
ir::Dim dim_add(const ir::Dim& a, const ir::Dim& b);
// The common dimension of two that must agree: fails when both are static
// and differ; otherwise the more precise of the two.
ir::Dim unify_dim(RuleContext& ctx, const ir::Dim& a, const ir::Dim& b, std::string_view what);
// `axis` in [0, rank) from [-rank, rank); fails outside.
int64_t normalize_axis(RuleContext& ctx, int64_t axis, int64_t rank, std::string_view what);
// The multidirectional broadcast of two shapes (numpy rules); fails when two
// static dimensions differ and neither is 1.
ir::Shape broadcast_shapes(RuleContext& ctx, const ir::Shape& a, const ir::Shape& b);
// Fails unless tensor input `i`, when its rank is known, has rank `rank`.
void require_rank(RuleContext& ctx, size_t i, size_t rank, std::string_view name);

}  // namespace onnxscript::infer
