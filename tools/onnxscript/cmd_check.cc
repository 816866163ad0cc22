// onnxscript check FILE: libonnx's checker and strict shape inference where
// they apply (IR <= 8, opset <= 17), and the project's validator on every
// model up to IR 13 and opset 28.
#include <iostream>

#include "commands.h"
#include "onnxscript/check/check.h"

namespace onnxscript::cli {

int check_command(const CheckOptions& options) {
  const std::string file = options.file.string();
  // Loading already validates structure: references, cycles, tensor sizes.
  const ir::Model model = load_model_file(options.file);
  const check::CheckResult result = check::check_model(model);
  if (!result.checked) {
    std::cerr << file << ": not checked: " << result.skipped_reason << "\n";
    return 2;
  }
  for (const std::string& e : result.errors) std::cerr << file << ": " << e << "\n";
  if (!result.ok()) return 1;
  std::cout << file << ": ok ("
            << (result.libonnx_checked ? "libonnx's checker and strict shape inference, and " : "")
            << "the validator: structure, schemas, strict inference)\n";
  return 0;
}

}  // namespace onnxscript::cli
