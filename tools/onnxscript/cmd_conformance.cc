// `onnxscript conformance DIR... [--manifest FILE]`: runs ONNX backend test
// cases through the evaluator and checks the results against the manifest of
// expected failures.
#include <iostream>

#include <fmt/format.h>

#include "commands.h"
#include "onnxscript/eval/conformance.h"
#include "onnxscript/optimizer/optimize.h"
#include "onnxscript/support/file_io.h"

namespace onnxscript::cli {

int conformance_command(const ConformanceOptions& opts) {
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
  if (opts.optimize)
    options.prepare_model = [](ir::Model& model) { optimizer::optimize_checked(model); };
  const eval::ConformanceReport report = eval::run_conformance(cases, manifest, options);
  eval::print_report(report, manifest, std::cout);
  if (!opts.write_manifest.empty()) {
    write_file_atomically(opts.write_manifest, eval::format_manifest(report));
    std::cerr << fmt::format("wrote {} expected failure(s) to {}\n", report.failed,
                             opts.write_manifest.string());
    return 0;
  }
  return report.ok() ? 0 : 1;
}

}  // namespace onnxscript::cli
