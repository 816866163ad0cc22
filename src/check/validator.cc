// The project's validator: structure (single assignment, definitions before
// use, scoping, opset imports, element types per IR version) and each node
// against the run-time operator-schema table.

#include "check/validator.h"

#include <algorithm>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "onnxscript/check/check.h"
#include "onnxscript/ir/tensor.h"
#include "onnxscript/schema/operator_schema.h"
#include "onnxscript/support/error.h"

namespace onnxscript::check {

namespace detail {

std::string_view normalize_domain(std::string_view domain) {
  return domain == "ai.onnx" ? std::string_view() : domain;
}

OpsetMap opset_map(const ir::OpsetImports& imports) {
  OpsetMap map;
  for (const auto& [domain, version] : imports.entries())
    map[std::string(normalize_domain(domain))] = version;
  return map;
}

std::string describe_node(const ir::Node& node, size_t index) {
  const std::string op =
      node.domain().empty() ? node.op_type() : node.domain() + "." + node.op_type();
  if (node.name().empty()) return fmt::format("node {} ({})", index, op);
  return fmt::format("node {} ('{}', {})", index, node.name(), op);
}

}  // namespace detail

namespace {

using detail::describe_node;
using detail::normalize_domain;
using detail::OpsetMap;

std::string domain_label(std::string_view domain) {
  return domain.empty() ? "ai.onnx" : std::string(domain);
}

// The names a graph defines, with the enclosing graphs' behind them: a
// subgraph may read outer names but not define them again.
class Scope {
 public:
  explicit Scope(const Scope* parent) : parent_(parent) {}
  bool here(const std::string& name) const { return names_.count(name) != 0; }
  bool visible(const std::string& name) const {
    return here(name) || (parent_ && parent_->visible(name));
  }
  void define(const std::string& name) { names_.insert(name); }

 private:
  std::unordered_set<std::string> names_;
  const Scope* parent_;
};

// A value's type: the declared one, or an initializer's from its tensor.
std::optional<ir::Type> value_type(const ir::Value* v) {
  if (!v) return std::nullopt;
  if (v->type()) return v->type();
  if (const ir::Tensor* t = v->const_value()) {
    ir::Shape shape;
    for (int64_t d : t->shape()) shape.push_back(ir::Dim(d));
    return ir::Type::tensor(t->dtype(), std::move(shape));
  }
  return std::nullopt;
}

// The allowed types of a constraint for a message: the first few, since
// some parameters admit sixty.
std::string allowed_text(std::span<const std::string_view> items) {
  constexpr size_t kShown = 8;
  std::string out;
  for (size_t i = 0; i < items.size() && i < kShown; ++i) {
    if (!out.empty()) out += ", ";
    out += items[i];
  }
  if (items.size() > kShown) out += fmt::format(", ... ({} in all)", items.size());
  return out;
}

class Validator {
 public:
  Validator(const ir::Model& model, std::vector<std::string>& errors)
      : model_(model), errors_(errors) {}

  void run() {
    if (model_.ir_version < 1)
      error("model: ir_version is not set (the model must say which IR version it follows)");
    if (model_.ir_version >= 3 && model_.opset_imports.empty())
      error("model: no opset_import (a model of IR version 3 or later must import its opsets)");
    check_imports(model_.opset_imports, "model");
    const OpsetMap opsets = detail::opset_map(model_.opset_imports);
    check_graph(model_.graph(), opsets, nullptr, "main graph", nullptr, true);
    std::set<std::tuple<std::string, std::string, std::string>> seen;
    for (const auto& f : model_.functions()) {
      const std::string where =
          fmt::format("function '{}.{}'", domain_label(f->domain), f->name) +
          (f->overload.empty() ? "" : fmt::format(" overload '{}'", f->overload));
      if (!seen.emplace(f->domain, f->name, f->overload).second)
        error(
            fmt::format("{}: defined twice (a model-local function is identified by domain, "
                        "name and overload)",
                        where));
      check_imports(f->opset_imports, where);
      check_graph(f->body(), detail::opset_map(f->opset_imports), nullptr, where, f.get(), false);
    }
  }

 private:
  void error(std::string message) { errors_.push_back(std::move(message)); }

  void check_imports(const ir::OpsetImports& imports, const std::string& where) {
    std::set<std::string> domains;
    for (const auto& [domain, version] : imports.entries()) {
      if (!domains.insert(std::string(normalize_domain(domain))).second)
        error(fmt::format("{}: domain '{}' is imported twice", where, domain_label(domain)));
      const schema::DomainRange* range = schema::find_domain(domain);
      if (range && version < range->min_version)
        error(fmt::format("{}: opset {} {} does not exist (the domain starts at {})", where,
                          domain_label(domain), version, range->min_version));
    }
  }

  // The element types a value may hold depend on the IR version.
  void check_ir_version(const std::optional<ir::Type>& type, const std::string& what) {
    if (!type) return;
    const int64_t needed = ir::min_ir_version(*type);
    if (needed > model_.ir_version)
      error(fmt::format("{} has type {}, which needs IR version {}; the model is IR version {}",
                        what, type->to_string(), needed, model_.ir_version));
  }

  void check_graph(const ir::Graph& g, const OpsetMap& opsets, const Scope* outer,
                   const std::string& where, const ir::Function* function, bool main) {
    Scope scope(outer);
    const bool typed = function == nullptr && main;
    for (size_t i = 0; i < g.inputs().size(); ++i) {
      const ir::Value* v = g.inputs()[i];
      if (v->name().empty()) {
        error(fmt::format("{}: input {} has no name", where, i));
        continue;
      }
      if (scope.here(v->name()))
        error(fmt::format("{}: input '{}' is defined twice (each name is assigned once)", where,
                          v->name()));
      scope.define(v->name());
      if (typed) check_declared(v, fmt::format("{}: input '{}'", where, v->name()));
      check_ir_version(v->type(), fmt::format("{}: input '{}'", where, v->name()));
    }
    std::unordered_set<std::string> initializers;
    for (const ir::Value* v : g.initializers()) {
      if (!initializers.insert(v->name()).second)
        error(fmt::format("{}: initializer '{}' is given twice", where, v->name()));
      const bool is_input = scope.here(v->name());
      if (!is_input && model_.ir_version < 4)
        error(
            fmt::format("{}: initializer '{}' is not a graph input (before IR version 4 every "
                        "initializer must be one)",
                        where, v->name()));
      if (!is_input) scope.define(v->name());
      if (const ir::Tensor* t = v->const_value()) {
        const int64_t needed = ir::min_ir_version(*t);
        if (needed > model_.ir_version)
          error(fmt::format(
              "{}: initializer '{}' has element type {}, which needs IR version {}; "
              "the model is IR version {}",
              where, v->name(), ir::data_type_name(t->dtype()), needed, model_.ir_version));
      }
    }
    for (const ir::Value* v : g.sparse_initializers()) {
      if (!initializers.insert(v->name()).second)
        error(fmt::format("{}: initializer '{}' is given twice", where, v->name()));
      if (!scope.here(v->name())) scope.define(v->name());
    }
    size_t index = 0;
    for (const ir::Node* node : g.nodes())
      check_node(*node, index++, opsets, scope, where, function);
    for (size_t i = 0; i < g.outputs().size(); ++i) {
      const ir::Value* v = g.outputs()[i];
      if (!v || v->name().empty()) {
        error(fmt::format("{}: output {} has no name", where, i));
        continue;
      }
      if (!scope.visible(v->name()))
        error(
            fmt::format("{}: output '{}' is not defined (no input, initializer or node output "
                        "of that name)",
                        where, v->name()));
      // The value's element type is checked where it is defined.
      if (typed) check_declared(v, fmt::format("{}: output '{}'", where, v->name()));
    }
    for (const ir::Value* v : g.value_info())
      check_ir_version(v->type(), fmt::format("{}: value '{}'", where, v->name()));
  }

  // The main graph's inputs and outputs carry a complete type.
  void check_declared(const ir::Value* v, const std::string& what) {
    const std::optional<ir::Type>& t = v->type();
    if (!t || t->kind == ir::TypeKind::kUnspecified) {
      error(fmt::format("{} has no type (the main graph's inputs and outputs must declare one)",
                        what));
    } else if ((t->kind == ir::TypeKind::kTensor || t->kind == ir::TypeKind::kSparseTensor) &&
               t->elem_type == ir::DataType::kUndefined) {
      error(fmt::format("{} has no element type", what));
    }
  }

  void check_node(const ir::Node& node, size_t index, const OpsetMap& opsets, Scope& scope,
                  const std::string& where, const ir::Function* function) {
    const std::string at = fmt::format("{}: {}", where, describe_node(node, index));
    const auto inputs = node.inputs();
    for (size_t i = 0; i < inputs.size(); ++i) {
      const ir::Value* v = inputs[i];
      if (!v || v->name().empty()) continue;  // an omitted optional input
      if (!scope.visible(v->name()))
        error(
            fmt::format("{}: input {} '{}' is not defined before this node (no graph input, "
                        "initializer or earlier node output of that name)",
                        at, i, v->name()));
    }
    for (const ir::Attribute& a : node.attributes()) {
      if (a.is_reference()) {
        check_reference(a, at, function);
        continue;
      }
      if (a.type == ir::AttributeType::kGraph || a.type == ir::AttributeType::kGraphs) {
        const std::vector<std::shared_ptr<ir::Graph>> graphs =
            a.type == ir::AttributeType::kGraph ? std::vector{a.as_graph()} : a.as_graphs();
        for (size_t k = 0; k < graphs.size(); ++k) {
          const std::string name = a.type == ir::AttributeType::kGraph
                                       ? fmt::format("{} attribute '{}'", at, a.name)
                                       : fmt::format("{} attribute '{}'[{}]", at, a.name, k);
          if (!graphs[k])
            error(fmt::format("{} holds no graph", name));
          else
            check_graph(*graphs[k], opsets, &scope, name, function, false);
        }
      } else {
        const int64_t needed = ir::min_ir_version(a, [](const ir::Graph&) { return int64_t{3}; });
        if (needed > model_.ir_version)
          error(
              fmt::format("{}: attribute '{}' holds a value that needs IR version {}; the model "
                          "is IR version {}",
                          at, a.name, needed, model_.ir_version));
      }
    }
    const auto outputs = node.outputs();
    for (size_t i = 0; i < outputs.size(); ++i) {
      const ir::Value* v = outputs[i];
      if (!v || v->name().empty()) continue;  // an omitted optional output
      if (scope.visible(v->name()))
        error(
            fmt::format("{}: output {} '{}' is defined twice (each name is assigned once, in "
                        "this graph and the graphs around it)",
                        at, i, v->name()));
      scope.define(v->name());
      check_ir_version(v->type(), fmt::format("{}: output {} '{}'", at, i, v->name()));
    }

    const std::string domain(normalize_domain(node.domain()));
    const auto imported = opsets.find(domain);
    if (imported == opsets.end()) {
      error(fmt::format("{}: domain '{}' is used but not imported (no opset_import for it)", at,
                        domain_label(domain)));
      return;
    }
    if (const ir::Function* callee =
            model_.find_function(node.domain(), node.op_type(), node.overload())) {
      check_call(node, *callee, at);
      return;
    }
    const schema::DomainRange* range = schema::find_domain(domain);
    if (!range || imported->second > range->max_version) return;  // not in the table
    const schema::OperatorSchema* s = schema::find_schema(domain, node.op_type(), imported->second);
    if (!s) {
      error(fmt::format("{}: no operator '{}' in domain '{}' at opset {}", at, node.op_type(),
                        domain_label(domain), imported->second));
      return;
    }
    check_against_schema(node, *s, at);
  }

  void check_reference(const ir::Attribute& a, const std::string& at,
                       const ir::Function* function) {
    if (!function) {
      error(
          fmt::format("{}: attribute '{}' refers to '{}', but only a function body may refer "
                      "to attributes",
                      at, a.name, a.ref_attr_name));
      return;
    }
    const auto& names = function->attribute_names;
    const bool declared =
        std::find(names.begin(), names.end(), a.ref_attr_name) != names.end() ||
        std::any_of(function->attribute_defaults.begin(), function->attribute_defaults.end(),
                    [&](const ir::Attribute& d) { return d.name == a.ref_attr_name; });
    if (!declared)
      error(fmt::format("{}: attribute '{}' refers to '{}', which the function does not declare",
                        at, a.name, a.ref_attr_name));
  }

  void check_call(const ir::Node& node, const ir::Function& callee, const std::string& at) {
    const ir::Graph& body = callee.body();
    if (node.inputs().size() > body.inputs().size())
      error(fmt::format("{}: {} inputs given, but function '{}' takes {}", at, node.inputs().size(),
                        callee.name, body.inputs().size()));
    if (node.outputs().size() > body.outputs().size())
      error(fmt::format("{}: {} outputs asked for, but function '{}' has {}", at,
                        node.outputs().size(), callee.name, body.outputs().size()));
  }

  static std::string bound_text(int32_t n) {
    return n == schema::kUnbounded ? "unbounded" : std::to_string(n);
  }

  void check_against_schema(const ir::Node& node, const schema::OperatorSchema& s,
                            const std::string& at) {
    const std::string op = fmt::format("{}-{}", s.name, s.since_version);
    if (s.deprecated)
      error(
          fmt::format("{}: {} is deprecated (the operator was removed from its domain at "
                      "version {})",
                      at, op, s.since_version));
    const auto inputs = node.inputs();
    const auto outputs = node.outputs();
    const auto n_in = static_cast<int64_t>(inputs.size());
    const auto n_out = static_cast<int64_t>(outputs.size());
    if (n_in < s.min_input || n_in > s.max_input)
      error(fmt::format("{}: {} inputs given, but {} takes between {} and {}", at, n_in, op,
                        s.min_input, bound_text(s.max_input)));
    if (n_out < s.min_output || n_out > s.max_output)
      error(fmt::format("{}: {} outputs given, but {} has between {} and {}", at, n_out, op,
                        s.min_output, bound_text(s.max_output)));

    for (const ir::Attribute& a : node.attributes()) {
      const schema::AttributeSchema* expected = s.attribute(a.name);
      if (!expected) {
        error(fmt::format("{}: unknown attribute '{}' ({} has no such attribute)", at, a.name, op));
        continue;
      }
      if (a.type == ir::AttributeType::kUndefined) {
        if (!a.is_reference()) error(fmt::format("{}: attribute '{}' has no type", at, a.name));
        continue;
      }
      if (static_cast<int32_t>(a.type) != expected->type)
        error(fmt::format("{}: attribute '{}' has type {}, but {} expects {}", at, a.name,
                          ir::attribute_type_name(a.type), op,
                          ir::attribute_type_name(static_cast<ir::AttributeType>(expected->type))));
    }
    for (const schema::AttributeSchema& expected : s.attributes) {
      if (expected.required && !node.attribute(expected.name))
        error(fmt::format("{}: required attribute '{}' of {} is missing", at, expected.name, op));
    }

    // Type-constraint binding over inputs and outputs together: the values of
    // one (homogeneous) type parameter share one type, and the parameter
    // allows it.
    std::unordered_map<std::string_view, std::pair<std::string, std::string>> bound;
    auto bind = [&](std::span<const schema::FormalParameter> formals,
                    std::span<ir::Value* const> actuals, const char* kind) {
      for (size_t i = 0; i < actuals.size() && !formals.empty(); ++i) {
        const size_t f_index = std::min(i, formals.size() - 1);
        if (i >= formals.size() && !formals.back().variadic) break;
        const schema::FormalParameter& formal = formals[f_index];
        const ir::Value* v = actuals[i];
        if (!v || v->name().empty()) {
          if (!formal.optional && !formal.variadic)
            error(fmt::format("{}: {} {} ('{}' of {}) is required but omitted", at, kind, i,
                              formal.name, op));
          continue;
        }
        const std::optional<ir::Type> type = value_type(v);
        if (!type) continue;
        const std::string actual = canonical_type_string(*type);
        if (actual.empty()) continue;  // a partial type says nothing to check
        const std::string what = fmt::format("{} {} '{}'", kind, i, v->name());
        const schema::TypeConstraint* c = s.constraint(formal.type);
        if (!c) {
          if (formal.type.find('(') != std::string_view::npos && actual != formal.type)
            error(fmt::format("{}: {} has type {}, but {} requires {} for '{}'", at, what, actual,
                              op, formal.type, formal.name));
          continue;
        }
        if (std::find(c->allowed.begin(), c->allowed.end(), actual) == c->allowed.end()) {
          error(
              fmt::format("{}: {} has type {}, which type parameter {} of {} does not allow "
                          "(allowed: {})",
                          at, what, actual, c->name, op, allowed_text(c->allowed)));
          continue;
        }
        if (formal.heterogeneous) continue;
        auto [it, first] = bound.try_emplace(c->name, actual, what);
        if (!first && it->second.first != actual)
          error(
              fmt::format("{}: type parameter {} of {} is bound to different types: {} by {} "
                          "and {} by {}",
                          at, c->name, op, it->second.first, it->second.second, actual, what));
      }
    };
    bind(s.inputs, inputs, "input");
    bind(s.outputs, outputs, "output");
  }

  const ir::Model& model_;
  std::vector<std::string>& errors_;
};

}  // namespace

namespace detail {

void validate_structure_and_schemas(const ir::Model& model, std::vector<std::string>& errors) {
  try {
    Validator(model, errors).run();
  } catch (const Error& e) {
    // An IR the library itself finds inconsistent (an attribute whose value
    // is not of its declared type): report it rather than throw out of check.
    errors.push_back(fmt::format("model: cannot be validated: {}", e.what()));
  }
}

}  // namespace detail

std::string canonical_type_string(const ir::Type& type) {
  switch (type.kind) {
    case ir::TypeKind::kTensor:
    case ir::TypeKind::kSparseTensor: {
      if (type.elem_type == ir::DataType::kUndefined) return "";
      const char* head = type.kind == ir::TypeKind::kTensor ? "tensor" : "sparse_tensor";
      return fmt::format("{}({})", head, ir::data_type_name(type.elem_type));
    }
    case ir::TypeKind::kSequence:
    case ir::TypeKind::kOptional: {
      if (!type.element) return "";
      const std::string inner = canonical_type_string(*type.element);
      if (inner.empty()) return "";
      return fmt::format("{}({})", type.kind == ir::TypeKind::kSequence ? "seq" : "optional",
                         inner);
    }
    case ir::TypeKind::kMap: {
      if (!type.element || type.elem_type == ir::DataType::kUndefined) return "";
      const std::string value = canonical_type_string(*type.element);
      if (value.empty()) return "";
      return fmt::format("map({},{})", ir::data_type_name(type.elem_type), value);
    }
    default:
      return "";
  }
}

}  // namespace onnxscript::check
