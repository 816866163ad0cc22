// onnxscript ops [--coverage] [--domain D] [--missing]: every ONNX operator
// version through ai.onnx opset 28 (libonnx 1.12's and the project's table
// beyond it), one (domain, operator, since_version) per line, and with
// --coverage how the evaluator runs each: a kernel, an expanded function body,
// or not at all, and whether a function body exists beside a kernel
// ("kernel + function body").
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "commands.h"
#include "onnxscript/eval/coverage.h"

namespace onnxscript::cli {
namespace {

std::string domain_label(const std::string& domain) { return domain.empty() ? "ai.onnx" : domain; }

}  // namespace

int ops_command(const OpsOptions& options) {
  std::map<std::string, std::map<eval::CoverageKind, int>> per_domain;
  std::map<std::string, int> missing_beyond_libonnx;
  // Versions with a function body (expanded or beside a kernel), and those of
  // them beyond libonnx 1.12 (the project's bodies).
  std::map<std::string, int> bodies, bodies_beyond_libonnx;
  int missing = 0;
  for (const eval::OperatorCoverage& entry : eval::operator_coverage()) {
    if (options.domain_given && domain_label(entry.domain) != domain_label(options.domain))
      continue;
    ++per_domain[domain_label(entry.domain)][entry.kind];
    if (entry.has_function_body) {
      ++bodies[domain_label(entry.domain)];
      if (!entry.from_libonnx) ++bodies_beyond_libonnx[domain_label(entry.domain)];
    }
    if (entry.kind == eval::CoverageKind::kMissing) {
      ++missing;
      if (!entry.from_libonnx) ++missing_beyond_libonnx[domain_label(entry.domain)];
    }
    if (options.missing_only && entry.kind != eval::CoverageKind::kMissing) continue;
    std::string line =
        fmt::format("{} {} {}", domain_label(entry.domain), entry.op_type, entry.since_version);
    if (options.coverage || options.missing_only) line += ": " + eval::describe(entry);
    if (entry.deprecated && entry.kind != eval::CoverageKind::kDeprecated) line += " (deprecated)";
    std::cout << line << "\n";
  }
  if (options.coverage || options.missing_only) {
    for (const auto& [domain, counts] : per_domain) {
      auto count = [&](eval::CoverageKind k) {
        auto it = counts.find(k);
        return it == counts.end() ? 0 : it->second;
      };
      std::cout << fmt::format(
          "{}: {} kernel, {} function body, {} deprecated without a kernel, {} missing ({} of "
          "them beyond libonnx 1.12); {} versions have a function body ({} of them beyond "
          "libonnx 1.12)\n",
          domain, count(eval::CoverageKind::kKernel), count(eval::CoverageKind::kFunctionBody),
          count(eval::CoverageKind::kDeprecated), count(eval::CoverageKind::kMissing),
          missing_beyond_libonnx[domain], bodies[domain], bodies_beyond_libonnx[domain]);
    }
  }
  if (options.fail_on_missing && missing > 0) {
    std::cerr << "onnxscript ops: " << missing << " operator versions have no kernel and no "
              << "function body\n";
    return 1;
  }
  return 0;
}

}  // namespace onnxscript::cli
