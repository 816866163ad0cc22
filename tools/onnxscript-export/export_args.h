#pragma once
// The arguments of `onnxscript-export` that need more than CLI11: input
// specifications (NAME:TYPE[DIMS]), named dimensions (NAME:AXIS=DIM) and the
// deterministic example values the export traces with. main.cc alone
// includes CLI11.

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "onnxscript/ir/tensor.h"

namespace onnxscript::export_tool {

/// One `--input NAME:TYPE[DIMS]`, e.g. `image:float[1,3,224,224]`.
struct InputSpec {
  std::string name;            ///< The ONNX graph input's name.
  ir::DataType dtype;          ///< float, double, float16, int64, int32 or bool.
  std::vector<int64_t> shape;  ///< Sizes; empty for a scalar (`float[]`).
};

/// Parses `--input` text; throws Error naming the argument and the problem.
InputSpec parse_input(const std::string& text);

/// Parses `--dynamic NAME:AXIS=DIM[,AXIS=DIM...]` against the inputs: the
/// input's position and its axis -> name map. Throws Error for an unknown
/// input, an axis beyond the input's rank or a malformed text.
std::pair<size_t, std::map<int64_t, std::string>> parse_dynamic(
    const std::string& text, const std::vector<InputSpec>& inputs);

/// The example tensor for input `index`: floating types uniform in [0, 1)
/// (Tensor::rand seeded with `index`), integers uniform in [0, 10) and bools
/// fair coin flips from std::mt19937 seeded with `index`.
ir::Tensor example_value(const InputSpec& spec, size_t index);

/// The options of one run of the tool.
struct ExportArgs {
  std::filesystem::path model;       ///< The TorchScript file.
  std::filesystem::path output;      ///< The ONNX file to write.
  std::vector<std::string> inputs;   ///< --input texts, in forward's order.
  std::vector<std::string> dynamic;  ///< --dynamic texts.
  int64_t opset = 18;                ///< --opset.
  bool no_weights = false;           ///< --no-weights.
  std::filesystem::path report_dir;  ///< --report DIR, when set.
  bool warnings_as_errors = false;   ///< --warnings-as-errors.
  bool verbose = false;              ///< --verbose.
};

/// Runs the export; returns the exit status (0 exported, 1 the export
/// failed, with its diagnostics on stderr). Throws Error for bad arguments.
int run_export(const ExportArgs& args);

/// What `onnxscript-export --help` says after the options.
extern const char* const kHelpFooter;

}  // namespace onnxscript::export_tool
