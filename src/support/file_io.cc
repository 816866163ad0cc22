#include "onnxscript/support/file_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "onnxscript/support/error.h"

namespace onnxscript {
namespace {

std::string errno_text() { return std::strerror(errno); }

// A unique sibling name; the pid and a counter keep concurrent writers apart.
std::filesystem::path temp_sibling(const std::filesystem::path& path) {
  static std::atomic<unsigned> counter{0};
  std::filesystem::path tmp = path;
  tmp += fmt::format(".tmp{}.{}", static_cast<long>(::getpid()), counter++);
  return tmp;
}

}  // namespace

std::string read_file(const std::filesystem::path& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw IoError(fmt::format("cannot open '{}': {}", path.string(), errno_text()));
  std::string data;
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) data.append(buffer, n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) throw IoError(fmt::format("cannot read '{}'", path.string()));
  return data;
}

void write_all(std::FILE* out, std::string_view bytes, const std::filesystem::path& path) {
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), out) != bytes.size()) {
    throw IoError(fmt::format("cannot write '{}': {}", path.string(), errno_text()));
  }
}

void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::FILE* out)>& write) {
  const std::filesystem::path tmp = temp_sibling(path);
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw IoError(fmt::format("cannot create '{}': {}", path.string(), errno_text()));
  try {
    write(f);
    if (std::fflush(f) != 0 || ::fsync(::fileno(f)) != 0) {
      throw IoError(fmt::format("cannot write '{}': {}", path.string(), errno_text()));
    }
    const int closed = std::fclose(f);
    f = nullptr;
    if (closed != 0) throw IoError(fmt::format("cannot write '{}': {}", path.string(), errno_text()));
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
      throw IoError(fmt::format("cannot replace '{}': {}", path.string(), errno_text()));
    }
  } catch (...) {
    if (f) std::fclose(f);
    std::remove(tmp.c_str());
    throw;
  }
}

void write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
  write_file_atomically(path, [&](std::FILE* out) { write_all(out, contents, path); });
}

}  // namespace onnxscript
