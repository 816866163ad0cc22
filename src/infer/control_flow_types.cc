// Types of control-flow outputs (If, Loop, Scan, SequenceMap) from their
// inputs and bodies: libonnx infers these only through a graph inferencer,
// and the bodies are typed already when a node is recorded.

#include <algorithm>
#include <string_view>
#include <vector>

#include "onnxscript/infer/infer.h"

namespace onnxscript::infer {

using ir::DataType;

std::optional<ir::Type> merge_types(const std::optional<ir::Type>& a,
                                    const std::optional<ir::Type>& b, bool* conflict) {
  if (!a || !b) {
    // One side unknown: keep what is certain of the other, its kind and
    // element type, not its shape.
    const std::optional<ir::Type>& known = a ? a : b;
    if (!known) return std::nullopt;
    if (known->is_tensor()) return ir::Type::tensor(known->elem_type);
    return known;
  }
  if (a->kind != b->kind) {
    if (conflict) *conflict = true;
    return std::nullopt;
  }
  if (a->is_tensor()) {
    if (a->elem_type != b->elem_type) {
      if (a->elem_type != DataType::kUndefined && b->elem_type != DataType::kUndefined) {
        if (conflict) *conflict = true;
        return std::nullopt;
      }
      return ir::Type::tensor(a->elem_type == DataType::kUndefined ? b->elem_type : a->elem_type);
    }
    if (!a->shape || !b->shape || a->shape->size() != b->shape->size())
      return ir::Type::tensor(a->elem_type);
    ir::Shape shape;
    for (size_t i = 0; i < a->shape->size(); ++i) {
      shape.push_back((*a->shape)[i] == (*b->shape)[i] ? (*a->shape)[i] : ir::Dim());
    }
    return ir::Type::tensor(a->elem_type, std::move(shape));
  }
  if (*a == *b) return a;
  if ((a->kind == ir::TypeKind::kSequence || a->kind == ir::TypeKind::kOptional) && a->element &&
      b->element) {
    std::optional<ir::Type> elem = merge_types(*a->element, *b->element, conflict);
    if (!elem) return std::nullopt;
    return a->kind == ir::TypeKind::kSequence ? ir::Type::sequence(*elem)
                                              : ir::Type::optional(*elem);
  }
  return std::nullopt;
}

namespace {

const ir::Graph* body_attribute(const ir::Node& node, std::string_view name) {
  const ir::Attribute* a = node.attribute(name);
  if (!a || a->is_reference() || a->type != ir::AttributeType::kGraph) return nullptr;
  return a->as_graph().get();
}

std::optional<ir::Type> output_type(const ir::Graph* g, size_t i) {
  if (!g || i >= g->outputs().size()) return std::nullopt;
  return g->outputs()[i]->type();
}

std::optional<ir::Type> input_type(const ir::Node& node, size_t i) {
  if (i >= node.inputs().size() || !node.input(i)) return std::nullopt;
  return node.input(i)->type();
}

// `element` with a dimension `dim` inserted at `axis` (a stacked scan output).
std::optional<ir::Type> stacked(const std::optional<ir::Type>& element, int64_t axis, ir::Dim dim) {
  if (!element || !element->is_tensor()) return std::nullopt;
  if (!element->shape) return ir::Type::tensor(element->elem_type);
  std::vector<ir::Dim> shape = element->shape->to_vector();
  const auto rank = static_cast<int64_t>(shape.size());
  if (axis < 0) axis += rank + 1;
  if (axis < 0 || axis > rank) return ir::Type::tensor(element->elem_type);
  shape.insert(shape.begin() + axis, std::move(dim));
  return ir::Type::tensor(element->elem_type, std::move(shape));
}

void set_if_known(ir::Node& node, size_t i, std::optional<ir::Type> type) {
  if (type && i < node.outputs().size()) node.output(i)->set_type(std::move(type));
}

int64_t int_at(const ir::Node& node, std::string_view name, size_t i, int64_t fallback) {
  const ir::Attribute* a = node.attribute(name);
  if (!a || a->is_reference() || a->type != ir::AttributeType::kInts || i >= a->as_ints().size())
    return fallback;
  return a->as_ints()[i];
}

}  // namespace

void type_from_subgraphs(ir::Node& node) {
  if (!node.domain().empty() && node.domain() != "ai.onnx") return;
  const std::string& op = node.op_type();
  const size_t num_outputs = node.outputs().size();
  if (op == "If") {
    const ir::Graph* then_branch = body_attribute(node, "then_branch");
    const ir::Graph* else_branch = body_attribute(node, "else_branch");
    for (size_t i = 0; i < num_outputs; ++i) {
      set_if_known(node, i, merge_types(output_type(then_branch, i), output_type(else_branch, i)));
    }
  } else if (op == "Loop") {
    const ir::Graph* body = body_attribute(node, "body");
    const size_t carried = node.inputs().size() > 2 ? node.inputs().size() - 2 : 0;
    for (size_t i = 0; i < num_outputs; ++i) {
      if (i < carried) {
        set_if_known(node, i, merge_types(input_type(node, 2 + i), output_type(body, 1 + i)));
      } else {
        set_if_known(node, i, stacked(output_type(body, 1 + i), 0, ir::Dim()));
      }
    }
  } else if (op == "Scan") {
    const ir::Graph* body = body_attribute(node, "body");
    const ir::Attribute* m_attr = node.attribute("num_scan_inputs");
    if (!m_attr || m_attr->is_reference() || m_attr->type != ir::AttributeType::kInt) return;
    const auto m = static_cast<size_t>(std::max<int64_t>(0, m_attr->as_int()));
    if (m > node.inputs().size()) return;
    const size_t states = node.inputs().size() - m;
    // The number of iterations: the first scan input's length along its axis.
    ir::Dim length;
    if (m > 0) {
      if (auto first = input_type(node, states); first && first->is_tensor() && first->shape) {
        int64_t axis = int_at(node, "scan_input_axes", 0, 0);
        const auto rank = static_cast<int64_t>(first->shape->size());
        if (axis < 0) axis += rank;
        if (axis >= 0 && axis < rank) length = (*first->shape)[static_cast<size_t>(axis)];
      }
    }
    for (size_t i = 0; i < num_outputs; ++i) {
      if (i < states) {
        set_if_known(node, i, merge_types(input_type(node, i), output_type(body, i)));
      } else {
        set_if_known(
            node, i,
            stacked(output_type(body, i), int_at(node, "scan_output_axes", i - states, 0), length));
      }
    }
  } else if (op == "SequenceMap") {
    const ir::Graph* body = body_attribute(node, "body");
    // The body is typed for any element, so its output type holds for each.
    for (size_t i = 0; i < num_outputs; ++i) {
      if (std::optional<ir::Type> element = output_type(body, i))
        set_if_known(node, i, ir::Type::sequence(*element));
    }
  }
}

}  // namespace onnxscript::infer
