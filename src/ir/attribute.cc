#include "onnxscript/ir/attribute.h"

#include <algorithm>
#include <array>
#include <type_traits>

namespace onnxscript::ir {

std::string_view attribute_type_name(AttributeType type) {
  static constexpr std::array<std::string_view, 15> kNames = {
      "undefined",      "float",      "int",        "string",  "tensor", "graph",
      "floats",         "ints",       "strings",    "tensors", "graphs", "sparse_tensor",
      "sparse_tensors", "type_proto", "type_protos"};
  auto i = static_cast<size_t>(type);
  return i < kNames.size() ? kNames[i] : "undefined";
}

Attribute Attribute::make_float(std::string name, float v) {
  return {std::move(name), AttributeType::kFloat, v};
}
Attribute Attribute::make_int(std::string name, int64_t v) {
  return {std::move(name), AttributeType::kInt, v};
}
Attribute Attribute::make_string(std::string name, std::string v) {
  return {std::move(name), AttributeType::kString, std::move(v)};
}
Attribute Attribute::make_tensor(std::string name, Tensor v) {
  return {std::move(name), AttributeType::kTensor, std::move(v)};
}
Attribute Attribute::make_graph(std::string name, std::shared_ptr<Graph> v) {
  return {std::move(name), AttributeType::kGraph, std::move(v)};
}
Attribute Attribute::make_floats(std::string name, std::vector<float> v) {
  return {std::move(name), AttributeType::kFloats, std::move(v)};
}
Attribute Attribute::make_ints(std::string name, std::vector<int64_t> v) {
  return {std::move(name), AttributeType::kInts, std::move(v)};
}
Attribute Attribute::make_strings(std::string name, std::vector<std::string> v) {
  return {std::move(name), AttributeType::kStrings, std::move(v)};
}
Attribute Attribute::make_reference(std::string name, AttributeType type, std::string ref) {
  Attribute a(std::move(name), type, std::monostate{});
  a.ref_attr_name = std::move(ref);
  return a;
}

template <typename T>
const T& Attribute::get(AttributeType expected) const {
  const T* v = std::get_if<T>(&value);
  if (v == nullptr || type != expected) {
    throw TypeError(fmt::format("attribute '{}' is {}{}, not {}", name, attribute_type_name(type),
                                is_reference() ? " (a reference to @" + ref_attr_name + ")" : "",
                                attribute_type_name(expected)));
  }
  return *v;
}

float Attribute::as_float() const { return get<float>(AttributeType::kFloat); }
int64_t Attribute::as_int() const { return get<int64_t>(AttributeType::kInt); }
const std::string& Attribute::as_string() const { return get<std::string>(AttributeType::kString); }
const Tensor& Attribute::as_tensor() const { return get<Tensor>(AttributeType::kTensor); }
const std::shared_ptr<Graph>& Attribute::as_graph() const {
  return get<std::shared_ptr<Graph>>(AttributeType::kGraph);
}
const std::vector<float>& Attribute::as_floats() const {
  return get<std::vector<float>>(AttributeType::kFloats);
}
const std::vector<int64_t>& Attribute::as_ints() const {
  return get<std::vector<int64_t>>(AttributeType::kInts);
}
const std::vector<std::string>& Attribute::as_strings() const {
  return get<std::vector<std::string>>(AttributeType::kStrings);
}
const std::vector<Tensor>& Attribute::as_tensors() const {
  return get<std::vector<Tensor>>(AttributeType::kTensors);
}
const std::vector<std::shared_ptr<Graph>>& Attribute::as_graphs() const {
  return get<std::vector<std::shared_ptr<Graph>>>(AttributeType::kGraphs);
}

int64_t min_ir_version(const Attribute& attribute,
                       const std::function<int64_t(const Graph&)>& graph_version) {
  return std::visit(
      [&](const auto& v) -> int64_t {
        using V = std::decay_t<decltype(v)>;
        int64_t needed = 3;
        if constexpr (std::is_same_v<V, Tensor> || std::is_same_v<V, SparseTensor> ||
                      std::is_same_v<V, Type>) {
          needed = min_ir_version(v);
        } else if constexpr (std::is_same_v<V, std::vector<Tensor>> ||
                             std::is_same_v<V, std::vector<SparseTensor>> ||
                             std::is_same_v<V, std::vector<Type>>) {
          for (const auto& x : v) needed = std::max(needed, min_ir_version(x));
        } else if constexpr (std::is_same_v<V, std::shared_ptr<Graph>>) {
          if (v) needed = graph_version(*v);
        } else if constexpr (std::is_same_v<V, std::vector<std::shared_ptr<Graph>>>) {
          for (const auto& g : v)
            if (g) needed = std::max(needed, graph_version(*g));
        }
        return needed;
      },
      attribute.value);
}

}  // namespace onnxscript::ir
