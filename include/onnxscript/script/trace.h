#pragma once
/// \file
/// The two contexts a script body runs in. While a TraceScope is active,
/// operator calls on traced values record nodes into its graph. Concrete
/// values computed eagerly live in the innermost EagerScope.

#include <cstdint>
#include <string>
#include <string_view>

#include "onnxscript/ir/model.h"
#include "onnxscript/script/value.h"

namespace onnxscript {

/// Records operator calls into `graph` while alive. Scopes nest (a subgraph's
/// scope inside its parent's); the innermost one receives new nodes.
class TraceScope {
 public:
  /// Starts tracing into `graph`. Opset versions used are collected in `opsets`.
  TraceScope(ir::Graph& graph, ir::OpsetImports& opsets);
  ~TraceScope();
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;

  /// The innermost active scope on this thread, or null.
  static TraceScope* current();

  /// The graph receiving nodes.
  ir::Graph& graph() { return graph_; }
  /// Records that `domain` is used at `version`; throws Error when another
  /// version of the domain was already used in this trace.
  void use_opset(std::string_view domain, int64_t version);
  /// The opset imports collected so far.
  const ir::OpsetImports& opsets() const { return opsets_; }
  /// A fresh, readable value name, unique in this trace ("t0", "t1", ...,
  /// or "<hint>_<n>").
  std::string fresh_name(std::string_view hint = {});

 private:
  ir::Graph& graph_;
  ir::OpsetImports& opsets_;
  TraceScope* parent_;
  int64_t next_id_ = 0;
};

/// Owns the concrete values created while alive. Each thread has an implicit
/// outermost scope; a Function call runs its body inside its own scope, so
/// intermediate tensors are released when the call returns.
class EagerScope {
 public:
  EagerScope();
  ~EagerScope();
  EagerScope(const EagerScope&) = delete;
  EagerScope& operator=(const EagerScope&) = delete;

  /// Keeps `value` alive until this scope ends and returns a stable pointer to it.
  static const eval::RuntimeValue* hold(eval::RuntimeValue value);

 private:
  struct Arena;
  Arena* arena_;
  EagerScope* parent_;
};

}  // namespace onnxscript
