// onnxscript check FILE: the ONNX checker and strict shape inference.
#include <iostream>

#include "commands.h"
#include "onnxscript/serde/check.h"

namespace onnxscript::cli {

void add_check_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "check",
      "Check a model: structure (on load), the ONNX checker and strict shape inference "
      "(libonnx 1.12: IR <= 8, opset <= 17)");
  auto file = std::make_shared<std::string>();
  cmd->add_option("FILE", *file, "Model file (.onnx, or .txt/.onnxtxt text)")->required();
  cmd->callback([file] {
    // Loading already validates structure: references, cycles, tensor sizes.
    const ir::Model model = load_model_file(*file);
    const serde::CheckResult result = serde::check_model(model);
    if (!result.checked) {
      std::cout << *file << ": loaded and structurally valid; not checked by libonnx: "
                << result.skipped_reason << "\n";
      return;
    }
    for (const std::string& e : result.errors) std::cerr << *file << ": " << e << "\n";
    if (!result.ok()) throw CLI::RuntimeError(1);
    std::cout << *file << ": ok (ONNX checker and strict shape inference passed)\n";
  });
}

}  // namespace onnxscript::cli
