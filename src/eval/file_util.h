#pragma once
// Whole-file reads and atomic writes for the evaluator's file formats.

#include <filesystem>
#include <string>
#include <string_view>

namespace onnxscript::eval {

/// The bytes of a file; IoError naming the path when it cannot be read.
std::string read_file(const std::filesystem::path& path);

/// Writes to a temporary file beside `path`, then renames it into place, so a
/// failure never leaves a partial file. IoError naming the path on failure.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

}  // namespace onnxscript::eval
