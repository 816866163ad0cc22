#pragma once
// Graph-valued attributes between the eDSL and the rest of the system:
//  - graphs that graph() builds outside any trace ("detached" graphs) carry
//    the opsets and script functions they use, so that a model that receives
//    them imports those opsets and keeps those functions;
//  - a detached graph is copied, with fresh names, into every trace that uses
//    it, so one Graph can serve several nodes of a model (ONNX names must be
//    unique across a graph and its subgraphs);
//  - eager calls of operators with graph attributes (op::Scan on tensors)
//    run through a Session planned for that one node;
//  - nodes with graph attributes (If, Loop, Scan, SequenceMap) are typed from
//    their bodies, since libonnx's per-node inference cannot see subgraphs.

#include <cstdint>
#include <memory>
#include <source_location>
#include <span>
#include <string_view>
#include <vector>

#include "onnxscript/eval/runtime_value.h"
#include "onnxscript/ir/graph.h"
#include "onnxscript/ir/model.h"
#include "onnxscript/script/function.h"

namespace onnxscript::detail {

// What a detached graph uses beyond its nodes.
struct DetachedGraphInfo {
  ir::OpsetImports opsets;        // opsets its nodes (and nested graphs) use
  std::vector<Function> callees;  // script functions it calls directly
};

// A new graph whose shared_ptr carries `info` (see detached_info()).
std::shared_ptr<ir::Graph> make_detached_graph(std::string name,
                                               std::shared_ptr<DetachedGraphInfo> info);

// The info of a graph made by make_detached_graph, or null.
const DetachedGraphInfo* detached_info(const std::shared_ptr<ir::Graph>& graph);

// True when some attribute holds a graph (or graphs).
bool has_graph_attribute(std::span<const ir::Attribute> attributes);

// True when some attribute holds a graph that was built inside a trace (it may
// read values of that trace, so a node using it must be recorded, not run).
bool has_attached_graph(std::span<const ir::Attribute> attributes);

// Before recording a node into the innermost trace: replaces each detached
// graph by a copy with fresh names, and registers its opsets and callees with
// the trace.
void prepare_graph_attributes(std::vector<ir::Attribute>& attributes);

// Runs one operator with graph attributes on concrete inputs, through a
// Session planned for that single node (the evaluator's control-flow kernels
// need a graph runner, which only a Session has).
std::vector<eval::RuntimeValue> run_with_subgraphs(std::string_view domain,
                                                   std::string_view op_type, int64_t opset_version,
                                                   std::span<const eval::RuntimeValue> inputs,
                                                   std::span<const ir::Attribute> attributes,
                                                   size_t num_outputs);

}  // namespace onnxscript::detail
