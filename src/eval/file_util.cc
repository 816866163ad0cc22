#include "eval/file_util.h"

#include <fstream>
#include <random>
#include <system_error>

#include <fmt/format.h>

#include "onnxscript/support/error.h"

namespace onnxscript::eval {

std::string read_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw IoError(fmt::format("{}: is a directory", path.string()));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(fmt::format("{}: cannot open for reading", path.string()));
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw IoError(fmt::format("{}: read failed", path.string()));
  return bytes;
}

void write_file_atomically(const std::filesystem::path& path, std::string_view bytes) {
  std::random_device rd;
  std::filesystem::path tmp = path;
  tmp += fmt::format(".tmp-{:08x}", rd());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw IoError(fmt::format("{}: cannot open for writing", tmp.string()));
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      throw IoError(fmt::format("{}: write failed", path.string()));
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw IoError(fmt::format("{}: cannot replace: {}", path.string(), ec.message()));
  }
}

}  // namespace onnxscript::eval
