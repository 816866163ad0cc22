#pragma once
// The "residue" of a proto message: what the IR object that mirrors it does
// not model, kept as bytes in the object's `unknown_fields` so that a load
// and save reproduces the message exactly. It holds
//  - the message's genuine unknown fields, and
//  - presence directives: fields that were present with their default value
//    (`domain: ""`), encoded as the field itself; and, for a few fields the
//    writer always fills (AttributeProto.type), the fact that they were
//    absent, encoded as the field number with a deliberately wrong wire type.
// The two never collide: a file's unknown fields cannot carry a known field
// number, because the reader rejects those as wrong wire types.
// See the overview in onnxscript/serde/serde.h.

#include <string>
#include <string_view>

#include <google/protobuf/message.h>

#include "serde/error_context.h"

namespace onnxscript::serde::detail {

// Throws ParseError when `msg` carries a known field number among its unknown
// fields: protobuf puts a field there when its wire type does not match the
// schema, or when an enum field holds a value the schema does not list.
void check_unknown_fields(const google::protobuf::Message& msg, const ErrorContext& ctx);

// Validates `msg` (as check_unknown_fields) and returns its residue: the
// unknown fields, then the presence directives. `skip_fields` lists field
// numbers whose presence the writer decides by itself (payload fields).
std::string capture_residue(const google::protobuf::Message& msg, const ErrorContext& ctx,
                            std::initializer_list<int> skip_fields = {});

// Appends to `residue` a directive recording that the field numbered
// `field_number` of the message was absent.
void append_absent_directive(std::string* residue, const google::protobuf::Message& msg,
                             int field_number);

// Appends to `residue` a directive recording that the field numbered
// `field_number` of the message was present with its default value, for
// fields capture_residue was told to skip.
void append_present_directive(std::string* residue, const google::protobuf::Message& msg,
                              int field_number);

// Appends to `residue` a directive recording that opset import entry
// (domain "", `version`) had its domain present (explicitly empty).
void append_opset_domain_directive(std::string* residue, int field_number, int64_t version);

// Applies a residue to a freshly written message: unknown fields are added,
// presence directives set fields left at their default. Throws
// ValidationError when `residue` is not valid protobuf.
void apply_residue(std::string_view residue, google::protobuf::Message* msg,
                   const ErrorContext& ctx);

}  // namespace onnxscript::serde::detail
