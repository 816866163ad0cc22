#pragma once
// Internals of the project's validator shared by its files.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "onnxscript/ir/model.h"

namespace onnxscript::check::detail {

/// Opset imports by domain, the default domain spelled "".
using OpsetMap = std::map<std::string, int64_t, std::less<>>;

/// The default domain is both "" and "ai.onnx"; the validator uses "".
std::string_view normalize_domain(std::string_view domain);

/// The imports as a map (a later duplicate of a domain wins).
OpsetMap opset_map(const ir::OpsetImports& imports);

/// "node 3 ('relu1', Relu)" or "node 0 (com.foo.Bar)": how errors name a node.
std::string describe_node(const ir::Node& node, size_t index);

/// The structural and schema checks (validator.cc); errors are appended.
void validate_structure_and_schemas(const ir::Model& model, std::vector<std::string>& errors);

/// Strict inference on a copy of the model (strict_inference.cc), then the
/// schema checks again over the inferred types; errors are appended.
/// Meaningful only on a model that passed validate_structure_and_schemas.
void check_strict_inference(const ir::Model& model, std::vector<std::string>& errors);

}  // namespace onnxscript::check::detail
