// `onnxscript conformance DIR... [--manifest FILE]`: runs ONNX backend test
// cases through the evaluator and checks the results against the manifest of
// expected failures.
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "commands.h"
#include "onnxscript/eval/conformance.h"

namespace onnxscript::cli {
namespace {

struct ConformanceCliOptions {
  std::vector<std::filesystem::path> dirs;
  std::filesystem::path manifest;
  std::filesystem::path write_manifest;
  std::string filter;
  bool no_isolate = false;
  bool quiet = false;
  double timeout = 120;
  double rtol = 1e-3, atol = 1e-7;
};

int run_conformance_command(const ConformanceCliOptions& opts) {
  eval::Manifest manifest;
  if (!opts.manifest.empty()) manifest = eval::Manifest::load(opts.manifest);
  std::vector<std::filesystem::path> cases = eval::find_cases(opts.dirs);
  if (!opts.filter.empty())
    std::erase_if(cases, [&](const auto& p) {
      return p.filename().string().find(opts.filter) == std::string::npos;
    });
  eval::ConformanceOptions options;
  options.tolerance = {opts.rtol, opts.atol};
  options.isolate = !opts.no_isolate;
  options.timeout_seconds = opts.timeout;
  options.progress = opts.quiet ? nullptr : &std::cerr;
  const eval::ConformanceReport report = eval::run_conformance(cases, manifest, options);
  eval::print_report(report, manifest, std::cout);
  if (!opts.write_manifest.empty()) {
    const std::string text = eval::format_manifest(report);
    const std::filesystem::path tmp = opts.write_manifest.string() + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      out << text;
      if (!out.flush()) throw IoError(fmt::format("{}: cannot write", tmp.string()));
    }
    std::filesystem::rename(tmp, opts.write_manifest);
    std::cerr << fmt::format("wrote {} expected failure(s) to {}\n", report.failed,
                             opts.write_manifest.string());
    return 0;
  }
  return report.ok() ? 0 : 1;
}

}  // namespace

void add_conformance_command(CLI::App& app) {
  auto opts = std::make_shared<ConformanceCliOptions>();
  CLI::App* cmd = app.add_subcommand("conformance",
                                     "Run ONNX backend test cases (folders with model.onnx and "
                                     "test_data_set_*) and compare the outputs");
  cmd->add_option("dirs", opts->dirs, "Case folders, or folders of case folders")
      ->required()
      ->check(CLI::ExistingDirectory);
  cmd->add_option(
         "-m,--manifest", opts->manifest,
         "Expected failures, one '<case> <reason>' per line; the run fails when a case outside it "
         "fails or a case in it passes")
      ->check(CLI::ExistingFile);
  cmd->add_option("--write-manifest", opts->write_manifest,
                  "Write the current failures with their reasons to FILE (and exit 0)");
  cmd->add_option("-k,--filter", opts->filter, "Only run cases whose name contains this text");
  cmd->add_flag("--no-isolate", opts->no_isolate,
                "Run cases in this process (a crash ends the run)");
  cmd->add_option("--timeout", opts->timeout, "Seconds one isolated case may take (0: no limit)")
      ->capture_default_str();
  cmd->add_option("--rtol", opts->rtol, "Relative tolerance for floats")->capture_default_str();
  cmd->add_option("--atol", opts->atol, "Absolute tolerance for floats")->capture_default_str();
  cmd->add_flag("-q,--quiet", opts->quiet, "No progress on stderr");
  cmd->callback([opts] {
    int status = 0;
    try {
      status = run_conformance_command(*opts);
    } catch (const std::exception& e) {
      std::cerr << "error: " << e.what() << '\n';
      throw CLI::RuntimeError(2);
    }
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

}  // namespace onnxscript::cli
