#pragma once
/// \file
/// The generator's input: operator schemas as plain records, independent of
/// where they come from. libonnx's registry is one source (onnx_source.h); a
/// table of newer operators can be another, as long as it fills these records.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace opgen {

/// Attribute types; the values are those of onnx.AttributeProto.AttributeType.
enum class AttrType : int {
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

/// A schema default value. Schemas only give defaults for numbers, strings
/// and their lists.
using AttrDefault = std::variant<float, int64_t, std::string, std::vector<float>,
                                 std::vector<int64_t>, std::vector<std::string>>;

/// A formal input or output.
struct FormalRecord {
  std::string name;            ///< e.g. "A".
  std::string description;     ///< Free text; may be empty.
  std::string type;            ///< A type parameter ("T") or a type string ("tensor(int64)").
  bool optional = false;       ///< May be omitted.
  bool variadic = false;       ///< Takes one or more values (last formal only).
  bool heterogeneous = false;  ///< Variadic values may differ in type.
  int min_arity = 1;           ///< Least number of values of a variadic formal.
};

/// An attribute.
struct AttributeRecord {
  std::string name;                          ///< e.g. "axis".
  std::string description;                   ///< Free text; may be empty.
  AttrType type = AttrType::kInt;            ///< Value type.
  bool required = false;                     ///< Must be given.
  std::optional<AttrDefault> default_value;  ///< The schema default, when any.
};

/// A type parameter and the types it allows.
struct TypeConstraintRecord {
  std::string name;                  ///< e.g. "T".
  std::string description;           ///< Free text; may be empty.
  std::vector<std::string> allowed;  ///< Type strings: "tensor(float)", "seq(tensor(int64))", ...
};

/// One operator version.
struct OpSchemaRecord {
  std::string domain;                       ///< "" for ai.onnx, "ai.onnx.ml", ...
  std::string name;                         ///< Operator name.
  int64_t since_version = 1;                ///< Version of the domain that introduced this schema.
  bool deprecated = false;                  ///< The operator is deprecated from this version on.
  std::string doc;                          ///< Markdown doc string; may be empty.
  std::vector<FormalRecord> inputs;         ///< Formal inputs in order.
  std::vector<FormalRecord> outputs;        ///< Formal outputs in order.
  std::vector<AttributeRecord> attributes;  ///< Attributes, sorted by name.
  std::vector<TypeConstraintRecord> type_constraints;  ///< Type parameters.
};

/// The versions of one domain a source knows.
struct DomainRecord {
  std::string domain;       ///< "" for ai.onnx.
  int64_t min_version = 1;  ///< First version.
  int64_t max_version = 1;  ///< Last version (the newest opset namespace).
};

/// Where schemas come from.
class SchemaSource {
 public:
  virtual ~SchemaSource() = default;
  /// A name for messages ("libonnx 1.12").
  virtual std::string name() const = 0;
  /// Every schema version the source holds.
  virtual std::vector<OpSchemaRecord> schemas() const = 0;
  /// The version range of each domain.
  virtual std::vector<DomainRecord> domains() const = 0;
};

/// The schemas of libonnx's registry (OpSchemaRegistry::get_all_schemas_with_history).
std::unique_ptr<SchemaSource> make_onnx_registry_source();

struct Catalog;

/// The vendored operator table (tools/opgen/schemas/*.jsonl, one JSON object
/// per operator version), keeping only the versions `known` does not define:
/// ai.onnx 18-28, ai.onnx.ml 4-5 and ai.onnx.preview on top of libonnx 1.12.
/// Their doc comments are the new operators' summaries (summaries.tsv beside
/// the first table) and the link to each operator's page on onnx.ai. Throws
/// std::runtime_error naming file:line on a malformed line.
std::unique_ptr<SchemaSource> make_jsonl_source(std::vector<std::filesystem::path> files,
                                                const Catalog& known);

/// All schemas of several sources. A later source may add versions and
/// extend a domain's range (opset 18+ on top of libonnx); a (domain, name,
/// version) that two sources both define is an error.
struct Catalog {
  std::vector<OpSchemaRecord> schemas;  ///< Sorted by domain, name, version.
  std::vector<DomainRecord> domains;    ///< Sorted by domain.
};

/// Merges sources into a Catalog; throws std::runtime_error on conflicts.
Catalog load_catalog(const std::vector<std::unique_ptr<SchemaSource>>& sources);

}  // namespace opgen
