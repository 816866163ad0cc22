// ONNX test data files: TensorProto, SequenceProto, OptionalProto and
// MapProto, decoded to RuntimeValues. Tensors go through serde's TensorProto
// decoder so that every encoding (raw_data, typed fields, external data) is
// handled in one place.
#include <onnxscript/wire/onnx_data.pb.h>

#include <fmt/format.h>

#include "eval/util/stacking.h"
#include "onnxscript/eval/tensor_io.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/support/file_io.h"

namespace onnxscript::eval {
namespace {

namespace wire = onnxscript::wire;

Tensor decode_tensor_bytes(std::string_view bytes, const std::filesystem::path& base_dir,
                           std::string_view source) {
  return serde::tensor_from_proto_bytes(bytes, base_dir, source);
}

std::string encode_tensor_bytes(const Tensor& t) { return serde::tensor_to_proto_bytes(t); }

struct Decoder {
  std::filesystem::path base_dir;
  std::string source;
  int depth = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw ParseError(fmt::format("{}: {}", source, what));
  }

  Tensor tensor(const wire::TensorProto& proto) const {
    return decode_tensor_bytes(proto.SerializeAsString(), base_dir, source);
  }

  RuntimeValue sequence(const wire::SequenceProto& seq) {
    if (++depth > 64) fail("sequences nest too deeply");
    std::vector<RuntimeValue> items;
    ir::Type elem;
    switch (seq.elem_type()) {
      case wire::SequenceProto::TENSOR:
        for (const auto& t : seq.tensor_values()) items.emplace_back(tensor(t));
        elem = ir::Type::tensor(static_cast<DataType>(
            seq.tensor_values_size() > 0 ? seq.tensor_values(0).data_type() : 0));
        break;
      case wire::SequenceProto::SEQUENCE:
        for (const auto& s : seq.sequence_values()) items.push_back(sequence(s));
        elem = items.empty() ? ir::Type::sequence(ir::Type{}) : items.front().type();
        break;
      case wire::SequenceProto::MAP:
        for (const auto& m : seq.map_values()) items.push_back(map(m));
        if (!items.empty()) elem = items.front().type();
        break;
      case wire::SequenceProto::OPTIONAL:
        for (const auto& o : seq.optional_values()) items.push_back(optional(o));
        if (!items.empty()) elem = items.front().type();
        break;
      case wire::SequenceProto::UNDEFINED:
        if (seq.tensor_values_size() + seq.sequence_values_size() + seq.map_values_size() +
                seq.optional_values_size() >
            0)
          fail("a SequenceProto with elements must say their elem_type");
        break;
      default:
        fail(fmt::format("SequenceProto elem_type {} is not supported", seq.elem_type()));
    }
    --depth;
    return RuntimeValue::sequence(std::move(elem), std::move(items));
  }

  RuntimeValue optional(const wire::OptionalProto& opt) {
    if (++depth > 64) fail("optionals nest too deeply");
    std::optional<RuntimeValue> value;
    ir::Type elem;
    switch (opt.elem_type()) {
      case wire::OptionalProto::TENSOR:
        if (opt.has_tensor_value()) {
          value = tensor(opt.tensor_value());
          elem = ir::Type::tensor(value->tensor().dtype());
        } else {
          elem = ir::Type::tensor(DataType::kUndefined);
        }
        break;
      case wire::OptionalProto::SEQUENCE:
        if (opt.has_sequence_value()) {
          value = sequence(opt.sequence_value());
          elem = value->type();
        } else {
          elem = ir::Type::sequence(ir::Type{});
        }
        break;
      case wire::OptionalProto::MAP:
        if (opt.has_map_value()) value = map(opt.map_value());
        if (value) elem = value->type();
        break;
      case wire::OptionalProto::OPTIONAL:
        if (opt.has_optional_value()) value = optional(opt.optional_value());
        if (value) elem = value->type();
        break;
      case wire::OptionalProto::UNDEFINED:
        break;
      default:
        fail(fmt::format("OptionalProto elem_type {} is not supported", opt.elem_type()));
    }
    --depth;
    return RuntimeValue::optional(std::move(elem), std::move(value));
  }

  RuntimeValue map(const wire::MapProto& m) {
    const auto key_type = static_cast<DataType>(m.key_type());
    Tensor keys;
    if (key_type == DataType::kString) {
      keys = Tensor(DataType::kString, {m.string_keys_size()});
      for (int i = 0; i < m.string_keys_size(); ++i) keys.data<std::string>()[i] = m.string_keys(i);
    } else if (key_type == DataType::kInt64) {
      keys = Tensor::from_span<int64_t>(
          std::span<const int64_t>(m.keys().data(), static_cast<size_t>(m.keys_size())));
    } else {
      fail(fmt::format("MapProto key type {} is not supported", m.key_type()));
    }
    RuntimeValue values = sequence(m.values());
    std::vector<Tensor> parts;
    for (const RuntimeValue& v : values.sequence().items) {
      if (!v.is_tensor() || v.tensor().numel() != 1) fail("MapProto values must be scalar tensors");
      parts.push_back(v.tensor().reshaped({1}));
    }
    if (parts.size() != static_cast<size_t>(keys.numel()))
      fail("MapProto has different numbers of keys and values");
    if (parts.empty()) fail("an empty MapProto has no value type");
    return RuntimeValue::map(keys, concatenate(parts, 0, "MapProto"));
  }
};

template <typename Proto>
Proto parse(std::string_view bytes, std::string_view what, std::string_view source) {
  Proto proto;
  if (bytes.size() > static_cast<size_t>(INT32_MAX) ||
      !proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    throw ParseError(fmt::format("{}: not a valid {}", source, what));
  return proto;
}

// Guesses the kind of a test data file. SequenceProto, OptionalProto and
// MapProto all start with `name` (field 1, a string), and their field 2 is
// a varint; a TensorProto's field 1 is its dims (varints or packed). A
// decisive signal: TensorProto's data_type is field 2 too, so look further:
// sequences and optionals carry their payload in fields 3-7 as messages.
std::string_view guess_kind(std::string_view bytes) {
  // A name (field 1, length-delimited) means a container: TensorProto.dims is
  // a varint field or packed varints; packed dims are length-delimited too, so
  // decide by whether the payload parses as a container with content.
  wire::SequenceProto seq;
  if (seq.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())) &&
      seq.unknown_fields().empty() && seq.elem_type() >= 1 && seq.elem_type() <= 5 &&
      (seq.tensor_values_size() + seq.sequence_values_size() + seq.map_values_size() +
       seq.optional_values_size()) > 0)
    return "sequence";
  wire::OptionalProto opt;
  if (opt.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())) &&
      opt.unknown_fields().empty() && opt.elem_type() >= 1 && opt.elem_type() <= 5 &&
      (opt.has_tensor_value() || opt.has_sequence_value() || opt.has_map_value() ||
       opt.has_optional_value()))
    return "optional";
  // A MapProto's key_type (field 2) is an integer or string element type (2-13),
  // never a SequenceProto/OptionalProto elem_type of 1-5 with payload.
  wire::MapProto map;
  if (map.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())) &&
      map.unknown_fields().empty() && map.has_values() &&
      (map.key_type() == static_cast<int32_t>(DataType::kString) ? map.keys_size() == 0
                                                                 : map.string_keys_size() == 0) &&
      map.keys_size() + map.string_keys_size() == map.values().tensor_values_size() &&
      map.values().tensor_values_size() > 0)
    return "map";
  return "tensor";
}

RuntimeValue decode_value(std::string_view bytes, std::string_view hint, std::string* name,
                          std::string_view source, const std::filesystem::path& base_dir) {
  if (hint.empty()) hint = guess_kind(bytes);
  Decoder decoder{base_dir, std::string(source)};
  if (hint == "tensor") {
    Tensor t = decode_tensor_bytes(bytes, base_dir, source);
    if (name && t.proto_info()) *name = t.proto_info()->name;
    return t;
  }
  if (hint == "sequence") {
    auto proto = parse<wire::SequenceProto>(bytes, "SequenceProto", source);
    if (name) *name = proto.name();
    return decoder.sequence(proto);
  }
  if (hint == "optional") {
    auto proto = parse<wire::OptionalProto>(bytes, "OptionalProto", source);
    if (name) *name = proto.name();
    return decoder.optional(proto);
  }
  if (hint == "map") {
    auto proto = parse<wire::MapProto>(bytes, "MapProto", source);
    if (name) *name = proto.name();
    return decoder.map(proto);
  }
  throw Error(fmt::format("{}: unknown kind of value '{}'", source, hint));
}

void encode_value(const RuntimeValue& v, wire::SequenceProto* seq_out, wire::OptionalProto* opt_out,
                  wire::TensorProto* tensor_out);

void encode_tensor(const Tensor& t, wire::TensorProto& out) {
  if (!out.ParseFromString(encode_tensor_bytes(t))) throw Error("cannot re-read an encoded tensor");
}

// A map as MapProto: keys in `keys` or `string_keys`, values as a sequence
// of scalar tensors.
void encode_map(const MapValue& map, wire::MapProto& m) {
  m.set_key_type(static_cast<int32_t>(map.keys.dtype()));
  if (map.keys.dtype() == DataType::kString) {
    for (int64_t i = 0; i < map.keys.numel(); ++i)
      m.add_string_keys(map.keys.data<std::string>()[i]);
  } else if (map.keys.dtype() == DataType::kInt64) {
    for (int64_t i = 0; i < map.keys.numel(); ++i) m.add_keys(map.keys.data<int64_t>()[i]);
  } else {
    throw NotImplementedError("only int64 and string map keys can be encoded");
  }
  m.mutable_values()->set_elem_type(wire::SequenceProto::TENSOR);
  for (int64_t i = 0; i < map.values.shape()[0]; ++i)
    encode_tensor(take_slice(map.values, 0, i), *m.mutable_values()->add_tensor_values());
}

void encode_sequence(const SequenceValue& seq, wire::SequenceProto& out) {
  int32_t kind = wire::SequenceProto::TENSOR;
  if (!seq.items.empty()) {
    const RuntimeValue& first = seq.items.front();
    kind = first.is_sequence()   ? wire::SequenceProto::SEQUENCE
           : first.is_optional() ? wire::SequenceProto::OPTIONAL
           : first.is_map()      ? wire::SequenceProto::MAP
                                 : wire::SequenceProto::TENSOR;
  } else if (seq.elem_type.kind == ir::TypeKind::kSequence) {
    kind = wire::SequenceProto::SEQUENCE;
  } else if (seq.elem_type.kind == ir::TypeKind::kMap) {
    kind = wire::SequenceProto::MAP;
  }
  out.set_elem_type(kind);
  for (const RuntimeValue& item : seq.items) {
    if (item.is_tensor())
      encode_tensor(item.tensor(), *out.add_tensor_values());
    else if (item.is_sequence())
      encode_sequence(item.sequence(), *out.add_sequence_values());
    else if (item.is_optional())
      encode_value(item, nullptr, out.add_optional_values(), nullptr);
    else if (item.is_map())
      encode_map(item.map(), *out.add_map_values());
    else
      throw NotImplementedError(
          fmt::format("cannot encode a sequence element that is {}", item.describe()));
  }
}

void encode_value(const RuntimeValue& v, wire::SequenceProto* seq_out, wire::OptionalProto* opt_out,
                  wire::TensorProto* tensor_out) {
  if (tensor_out) {
    encode_tensor(v.tensor(), *tensor_out);
  } else if (seq_out) {
    encode_sequence(v.sequence(), *seq_out);
  } else if (opt_out) {
    const OptionalValue& o = v.optional();
    const ir::Type& elem = o.elem_type;
    const bool is_seq = o.value ? o.value->is_sequence() : elem.kind == ir::TypeKind::kSequence;
    opt_out->set_elem_type(is_seq ? wire::OptionalProto::SEQUENCE : wire::OptionalProto::TENSOR);
    if (o.value) {
      if (o.value->is_tensor())
        encode_tensor(o.value->tensor(), *opt_out->mutable_tensor_value());
      else if (o.value->is_sequence())
        encode_sequence(o.value->sequence(), *opt_out->mutable_sequence_value());
      else
        throw NotImplementedError(
            fmt::format("cannot encode an optional holding {}", o.value->describe()));
    }
  }
}

}  // namespace

RuntimeValue value_from_proto_bytes(std::string_view bytes, std::string_view hint,
                                    std::string* name, std::string_view source_name) {
  return decode_value(bytes, hint, name, source_name, {});
}

std::string_view proto_kind_hint(const std::optional<ir::Type>& type) {
  if (!type) return "";
  switch (type->kind) {
    case ir::TypeKind::kTensor:
      return "tensor";
    case ir::TypeKind::kSequence:
      return "sequence";
    case ir::TypeKind::kOptional:
      return "optional";
    case ir::TypeKind::kMap:
      return "map";
    default:
      return "";
  }
}

RuntimeValue load_value_pb(const std::filesystem::path& path, std::string_view hint,
                           std::string* name) {
  const std::string bytes = read_file(path);
  return decode_value(bytes, hint, name, path.string(), path.parent_path());
}

std::string value_to_proto_bytes(const RuntimeValue& value, std::string_view name) {
  switch (value.kind()) {
    case RuntimeValue::Kind::kTensor: {
      wire::TensorProto t;
      encode_value(value, nullptr, nullptr, &t);
      if (!name.empty()) t.set_name(std::string(name));
      return t.SerializeAsString();
    }
    case RuntimeValue::Kind::kSequence: {
      wire::SequenceProto s;
      encode_value(value, &s, nullptr, nullptr);
      if (!name.empty()) s.set_name(std::string(name));
      return s.SerializeAsString();
    }
    case RuntimeValue::Kind::kOptional: {
      wire::OptionalProto o;
      encode_value(value, nullptr, &o, nullptr);
      if (!name.empty()) o.set_name(std::string(name));
      return o.SerializeAsString();
    }
    case RuntimeValue::Kind::kMap: {
      wire::MapProto m;
      encode_map(value.map(), m);
      if (!name.empty()) m.set_name(std::string(name));
      return m.SerializeAsString();
    }
    case RuntimeValue::Kind::kNone:
      break;
  }
  throw Error("cannot encode an absent value");
}

void save_value_pb(const RuntimeValue& value, const std::filesystem::path& path,
                   std::string_view name) {
  write_file_atomically(path, value_to_proto_bytes(value, name));
}

RuntimeValue load_value(const std::filesystem::path& path) {
  if (path.extension() == ".npy") return load_npy(path);
  return load_value_pb(path);
}

}  // namespace onnxscript::eval
