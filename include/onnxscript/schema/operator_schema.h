#pragma once
/// \file
/// The operator-schema table at run time: every version of every operator of
/// the merged catalog that tools/opgen builds (libonnx 1.12's registry plus
/// the vendored tools/opgen/schemas/*.jsonl: ai.onnx 1-28, ai.onnx.ml 1-5,
/// ai.onnx.preview, ai.onnx.preview.training). The data is generated into
/// build/generated/opsets/operator_schemas.cc as constant arrays, so reading it
/// costs no start-up work. `onnxscript check` validates nodes against it.

#include <cstdint>
#include <span>
#include <string_view>

namespace onnxscript::schema {

/// A formal input or output of an operator version.
struct FormalParameter {
  std::string_view name;  ///< e.g. "X".
  /// A type parameter ("T") or a canonical type string ("tensor(int64)");
  /// see canonical_type_string in check for the spelling.
  std::string_view type;
  bool optional;       ///< May be omitted (an empty name at a call site).
  bool variadic;       ///< Takes the remaining values (last formal only).
  bool heterogeneous;  ///< The variadic values may differ in type.
  int32_t min_arity;   ///< Least number of values a variadic formal takes.
};

/// An attribute of an operator version.
struct AttributeSchema {
  std::string_view name;  ///< e.g. "axis".
  /// The value type, numbered as onnx.AttributeProto.AttributeType (and
  /// ir::AttributeType): 1 float, 2 int, 3 string, 4 tensor, 5 graph, ...
  int32_t type;
  bool required;  ///< Must be given at every call.
};

/// A type parameter and the types it admits.
struct TypeConstraint {
  std::string_view name;  ///< e.g. "T".
  /// Canonical type strings: "tensor(float)", "seq(tensor(int64))",
  /// "map(string,tensor(float))", "optional(tensor(bool))", ...
  std::span<const std::string_view> allowed;
};

/// Input and output counts with no upper bound use this maximum.
inline constexpr int32_t kUnbounded = 0x7fffffff;

/// One operator version (ONNX's OpSchema).
struct OperatorSchema {
  std::string_view domain;  ///< "" for ai.onnx.
  std::string_view name;    ///< The operator, e.g. "Conv".
  int64_t since_version;    ///< The version of the domain that introduced this schema.
  bool deprecated;          ///< The operator is deprecated from this version on.
  std::span<const FormalParameter> inputs;           ///< Formal inputs in order.
  std::span<const FormalParameter> outputs;          ///< Formal outputs in order.
  std::span<const AttributeSchema> attributes;       ///< Sorted by name.
  std::span<const TypeConstraint> type_constraints;  ///< Type parameters.
  int32_t min_input;   ///< Least number of inputs (trailing optional ones may be left out).
  int32_t max_input;   ///< Most inputs; kUnbounded after a variadic formal.
  int32_t min_output;  ///< Least number of outputs.
  int32_t max_output;  ///< Most outputs; kUnbounded after a variadic formal.

  /// The attribute called `name`, or null.
  const AttributeSchema* attribute(std::string_view attribute_name) const;
  /// The type parameter called `name`, or null (also for a type string).
  const TypeConstraint* constraint(std::string_view type_parameter) const;
};

/// The versions of one domain the table covers.
struct DomainRange {
  std::string_view domain;  ///< "" for ai.onnx.
  int64_t min_version;      ///< The first opset version.
  int64_t max_version;      ///< The newest opset version.
};

/// Every operator version, sorted by (domain, name, since_version).
std::span<const OperatorSchema> all_schemas();

/// Every domain of the table, sorted by domain.
std::span<const DomainRange> domains();

/// The range of `domain` ("" or "ai.onnx" for the default domain), or null
/// when the table has no operator in it.
const DomainRange* find_domain(std::string_view domain);

/// The version of `domain`'s operator `name` in effect at `opset_version`:
/// the newest with since_version <= opset_version. Null when the operator does
/// not exist there ("ai.onnx" is accepted for the default domain).
const OperatorSchema* find_schema(std::string_view domain, std::string_view name,
                                  int64_t opset_version);

/// True when `domain`'s operator `name` has any version in the table.
bool has_operator(std::string_view domain, std::string_view name);

}  // namespace onnxscript::schema
