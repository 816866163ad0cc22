// The `onnxscript` command-line tool: print, check, convert, run, conformance,
// optimize, ops, torchlib, and export (which runs the separate onnxscript-export).
// This file is the only one that includes CLI11: it declares each
// subcommand's options and hands them to the command's
// function (commands.h), whose result is the exit status.
#include <iostream>
#include <memory>
#include <string_view>

#include <CLI/CLI.hpp>

#include "commands.h"
#include "onnxscript/support/error.h"

namespace onnxscript::cli {
namespace {

// Runs `command` on `options` when the subcommand is chosen. A non-zero
// result becomes the exit status; so does an exception, printed as
// "onnxscript: error: ..." with `error_status` (the status each command documents).
template <typename Options>
void on_run(CLI::App* cmd, std::shared_ptr<Options> options, int (*command)(const Options&),
            int error_status = 1) {
  cmd->callback([options, command, error_status] {
    int status = 0;
    try {
      status = command(*options);
    } catch (const std::exception& e) {
      std::cerr << "onnxscript: error: " << e.what() << '\n';
      throw CLI::RuntimeError(error_status);
    }
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

void add_print(CLI::App& app) {
  auto* cmd = app.add_subcommand("print", "Print a model in the ONNX textual syntax");
  auto o = std::make_shared<PrintOptions>();
  cmd->add_option("FILE", o->file, "Model file (.onnx, or .txt/.onnxtxt text)")->required();
  on_run(cmd, o, print_command);
}

void add_check(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "check",
      "Check a model up to IR 13 and opset 28: structure, each node against its schema, "
      "strict inference and functions; libonnx 1.12's checker too where it applies (IR <= 8, "
      "opset <= 17). Exit status 1: invalid; 2: beyond IR 13 or opset 28, not checked");
  auto o = std::make_shared<CheckOptions>();
  cmd->add_option("FILE", o->file, "Model file (.onnx, or .txt/.onnxtxt text)")->required();
  on_run(cmd, o, check_command);
}

void add_convert(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("convert", "Convert a model between binary (.onnx) and text (.txt) forms");
  auto o = std::make_shared<ConvertOptions>();
  cmd->add_option("FILE", o->input, "Input model (.onnx, or .txt/.onnxtxt text)")->required();
  cmd->add_option("--to", o->output, "Output file; its extension picks the form (.onnx or .txt)")
      ->required();
  cmd->add_flag("--external-data", o->external,
                "Binary output: store large tensors in a side file next to the model");
  cmd->add_option("--external-threshold", o->external_threshold,
                  "Binary output: tensors of at least this many bytes go to the side file")
      ->capture_default_str();
  on_run(cmd, o, convert_command);
}

void add_run(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "run", "Run a model on inputs from .npy or .pb files and print its outputs");
  auto o = std::make_shared<RunOptions>();
  cmd->add_option("model", o->model, "The model (.onnx, or ONNX text)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("-i,--input", o->inputs,
                  "NAME=FILE binds a graph input to a .npy or .pb (TensorProto, SequenceProto, "
                  "MapProto, OptionalProto) file; a bare FILE binds the next input. Repeatable.");
  cmd->add_option("-o,--output-dir", o->output_dir,
                  "Write each output there as NAME.npy (tensors) or NAME.pb (other values)");
  cmd->add_flag("-q,--quiet", o->quiet, "Do not print the output values");
  cmd->add_option("--threads", o->threads,
                  "Threads an operator may use (default: the machine's hardware threads)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--no-optimize", o->no_optimize,
                "Run every node as written: no constant folding or fusion when planning");
  cmd->add_flag("--show-plan", o->show_plan,
                "Print the operators the plan runs (after folding and fusion), with counts, "
                "before running");
  on_run(cmd, o, run_command);
}

void add_conformance(CLI::App& app) {
  auto* cmd = app.add_subcommand("conformance",
                                 "Run ONNX backend test cases (folders with model.onnx and "
                                 "test_data_set_*) and compare the outputs");
  auto o = std::make_shared<ConformanceOptions>();
  cmd->add_option("dirs", o->dirs, "Case folders, or folders of case folders")
      ->required()
      ->check(CLI::ExistingDirectory);
  cmd->add_option(
         "-m,--manifest", o->manifest,
         "Expected failures, one '<case> <reason>' per line; the run fails when a case outside it "
         "fails or a case in it passes")
      ->check(CLI::ExistingFile);
  cmd->add_option("--write-manifest", o->write_manifest,
                  "Write the current failures with their reasons to FILE (and exit 0)");
  cmd->add_option("-k,--filter", o->filter, "Only run cases whose name contains this text");
  cmd->add_flag("--no-isolate", o->no_isolate, "Run cases in this process (a crash ends the run)");
  cmd->add_option("--timeout", o->timeout, "Seconds one isolated case may take (0: no limit)")
      ->capture_default_str();
  cmd->add_option("--rtol", o->rtol, "Relative tolerance for floats")->capture_default_str();
  cmd->add_option("--atol", o->atol, "Absolute tolerance for floats")->capture_default_str();
  cmd->add_flag("-q,--quiet", o->quiet, "No progress on stderr");
  cmd->add_flag("--optimize", o->optimize,
                "Optimize each model (the default passes) before running it; a case whose "
                "second optimization still changes something fails");
  // An error (an unreadable manifest, say) is 2, apart from failing cases (1).
  on_run(cmd, o, conformance_command, 2);
}

void add_optimize(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "optimize",
      "Optimize a model (function inlining, constant folding, dead code, no-ops, rewrite "
      "rules, common subexpressions, unused initializers, functions and opsets) and say what "
      "each pass did");
  auto o = std::make_shared<OptimizeOptions>();
  cmd->add_option("IN", o->input, "Input model (.onnx, or .txt/.onnxtxt text)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("OUT", o->output, "Output file; its extension picks the form (.onnx or .txt)")
      ->required();
  cmd->add_option("--passes", o->passes,
                  "Comma-separated passes to run, in order (default: all): inline, constant-if, "
                  "fold, identity, rewrite, cse, dedup-initializers, dce, unused-initializers, "
                  "unused-functions, unused-opsets")
      ->delimiter(',');
  cmd->add_flag("--gemm", o->gemm,
                "Add the opt-in rewrite rule MatMul + Add -> Gemm to the default rules");
  cmd->add_flag("--debug-rules", o->debug_rules,
                "For each rule that did not fire, print its best partial match: how many "
                "pattern nodes matched, where it failed and why");
  cmd->add_option("--no-fold-above", o->fold_limit,
                  "Do not fold a node whose result would exceed this many bytes")
      ->capture_default_str();
  cmd->add_option("--max-iterations", o->max_iterations,
                  "Rounds over the pass list at most (they stop earlier at a fixed point)")
      ->capture_default_str();
  on_run(cmd, o, optimize_command);
}

void add_ops(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "ops",
      "List every ONNX operator version through ai.onnx opset 28, ai.onnx.ml 5 and "
      "ai.onnx.preview 1 (domain, operator, since_version); with --coverage, say how the "
      "evaluator runs each");
  auto o = std::make_shared<OpsOptions>();
  cmd->add_flag("--coverage", o->coverage,
                "Say for each whether a kernel runs it, its schema's function body is "
                "expanded, or it is missing; end with a summary per domain");
  cmd->add_flag("--missing", o->missing_only, "Show only the missing ones");
  cmd->add_flag("--fail-on-missing", o->fail_on_missing,
                "Exit with status 1 when any operator version is missing");
  cmd->add_option("--domain", o->domain,
                  "Only this domain (ai.onnx, ai.onnx.ml, ai.onnx.preview, "
                  "ai.onnx.preview.training)")
      ->each([o](const std::string&) { o->domain_given = true; });
  on_run(cmd, o, ops_command);
}

void add_torchlib(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "torchlib",
      "List torchlib's ATen overloads (name, schema, inlined or kept as a function); with "
      "--coverage, count how many names of a list it registers");
  auto o = std::make_shared<TorchlibOptions>();
  cmd->add_option("--coverage", o->coverage,
                  "A file of qualified names (namespace::op[.overload]), one per line, '#' for "
                  "comments")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--missing", o->missing_only, "With --coverage: list the names not registered");
  on_run(cmd, o, torchlib_command);
}

// Listed for --help only: main() hands `export` to export_command before
// parsing, so that its arguments and --help reach onnxscript-export intact.
void add_export(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "export",
      "Export a TorchScript file to ONNX through torchlib (runs onnxscript-export, built with "
      "ONNXSCRIPT_WITH_TORCH; `onnxscript export --help` for its options)");
  cmd->prefix_command();
}

}  // namespace
}  // namespace onnxscript::cli

int main(int argc, char** argv) {
  if (argc >= 2 && std::string_view(argv[1]) == "export")
    return onnxscript::cli::export_command(argc, argv);
  CLI::App app{"onnxscript: inspect, check, convert and run ONNX models"};
  app.require_subcommand(1);
  onnxscript::cli::add_print(app);
  onnxscript::cli::add_check(app);
  onnxscript::cli::add_convert(app);
  onnxscript::cli::add_run(app);
  onnxscript::cli::add_conformance(app);
  onnxscript::cli::add_optimize(app);
  onnxscript::cli::add_ops(app);
  onnxscript::cli::add_torchlib(app);
  onnxscript::cli::add_export(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return 0;
}
