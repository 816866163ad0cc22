#pragma once
// Bridge to libonnx's operator schemas: the function bodies ONNX defines for
// operators (static ones and context-dependent ones built per call site),
// converted to our IR. Kept behind this narrow header so that only one
// translation unit of the evaluator includes libonnx.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onnxscript/ir/model.h"

namespace onnxscript::eval::detail {

/// Whether an operator's schema defines a function body, and of which kind.
enum class SchemaFunctionKind : uint8_t {
  kNone,              ///< No schema, or a schema without a body.
  kStatic,            ///< One body for every call.
  kContextDependent,  ///< A body built from the call's attributes and input types.
};

/// What libonnx knows about (domain, op_type) at opset `version`.
struct SchemaFunctionInfo {
  SchemaFunctionKind kind = SchemaFunctionKind::kNone;
  int64_t since_version = 0;  ///< The schema's since_version (0 when there is no schema).
};

/// One version of one operator schema that libonnx knows.
struct SchemaVersion {
  std::string domain;                                       ///< "" for ai.onnx.
  std::string op_type;                                      ///< e.g. "Add".
  int64_t since_version = 0;                                ///< The version this schema starts at.
  SchemaFunctionKind function = SchemaFunctionKind::kNone;  ///< Whether it has a body.
  bool deprecated = false;                                  ///< Marked deprecated in the schema.
};

/// Every schema version in libonnx's registry, all domains, sorted by
/// (domain, op_type, since_version).
std::vector<SchemaVersion> all_schema_versions();

/// Looks up the schema of `op_type` in `domain` ("" for ai.onnx) at `version`.
SchemaFunctionInfo find_schema_function(std::string_view domain, std::string_view op_type,
                                        int64_t version);

/// The static function body of the schema, converted to our IR. Throws
/// NotImplementedError when conversion is unavailable, Error when libonnx
/// has no body.
std::unique_ptr<ir::Function> schema_function_body(std::string_view domain,
                                                   std::string_view op_type, int64_t version);

/// The body a context-dependent schema builds for a call with these
/// attributes and input types (kUnspecified types for omitted inputs).
std::unique_ptr<ir::Function> schema_function_body_for(std::string_view domain,
                                                       std::string_view op_type, int64_t version,
                                                       std::span<const ir::Attribute> attributes,
                                                       std::span<const ir::Type> input_types,
                                                       size_t num_outputs);

/// The attribute defaults the schema declares (used for attributes a call
/// omits, since function bodies refer to them by name).
std::vector<ir::Attribute> schema_attribute_defaults(std::string_view domain,
                                                     std::string_view op_type, int64_t version);

}  // namespace onnxscript::eval::detail
