// onnxscript print FILE: the model in ONNX textual syntax.
#include <iostream>

#include "commands.h"
#include "onnxscript/serde/text.h"

namespace onnxscript::cli {

int print_command(const PrintOptions& options) {
  std::cout << text::print_model(load_model_file(options.file));
  return 0;
}

}  // namespace onnxscript::cli
