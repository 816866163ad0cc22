#pragma once
/// \file
/// Hand-checked cases for kernels that have no upstream ONNX backend case (the
/// ai.onnx.ml operators, MaxRoiPool, the window generators' edge cases, ...):
/// a model, its inputs, and outputs derived by hand from the operator
/// specification. Each case is checked three ways: our Session against the
/// expected outputs, ONNX Runtime 1.30 against the same expected outputs, and
/// so, by transitivity, the two implementations against each other.

#include <string>
#include <vector>

#include "onnxscript/eval/conformance.h"
#include "onnxscript/eval/runtime_value.h"
#include "onnxscript/ir/model.h"

namespace onnxscript::testing {

/// One case. `expected` holds one value per graph output, in order.
struct ReferenceCase {
  std::string name;                          ///< Shown in failure messages.
  ir::Model model;                           ///< Usually a single node.
  std::vector<eval::RuntimeValue> inputs;    ///< Bound positionally to the graph inputs.
  std::vector<eval::RuntimeValue> expected;  ///< Derived from the specification.
  eval::Tolerance tolerance{1e-5, 1e-6};     ///< For floating point outputs.
  /// Non-empty when ONNX Runtime cannot run the case, saying why (its Node.js
  /// binding cannot pass maps, sequences or optionals; ONNX Runtime lacks the
  /// operator). The case then runs in our Session only.
  std::string not_in_onnxruntime_because;
};

/// A tensor type with static dimensions.
ir::Type tensor_type(ir::DataType dtype, const std::vector<int64_t>& dims);

/// Runs `c` in a Session and, unless excluded, in ONNX Runtime, and records a
/// GoogleTest failure for each output that differs from `c.expected`.
void expect_reference_case(const ReferenceCase& c);

/// A model of one node `domain.op_type` (opset `version` of `domain`, plus
/// ai.onnx 17 when `domain` is another one) whose inputs and outputs are
/// graph inputs and outputs with the given names and types. An empty input
/// name is an omitted optional input.
ir::Model single_node_model(const std::string& domain, const std::string& op_type, int64_t version,
                            const std::vector<std::pair<std::string, ir::Type>>& inputs,
                            const std::vector<std::pair<std::string, ir::Type>>& outputs,
                            std::vector<ir::Attribute> attributes = {});

}  // namespace onnxscript::testing
