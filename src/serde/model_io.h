#pragma once
// ModelProto <-> ir::Model, for the public functions in serde.cc and for
// tests that want the proto rather than bytes.

#include "onnxscript/ir/model.h"
#include "onnxscript/wire/onnx.pb.h"
#include "serde/error_context.h"
#include "serde/proto_codec.h"

namespace onnxscript::serde::detail {

// Converts a parsed ModelProto to the IR. Takes the proto by mutable
// reference so that tensor bytes can be released as they are copied.
// `external` may be null (external data not allowed). `initializer_raw_data`
// (may be null) has one entry per initializer of the main graph: the raw_data
// the loader lifted out of the parsed bytes, or null (raw_data_split.h).
ir::Model read_model_proto(
    wire::ModelProto& proto, ErrorContext& ctx, ExternalDataSource* external,
    const std::vector<std::shared_ptr<ir::Storage>>* initializer_raw_data = nullptr);

// Converts the IR to a ModelProto. `sink` (may be null) decides where tensor
// bytes go; without one they are written inline. Throws ValidationError for
// graphs that cannot be written: unnamed or ambiguous values, attributes
// whose value does not match their type, undefined tensors.
void write_model_proto(const ir::Model& model, wire::ModelProto* proto, ErrorContext& ctx,
                       TensorDataSink* sink);

// Explains why protobuf could not parse `bytes` as a `desc` message
// ("truncated: ModelProto.graph at byte 12 needs 1000 bytes, 500 remain"),
// or returns "" when the framing looks intact.
std::string diagnose_parse_failure(std::string_view bytes,
                                   const google::protobuf::Descriptor* desc);

}  // namespace onnxscript::serde::detail
