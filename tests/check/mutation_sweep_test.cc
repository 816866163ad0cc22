// Agreement beyond acceptance: every model of the libonnx 1.12 node suite is
// broken three ways (an unknown attribute, a required attribute removed, one
// input too many on its first node that admits the mutation), and libonnx and
// the validator must both reject each broken model.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "onnxscript/check/check.h"
#include "onnxscript/ir/ir.h"
#include "onnxscript/schema/operator_schema.h"
#include "onnxscript/serde/check.h"
#include "onnxscript/serde/serde.h"

namespace onnxscript {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> node_models() {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(ONNX_TESTDATA_DIR) / "node"))
    if (e.is_regular_file() && e.path().extension() == ".onnx") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

const schema::OperatorSchema* schema_of(const ir::Model& model, const ir::Node& node) {
  const auto version = model.opset_imports.find(node.domain());
  if (!version) return nullptr;
  return schema::find_schema(node.domain(), node.op_type(), *version);
}

// Applies `mutate` to the first main-graph node it accepts (returns true for);
// false when no node accepts it.
bool mutate_first(ir::Model& model,
                  const std::function<bool(ir::Node&, const schema::OperatorSchema&)>& mutate) {
  for (ir::Node* node : model.graph().nodes()) {
    const schema::OperatorSchema* s = schema_of(model, *node);
    if (s && mutate(*node, *s)) return true;
  }
  return false;
}

struct Sweep {
  size_t mutated = 0, both_reject = 0, libonnx_lenient = 0;
};

// The one disagreement the sweep finds, and why the validator is right:
// libonnx 1.12 accepts any unknown attribute on LayerNormalization-17, whose
// schema it registers as allowing unchecked attributes, while the operator's
// specification defines axis, epsilon and stash_type only (ONNX Operators.md,
// LayerNormalization-17). The validator rejects the attribute.
bool libonnx_allows_unknown_attributes(const ir::Model& model) {
  for (const ir::Node* node : model.graph().nodes())
    if (node->op_type() == "LayerNormalization" && node->domain().empty()) return true;
  return false;
}

void sweep(const char* what,
           const std::function<bool(ir::Node&, const schema::OperatorSchema&)>& mutate,
           Sweep& counts, bool unknown_attribute = false) {
  for (const fs::path& path : node_models()) {
    ir::Model model = serde::load_model(path);
    if (!mutate_first(model, mutate)) continue;
    SCOPED_TRACE(std::string(what) + ": " + path.string());
    ++counts.mutated;
    const bool ours = !check::validate_model(model).empty();
    const bool theirs = !serde::check_with_libonnx(model).empty();
    EXPECT_TRUE(ours) << "the validator accepts it";
    if (unknown_attribute && libonnx_allows_unknown_attributes(model)) {
      EXPECT_FALSE(theirs) << "libonnx now rejects it: remove the exception";
      ++counts.libonnx_lenient;
      continue;
    }
    EXPECT_TRUE(theirs) << "libonnx accepts it";
    if (ours && theirs) ++counts.both_reject;
  }
}

TEST(CheckMutationSweep, AnUnknownAttribute) {
  Sweep counts;
  sweep(
      "unknown attribute",
      [](ir::Node& node, const schema::OperatorSchema&) {
        node.set_attribute(ir::Attribute::make_int("onnxscript_no_such_attribute", 1));
        return true;
      },
      counts, /*unknown_attribute=*/true);
  EXPECT_GT(counts.mutated, 900u);
  // The LayerNormalization models of the suite (see above).
  EXPECT_EQ(counts.libonnx_lenient, 19u);
  EXPECT_EQ(counts.both_reject + counts.libonnx_lenient, counts.mutated);
}

TEST(CheckMutationSweep, ARequiredAttributeRemoved) {
  Sweep counts;
  sweep(
      "required attribute removed",
      [](ir::Node& node, const schema::OperatorSchema& s) {
        for (const schema::AttributeSchema& a : s.attributes)
          if (a.required && node.remove_attribute(a.name)) return true;
        return false;
      },
      counts);
  EXPECT_GT(counts.mutated, 100u);
  EXPECT_EQ(counts.both_reject, counts.mutated);
}

TEST(CheckMutationSweep, OneInputTooMany) {
  Sweep counts;
  sweep(
      "one input too many",
      [](ir::Node& node, const schema::OperatorSchema& s) {
        if (s.max_input == schema::kUnbounded || node.inputs().empty() || !node.input(0) ||
            static_cast<int64_t>(node.inputs().size()) != s.max_input)
          return false;
        node.append_input(node.input(0));
        return true;
      },
      counts);
  EXPECT_GT(counts.mutated, 300u);
  EXPECT_EQ(counts.both_reject, counts.mutated);
}

TEST(CheckMutationSweep, AGraphInputTypeOutsideItsConstraint) {
  // The first node that reads a tensor graph input through a type parameter
  // gets it retyped to an element type the parameter does not allow.
  Sweep counts;
  for (const fs::path& path : node_models()) {
    ir::Model model = serde::load_model(path);
    bool mutated = false;
    for (ir::Node* node : model.graph().nodes()) {
      const schema::OperatorSchema* s = schema_of(model, *node);
      if (!s || node->inputs().empty() || s->inputs.empty()) continue;
      ir::Value* in = node->input(0);
      const schema::TypeConstraint* c = s->constraint(s->inputs[0].type);
      if (!in || !in->is_graph_input() || in->const_value() || !c || !in->type() ||
          !in->type()->is_tensor())
        continue;
      for (ir::DataType candidate : {ir::DataType::kString, ir::DataType::kBool,
                                     ir::DataType::kComplex128, ir::DataType::kUint16}) {
        const std::string name = "tensor(" + std::string(ir::data_type_name(candidate)) + ")";
        if (std::find(c->allowed.begin(), c->allowed.end(), name) != c->allowed.end()) continue;
        in->set_type(ir::Type::tensor(candidate, in->type()->shape));
        mutated = true;
        break;
      }
      break;  // only the first such node
    }
    if (!mutated) continue;
    SCOPED_TRACE(path.string());
    ++counts.mutated;
    const std::vector<std::string> ours = check::validate_model(model);
    const std::vector<std::string> theirs = serde::check_with_libonnx(model);
    EXPECT_FALSE(ours.empty()) << "the validator accepts it";
    EXPECT_FALSE(theirs.empty()) << "libonnx accepts it";
    if (!ours.empty() && !theirs.empty()) ++counts.both_reject;
  }
  EXPECT_GT(counts.mutated, 500u);
  EXPECT_EQ(counts.both_reject, counts.mutated);
}

}  // namespace
}  // namespace onnxscript
