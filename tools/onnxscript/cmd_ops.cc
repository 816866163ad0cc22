// onnxscript ops [--coverage] [--domain D] [--missing]: the operators libonnx
// knows, one (domain, operator, since_version) per line, and with --coverage
// how the evaluator runs each: a kernel, an expanded function body, or not at all.
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "commands.h"
#include "onnxscript/eval/coverage.h"

namespace onnxscript::cli {
namespace {

struct OpsOptions {
  bool coverage = false;
  bool missing_only = false;
  bool fail_on_missing = false;
  std::string domain;
  bool domain_given = false;
};

std::string domain_label(const std::string& domain) { return domain.empty() ? "ai.onnx" : domain; }

void print_ops(const OpsOptions& options) {
  std::map<std::string, std::map<eval::CoverageKind, int>> per_domain;
  int missing = 0;
  for (const eval::OperatorCoverage& entry : eval::operator_coverage()) {
    if (options.domain_given && domain_label(entry.domain) != domain_label(options.domain))
      continue;
    ++per_domain[domain_label(entry.domain)][entry.kind];
    if (entry.kind == eval::CoverageKind::kMissing) ++missing;
    if (options.missing_only && entry.kind != eval::CoverageKind::kMissing) continue;
    std::string line =
        fmt::format("{} {} {}", domain_label(entry.domain), entry.op_type, entry.since_version);
    if (options.coverage || options.missing_only) line += ": " + eval::describe(entry);
    if (entry.deprecated) line += " (deprecated)";
    std::cout << line << "\n";
  }
  if (options.coverage || options.missing_only) {
    for (const auto& [domain, counts] : per_domain) {
      auto count = [&](eval::CoverageKind k) {
        auto it = counts.find(k);
        return it == counts.end() ? 0 : it->second;
      };
      std::cout << fmt::format(
          "{}: {} kernel, {} kernel from an earlier version, {} function body, {} missing\n",
          domain, count(eval::CoverageKind::kKernel), count(eval::CoverageKind::kInherited),
          count(eval::CoverageKind::kFunctionBody), count(eval::CoverageKind::kMissing));
    }
  }
  if (options.fail_on_missing && missing > 0) {
    std::cerr << "onnxscript ops: " << missing << " operator versions have no kernel and no "
              << "function body\n";
    throw CLI::RuntimeError(1);
  }
}

}  // namespace

void add_ops_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "ops",
      "List every operator version libonnx knows (domain, operator, since_version); with "
      "--coverage, say how the evaluator runs each");
  auto options = std::make_shared<OpsOptions>();
  cmd->add_flag("--coverage", options->coverage,
                "Say for each whether a kernel runs it, its schema's function body is "
                "expanded, or it is missing; end with a summary per domain");
  cmd->add_flag("--missing", options->missing_only, "Show only the missing ones");
  cmd->add_flag("--fail-on-missing", options->fail_on_missing,
                "Exit with status 1 when any operator version is missing");
  cmd->add_option("--domain", options->domain,
                  "Only this domain (ai.onnx, ai.onnx.ml, ai.onnx.preview.training)")
      ->each([options](const std::string&) { options->domain_given = true; });
  cmd->callback([options] { print_ops(*options); });
}

}  // namespace onnxscript::cli
