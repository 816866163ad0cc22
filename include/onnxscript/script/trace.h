#pragma once
/// \file
/// Tracing: while a TraceScope is active, operator calls on traced values
/// record nodes into its graph. (Concrete values computed eagerly need no
/// scope: each is shared by the Values that refer to it; see value.h.)

#include <cstdint>
#include <optional>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

#include "onnxscript/ir/model.h"
#include "onnxscript/script/value.h"

namespace onnxscript {

/// How graphs are built on this thread. Change it through ScopedTraceOptions.
struct TraceOptions {
  /// Type each recorded node's outputs with libonnx's per-operator inference
  /// (opsets <= 17), so values know their element type and shape as the graph
  /// grows and mistakes are reported at the user's line. Turning it off makes
  /// building several times faster; types then come only from declarations.
  bool infer_types = true;
  /// Stamp each recorded node with the user's "file:line" as node metadata
  /// (key "onnxscript.source"). Off by default: node metadata needs IR
  /// version 10, which libonnx 1.12's checker does not read.
  bool record_source_locations = false;
};

/// The options in force on this thread.
const TraceOptions& trace_options();

/// Sets the trace options for its lifetime, then restores the previous ones.
class ScopedTraceOptions {
 public:
  /// Installs `options`.
  explicit ScopedTraceOptions(TraceOptions options);
  ~ScopedTraceOptions();
  ScopedTraceOptions(const ScopedTraceOptions&) = delete;
  ScopedTraceOptions& operator=(const ScopedTraceOptions&) = delete;

 private:
  TraceOptions previous_;
};

/// Where initializer() made one initializer of a traced graph.
struct InitializerOrigin {
  const ir::Value* value;         ///< The initializer.
  std::source_location location;  ///< The user's call.
};

/// Records operator calls into `graph` while alive. Scopes nest (a subgraph's
/// scope inside its parent's); the innermost one receives new nodes.
class TraceScope {
 public:
  /// How a scope relates to the one it is opened inside.
  enum class Nesting : uint8_t {
    /// A function body or model graph: numbers its values from 0 and keeps
    /// its own opset imports, so its text does not depend on when it was
    /// traced.
    kRoot,
    /// A subgraph (If branch, Loop body): continues the enclosing scope's
    /// numbering, so names stay unique across the graph, and reports the
    /// opsets it uses to it, since subgraphs share their graph's imports.
    kSubgraph,
  };

  /// Starts tracing into `graph`. Opset versions used are collected in `opsets`.
  TraceScope(ir::Graph& graph, ir::OpsetImports& opsets, Nesting nesting = Nesting::kRoot);
  ~TraceScope();
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;

  /// The innermost active scope on this thread, or null.
  static TraceScope* current();

  /// The graph receiving nodes.
  ir::Graph& graph() { return graph_; }
  /// How this scope relates to the one it was opened inside.
  Nesting nesting() const { return nesting_; }
  /// Records that `domain` is used at `version`; throws Error when another
  /// version of the domain was already used in this trace, unless that one
  /// was only the default (use_default_onnx_opset), which `version` replaces.
  void use_opset(std::string_view domain, int64_t version);
  /// What operator overloads (`+`, `<`), literals' constants, indexing and
  /// graph outputs declare: ai.onnx at `version` (default_opset_version())
  /// when this trace uses no version of it yet. Their operators mean the same
  /// in every opset from 17 on, so the version stays provisional: the first
  /// explicit use of another version (an `opset18::` call) replaces it, and
  /// `X * 0.5` before `op::Erf(X)` works at any opset.
  void use_default_onnx_opset(int64_t version);
  /// The ai.onnx version this trace or, for a subgraph, an enclosing one
  /// uses, if any.
  std::optional<int64_t> onnx_opset() const;
  /// The opset imports collected so far.
  const ir::OpsetImports& opsets() const { return opsets_; }
  /// A fresh, readable value name, unique in this trace ("t0", "t1", ...,
  /// or "<hint>_<n>").
  std::string fresh_name(std::string_view hint = {});
  /// Has initializer() append where it makes each initializer of this
  /// scope's graph to `*sink` (null, the default: nowhere). A function body's
  /// initializers become Constant nodes once it is traced, and those nodes
  /// take their origin from here; a model's graph keeps its initializers and
  /// pays nothing.
  void collect_initializer_origins(std::vector<InitializerOrigin>* sink) {
    initializer_origins_ = sink;
  }
  /// Where initializer() reports the initializers it makes, or null.
  std::vector<InitializerOrigin>* initializer_origins() const { return initializer_origins_; }

 private:
  ir::Graph& graph_;
  ir::OpsetImports& opsets_;
  TraceScope* parent_;
  Nesting nesting_;
  std::vector<InitializerOrigin>* initializer_origins_ = nullptr;
  // The opset last declared, to settle the usual repeat (every operator
  // call declares its opset) without searching the imports.
  std::string last_domain_;
  int64_t last_version_ = -1;
  // The ai.onnx version was set by use_default_onnx_opset, not by an
  // explicit call: another version may still replace it.
  bool onnx_opset_provisional_ = false;
  int64_t next_id_ = 0;
  // The decimal digits of the last number named, so that the next one, the
  // usual case, is an increment of the text rather than a conversion.
  int64_t spelled_id_ = 0;
  uint8_t spelled_length_ = 1;
  char spelled_digits_[20] = {'0'};
};

}  // namespace onnxscript
