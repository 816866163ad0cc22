#include "serde/external_data.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

namespace onnxscript::serde::detail {
namespace {

namespace fs = std::filesystem;

// A private (copy-on-write) mapping of a whole file; tensors keep it alive.
// Pages are read from the file when first touched; a tensor written to gets
// pages of its own, and the file never changes.
class MappedFile final : public ir::Storage {
 public:
  MappedFile(void* addr, size_t size) : Storage(static_cast<std::byte*>(addr), size) {}
  ~MappedFile() override {
    if (data_ != nullptr) ::munmap(data_, size_);
  }
};

// Closes a descriptor on every path out of a function.
struct FdGuard {
  int fd;
  ~FdGuard() {
    if (fd >= 0) ::close(fd);
  }
};

bool is_inside(const fs::path& path, const fs::path& dir) {
  const fs::path rel = path.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != ".." && rel != ".";
}

constexpr size_t kHoleChunk = 64 * 1024;

bool all_zero(const std::byte* p, size_t n) {
  static const std::array<std::byte, kHoleChunk> kZeros{};
  return std::memcmp(p, kZeros.data(), n) == 0;
}

}  // namespace

void check_relative_location(std::string_view location, const ErrorContext& ctx) {
  if (location.empty()) ctx.fail<IoError>("the external data location is empty");
  if (location.find('\0') != std::string_view::npos)
    ctx.fail<IoError>("the external data location contains a NUL character");
  const fs::path p(location);
  if (p.is_absolute() || p.has_root_directory() || p.has_root_name()) {
    ctx.fail<IoError>(fmt::format(
        "external data location '{}' is an absolute path; it must be relative to the model "
        "directory",
        location));
  }
  for (const fs::path& part : p) {
    if (part == "..") {
      ctx.fail<IoError>(fmt::format(
          "external data location '{}' contains '..'; it must stay inside the model directory",
          location));
    }
  }
}

std::shared_ptr<ir::Storage> ExternalDataReader::open(std::string_view location,
                                                      const ErrorContext& ctx) {
  check_relative_location(location, ctx);
  const std::string key(location);
  if (auto it = files_.find(key); it != files_.end()) return it->second;

  std::error_code ec;
  if (canonical_base_.empty()) {
    canonical_base_ = fs::canonical(base_dir_, ec);
    if (ec) {
      ctx.fail<IoError>(fmt::format("cannot resolve the model directory '{}': {}",
                                    base_dir_.string(), ec.message()));
    }
  }
  const fs::path real = fs::canonical(base_dir_ / location, ec);
  if (ec) {
    ctx.fail<IoError>(fmt::format("cannot open external data file '{}' in '{}': {}", location,
                                  base_dir_.string(), ec.message()));
  }
  // canonical() has followed every symlink: what is left must still be in
  // the model directory.
  if (!is_inside(real, canonical_base_)) {
    ctx.fail<IoError>(
        fmt::format("external data file '{}' resolves to '{}', outside the model directory '{}'",
                    location, real.string(), canonical_base_.string()));
  }
  // O_NOFOLLOW: the resolved path must not have become a symlink since.
  FdGuard fd{::open(real.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)};
  if (fd.fd < 0) {
    const int err = errno;
    ctx.fail<IoError>(
        fmt::format("cannot open external data file '{}': {}", real.string(), std::strerror(err)));
  }
  struct stat st {};
  if (::fstat(fd.fd, &st) != 0 || !S_ISREG(st.st_mode))
    ctx.fail<IoError>(fmt::format("external data file '{}' is not a regular file", real.string()));
  const auto size = static_cast<size_t>(st.st_size);
  void* addr = nullptr;
  if (size > 0) {
    addr = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd.fd, 0);
    if (addr == MAP_FAILED) {
      const int err = errno;
      ctx.fail<IoError>(
          fmt::format("cannot map external data file '{}': {}", real.string(), std::strerror(err)));
    }
  }
  auto storage = std::make_shared<MappedFile>(addr, size);
  files_.emplace(key, storage);
  return storage;
}

bool ExternalDataWriter::place(const ir::Tensor& tensor, bool /*typed*/, wire::TensorProto* proto,
                               const ErrorContext& ctx) {
  const size_t size = tensor.nbytes();
  if (size == 0 || size < threshold_) return false;
  if (!file_) {
    try {
      file_ = std::make_unique<AtomicFile>(path_);
    } catch (const IoError& e) {
      ctx.fail<IoError>(e.what());
    }
  }
  const uint64_t at = file_->position();
  const uint64_t offset = (at + alignment_ - 1) / alignment_ * alignment_;
  file_->skip(offset - at);

  // Write the bytes, turning all-zero chunks into holes.
  const auto* data = static_cast<const std::byte*>(tensor.raw_data());
  size_t run_begin = 0;  // start of the pending run of non-zero chunks
  for (size_t pos = 0; pos < size; pos += kHoleChunk) {
    const size_t n = std::min(kHoleChunk, size - pos);
    if (all_zero(data + pos, n)) {
      file_->write(data + run_begin, pos - run_begin);
      file_->skip(n);
      run_begin = pos + n;
    }
  }
  file_->write(data + run_begin, size - run_begin);

  proto->set_data_location(wire::TensorProto::EXTERNAL);
  auto add = [&](const char* key, std::string value) {
    auto* e = proto->add_external_data();
    e->set_key(key);
    e->set_value(std::move(value));
  };
  add("location", location_);
  add("offset", std::to_string(offset));
  add("length", std::to_string(size));
  return true;
}

}  // namespace onnxscript::serde::detail
