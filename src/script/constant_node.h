#pragma once
// Constant nodes for the tensors a trace captures: literals, concrete
// tensors passed to operators, and the constants control flow needs.

#include <source_location>
#include <span>
#include <string_view>

#include "onnxscript/ir/graph.h"
#include "onnxscript/script/trace.h"

namespace onnxscript::detail {

/// Appends a Constant node holding `value` to the innermost trace's graph and
/// returns its output, typed from the tensor (no inference needed) and named
/// from `hint`. Records `location` as the node's origin, and in its metadata
/// when the trace options ask for it. Leaves the opset imports alone.
ir::Value* append_constant(TraceScope& scope, ir::Tensor value,
                           const std::source_location& location, std::string_view hint = "const");

/// The type of a value holding `value`: a tensor of its element type and
/// shape. The reference stays valid until the next call on this thread.
const ir::Type& tensor_value_type(const ir::Tensor& value);

/// Replaces each initializer of `graph` with a Constant node that defines the
/// same name with the same value, at the start of the graph, in initializer
/// order: what a function body needs, since FunctionProto has no
/// initializers (see initializer() in onnxscript/script/initializer.h).
/// Each Constant made for an initializer listed in `origins` records that
/// origin, as a Constant traced at that line would.
void initializers_to_constant_nodes(ir::Graph& graph,
                                    std::span<const InitializerOrigin> origins = {});

}  // namespace onnxscript::detail
