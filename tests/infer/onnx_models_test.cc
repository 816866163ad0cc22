// Confirmation of the inference rules against ONNX 1.22's node test models
// (tests/data/onnx-1.22/node): their graph inputs, outputs and value_info
// declare the types ONNX's own inference gives. Each model's main graph is
// typed again from its inputs alone, node by node in order, and every
// declared type is compared with what our rules give. The `_expanded` cases
// hold a function's body inlined into the main graph, so they check the
// rules of the operators a function is made of.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "onnxscript/infer/infer.h"
#include "onnxscript/serde/serde.h"

namespace onnxscript {
namespace {

namespace fs = std::filesystem;

// Declared outputs the rules cannot type, with the reason. Keyed by case and
// value name.
const std::map<std::pair<std::string, std::string>, std::string>& exclusions() {
  static const std::map<std::pair<std::string, std::string>, std::string> table = {};
  return table;
}

struct Totals {
  int models = 0, nodes = 0, compared = 0;
};

// Differences between a declared type and an inferred one, or "" when they
// agree: kind, element type, rank when both are known, and each dimension
// when both are static.
std::string compare_types(const ir::Type& declared, const ir::Type& inferred) {
  if (declared.kind != inferred.kind)
    return fmt::format("declared {}, inferred {}", declared.to_string(), inferred.to_string());
  if (declared.kind == ir::TypeKind::kTensor || declared.kind == ir::TypeKind::kSparseTensor) {
    if (declared.elem_type != inferred.elem_type)
      return fmt::format("element type: declared {}, inferred {}", declared.to_string(),
                         inferred.to_string());
    if (!declared.shape || !inferred.shape) return "";
    if (declared.shape->size() != inferred.shape->size())
      return fmt::format("rank: declared {}, inferred {}", declared.to_string(),
                         inferred.to_string());
    for (size_t k = 0; k < declared.shape->size(); ++k) {
      const ir::Dim& a = (*declared.shape)[k];
      const ir::Dim& b = (*inferred.shape)[k];
      if (a.is_static() && b.is_static() && a.value() != b.value())
        return fmt::format("dimension {}: declared {}, inferred {}", k, declared.to_string(),
                           inferred.to_string());
    }
    return "";
  }
  if (declared.element && inferred.element)
    return compare_types(*declared.element, *inferred.element);
  return "";
}

// Forgets the type of every value a node of `g` (or of a body) computes.
void clear_node_types(ir::Graph& g) {
  for (ir::Node* node : g.nodes()) {
    for (ir::Graph* body : node->subgraphs()) clear_node_types(*body);
    for (ir::Value* v : node->outputs()) v->set_type(std::nullopt);
  }
}

// ONNX types a Loop's or Scan's body inputs that declare no type from the
// node's inputs; the eDSL always declares them. The test does as ONNX does
// for the models that leave them out.
void type_body_inputs(const ir::Node& node) {
  const std::string& op = node.op_type();
  if (op != "Loop" && op != "Scan") return;
  const ir::Attribute* a = node.attribute("body");
  if (!a || a->type != ir::AttributeType::kGraph) return;
  ir::Graph& body = *a->as_graph();
  auto fill = [&](size_t formal, const ir::Value* actual, bool drop_axis) {
    if (formal >= body.inputs().size() || !actual || !actual->type()) return;
    ir::Value* in = body.inputs()[formal];
    if (in->type() && in->type()->kind != ir::TypeKind::kUnspecified) return;
    ir::Type t = *actual->type();
    // A scan input's element: the scanned axis (0 unless given) removed.
    if (drop_axis && t.shape && !t.shape->empty()) {
      std::vector<ir::Dim> dims = t.shape->to_vector();
      dims.erase(dims.begin());
      t.shape = ir::Shape(dims);
    }
    in->set_type(t);
  };
  if (op == "Loop") {
    for (size_t i = 2; i < node.inputs().size(); ++i) fill(i, node.input(i), false);
    return;
  }
  const ir::Attribute* m = node.attribute("num_scan_inputs");
  if (!m || node.attribute("scan_input_axes")) return;
  const size_t scans = static_cast<size_t>(m->as_int());
  const size_t states = node.inputs().size() - scans;
  for (size_t i = 0; i < node.inputs().size(); ++i) fill(i, node.input(i), i >= states);
}

// Types the nodes of `g` in order (bodies first), from the types of its
// inputs and initializers alone. Returns the first rejection, or "".
std::string retype_graph(ir::Graph& g, const ir::OpsetImports& opsets, Totals& totals) {
  for (ir::Node* node : g.nodes()) {
    type_body_inputs(*node);
    for (ir::Graph* body : node->subgraphs()) {
      std::string error = retype_graph(*body, opsets, totals);
      if (!error.empty()) return error;
    }
    const std::optional<int64_t> version = opsets.find(node->domain());
    if (!version)
      return fmt::format("{}: no opset for domain '{}'", node->op_type(), node->domain());
    try {
      infer::infer_node_outputs(*node, *version);
    } catch (const std::exception& e) {
      return e.what();
    }
    ++totals.nodes;
  }
  return "";
}

std::string describe(const std::optional<ir::Type>& t) { return t ? t->to_string() : "untyped"; }

TEST(OnnxModels, InferredTypesMatchTheDeclaredOnes) {
  const fs::path root = fs::path(ONNXSCRIPT_TEST_DATA_DIR) / "onnx-1.22" / "node";
  std::vector<fs::path> cases;
  for (const fs::directory_entry& e : fs::directory_iterator(root))
    if (fs::exists(e.path() / "model.onnx")) cases.push_back(e.path());
  std::sort(cases.begin(), cases.end());
  ASSERT_GT(cases.size(), 800u);

  Totals totals;
  std::set<std::pair<std::string, std::string>> excluded_seen;
  std::vector<std::string> failures;
  for (const fs::path& dir : cases) {
    const std::string name = dir.filename().string();
    ir::Model model = serde::load_model(dir / "model.onnx");
    ir::Graph& g = model.graph();
    // What the model declares, by value, before it is forgotten.
    std::vector<std::pair<ir::Value*, ir::Type>> declared;
    auto note = [&](ir::Value* v) {
      if (v->producer() && v->type() && v->type()->kind != ir::TypeKind::kUnspecified)
        declared.emplace_back(v, *v->type());
    };
    for (ir::Value* v : g.outputs()) note(v);
    for (ir::Value* v : g.value_info()) note(v);
    clear_node_types(g);
    ++totals.models;
    if (std::string error = retype_graph(g, model.opset_imports, totals); !error.empty()) {
      failures.push_back(fmt::format("{}: rejected: {}", name, error));
      continue;
    }
    for (const auto& [value, type] : declared) {
      ++totals.compared;
      const auto key = std::make_pair(name, value->name());
      const std::optional<ir::Type>& got = value->type();
      std::string problem;
      if (!got || got->kind == ir::TypeKind::kUnspecified) {
        problem = fmt::format("declared {}, left untyped", type.to_string());
      } else {
        problem = compare_types(type, *got);
      }
      if (problem.empty()) continue;
      if (exclusions().count(key)) {
        excluded_seen.insert(key);
        continue;
      }
      failures.push_back(fmt::format("{}: {} ({} by {}): {}", name, value->name(), describe(got),
                                     value->producer()->op_type(), problem));
    }
  }
  std::printf(
      "inference against ONNX 1.22's models: %d models, %d nodes, %d declared types "
      "compared, %zu excluded\n",
      totals.models, totals.nodes, totals.compared, excluded_seen.size());
  for (const std::string& f : failures) ADD_FAILURE() << f;
  // An exclusion that no longer applies is stale.
  for (const auto& [key, reason] : exclusions())
    EXPECT_TRUE(excluded_seen.count(key))
        << key.first << ": " << key.second << " is typed right now; drop its exclusion";
}

}  // namespace
}  // namespace onnxscript
