#pragma once
/// \file
/// What a kernel sees: KernelContext (inputs, attributes, outputs, subgraph
/// execution) and the registry that maps (domain, operator, version) to kernels.
///
/// Writing a kernel: add src/eval/kernels/<category>/<op>.cc defining
///     void register_<category>_<file stem>(KernelRegistry& registry)
/// which calls registry.add(...) once per schema version it implements. The
/// build generates the table that calls every such function (see
/// src/CMakeLists.txt); there are no static initializers to lose.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "onnxscript/eval/runtime_value.h"
#include "onnxscript/ir/attribute.h"

namespace onnxscript::ir {
class Graph;
class Node;
}  // namespace onnxscript::ir

namespace onnxscript::eval {

/// Identity of the operator being run.
struct OpId {
  std::string_view domain;   ///< "" for ai.onnx.
  std::string_view op_type;  ///< e.g. "Add".
  int64_t version;           ///< The opset version the model imports for the domain.
};

/// Runs graphs on behalf of control-flow kernels (If, Loop, Scan, SequenceMap).
/// Implemented by the Session and by eager mode; it resolves outer-scope
/// references of the subgraph.
class GraphRunner {
 public:
  virtual ~GraphRunner() = default;
  /// Runs `graph` with its inputs bound to `inputs` and returns its outputs.
  virtual std::vector<RuntimeValue> run(const ir::Graph& graph,
                                        std::span<const RuntimeValue> inputs) = 0;
};

/// Errors raised by kernels: wrong input types or shapes, bad attribute values.
/// The message names the operator.
class KernelError : public Error {
 public:
  using Error::Error;
};

/// Everything a kernel needs for one call. Attribute references to function
/// attributes are resolved before a kernel sees them.
class KernelContext {
 public:
  /// A context over caller-owned spans; `outputs` must be sized to the node's outputs.
  KernelContext(OpId op, std::span<const RuntimeValue> inputs, std::span<RuntimeValue> outputs,
                std::span<const ir::Attribute> attributes, GraphRunner* runner = nullptr)
      : op_(op),
        num_inputs_(inputs.size()),
        input_values_(inputs.data()),
        outputs_(outputs),
        attributes_(attributes),
        runner_(runner) {}
  /// A context whose inputs are pointed to (null: omitted), for callers that
  /// hold their values elsewhere and should not copy them (eager calls).
  KernelContext(OpId op, std::span<const RuntimeValue* const> inputs,
                std::span<RuntimeValue> outputs, std::span<const ir::Attribute> attributes,
                GraphRunner* runner = nullptr)
      : op_(op),
        num_inputs_(inputs.size()),
        input_pointers_(inputs.data()),
        outputs_(outputs),
        attributes_(attributes),
        runner_(runner) {}

  /// The operator being run.
  const OpId& op() const { return op_; }
  /// The imported opset version of the operator's domain.
  int64_t version() const { return op_.version; }

  // ---- inputs ----
  /// Number of inputs given (trailing omitted ones may be absent).
  size_t num_inputs() const { return num_inputs_; }
  /// True when input `i` exists and is not omitted.
  bool has_input(size_t i) const { return !input(i).is_none(); }
  /// Input `i`; kNone when omitted or absent.
  const RuntimeValue& input(size_t i) const;
  /// Input `i` as a tensor; throws KernelError naming the operator when it is
  /// missing or not a tensor.
  const Tensor& input_tensor(size_t i) const;

  // ---- outputs ----
  /// Number of outputs the node has.
  size_t num_outputs() const { return outputs_.size(); }
  /// Sets output `i`.
  void set_output(size_t i, RuntimeValue value);

  // ---- attributes ----
  /// The attribute called `name`, or null.
  const ir::Attribute* attribute(std::string_view name) const;
  /// Integer attribute or `fallback` when absent.
  int64_t attr_int(std::string_view name, int64_t fallback) const;
  /// Float attribute or `fallback` when absent.
  float attr_float(std::string_view name, float fallback) const;
  /// String attribute or `fallback` when absent.
  std::string attr_string(std::string_view name, std::string_view fallback) const;
  /// Integer list attribute, or `fallback` when absent.
  std::vector<int64_t> attr_ints(std::string_view name, std::vector<int64_t> fallback = {}) const;
  /// Float list attribute, or `fallback` when absent.
  std::vector<float> attr_floats(std::string_view name, std::vector<float> fallback = {}) const;
  /// The attribute, which must be present; throws KernelError otherwise.
  const ir::Attribute& required_attribute(std::string_view name) const;

  // ---- subgraphs ----
  /// Runs a subgraph (graph attribute of this node). Throws KernelError when
  /// this context has no runner.
  std::vector<RuntimeValue> run_graph(const ir::Graph& graph,
                                      std::span<const RuntimeValue> inputs) const;

  // ---- the enclosing graph ----
  /// The graph node being run, or null (eager mode, or a caller that does not
  /// say). For operators defined over the graph around them: Gradient
  /// (ai.onnx.preview.training) differentiates nodes named by its attributes.
  const ir::Node* node() const { return node_; }
  /// Sets the node being run; the Session does this for every node.
  void set_node(const ir::Node* node) { node_ = node; }

  /// Throws KernelError with "<op_type>: <message>".
  [[noreturn]] void fail(const std::string& message) const;

 private:
  OpId op_;
  size_t num_inputs_;
  // Exactly one of the two is set, by the constructor used.
  const RuntimeValue* input_values_ = nullptr;
  const RuntimeValue* const* input_pointers_ = nullptr;
  std::span<RuntimeValue> outputs_;
  std::span<const ir::Attribute> attributes_;
  GraphRunner* runner_;
  const ir::Node* node_ = nullptr;
};

/// A kernel: reads its inputs and attributes from the context and sets outputs.
using KernelFn = void (*)(KernelContext& context);

/// Maps (domain, operator, opset version) to kernels.
///
/// For an operator the since-version table knows (schema_versions.h: every
/// ONNX operator through opset 28), a kernel registered at `since_version`
/// serves exactly the schema version that starts there: the opsets from
/// `since_version` up to the operator's next schema version. An opset that
/// selects a newer schema version, with no kernel registered at it, finds
/// nothing: a node never runs an older version's semantics silently.
///
/// For an operator the table does not know (custom domains), a kernel
/// registered at `since_version` serves every version from there up to the
/// next registered version of the same operator.
class KernelRegistry {
 public:
  /// Registers `fn` for `op_type` in `domain` from `since_version` on. For an
  /// operator the table knows, `since_version` must be one of its schema
  /// versions.
  void add(std::string_view domain, std::string_view op_type, int64_t since_version, KernelFn fn);
  /// The kernel for the operator at the imported opset `version`, or null.
  /// For a known operator, only a kernel registered at exactly the schema
  /// version `version` selects (schema_version()) is returned.
  KernelFn find(std::string_view domain, std::string_view op_type, int64_t version) const;
  /// Every registration as (domain, op_type, since_version), sorted.
  std::vector<std::tuple<std::string, std::string, int64_t>> entries() const;

  /// The registry holding every built-in kernel (filled once, from the generated table).
  static const KernelRegistry& builtin();

 private:
  // Lookup is on every eager operator call, so it must not compare strings
  // along a binary search: operators are hashed once per call, and the few
  // domains are scanned.
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept {
      return std::hash<std::string_view>{}(s);
    }
  };
  /// One operator's kernels, sorted by since_version, and its schema versions
  /// from the since-version table (empty for an operator the table does not know).
  struct Versions {
    std::vector<std::pair<int64_t, KernelFn>> kernels;
    std::span<const int64_t> schema;
  };
  using OpMap = std::unordered_map<std::string, Versions, StringHash, std::equal_to<>>;
  /// Per domain ("" for ai.onnx), its operators.
  std::vector<std::pair<std::string, OpMap>> domains_;
};

}  // namespace onnxscript::eval
