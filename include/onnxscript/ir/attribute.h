#pragma once
/// \file
/// Node attributes (ONNX AttributeProto), including graph-valued attributes
/// and references to the attributes of an enclosing function.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "onnxscript/ir/tensor.h"
#include "onnxscript/ir/type.h"

namespace onnxscript::ir {

class Graph;

/// Kind of an attribute value; numeric values match AttributeProto.AttributeType.
enum class AttributeType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kInt = 2,
  kString = 3,
  kTensor = 4,
  kGraph = 5,
  kFloats = 6,
  kInts = 7,
  kStrings = 8,
  kTensors = 9,
  kGraphs = 10,
  kSparseTensor = 11,
  kSparseTensors = 12,
  kTypeProto = 13,
  kTypeProtos = 14,
};

/// The name ONNX's textual syntax uses for an attribute type: "int", "floats", ...
std::string_view attribute_type_name(AttributeType type);

/// A named attribute. Graph values are shared between copies of an Attribute;
/// a graph belongs to the node that holds the attribute (see Node::set_attribute).
class Attribute {
 public:
  /// The value, one alternative per AttributeType.
  using Payload = std::variant<
      std::monostate, float, int64_t, std::string, Tensor, std::shared_ptr<Graph>, SparseTensor,
      Type, std::vector<float>, std::vector<int64_t>, std::vector<std::string>, std::vector<Tensor>,
      std::vector<std::shared_ptr<Graph>>, std::vector<SparseTensor>, std::vector<Type>>;

  Attribute() = default;
  /// An attribute of the given type and value. The caller keeps them consistent;
  /// the named factories below do it for you.
  Attribute(std::string name, AttributeType type, Payload value)
      : name(std::move(name)), type(type), value(std::move(value)) {}

  static Attribute make_float(std::string name, float v);
  static Attribute make_int(std::string name, int64_t v);
  static Attribute make_string(std::string name, std::string v);
  static Attribute make_tensor(std::string name, Tensor v);
  static Attribute make_graph(std::string name, std::shared_ptr<Graph> v);
  static Attribute make_floats(std::string name, std::vector<float> v);
  static Attribute make_ints(std::string name, std::vector<int64_t> v);
  static Attribute make_strings(std::string name, std::vector<std::string> v);
  /// An attribute whose value is the enclosing function's attribute `ref`.
  static Attribute make_reference(std::string name, AttributeType type, std::string ref);

  /// True when the value comes from the enclosing function (ref_attr_name set).
  bool is_reference() const { return !ref_attr_name.empty(); }

  /// The value as the given type. Throws TypeError naming the attribute when
  /// the attribute holds another type.
  float as_float() const;
  int64_t as_int() const;
  const std::string& as_string() const;
  const Tensor& as_tensor() const;
  const std::shared_ptr<Graph>& as_graph() const;
  const std::vector<float>& as_floats() const;
  const std::vector<int64_t>& as_ints() const;
  const std::vector<std::string>& as_strings() const;
  const std::vector<Tensor>& as_tensors() const;
  const std::vector<std::shared_ptr<Graph>>& as_graphs() const;

  std::string name;                                ///< Attribute name.
  AttributeType type = AttributeType::kUndefined;  ///< Kind of the value.
  Payload value;                                   ///< The value (monostate for a pure reference).
  std::string ref_attr_name;   ///< Name of the function attribute this refers to.
  std::string doc_string;      ///< AttributeProto.doc_string.
  std::string unknown_fields;  ///< Serialized fields this build does not know.

 private:
  template <typename T>
  const T& get(AttributeType expected) const;
};

/// The lowest IR version whose format can hold `attribute`'s value (its
/// tensors, sparse tensors and types); `graph_version` gives what a graph value
/// needs. The attribute's own fields (a reference, a doc string) need nothing
/// beyond IR 3.
int64_t min_ir_version(const Attribute& attribute,
                       const std::function<int64_t(const Graph&)>& graph_version);

}  // namespace onnxscript::ir
