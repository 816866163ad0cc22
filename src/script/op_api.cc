#include "onnxscript/script/op_api.h"

#include <fmt/format.h>

#include "onnxscript/ir/graph.h"
#include "script/opset_support.h"

namespace onnxscript {

size_t Graph::num_outputs() const { return graph_ ? graph_->outputs().size() : 0; }

namespace detail {

namespace {

// Writes the field when the caller set it or it refers to a function
// attribute; `make` builds the attribute from the value.
template <typename T, typename Make>
void add(std::vector<ir::Attribute>& out, std::string_view name, ir::AttributeType type,
         const AttrField<T>& field, Make make) {
  if (!field.reference_name().empty()) {
    out.push_back(ir::Attribute::make_reference(std::string(name), type,
                                                std::string(field.reference_name())));
  } else if (field.has_value() && !field.is_default()) {
    out.push_back(make(std::string(name), field.value()));
  }
}

// Attributes without a named factory in ir::Attribute.
template <typename T>
auto generic(ir::AttributeType type) {
  return [type](std::string name, const T& value) {
    return ir::Attribute(std::move(name), type, value);
  };
}

}  // namespace

void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<float>& field) {
  add(out, name, ir::AttributeType::kFloat, field, &ir::Attribute::make_float);
}
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<int64_t>& field) {
  add(out, name, ir::AttributeType::kInt, field, &ir::Attribute::make_int);
}
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<std::string>& field) {
  add(out, name, ir::AttributeType::kString, field, &ir::Attribute::make_string);
}
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<Tensor>& field) {
  add(out, name, ir::AttributeType::kTensor, field, &ir::Attribute::make_tensor);
}
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<Graph>& field) {
  add(out, name, ir::AttributeType::kGraph, field, [](std::string n, const Graph& g) {
    return ir::Attribute::make_graph(std::move(n), g.ir_graph());
  });
}
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<ir::SparseTensor>& field) {
  add(out, name, ir::AttributeType::kSparseTensor, field,
      generic<ir::SparseTensor>(ir::AttributeType::kSparseTensor));
}
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<ir::Type>& field) {
  add(out, name, ir::AttributeType::kTypeProto, field,
      generic<ir::Type>(ir::AttributeType::kTypeProto));
}
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<std::vector<float>>& field) {
  add(out, name, ir::AttributeType::kFloats, field, &ir::Attribute::make_floats);
}
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<std::vector<int64_t>>& field) {
  add(out, name, ir::AttributeType::kInts, field, &ir::Attribute::make_ints);
}
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<std::vector<std::string>>& field) {
  add(out, name, ir::AttributeType::kStrings, field, &ir::Attribute::make_strings);
}
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<std::vector<Tensor>>& field) {
  add(out, name, ir::AttributeType::kTensors, field,
      generic<std::vector<Tensor>>(ir::AttributeType::kTensors));
}
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<std::vector<Graph>>& field) {
  add(out, name, ir::AttributeType::kGraphs, field,
      [](std::string n, const std::vector<Graph>& graphs) {
        std::vector<std::shared_ptr<ir::Graph>> ir_graphs;
        ir_graphs.reserve(graphs.size());
        for (const Graph& g : graphs) ir_graphs.push_back(g.ir_graph());
        return ir::Attribute(std::move(n), ir::AttributeType::kGraphs, std::move(ir_graphs));
      });
}
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<std::vector<ir::SparseTensor>>& field) {
  add(out, name, ir::AttributeType::kSparseTensors, field,
      generic<std::vector<ir::SparseTensor>>(ir::AttributeType::kSparseTensors));
}
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<std::vector<ir::Type>>& field) {
  add(out, name, ir::AttributeType::kTypeProtos, field,
      generic<std::vector<ir::Type>>(ir::AttributeType::kTypeProtos));
}

void throw_unpack_mismatch(size_t expected, size_t actual) {
  throw Error(fmt::format("unpack<{}>: the operator returned {} values", expected, actual));
}

std::span<const Value> trim_omitted(std::span<const Value> inputs, size_t required) {
  size_t n = inputs.size();
  while (n > required && inputs[n - 1].is_none()) --n;
  return inputs.first(n);
}

std::optional<size_t> static_length(const Value& value) {
  if (value.is_concrete()) {
    if (!value.concrete().is_tensor()) return std::nullopt;
    return static_cast<size_t>(value.tensor().numel());
  }
  const ir::Value* traced = value.ir_value();
  if (!traced) return std::nullopt;
  if (const Tensor* t = traced->const_value()) return static_cast<size_t>(t->numel());
  const ir::Node* producer = traced->producer();
  if (producer && producer->op_type() == "Constant" && producer->domain().empty()) {
    const ir::Attribute* a = producer->attribute("value");
    if (a && a->type == ir::AttributeType::kTensor && !a->is_reference()) {
      return static_cast<size_t>(a->as_tensor().numel());
    }
    if ((a = producer->attribute("value_ints")) && !a->is_reference()) return a->as_ints().size();
  }
  return std::nullopt;
}

void throw_unknown_output_count(const OpSignature& signature, std::string_view why,
                                std::source_location location) {
  throw ScriptError(fmt::format(
      "{}{}{}: cannot tell how many outputs this call has ({}); give the count explicitly, "
      "e.g. op::{}.outputs(2)(...) (at {})",
      signature.domain, signature.domain.empty() ? "" : ".", signature.name, why, signature.name,
      where(location)));
}

}  // namespace detail
}  // namespace onnxscript
