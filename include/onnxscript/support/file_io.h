#pragma once
/// \file
/// The project's one way to read and write files. Whole-file reads go
/// through read_file; every file the project writes goes through AtomicFile
/// (directly, or by write_file_atomically), so readers see either the old
/// file or the complete new one, and a failure never leaves a partial file.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace onnxscript {

/// Reads a whole regular file. Throws IoError naming the path when it is
/// missing, is a directory or another kind of non-regular file (a FIFO or a
/// device, which could block or never end), or cannot be read. Interrupted
/// system calls are retried.
std::string read_file(const std::filesystem::path& path);

/// A file written atomically: the bytes go to a temporary file in the same
/// directory (so the final rename cannot cross file systems), created with
/// the usual permissions (0666 less the umask) under a name no other writer
/// picks. finish() flushes it to disk; publish() renames it over the target
/// and flushes the directory, so the rename survives a crash too. Until
/// publish() succeeds, the destructor removes the temporary: an exception
/// anywhere leaves the directory as it was.
class AtomicFile {
 public:
  /// Creates the temporary next to `target`. Throws IoError naming `target`
  /// (for instance when its directory does not exist).
  explicit AtomicFile(std::filesystem::path target);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// The destination.
  const std::filesystem::path& target() const { return target_; }
  /// The temporary's descriptor, for writers that stream (protobuf).
  int fd() const { return fd_; }
  /// Bytes written (or skipped) so far through write() and skip().
  uint64_t position() const { return position_; }

  /// Appends bytes. Throws IoError naming the target.
  void write(const void* data, size_t size);
  /// Appends bytes. Throws IoError naming the target.
  void write(std::string_view bytes) { write(bytes.data(), bytes.size()); }
  /// Appends `size` zero bytes, as a hole when the file system supports it.
  void skip(uint64_t size);
  /// Flushes the file to disk and closes it; the length becomes at least
  /// position(), so that trailing holes count. Throws IoError.
  void finish();
  /// Finishes the file if needed, renames it over the target and flushes the
  /// directory. Throws IoError, leaving the target as it was.
  void publish();

 private:
  [[noreturn]] void fail(const char* action) const;

  std::filesystem::path target_;
  std::filesystem::path temp_;
  int fd_ = -1;
  uint64_t position_ = 0;
  bool published_ = false;
};

/// Writes `path` atomically through an AtomicFile that `write` fills, then
/// publishes it. If `write` throws, or any step fails, `path` is left as it
/// was, no temporary remains, and the error propagates (IoError for file
/// system failures).
void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(AtomicFile& out)>& write);

/// write_file_atomically with fixed contents.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

}  // namespace onnxscript
