#pragma once
// Where the user built a traced node: every path that appends a node to a
// trace (operator calls, constants, control flow, script-function calls)
// records it the same way.

#include <source_location>

#include "onnxscript/ir/graph.h"
#include "onnxscript/script/op_call.h"
#include "onnxscript/script/trace.h"

namespace onnxscript::detail {

/// Records `location` as the node's origin (messages about the node name the
/// user's line), and in its metadata as "onnxscript.source" when the trace
/// options ask for exported nodes to carry it.
inline void mark_origin(ir::Node& node, const std::source_location& location) {
  node.origin = location;
  if (trace_options().record_source_locations)
    node.mutable_metadata_props().emplace_back("onnxscript.source", where(location));
}

}  // namespace onnxscript::detail
