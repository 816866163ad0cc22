#pragma once
/// \file
/// Whole-file reads and atomic writes. Every file the project writes goes
/// through write_file_atomically, so a failure never leaves a partial file.

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace onnxscript {

/// Reads a whole file. Throws IoError naming the path on failure.
std::string read_file(const std::filesystem::path& path);

/// Writes `path` atomically: `write` fills a temporary file in the same
/// directory, which is flushed, fsynced and renamed over `path`. If `write`
/// throws, or any step fails, the temporary file is removed, `path` is left
/// as it was, and the error propagates (IoError for file system failures).
void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::FILE* out)>& write);

/// write_file_atomically with fixed contents.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

/// Writes all of `bytes` to `out`; throws IoError naming `path` on failure.
void write_all(std::FILE* out, std::string_view bytes, const std::filesystem::path& path);

}  // namespace onnxscript
