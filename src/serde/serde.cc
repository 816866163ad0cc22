// The public entry points of the wire format: files and bytes in and out,
// the 2 GB protobuf limit, and the choice between inline and external data.

#include "onnxscript/serde/serde.h"

#include <fcntl.h>
#include <google/protobuf/arena.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/wire_format_lite.h>

#include "onnxscript/support/file_io.h"
#include "serde/external_data.h"
#include "serde/model_io.h"
#include "serde/raw_data_split.h"
#include "serde/wire_encoder.h"

namespace onnxscript::serde {
namespace {

namespace fs = std::filesystem;
using detail::ErrorContext;

[[noreturn]] void fail_too_large(const fs::path& path, uintmax_t size) {
  throw ParseError(
      fmt::format("{}: the file has {} bytes; protobuf cannot read more than 2 GB "
                  "(larger models keep their tensors in external data)",
                  path.string(), size));
}

// The bytes of a model or tensor file, refused with a ParseError before
// anything is read when protobuf could not parse that many.
std::string read_proto_file(const fs::path& path) {
  std::error_code ec;
  const uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > kMaxProtoBytes) fail_too_large(path, size);
  return read_file(path);  // names the path when it is missing or not a regular file
}

// A read-only private mapping of a model file for the length of one load:
// the loader reads the file through it without a read() of the whole file
// into fresh memory (raw_data_split.h copies the weights once, out of it).
class FileMapping {
 public:
  FileMapping() = default;
  FileMapping(const FileMapping&) = delete;
  FileMapping& operator=(const FileMapping&) = delete;
  ~FileMapping() {
    if (addr_ != nullptr) ::munmap(addr_, size_);
  }

  // Maps the regular, non-empty file `path`. False when it cannot (missing,
  // a directory, empty, mmap refused): the caller then reads the file, which
  // reports what is wrong as before. Throws ParseError for a file over 2 GB.
  bool map(const fs::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return false;
    struct stat st {};
    const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
    if (regular && static_cast<uintmax_t>(st.st_size) > kMaxProtoBytes) {
      ::close(fd);
      fail_too_large(path, static_cast<uintmax_t>(st.st_size));
    }
    void* addr = MAP_FAILED;
    if (regular) {
      // MAP_POPULATE: the walk and the copy touch every page anyway, and the
      // kernel maps them in bulk faster than faults one by one.
      addr = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE,
                    fd, 0);
    }
    ::close(fd);
    if (addr == MAP_FAILED) return false;
    addr_ = addr;
    size_ = static_cast<size_t>(st.st_size);
    return true;
  }

  std::string_view bytes() const { return {static_cast<const char*>(addr_), size_}; }

 private:
  void* addr_ = nullptr;
  size_t size_ = 0;
};

fs::path directory_of(const fs::path& p) {
  fs::path dir = p.parent_path();
  return dir.empty() ? fs::path(".") : dir;
}

// Parses `bytes` as `msg`, or throws ParseError explaining what is wrong.
void parse_or_throw(std::string_view bytes, google::protobuf::Message* msg,
                    const ErrorContext& ctx) {
  if (bytes.size() > kMaxProtoBytes) ctx.fail<ParseError>("larger than protobuf's 2 GB limit");
  if (msg->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return;
  std::string why = detail::diagnose_parse_failure(bytes, msg->GetDescriptor());
  if (why.empty()) why = "protobuf rejected the bytes (nesting too deep, or malformed)";
  ctx.fail<ParseError>(fmt::format("not a valid {}: {}", msg->GetDescriptor()->name(), why));
}

// Holds back the raw_data of big tensors while the rest of the model is
// encoded, so the encoded size can be checked against the 2 GB limit before
// gigabytes are copied into the proto.
class DeferredRawData final : public detail::TensorDataSink {
 public:
  bool place(const ir::Tensor& tensor, bool typed, wire::TensorProto* proto,
             const ErrorContext& /*ctx*/) override {
    if (typed || tensor.nbytes() < kMinDeferred) return false;
    entries_.push_back({proto, tensor});
    bytes_ += tensor.nbytes();
    return true;
  }
  // An upper bound of what the deferred bytes add to the encoding: the bytes,
  // their tag and length, and the growth of enclosing length prefixes.
  uint64_t added_size() const { return bytes_ + entries_.size() * 64; }
  void fill() {
    for (Entry& e : entries_)
      e.proto->set_raw_data(static_cast<const char*>(e.tensor.raw_data()), e.tensor.nbytes());
    entries_.clear();
  }

 private:
  static constexpr size_t kMinDeferred = 4096;
  struct Entry {
    wire::TensorProto* proto;
    ir::Tensor tensor;
  };
  std::vector<Entry> entries_;
  uint64_t bytes_ = 0;
};

// Encodes the model with all data inline, if it fits in 2 GB.
bool encode_inline(const ir::Model& model, wire::ModelProto* proto, ErrorContext& ctx,
                   uint64_t* size) {
  DeferredRawData deferred;
  detail::write_model_proto(model, proto, ctx, &deferred);
  *size = proto->ByteSizeLong() + deferred.added_size();
  if (*size > kMaxProtoBytes) return false;
  deferred.fill();
  *size = proto->ByteSizeLong();
  return *size <= kMaxProtoBytes;
}

void write_proto(const google::protobuf::Message& proto, AtomicFile& file) {
  google::protobuf::io::FileOutputStream out(file.fd());
  const bool ok = proto.SerializeToZeroCopyStream(&out) && out.Flush();
  if (!ok) {
    errno = out.GetErrno();
    throw IoError(fmt::format("{}: cannot write: {}", file.target().string(),
                              errno != 0 ? std::strerror(errno) : "serialization failed"));
  }
}

}  // namespace

namespace detail {

std::string diagnose_parse_failure(std::string_view bytes,
                                   const google::protobuf::Descriptor* desc) {
  using google::protobuf::FieldDescriptor;
  using google::protobuf::internal::WireFormatLite;
  // Walks the framing (tags and lengths) of `desc` messages, recursing into
  // message fields, to find where the bytes stop making sense.
  struct Walker {
    const char* base;
    std::string walk(size_t begin, size_t end, const google::protobuf::Descriptor* d, int depth) {
      google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(base + begin),
                                                static_cast<int>(end - begin));
      while (true) {
        const size_t at = begin + static_cast<size_t>(in.CurrentPosition());
        const uint32_t tag = in.ReadTag();
        if (tag == 0) {
          if (at == end) return "";
          return fmt::format("invalid field tag in {} at byte {}", d->name(), at);
        }
        const int number = static_cast<int>(WireFormatLite::GetTagFieldNumber(tag));
        const auto wire_type = WireFormatLite::GetTagWireType(tag);
        const FieldDescriptor* fd = d->FindFieldByNumber(number);
        const std::string field = fd ? fmt::format("{}.{}", d->name(), fd->name())
                                     : fmt::format("{} field {}", d->name(), number);
        if (wire_type == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
          uint32_t length = 0;
          if (!in.ReadVarint32(&length))
            return fmt::format("truncated: the length of {} at byte {} is cut off", field, at);
          const size_t start = begin + static_cast<size_t>(in.CurrentPosition());
          if (length > end - start) {
            return fmt::format("truncated: {} at byte {} needs {} bytes, only {} remain", field, at,
                               length, end - start);
          }
          if (fd && fd->type() == FieldDescriptor::TYPE_MESSAGE && depth < 100) {
            std::string inner = walk(start, start + length, fd->message_type(), depth + 1);
            if (!inner.empty()) return inner;
          }
          in.Skip(static_cast<int>(length));
        } else if (!WireFormatLite::SkipField(&in, tag)) {
          return fmt::format(
              "truncated or malformed: {} at byte {} ends early or has an invalid "
              "wire type",
              field, at);
        }
      }
    }
  };
  Walker w{bytes.data()};
  return w.walk(0, bytes.size(), desc, 0);
}

}  // namespace detail

ir::Model load_model(const std::filesystem::path& path) {
  FileMapping mapping;
  if (mapping.map(path))
    return load_model_from_bytes(mapping.bytes(), directory_of(path), path.string());
  const std::string bytes = read_proto_file(path);
  return load_model_from_bytes(bytes, directory_of(path), path.string());
}

ir::Model load_model_from_bytes(std::string_view bytes, const std::filesystem::path& base_dir,
                                std::string_view source_name) {
  ErrorContext ctx{std::string(source_name)};
  try {
    wire::ModelProto proto;
    std::unique_ptr<detail::ExternalDataReader> external;
    if (!base_dir.empty()) external = std::make_unique<detail::ExternalDataReader>(base_dir);
    // The fast path: protobuf parses the model without its large weights,
    // which are copied once into an arena (raw_data_split.h).
    detail::SplitModel split;
    if (bytes.size() <= kMaxProtoBytes && detail::split_model_bytes(bytes, &split)) {
      if (proto.ParseFromArray(split.skeleton.data(), static_cast<int>(split.skeleton.size())))
        return detail::read_model_proto(proto, ctx, external.get(), &split.initializer_raw_data);
      // protobuf refused what the walk accepted: parse the bytes as they are,
      // so that the error describes them.
      split = {};
      proto.Clear();
    }
    parse_or_throw(bytes, &proto, ctx);
    return detail::read_model_proto(proto, ctx, external.get());
  } catch (const std::bad_alloc&) {
    ctx.fail<ValidationError>("out of memory while reading the model");
  }
}

std::string serialize_model(const ir::Model& model) {
  // Plain models (what the eDSL builds, and most files) take the direct
  // encoder; the rest, and every error, go through protobuf messages.
  std::string bytes;
  if (detail::encode_model_fast(model, &bytes)) return bytes;
  ErrorContext ctx{"<serialize_model>"};
  // An arena: a large model is hundreds of thousands of small messages, and
  // allocating and freeing them one by one costs more than encoding them.
  google::protobuf::Arena arena;
  wire::ModelProto& proto = *google::protobuf::Arena::CreateMessage<wire::ModelProto>(&arena);
  uint64_t size = 0;
  if (!encode_inline(model, &proto, ctx, &size)) {
    throw Error(fmt::format(
        "serialize_model: the model needs about {} bytes with its tensors inline, over protobuf's "
        "2 GB limit; save it with save_model, which moves large tensors to external data",
        size));
  }
  return proto.SerializeAsString();
}

namespace {
// Tensors from this size on are written to a file from their own memory
// rather than copied into the encoder's buffer; below it the copy is cheaper
// than a write of its own.
constexpr size_t kMinSplicedTensorBytes = size_t{64} << 10;
}  // namespace

void save_model(const ir::Model& model, const std::filesystem::path& path,
                const SaveOptions& options) {
  ErrorContext ctx{path.string()};
  if (options.external_data_alignment == 0 ||
      (options.external_data_alignment & (options.external_data_alignment - 1)) != 0) {
    ctx.fail<ValidationError>(fmt::format("external_data_alignment {} is not a power of two",
                                          options.external_data_alignment));
  }
  if (path.filename().empty()) ctx.fail<IoError>("the path names no file");

  if (!options.use_external_data) {
    // The fast encoder (see serialize_model), with the weights written from
    // the tensors themselves: saving holds no second copy of them.
    std::string bytes;
    std::vector<detail::Splice> splices;
    if (detail::encode_model_fast_spliced(model, kMinSplicedTensorBytes, &bytes, &splices)) {
      AtomicFile file(path);
      size_t from = 0;
      for (const detail::Splice& splice : splices) {
        file.write(bytes.data() + from, splice.at - from);
        file.write(splice.data, splice.size);
        from = splice.at;
      }
      file.write(bytes.data() + from, bytes.size() - from);
      file.publish();
      return;
    }
    google::protobuf::Arena arena;  // see serialize_model
    wire::ModelProto& proto = *google::protobuf::Arena::CreateMessage<wire::ModelProto>(&arena);
    uint64_t size = 0;
    if (encode_inline(model, &proto, ctx, &size)) {
      AtomicFile file(path);
      write_proto(proto, file);
      file.publish();
      return;
    }
    // Over 2 GB inline: fall through and move large tensors out.
  }

  const std::string location = options.external_data_file.empty()
                                   ? path.filename().string() + ".data"
                                   : options.external_data_file;
  detail::check_relative_location(location, ctx);
  detail::ExternalDataWriter side(directory_of(path) / location, location,
                                  options.external_data_threshold, options.external_data_alignment);
  wire::ModelProto proto;
  detail::write_model_proto(model, &proto, ctx, &side);
  const uint64_t size = proto.ByteSizeLong();
  if (size > kMaxProtoBytes) {
    ctx.fail<Error>(fmt::format(
        "even with tensors of {} bytes or more in external data the model needs {} bytes, over "
        "protobuf's 2 GB limit; lower external_data_threshold",
        options.external_data_threshold, size));
  }
  AtomicFile file(path);
  write_proto(proto, file);
  file.finish();
  side.finish();
  side.publish();
  file.publish();
}

ir::Tensor tensor_from_proto_bytes(std::string_view bytes, const std::filesystem::path& base_dir,
                                   std::string_view source_name) {
  ErrorContext ctx{std::string(source_name)};
  try {
    wire::TensorProto proto;
    parse_or_throw(bytes, &proto, ctx);
    std::unique_ptr<detail::ExternalDataReader> external;
    if (!base_dir.empty()) external = std::make_unique<detail::ExternalDataReader>(base_dir);
    return detail::decode_tensor(proto, ctx, external.get());
  } catch (const std::bad_alloc&) {
    ctx.fail<ValidationError>("out of memory while reading the tensor");
  }
}

namespace {
wire::TensorProto encode_tensor_inline(const ir::Tensor& tensor, ErrorContext& ctx) {
  wire::TensorProto proto;
  detail::encode_tensor(tensor, &proto, ctx, nullptr);
  if (proto.ByteSizeLong() > kMaxProtoBytes)
    ctx.fail<Error>("the tensor is larger than protobuf's 2 GB limit");
  return proto;
}
}  // namespace

std::string tensor_to_proto_bytes(const ir::Tensor& tensor) {
  ErrorContext ctx{"<tensor_to_proto_bytes>"};
  return encode_tensor_inline(tensor, ctx).SerializeAsString();
}

ir::Tensor load_tensor_pb(const std::filesystem::path& path) {
  const std::string bytes = read_proto_file(path);
  return tensor_from_proto_bytes(bytes, directory_of(path), path.string());
}

void save_tensor_pb(const ir::Tensor& tensor, const std::filesystem::path& path) {
  ErrorContext ctx{path.string()};
  const wire::TensorProto proto = encode_tensor_inline(tensor, ctx);
  AtomicFile file(path);
  write_proto(proto, file);
  file.publish();
}

}  // namespace onnxscript::serde
