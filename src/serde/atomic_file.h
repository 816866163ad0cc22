#pragma once
// Writing a file so that readers see either the old file or the complete new
// one: the bytes go to a temporary file in the same directory (so the final
// rename cannot cross file systems), which is flushed to disk and then
// renamed over the destination. Until publish(), the destructor removes the
// temporary, so an exception anywhere leaves the directory as it was.

#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace onnxscript::serde::detail {

class AtomicFile {
 public:
  // Creates the temporary next to `target`. Throws IoError naming `target`
  // (for instance when its directory does not exist).
  explicit AtomicFile(std::filesystem::path target);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // The destination.
  const std::filesystem::path& target() const { return target_; }
  // The temporary's descriptor, for writers that stream (protobuf).
  int fd() const { return fd_; }
  // Bytes written (or skipped) so far through write() and skip().
  uint64_t position() const { return position_; }

  // Appends bytes. Throws IoError.
  void write(const void* data, size_t size);
  // Appends `size` zero bytes, as a hole when the file system supports it.
  void skip(uint64_t size);
  // Flushes the file to disk and closes it; the length becomes at least
  // position(), so that trailing holes count. Throws IoError.
  void finish();
  // Renames the temporary over the destination and flushes the directory.
  // Throws IoError, leaving the destination as it was.
  void publish();

 private:
  [[noreturn]] void fail(const char* action) const;

  std::filesystem::path target_;
  std::filesystem::path temp_;
  int fd_ = -1;
  uint64_t position_ = 0;
  bool published_ = false;
};

}  // namespace onnxscript::serde::detail
