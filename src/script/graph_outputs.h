#pragma once
// Making traced results the outputs of a graph, for every graph the eDSL
// builds: script function bodies, If branches, loop bodies and graph(). With
// it, the helpers that control flow shares: errors that name the construct
// and the user's line, nodes appended to the innermost trace, and values
// turned into values of that trace.

#include <source_location>
#include <string>
#include <string_view>
#include <vector>

#include "onnxscript/ir/graph.h"
#include "onnxscript/script/trace.h"
#include "onnxscript/script/value.h"

namespace onnxscript::detail {

/// Throws ScriptError "<construct>: <message> (at file:line)".
[[noreturn]] void fail_construct(std::string_view construct, const std::string& message,
                                 const std::source_location& location);

/// Appends a node of the default domain to the innermost trace (importing
/// that opset), with outputs named from `hint` and `location` as its origin.
ir::Node* append_traced_node(TraceScope& scope, const std::string& op_type,
                             std::vector<ir::Value*> inputs, size_t num_outputs,
                             const std::source_location& location, std::string_view hint = {});

/// `v` as a value of the innermost trace: traced values as they are (null for
/// an omitted value), literals and concrete tensors as Constant nodes
/// (literals of `dtype` unless it is kUndefined, then of their default type).
/// Throws ScriptError, naming `what`, for other concrete values.
ir::Value* traced_of(const Value& v, DataType dtype, TraceScope& scope, std::string_view construct,
                     std::string_view what, const std::source_location& location);

/// Makes `results` the outputs of the graph the innermost scope traces into.
/// An ONNX graph output must be computed in its graph, once: inputs, values
/// of enclosing graphs, nodeless values (initializers) and values returned
/// twice pass through an Identity; literals and tensors become Constants
/// (literal i of `literal_types[i]` when known). Every node made records
/// `location`. Throws ScriptError for an omitted value or a concrete value
/// that is not a tensor.
void set_graph_outputs(TraceScope& scope, const std::vector<Value>& results,
                       const std::vector<DataType>& literal_types, std::string_view construct,
                       const std::source_location& location);

}  // namespace onnxscript::detail
