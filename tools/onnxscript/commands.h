#pragma once
// Subcommands of the `onnxscript` tool. Each lives in its own cmd_<name>.cc as
// an options struct and a function that runs it and returns the exit status;
// errors are exceptions. main.cc alone parses the command line (CLI11 is
// heavy: about 4.5 s of compile time for each file that includes it).

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "onnxscript/ir/model.h"

namespace onnxscript::cli {

/// `onnxscript print FILE`.
struct PrintOptions {
  std::filesystem::path file;  ///< The model.
};
/// Prints the model in the ONNX textual syntax.
int print_command(const PrintOptions& options);

/// `onnxscript check FILE`.
struct CheckOptions {
  std::filesystem::path file;  ///< The model.
};
/// Loads (structural validation), then runs the ONNX checker and strict shape
/// inference; 1 when libonnx finds errors.
int check_command(const CheckOptions& options);

/// `onnxscript convert FILE --to OUT`.
struct ConvertOptions {
  std::filesystem::path input;       ///< The model to read.
  std::filesystem::path output;      ///< Where to write; the extension picks the form.
  bool external = false;             ///< Binary output: large tensors in a side file.
  size_t external_threshold = 1024;  ///< Bytes from which a tensor goes to the side file.
};
/// Converts between binary and text.
int convert_command(const ConvertOptions& options);

/// `onnxscript run MODEL [--input ...] [--output-dir DIR]`.
struct RunOptions {
  std::filesystem::path model;       ///< The model.
  std::vector<std::string> inputs;   ///< NAME=FILE, or a bare FILE for the next input.
  std::filesystem::path output_dir;  ///< Where outputs are written, when set.
  bool quiet = false;                ///< Do not print output values.
  int threads = 0;                   ///< Intra-op threads (0: the machine's hardware threads).
  bool no_optimize = false;          ///< Run every node as written (SessionOptions::optimize off).
  bool show_plan = false;            ///< Print how many steps of each operator the plan runs.
};
/// Runs the model once with the built-in evaluator.
int run_command(const RunOptions& options);

/// `onnxscript conformance DIR... [--manifest FILE]`.
struct ConformanceOptions {
  std::vector<std::filesystem::path> dirs;  ///< Case folders, or folders of them.
  std::filesystem::path manifest;           ///< Expected failures.
  std::filesystem::path write_manifest;     ///< Write the failures here instead.
  std::string filter;                       ///< Only cases whose name contains it.
  bool no_isolate = false;                  ///< Run cases in this process.
  bool quiet = false;                       ///< No progress on stderr.
  double timeout = 120;                     ///< Seconds per isolated case (0: none).
  double rtol = 1e-3;                       ///< Relative tolerance for floats.
  double atol = 1e-7;                       ///< Absolute tolerance for floats.
  bool optimize = false;                    ///< Optimize each model before running it.
};
/// Runs the cases; 1 when the manifest's expectations are not met.
int conformance_command(const ConformanceOptions& options);

/// `onnxscript optimize IN OUT [--passes a,b] [--no-fold-above BYTES]`.
struct OptimizeOptions {
  std::filesystem::path input;      ///< The model to read.
  std::filesystem::path output;     ///< Where to write; the extension picks the form.
  std::vector<std::string> passes;  ///< Pass names; empty: the default list.
  size_t fold_limit = 1 << 20;      ///< Folded outputs above this many bytes are not folded.
  int max_iterations = 8;           ///< Rounds over the pass list at most.
  bool gemm = false;                ///< Add the opt-in rule MatMul+Add -> Gemm to "rewrite".
  bool debug_rules = false;         ///< Report each rule that did not fire, with its best match.
};
/// Optimizes a model and prints what each pass did and how long it took.
int optimize_command(const OptimizeOptions& options);

/// `onnxscript ops [--coverage] [--missing] [--domain D]`.
struct OpsOptions {
  bool coverage = false;         ///< Say how the evaluator runs each.
  bool missing_only = false;     ///< Only the missing ones.
  bool fail_on_missing = false;  ///< Exit 1 when any is missing.
  std::string domain;            ///< Only this domain, when domain_given.
  bool domain_given = false;     ///< Whether --domain was passed.
};
/// Lists the operator versions libonnx knows.
int ops_command(const OpsOptions& options);

/// `onnxscript torchlib [--coverage FILE [--missing]]`.
struct TorchlibOptions {
  std::filesystem::path coverage;  ///< A list of qualified ATen names, one per line.
  bool missing_only = false;       ///< With coverage: also list the names not covered.
};
/// Lists torchlib's registered overloads, or its coverage of a list of names.
int torchlib_command(const TorchlibOptions& options);

/// `onnxscript export ...` (argv[1] is "export"): execs `onnxscript-export`
/// from this program's folder with the arguments after "export"; 2 (with a
/// message saying how to build it) when this build has none.
int export_command(int argc, char** argv);

/// True for paths the tool treats as ONNX text syntax (.txt, .onnxtxt).
bool is_text_path(const std::filesystem::path& path);

/// Loads a model from binary (.onnx) or text (.txt, .onnxtxt) form.
ir::Model load_model_file(const std::filesystem::path& path);

}  // namespace onnxscript::cli
