// TensorProto <-> ir::Tensor. Every element type in every encoding the ONNX
// spec allows: raw_data, the typed fields, and external data. Sizes are
// checked against the dimensions before anything is allocated, so a file
// cannot make us allocate more than it holds.

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <memory>

#include "serde/proto_codec.h"
#include "serde/residue.h"

namespace onnxscript::serde::detail {
namespace {

using ir::DataType;
using ir::TensorEncoding;

// raw_data of at least this many bytes becomes the tensor's storage as it is.
constexpr int64_t kAdoptRawDataBytes = 4096;

// Which typed field holds a data type, per the ONNX spec (onnx.proto comments
// on TensorProto), and how many entries n elements take there.
enum class TypedField { kFloat, kInt32, kString, kInt64, kDouble, kUint64 };

TypedField typed_field_for(DataType dtype) {
  switch (dtype) {
    case DataType::kFloat:
    case DataType::kComplex64:
      return TypedField::kFloat;
    case DataType::kDouble:
    case DataType::kComplex128:
      return TypedField::kDouble;
    case DataType::kInt64:
      return TypedField::kInt64;
    case DataType::kUint32:
    case DataType::kUint64:
      return TypedField::kUint64;
    case DataType::kString:
      return TypedField::kString;
    default:
      // int32 and everything narrower: int8/16, uint8/16, bool, float16,
      // bfloat16, float8 (bit patterns), and the 4-bit and 2-bit types (one
      // packed byte per entry).
      return TypedField::kInt32;
  }
}

const char* typed_field_name(TypedField f) {
  switch (f) {
    case TypedField::kFloat:
      return "float_data";
    case TypedField::kInt32:
      return "int32_data";
    case TypedField::kString:
      return "string_data";
    case TypedField::kInt64:
      return "int64_data";
    case TypedField::kDouble:
      return "double_data";
    case TypedField::kUint64:
      return "uint64_data";
  }
  return "?";
}

int typed_field_size(const wire::TensorProto& p, TypedField f) {
  switch (f) {
    case TypedField::kFloat:
      return p.float_data_size();
    case TypedField::kInt32:
      return p.int32_data_size();
    case TypedField::kString:
      return p.string_data_size();
    case TypedField::kInt64:
      return p.int64_data_size();
    case TypedField::kDouble:
      return p.double_data_size();
    case TypedField::kUint64:
      return p.uint64_data_size();
  }
  return 0;
}

constexpr TypedField kAllTypedFields[] = {TypedField::kFloat,  TypedField::kInt32,
                                          TypedField::kString, TypedField::kInt64,
                                          TypedField::kDouble, TypedField::kUint64};

// Entries of the typed field that `numel` elements take.
int64_t typed_entry_count(DataType dtype, int64_t numel) {
  switch (dtype) {
    case DataType::kComplex64:
    case DataType::kComplex128:
      return numel > std::numeric_limits<int64_t>::max() / 2 ? -1 : numel * 2;
    default:
      // Sub-byte types: one int32_data entry per packed byte.
      if (ir::is_sub_byte(dtype)) return static_cast<int64_t>(ir::packed_byte_size(dtype, numel));
      return numel;
  }
}

bool parse_uint(std::string_view text, uint64_t* out) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

std::string dims_string(const std::vector<int64_t>& dims) {
  return fmt::format("[{}]", fmt::join(dims, ","));
}

// Copies typed-field entries into the tensor's storage, narrowing to the
// element width: int32_data holds int8/uint8/... values and bit patterns.
template <typename Dst, typename Src>
void narrow_copy(const Src* src, int64_t n, void* dst) {
  auto* out = static_cast<Dst*>(dst);
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<Dst>(src[i]);
}

void decode_typed(const wire::TensorProto& p, DataType dtype, int64_t entries, ir::Tensor& t) {
  void* dst = t.raw_data();
  switch (typed_field_for(dtype)) {
    case TypedField::kFloat:
      if (entries) std::memcpy(dst, p.float_data().data(), static_cast<size_t>(entries) * 4);
      return;
    case TypedField::kDouble:
      if (entries) std::memcpy(dst, p.double_data().data(), static_cast<size_t>(entries) * 8);
      return;
    case TypedField::kInt64:
      if (entries) std::memcpy(dst, p.int64_data().data(), static_cast<size_t>(entries) * 8);
      return;
    case TypedField::kUint64:
      if (dtype == DataType::kUint64) {
        if (entries) std::memcpy(dst, p.uint64_data().data(), static_cast<size_t>(entries) * 8);
      } else {
        narrow_copy<uint32_t>(p.uint64_data().data(), entries, dst);
      }
      return;
    case TypedField::kString: {
      auto* out = t.data<std::string>();
      for (int64_t i = 0; i < entries; ++i) out[i] = p.string_data(static_cast<int>(i));
      return;
    }
    case TypedField::kInt32: {
      const int32_t* src = p.int32_data().data();
      switch (ir::bit_width(dtype)) {
        case 32:
          if (entries) std::memcpy(dst, src, static_cast<size_t>(entries) * 4);
          return;
        case 16:
          narrow_copy<uint16_t>(src, entries, dst);
          return;
        default:  // 8 bits, or one byte holding two 4-bit or four 2-bit elements
          narrow_copy<uint8_t>(src, entries, dst);
          return;
      }
    }
  }
}

template <typename Src>
void widen_into(google::protobuf::RepeatedField<int32_t>* out, const void* data, int64_t n) {
  const auto* src = static_cast<const Src*>(data);
  out->Reserve(static_cast<int>(n));
  for (int64_t i = 0; i < n; ++i) out->AddAlreadyReserved(static_cast<int32_t>(src[i]));
}

template <typename T>
void copy_into(google::protobuf::RepeatedField<T>* out, const void* data, int64_t n) {
  const auto* src = static_cast<const T*>(data);
  out->Add(src, src + n);
}

void encode_typed(const ir::Tensor& t, wire::TensorProto* p) {
  const DataType dtype = t.dtype();
  const int64_t entries = typed_entry_count(dtype, t.numel());
  const void* src = t.raw_data();
  switch (typed_field_for(dtype)) {
    case TypedField::kFloat:
      return copy_into<float>(p->mutable_float_data(), src, entries);
    case TypedField::kDouble:
      return copy_into<double>(p->mutable_double_data(), src, entries);
    case TypedField::kInt64:
      return copy_into<int64_t>(p->mutable_int64_data(), src, entries);
    case TypedField::kUint64:
      if (dtype == DataType::kUint64)
        return copy_into<uint64_t>(p->mutable_uint64_data(), src, entries);
      {
        const auto* u32 = static_cast<const uint32_t*>(src);
        auto* out = p->mutable_uint64_data();
        out->Reserve(static_cast<int>(entries));
        for (int64_t i = 0; i < entries; ++i) out->AddAlreadyReserved(u32[i]);
      }
      return;
    case TypedField::kString: {
      const auto* s = t.data<std::string>();
      for (int64_t i = 0; i < entries; ++i) p->add_string_data(s[i]);
      return;
    }
    case TypedField::kInt32:
      // Signed types are sign-extended, everything else (unsigned values and
      // bit patterns) zero-extended, as onnx.numpy_helper writes them.
      switch (dtype) {
        case DataType::kInt32:
          return copy_into<int32_t>(p->mutable_int32_data(), src, entries);
        case DataType::kInt16:
          return widen_into<int16_t>(p->mutable_int32_data(), src, entries);
        case DataType::kInt8:
          return widen_into<int8_t>(p->mutable_int32_data(), src, entries);
        default:
          if (ir::bit_width(dtype) == 16)
            return widen_into<uint16_t>(p->mutable_int32_data(), src, entries);
          return widen_into<uint8_t>(p->mutable_int32_data(), src, entries);
      }
  }
}

ir::Tensor decode_external(const wire::TensorProto& p, DataType dtype, std::vector<int64_t> dims,
                           int64_t numel, ErrorContext& ctx, ExternalDataSource* external) {
  std::string_view location;
  uint64_t offset = 0;
  bool has_length = false;
  uint64_t length = 0;
  for (const auto& entry : p.external_data()) {
    check_unknown_fields(entry, ctx);
    if (entry.key() == "location") {
      location = entry.value();
    } else if (entry.key() == "offset") {
      if (!parse_uint(entry.value(), &offset))
        ctx.fail(
            fmt::format("external data offset '{}' is not a non-negative integer", entry.value()));
    } else if (entry.key() == "length") {
      if (!parse_uint(entry.value(), &length))
        ctx.fail(
            fmt::format("external data length '{}' is not a non-negative integer", entry.value()));
      has_length = true;
    }
  }
  if (location.empty()) ctx.fail("data_location is EXTERNAL but external_data has no location");
  if (dtype == DataType::kString) ctx.fail("string tensors cannot be stored as external data");
  if (external == nullptr) {
    ctx.fail<IoError>(fmt::format(
        "uses external data file '{}', but the model was read without a base directory", location));
  }
  const auto need = static_cast<uint64_t>(raw_byte_size(dtype, numel));
  if (has_length && length != need) {
    ctx.fail(fmt::format("external data length {} does not match the {} bytes that {}{} needs",
                         length, need, ir::data_type_name(dtype), dims_string(dims)));
  }
  std::shared_ptr<ir::Storage> storage = external->open(location, ctx);
  const uint64_t file_size = storage->size_bytes();
  if (offset > file_size || file_size - offset < need) {
    ctx.fail(fmt::format(
        "external data at offset {} with length {} lies outside '{}', which has {} bytes", offset,
        need, location, file_size));
  }
  // Elements must sit at their natural alignment (kernels read them as
  // typed values); a file written without alignment puts them anywhere, and
  // such a tensor is copied out of the mapping rather than viewed.
  const size_t align = static_cast<size_t>(std::clamp(ir::bit_width(dtype) / 8, 1, 8));
  if (reinterpret_cast<uintptr_t>(storage->data() + offset) % align != 0) {
    ir::Tensor copy = ir::Tensor::uninitialized(dtype, std::move(dims));
    std::memcpy(copy.raw_data(), storage->data() + offset, static_cast<size_t>(need));
    return copy;
  }
  return ir::Tensor(dtype, std::move(dims), std::move(storage), static_cast<size_t>(offset));
}

}  // namespace

int64_t raw_byte_size(DataType dtype, int64_t numel) {
  const int bits = ir::bit_width(dtype);
  if (bits == 0 || numel < 0) return -1;
  const auto max_elems = (std::numeric_limits<int64_t>::max() - 7) / bits;
  if (numel > max_elems) return -1;
  return (numel * bits + 7) / 8;
}

ir::Tensor decode_tensor(wire::TensorProto& p, ErrorContext& ctx, ExternalDataSource* external,
                         std::shared_ptr<ir::Storage> lifted_raw_data) {
  ErrorContext::Frame frame(ctx, "tensor", p.name());
  // raw_data presence is the encoding itself; no directive needed for it.
  std::string residue = capture_residue(p, ctx, {wire::TensorProto::kRawDataFieldNumber});

  const int32_t dt = p.data_type();
  if (!ir::is_known_data_type(dt)) ctx.fail(fmt::format("unknown data type {}", dt));
  const auto dtype = static_cast<DataType>(dt);

  std::vector<int64_t> dims(p.dims().begin(), p.dims().end());
  bool has_zero = false;
  for (int64_t d : dims) {
    if (d < 0) ctx.fail(fmt::format("dimension {} is negative in dims {}", d, dims_string(dims)));
    has_zero |= d == 0;
  }
  int64_t numel = has_zero ? 0 : 1;
  if (!has_zero) {
    for (int64_t d : dims) {
      if (numel > std::numeric_limits<int64_t>::max() / d)
        ctx.fail(fmt::format("dims {} overflow the element count", dims_string(dims)));
      numel *= d;
    }
  }

  int typed_fields = 0;
  for (TypedField f : kAllTypedFields) typed_fields += typed_field_size(p, f) > 0;
  const bool is_external = p.data_location() == wire::TensorProto::EXTERNAL;
  if (is_external + p.has_raw_data() + (typed_fields > 0) > 1)
    ctx.fail("holds data in more than one of raw_data, typed fields and external data");

  ir::Tensor tensor;
  TensorEncoding encoding = TensorEncoding::kTypedFields;
  if (is_external) {
    tensor = decode_external(p, dtype, std::move(dims), numel, ctx, external);
    encoding = TensorEncoding::kExternal;
  } else if (p.has_raw_data()) {
    if (dtype == DataType::kString) ctx.fail("string tensors cannot use raw_data");
    const int64_t need = raw_byte_size(dtype, numel);
    const size_t have = lifted_raw_data ? lifted_raw_data->size_bytes() : p.raw_data().size();
    if (need < 0 || static_cast<uint64_t>(need) != have) {
      ctx.fail(fmt::format("raw_data has {} bytes, but {}{} needs {}", have,
                           ir::data_type_name(dtype), dims_string(dims),
                           need < 0 ? std::string("more than 2^63") : std::to_string(need)));
    }
    // The parser already copied the bytes out of the file into raw_data's
    // string: a large tensor adopts that string as its storage rather than
    // copying it again (a copy into fresh memory costs a page fault per 4 KiB,
    // which dominated loading). Small tensors get storage of their own, so
    // that a model of many small constants does not hold a string each.
    std::unique_ptr<std::string> released(p.release_raw_data());
    if (lifted_raw_data) {
      // Already in memory of its own (the loader's arena), aligned.
      tensor = ir::Tensor(dtype, std::move(dims), std::move(lifted_raw_data));
    } else if (need >= kAdoptRawDataBytes && released) {
      auto bytes = std::make_shared<std::string>(std::move(*released));
      std::shared_ptr<ir::Storage> storage =
          ir::borrow_storage(bytes->data(), bytes->size(), bytes);
      tensor = ir::Tensor(dtype, std::move(dims), std::move(storage));
    } else {
      tensor = ir::Tensor::uninitialized(dtype, std::move(dims));
      if (need > 0) std::memcpy(tensor.raw_data(), released->data(), static_cast<size_t>(need));
    }
    encoding = TensorEncoding::kRawData;
  } else {
    const TypedField field = typed_field_for(dtype);
    for (TypedField f : kAllTypedFields) {
      if (f != field && typed_field_size(p, f) > 0) {
        ctx.fail(fmt::format("{} tensors keep their values in {}, but {} is set",
                             ir::data_type_name(dtype), typed_field_name(field),
                             typed_field_name(f)));
      }
    }
    const int64_t want = typed_entry_count(dtype, numel);
    const int have = typed_field_size(p, field);
    if (want != have) {
      ctx.fail(fmt::format("{} has {} entries, but {}{} needs {}", typed_field_name(field), have,
                           ir::data_type_name(dtype), dims_string(dims),
                           want < 0 ? std::string("more than 2^63") : std::to_string(want)));
    }
    tensor = ir::Tensor(dtype, std::move(dims));
    decode_typed(p, dtype, want, tensor);
  }

  ir::TensorProtoInfo& info = tensor.mutable_proto_info();
  info.name = p.name();
  info.doc_string = p.doc_string();
  info.metadata_props = decode_metadata(p.metadata_props(), ctx);
  info.encoding = encoding;
  for (const auto& entry : p.external_data())
    info.external_data.emplace_back(entry.key(), entry.value());
  if (p.has_segment()) {
    check_unknown_fields(p.segment(), ctx);
    info.has_segment = true;
    info.segment_begin = p.segment().begin();
    info.segment_end = p.segment().end();
  }
  info.unknown_fields = std::move(residue);
  return tensor;
}

ir::SparseTensor decode_sparse_tensor(wire::SparseTensorProto& p, ErrorContext& ctx,
                                      ExternalDataSource* external) {
  ErrorContext::Frame frame(ctx, "sparse tensor", p.values().name());
  check_unknown_fields(p, ctx);
  ir::SparseTensor s;
  for (int64_t d : p.dims())
    if (d < 0) ctx.fail(fmt::format("dimension {} is negative", d));
  s.dims.assign(p.dims().begin(), p.dims().end());
  s.values = decode_tensor(*p.mutable_values(), ctx, external);
  s.indices = decode_tensor(*p.mutable_indices(), ctx, external);
  return s;
}

void encode_tensor(const ir::Tensor& t, wire::TensorProto* p, ErrorContext& ctx,
                   TensorDataSink* sink, const std::string* name) {
  const ir::TensorProtoInfo* info = t.proto_info();
  static const std::string kNoName;
  const std::string& tensor_name = name ? *name : info ? info->name : kNoName;
  ErrorContext::Frame frame(ctx, "tensor", tensor_name);
  if (!t.defined()) ctx.fail("the tensor is undefined (it has no element type)");
  if (!ir::is_known_data_type(static_cast<int32_t>(t.dtype())))
    ctx.fail(fmt::format("unknown element type {}", static_cast<int32_t>(t.dtype())));

  p->mutable_dims()->Add(t.shape().begin(), t.shape().end());
  p->set_data_type(static_cast<int32_t>(t.dtype()));
  if (!tensor_name.empty()) p->set_name(tensor_name);
  if (info) {
    if (!info->doc_string.empty()) p->set_doc_string(info->doc_string);
    if (info->has_segment) {
      p->mutable_segment()->set_begin(info->segment_begin);
      p->mutable_segment()->set_end(info->segment_end);
    }
    encode_metadata(info->metadata_props, p->mutable_metadata_props());
  }
  if (t.dtype() == DataType::kString) {
    encode_typed(t, p);
  } else {
    const bool typed = info && info->encoding == TensorEncoding::kTypedFields;
    if (!(sink && sink->place(t, typed, p, ctx))) {
      if (typed) {
        encode_typed(t, p);
      } else {
        p->set_raw_data(static_cast<const char*>(t.raw_data()), t.nbytes());
      }
    }
  }
  if (info) apply_residue(info->unknown_fields, p, ctx);
}

void encode_sparse_tensor(const ir::SparseTensor& s, wire::SparseTensorProto* p, ErrorContext& ctx,
                          TensorDataSink* sink, const std::string* name) {
  encode_tensor(s.values, p->mutable_values(), ctx, sink, name);
  encode_tensor(s.indices, p->mutable_indices(), ctx, sink);
  p->mutable_dims()->Add(s.dims.begin(), s.dims.end());
}

}  // namespace onnxscript::serde::detail
