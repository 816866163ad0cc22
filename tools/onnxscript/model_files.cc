#include "commands.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/serde/text.h"
#include "onnxscript/support/file_io.h"

namespace onnxscript::cli {

bool is_text_path(const std::filesystem::path& path) {
  const auto ext = path.extension();
  return ext == ".txt" || ext == ".onnxtxt";
}

ir::Model load_model_file(const std::filesystem::path& path) {
  if (is_text_path(path)) return text::parse_model(read_file(path), path.string());
  return serde::load_model(path);
}

}  // namespace onnxscript::cli
