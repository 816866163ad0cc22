#pragma once
// Groups of nodes the Session runs as one step (SessionOptions::optimize).
//
// Planning a graph finds the groups first; the planner then skips every
// member but the last and puts one step in that member's place. The model
// itself is never changed: a fusion only decides how a plan runs it. The
// patterns are those the exporters emit for common layers:
// - Conv -> BatchNormalization: the normalization's scale and shift are
//   folded into new Conv weights and bias, computed once here;
// - Conv [-> BatchNormalization] -> Relu | Clip | LeakyRelu | Sigmoid: one
//   onnxscript.internal::FusedConv step, which applies the activation as it
//   writes the output (when the build has that kernel);
// - the Erf form of Gelu, x * 0.5 * (1 + erf(x / sqrt(2))) as
//   torch.onnx.export writes it: one Gelu step (ONNX's Gelu-20 kernel);
// - MatMul by a constant matrix -> Add of a constant row bias: one
//   onnxscript.internal::MatMulAdd step, the bias written under the GEMM;
// - Add -> Relu (a residual block's end): one onnxscript.internal::AddRelu.
// A group is formed only where nothing outside it reads the values inside
// it, so skipping those values changes nothing a caller can see.
#include <optional>
#include <string_view>
#include <vector>

#include "onnxscript/eval/kernel.h"
#include "onnxscript/eval/runtime_value.h"
#include "onnxscript/ir/graph.h"
#include "onnxscript/ir/model.h"

namespace onnxscript::eval::detail {

/// An input of a fused step: a value of the graph, a constant made when
/// planning (folded weights), or nothing (an omitted optional input).
struct FusedInput {
  const ir::Value* value = nullptr;
  std::optional<RuntimeValue> constant;
};

/// One group of nodes run as one kernel call.
struct Fusion {
  const ir::Node* first = nullptr;       ///< names the step in errors (the group's main node)
  const ir::Node* last = nullptr;        ///< the step takes this node's place in the order
  std::vector<const ir::Node*> members;  ///< every node of the group, `last` included
  OpId op{};                             ///< the operator the step reports (views of literals)
  KernelFn fn = nullptr;
  std::vector<FusedInput> inputs;
  std::vector<const ir::Value*> outputs;
  std::vector<ir::Attribute> attributes;
};

/// The groups of `graph` (not of its subgraphs: they are planned, and
/// searched, on their own). `opsets` are those the graph's nodes resolve
/// against. Nodes are in at most one group.
std::vector<Fusion> find_fusions(const ir::Graph& graph, const ir::OpsetImports& opsets);

/// Whether running `op` twice on the same inputs gives the same outputs, so
/// that a node whose inputs are all constants may be run once when planning.
bool is_deterministic(std::string_view domain, std::string_view op_type);

}  // namespace onnxscript::eval::detail
