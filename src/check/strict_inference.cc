// Strict inference: each node of a copy of the model is typed by
// onnxscript::infer in order, and the declared types must agree with what the
// rules infer.

#include <optional>

#include <fmt/format.h>

#include "check/validator.h"
#include "onnxscript/infer/infer.h"
#include "onnxscript/serde/serde.h"

namespace onnxscript::check::detail {

namespace {

// Why two types of one value cannot both hold, or empty when they can: kinds,
// element types, ranks and static dimensions must agree where both are known.
std::string contradiction(const ir::Type& declared, const ir::Type& inferred) {
  if (declared.kind == ir::TypeKind::kUnspecified || inferred.kind == ir::TypeKind::kUnspecified)
    return "";
  if (declared.kind != inferred.kind) return "the kinds differ";
  if (declared.elem_type != ir::DataType::kUndefined &&
      inferred.elem_type != ir::DataType::kUndefined && declared.elem_type != inferred.elem_type)
    return "the element types differ";
  if (declared.shape && inferred.shape) {
    if (declared.shape->size() != inferred.shape->size()) return "the ranks differ";
    for (size_t i = 0; i < declared.shape->size(); ++i) {
      const ir::Dim& a = (*declared.shape)[i];
      const ir::Dim& b = (*inferred.shape)[i];
      if (a.is_static() && b.is_static() && a.value() != b.value())
        return fmt::format("dimension {} differs", i);
    }
  }
  if (declared.element && inferred.element)
    return contradiction(*declared.element, *inferred.element);
  return "";
}

// The more informative of two agreeing types: what inference found, unless
// the declaration knows a shape it does not.
const ir::Type& richer(const ir::Type& declared, const ir::Type& inferred) {
  if (inferred.kind == ir::TypeKind::kUnspecified) return declared;
  if (declared.shape && !inferred.shape) return declared;
  return inferred;
}

class StrictInference {
 public:
  explicit StrictInference(std::vector<std::string>& errors) : errors_(errors) {}

  void graph(ir::Graph& g, const OpsetMap& opsets, const std::string& where) {
    size_t index = 0;
    for (ir::Node* node : g.nodes()) {
      const std::string at = fmt::format("{}: {}", where, describe_node(*node, index++));
      for (const ir::Attribute& a : node->attributes()) {
        if (a.is_reference()) continue;
        if (a.type == ir::AttributeType::kGraph && a.as_graph())
          graph(*a.as_graph(), opsets, fmt::format("{} attribute '{}'", at, a.name));
        if (a.type == ir::AttributeType::kGraphs)
          for (size_t k = 0; k < a.as_graphs().size(); ++k)
            if (a.as_graphs()[k])
              graph(*a.as_graphs()[k], opsets, fmt::format("{} attribute '{}'[{}]", at, a.name, k));
      }
      const auto version = opsets.find(std::string(normalize_domain(node->domain())));
      if (version == opsets.end()) continue;  // reported by the structural checks
      node_(*node, version->second, at);
    }
  }

 private:
  void node_(ir::Node& node, int64_t version, const std::string& at) {
    std::vector<std::optional<ir::Type>> declared;
    for (const ir::Value* out : node.outputs())
      declared.push_back(out ? out->type() : std::nullopt);
    try {
      infer::infer_node_outputs(node, version);
    } catch (const Error& e) {
      errors_.push_back(fmt::format("{}: strict inference rejects the node: {}", at, e.what()));
      return;
    }
    for (size_t i = 0; i < declared.size(); ++i) {
      ir::Value* out = node.output(i);
      if (!out || !declared[i]) continue;
      const std::optional<ir::Type> inferred = out->type();
      if (!inferred) {
        out->set_type(declared[i]);
        continue;
      }
      const std::string why = contradiction(*declared[i], *inferred);
      if (!why.empty()) {
        errors_.push_back(
            fmt::format("{}: output {} '{}' is declared {} but inference gives {} ({})", at, i,
                        out->name(), declared[i]->to_string(), inferred->to_string(), why));
        continue;
      }
      out->set_type(richer(*declared[i], *inferred));
    }
  }

  std::vector<std::string>& errors_;
};

}  // namespace

void check_strict_inference(const ir::Model& model, std::vector<std::string>& errors) {
  // Inference writes the types it finds into the nodes' outputs; the caller's
  // model stays as it is, so work on a copy.
  ir::Model copy;
  try {
    copy = serde::load_model_from_bytes(serde::serialize_model(model));
  } catch (const Error& e) {
    errors.push_back(fmt::format("model: cannot be copied for strict inference: {}", e.what()));
    return;
  }
  const size_t before = errors.size();
  StrictInference(errors).graph(copy.graph(), opset_map(copy.opset_imports), "main graph");
  // The inferred types meet the schemas too: a Constant-1 holding int64 is
  // typed tensor(int64), which its type parameter does not allow. The caller
  // checked the declared types already, so what this pass finds is new.
  if (errors.size() == before) validate_structure_and_schemas(copy, errors);
}

}  // namespace onnxscript::check::detail
