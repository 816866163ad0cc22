#include "serde/residue.h"

#include <algorithm>
#include <bit>
#include <limits>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/unknown_field_set.h>
#include <google/protobuf/wire_format.h>

#include "onnxscript/wire/onnx.pb.h"

namespace onnxscript::serde::detail {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using google::protobuf::UnknownField;
using google::protobuf::UnknownFieldSet;
using google::protobuf::internal::WireFormat;
using google::protobuf::internal::WireFormatLite;

// The wire type an unknown field was read with, in WireFormatLite terms.
WireFormatLite::WireType wire_type_of(const UnknownField& f) {
  switch (f.type()) {
    case UnknownField::TYPE_VARINT:
      return WireFormatLite::WIRETYPE_VARINT;
    case UnknownField::TYPE_FIXED32:
      return WireFormatLite::WIRETYPE_FIXED32;
    case UnknownField::TYPE_FIXED64:
      return WireFormatLite::WIRETYPE_FIXED64;
    case UnknownField::TYPE_LENGTH_DELIMITED:
      return WireFormatLite::WIRETYPE_LENGTH_DELIMITED;
    case UnknownField::TYPE_GROUP:
      break;
  }
  return WireFormatLite::WIRETYPE_START_GROUP;
}

const char* wire_type_name(WireFormatLite::WireType t) {
  switch (t) {
    case WireFormatLite::WIRETYPE_VARINT:
      return "varint";
    case WireFormatLite::WIRETYPE_FIXED64:
      return "fixed64";
    case WireFormatLite::WIRETYPE_LENGTH_DELIMITED:
      return "length-delimited";
    case WireFormatLite::WIRETYPE_START_GROUP:
    case WireFormatLite::WIRETYPE_END_GROUP:
      return "group";
    case WireFormatLite::WIRETYPE_FIXED32:
      return "fixed32";
  }
  return "?";
}

// The wire type a singular field of this kind is written with.
WireFormatLite::WireType natural_wire_type(const FieldDescriptor* fd) {
  return WireFormat::WireTypeForFieldType(fd->type());
}

bool is_default(const Message& msg, const FieldDescriptor* fd) {
  const Reflection* r = msg.GetReflection();
  switch (fd->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      return r->GetInt32(msg, fd) == 0;
    case FieldDescriptor::CPPTYPE_INT64:
      return r->GetInt64(msg, fd) == 0;
    case FieldDescriptor::CPPTYPE_UINT32:
      return r->GetUInt32(msg, fd) == 0;
    case FieldDescriptor::CPPTYPE_UINT64:
      return r->GetUInt64(msg, fd) == 0;
    case FieldDescriptor::CPPTYPE_FLOAT: {
      // Bitwise, so that -0.0 is not mistaken for the default.
      const float v = r->GetFloat(msg, fd);
      return std::bit_cast<uint32_t>(v) == 0;
    }
    case FieldDescriptor::CPPTYPE_DOUBLE: {
      const double v = r->GetDouble(msg, fd);
      return std::bit_cast<uint64_t>(v) == 0;
    }
    case FieldDescriptor::CPPTYPE_BOOL:
      return !r->GetBool(msg, fd);
    case FieldDescriptor::CPPTYPE_ENUM:
      return r->GetEnumValue(msg, fd) == 0;
    case FieldDescriptor::CPPTYPE_STRING:
      return r->GetStringReference(msg, fd, nullptr).empty();
    case FieldDescriptor::CPPTYPE_MESSAGE:
      // Only asked by "absent" directives (ModelProto.graph); sizing a big
      // message is costly but those directives are rare.
      return r->GetMessage(msg, fd).ByteSizeLong() == 0;
  }
  return false;
}

void set_default(Message* msg, const FieldDescriptor* fd) {
  const Reflection* r = msg->GetReflection();
  switch (fd->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      return r->SetInt32(msg, fd, 0);
    case FieldDescriptor::CPPTYPE_INT64:
      return r->SetInt64(msg, fd, 0);
    case FieldDescriptor::CPPTYPE_UINT32:
      return r->SetUInt32(msg, fd, 0);
    case FieldDescriptor::CPPTYPE_UINT64:
      return r->SetUInt64(msg, fd, 0);
    case FieldDescriptor::CPPTYPE_FLOAT:
      return r->SetFloat(msg, fd, 0.0f);
    case FieldDescriptor::CPPTYPE_DOUBLE:
      return r->SetDouble(msg, fd, 0.0);
    case FieldDescriptor::CPPTYPE_BOOL:
      return r->SetBool(msg, fd, false);
    case FieldDescriptor::CPPTYPE_ENUM:
      return r->SetEnumValue(msg, fd, 0);
    case FieldDescriptor::CPPTYPE_STRING:
      return r->SetString(msg, fd, std::string());
    case FieldDescriptor::CPPTYPE_MESSAGE:
      r->MutableMessage(msg, fd);
      return;
  }
}

// Adds `fd` with its default value, encoded with its natural wire type.
void add_default(UnknownFieldSet* set, const FieldDescriptor* fd) {
  switch (natural_wire_type(fd)) {
    case WireFormatLite::WIRETYPE_VARINT:
      set->AddVarint(fd->number(), 0);
      break;
    case WireFormatLite::WIRETYPE_FIXED32:
      set->AddFixed32(fd->number(), 0);
      break;
    case WireFormatLite::WIRETYPE_FIXED64:
      set->AddFixed64(fd->number(), 0);
      break;
    default:
      set->AddLengthDelimited(fd->number(), std::string());
      break;
  }
}

void append_set(std::string* out, const UnknownFieldSet& set) {
  if (set.empty()) return;
  std::string bytes;
  set.SerializeToString(&bytes);
  out->append(bytes);
}

// The attribute type that the value fields of `a` imply, when exactly one of
// them is set; UNDEFINED otherwise.
wire::AttributeProto::AttributeType inferred_type(const wire::AttributeProto& a) {
  using A = wire::AttributeProto;
  A::AttributeType found = A::UNDEFINED;
  int count = 0;
  auto see = [&](bool present, A::AttributeType t) {
    if (present) {
      found = t;
      ++count;
    }
  };
  see(a.has_f(), A::FLOAT);
  see(a.has_i(), A::INT);
  see(a.has_s(), A::STRING);
  see(a.has_t(), A::TENSOR);
  see(a.has_g(), A::GRAPH);
  see(a.has_sparse_tensor(), A::SPARSE_TENSOR);
  see(a.has_tp(), A::TYPE_PROTO);
  see(a.floats_size() > 0, A::FLOATS);
  see(a.ints_size() > 0, A::INTS);
  see(a.strings_size() > 0, A::STRINGS);
  see(a.tensors_size() > 0, A::TENSORS);
  see(a.graphs_size() > 0, A::GRAPHS);
  see(a.sparse_tensors_size() > 0, A::SPARSE_TENSORS);
  see(a.type_protos_size() > 0, A::TYPE_PROTOS);
  return count == 1 ? found : A::UNDEFINED;
}

// AttributeProto.type is always written by the writer, so its directives
// override rather than fill in: the file had no type, or had UNDEFINED, and
// the type was inferred from the value field. They apply only while that
// inference still gives the attribute's type, so a later reader recovers it.
void apply_attribute_type_directive(wire::AttributeProto* a, bool present_as_undefined) {
  if (!a->has_type()) {
    if (present_as_undefined) a->set_type(wire::AttributeProto::UNDEFINED);
    return;
  }
  if (a->type() == wire::AttributeProto::UNDEFINED || inferred_type(*a) != a->type()) return;
  if (present_as_undefined) {
    a->set_type(wire::AttributeProto::UNDEFINED);
  } else {
    a->clear_type();
  }
}

// Marks the first opset import (domain "", `version`) written without a
// domain as having an explicit empty domain.
void apply_opset_directive(Message* msg, const FieldDescriptor* fd, const std::string& payload) {
  wire::OperatorSetIdProto want;
  if (!want.ParseFromString(payload)) return;
  const Reflection* r = msg->GetReflection();
  const int n = r->FieldSize(*msg, fd);
  for (int i = 0; i < n; ++i) {
    auto* entry = static_cast<wire::OperatorSetIdProto*>(r->MutableRepeatedMessage(msg, fd, i));
    if (!entry->has_domain() && entry->version() == want.version()) {
      entry->set_domain("");
      return;
    }
  }
}

}  // namespace

void check_unknown_fields(const Message& msg, const ErrorContext& ctx) {
  const UnknownFieldSet& unknown = msg.GetReflection()->GetUnknownFields(msg);
  const Descriptor* desc = msg.GetDescriptor();
  for (int i = 0; i < unknown.field_count(); ++i) {
    const UnknownField& f = unknown.field(i);
    const FieldDescriptor* fd = desc->FindFieldByNumber(f.number());
    if (fd == nullptr) continue;
    if (fd->cpp_type() == FieldDescriptor::CPPTYPE_ENUM && f.type() == UnknownField::TYPE_VARINT) {
      const auto value = static_cast<int64_t>(f.varint());
      if (desc == wire::AttributeProto::descriptor() && fd->number() == 20) {
        ctx.fail<ValidationError>(fmt::format("unknown attribute type {}", value));
      }
      ctx.fail<ValidationError>(
          fmt::format("{}.{} has unknown enum value {}", desc->name(), fd->name(), value));
    }
    ctx.fail<ParseError>(fmt::format("{}.{} (field {}) has wire type {}, but its type {} needs {}",
                                     desc->name(), fd->name(), fd->number(),
                                     wire_type_name(wire_type_of(f)), fd->type_name(),
                                     wire_type_name(WireFormat::WireTypeForField(fd))));
  }
}

std::string capture_residue(const Message& msg, const ErrorContext& ctx,
                            std::initializer_list<int> skip_fields) {
  const Reflection* r = msg.GetReflection();
  std::string out;
  const UnknownFieldSet& unknown = r->GetUnknownFields(msg);
  if (!unknown.empty()) {
    check_unknown_fields(msg, ctx);
    append_set(&out, unknown);
  }
  std::vector<const FieldDescriptor*> fields;
  r->ListFields(msg, &fields);
  UnknownFieldSet directives;
  for (const FieldDescriptor* fd : fields) {
    if (fd->is_repeated() || fd->containing_oneof() != nullptr ||
        fd->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE)
      continue;
    if (std::find(skip_fields.begin(), skip_fields.end(), fd->number()) != skip_fields.end())
      continue;
    if (is_default(msg, fd)) add_default(&directives, fd);
  }
  append_set(&out, directives);
  return out;
}

void append_absent_directive(std::string* residue, const Message& msg, int field_number) {
  const FieldDescriptor* fd = msg.GetDescriptor()->FindFieldByNumber(field_number);
  ONNXSCRIPT_CHECK(fd != nullptr, "no field {} in {}", field_number, msg.GetDescriptor()->name());
  UnknownFieldSet set;
  // The wrong wire type on purpose: it is what tells "absent" from "present".
  if (natural_wire_type(fd) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
    set.AddVarint(field_number, 0);
  } else {
    set.AddLengthDelimited(field_number, std::string());
  }
  append_set(residue, set);
}

void append_present_directive(std::string* residue, const Message& msg, int field_number) {
  const FieldDescriptor* fd = msg.GetDescriptor()->FindFieldByNumber(field_number);
  ONNXSCRIPT_CHECK(fd != nullptr, "no field {} in {}", field_number, msg.GetDescriptor()->name());
  UnknownFieldSet set;
  add_default(&set, fd);
  append_set(residue, set);
}

void append_opset_domain_directive(std::string* residue, int field_number, int64_t version) {
  wire::OperatorSetIdProto entry;
  entry.set_domain("");
  entry.set_version(version);
  UnknownFieldSet set;
  set.AddLengthDelimited(field_number, entry.SerializeAsString());
  append_set(residue, set);
}

void apply_residue(std::string_view residue, Message* msg, const ErrorContext& ctx) {
  if (residue.empty()) return;
  UnknownFieldSet set;
  if (residue.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !set.ParseFromArray(residue.data(), static_cast<int>(residue.size()))) {
    ctx.fail<ValidationError>("unknown_fields does not hold valid protobuf fields");
  }
  const Descriptor* desc = msg->GetDescriptor();
  const Reflection* r = msg->GetReflection();
  UnknownFieldSet* target = r->MutableUnknownFields(msg);
  for (int i = 0; i < set.field_count(); ++i) {
    const UnknownField& f = set.field(i);
    const FieldDescriptor* fd = desc->FindFieldByNumber(f.number());
    if (fd == nullptr) {
      target->AddField(f);
      continue;
    }
    if (fd->is_repeated()) {
      if (fd->message_type() == wire::OperatorSetIdProto::descriptor() &&
          f.type() == UnknownField::TYPE_LENGTH_DELIMITED) {
        apply_opset_directive(msg, fd, f.length_delimited());
      }
      continue;
    }
    const bool present = wire_type_of(f) == natural_wire_type(fd);
    if (desc == wire::AttributeProto::descriptor() && fd->number() == 20) {
      apply_attribute_type_directive(static_cast<wire::AttributeProto*>(msg), present);
    } else if (present) {
      if (!r->HasField(*msg, fd)) set_default(msg, fd);
    } else if (r->HasField(*msg, fd) && is_default(*msg, fd)) {
      r->ClearField(msg, fd);
    }
  }
}

}  // namespace onnxscript::serde::detail
