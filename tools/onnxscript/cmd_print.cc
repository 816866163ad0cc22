// onnxscript print FILE: the model in ONNX textual syntax.
#include <iostream>

#include "commands.h"
#include "onnxscript/serde/text.h"

namespace onnxscript::cli {

void add_print_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("print", "Print a model in the ONNX textual syntax");
  auto file = std::make_shared<std::string>();
  cmd->add_option("FILE", *file, "Model file (.onnx, or .txt/.onnxtxt text)")->required();
  cmd->callback([file] { std::cout << text::print_model(load_model_file(*file)); });
}

}  // namespace onnxscript::cli
