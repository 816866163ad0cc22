#include "interop/reference_case.h"

#include <gtest/gtest.h>

#include <exception>
#include <memory>

#include "interop/ort_runner.h"
#include "onnxscript/eval/session.h"
#include "onnxscript/ir/graph.h"

namespace onnxscript::testing {
namespace {

// Compares each output with the expected value and reports every difference.
void expect_outputs(const ReferenceCase& c, const std::vector<eval::RuntimeValue>& actual,
                    const char* who) {
  ASSERT_EQ(actual.size(), c.expected.size()) << c.name << " (" << who << "): output count";
  for (size_t i = 0; i < actual.size(); ++i) {
    const std::string what = c.name + " (" + who + ") output " + std::to_string(i);
    const std::string diff = eval::compare_values(c.expected[i], actual[i], c.tolerance, what);
    EXPECT_EQ(diff, "") << "expected " << c.expected[i].describe() << ", got "
                        << actual[i].describe();
  }
}

}  // namespace

ir::Type tensor_type(ir::DataType dtype, const std::vector<int64_t>& dims) {
  ir::Shape shape;
  for (int64_t d : dims) shape.push_back(ir::Dim(d));
  return ir::Type::tensor(dtype, shape);
}

void expect_reference_case(const ReferenceCase& c) {
  SCOPED_TRACE(c.name);
  try {
    // The session borrows the case's model, which outlives it.
    const eval::Session session(
        std::shared_ptr<const ir::Model>(&c.model, [](const ir::Model*) {}));
    expect_outputs(c, session.run(c.inputs), "session");
  } catch (const std::exception& e) {
    ADD_FAILURE() << c.name << " (session) threw: " << e.what();
  }
  if (!c.not_in_onnxruntime_because.empty()) return;
  ASSERT_TRUE(onnxruntime_available()) << onnxruntime_unavailable_reason();
  std::vector<ir::Tensor> tensors;
  for (const eval::RuntimeValue& v : c.inputs) {
    ASSERT_TRUE(v.is_tensor()) << c.name
                               << ": ONNX Runtime's binding takes tensors only; set "
                                  "not_in_onnxruntime_because";
    tensors.push_back(v.tensor());
  }
  try {
    expect_outputs(c, run_in_onnxruntime(c.model, tensors), "onnxruntime");
  } catch (const std::exception& e) {
    ADD_FAILURE() << c.name << " (onnxruntime) threw: " << e.what();
  }
}

ir::Model single_node_model(const std::string& domain, const std::string& op_type, int64_t version,
                            const std::vector<std::pair<std::string, ir::Type>>& inputs,
                            const std::vector<std::pair<std::string, ir::Type>>& outputs,
                            std::vector<ir::Attribute> attributes) {
  ir::Model model;
  model.ir_version = 8;
  model.producer_name = "onnxscript-tests";
  if (domain.empty()) {
    model.opset_imports.set("", version);
  } else {
    model.opset_imports.set("", 17);
    model.opset_imports.set(domain, version);
  }
  ir::Graph& graph = model.graph();
  graph.set_name(op_type + "_case");
  std::vector<ir::Value*> node_inputs;
  for (const auto& [name, type] : inputs) {
    node_inputs.push_back(name.empty() ? nullptr : graph.add_input(name, type));
  }
  ir::Node* node = graph.append_node(op_type, node_inputs, outputs.size(), domain);
  for (ir::Attribute& a : attributes) node->set_attribute(std::move(a));
  for (size_t i = 0; i < outputs.size(); ++i) {
    ir::Value* out = node->output(i);
    out->set_name(outputs[i].first);
    out->set_type(outputs[i].second);
    graph.outputs().push_back(out);
  }
  return model;
}

}  // namespace onnxscript::testing
