#pragma once
// The property both the optimizer's and the rewriter's suites check: every
// case of an ONNX node suite, its model changed by `prepare`, still gives its
// expected outputs. The cases the suite's manifest lists as failing without
// any change are skipped.

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "onnxscript/eval/conformance.h"

namespace onnxscript::testing {

// Runs the cases of `suite` not listed in `manifest_file`, each model passed
// through `prepare` first (which may throw to fail its case), and expects
// every one to pass; `what` names the change in the failure message.
inline void expect_suite_keeps_results(const std::filesystem::path& suite,
                                       const std::filesystem::path& manifest_file,
                                       std::function<void(ir::Model&)> prepare,
                                       const std::string& what) {
  const eval::Manifest manifest = eval::Manifest::load(manifest_file);
  std::vector<std::filesystem::path> cases;
  for (const std::filesystem::path& c : eval::find_cases(std::vector<std::filesystem::path>{suite}))
    if (!manifest.expected_failures.count(c.filename().string())) cases.push_back(c);
  ASSERT_GT(cases.size(), 100u) << "too few cases under " << suite;
  eval::ConformanceOptions options;
  options.prepare_model = std::move(prepare);
  const eval::ConformanceReport report = eval::run_conformance(cases, eval::Manifest{}, options);
  std::ostringstream failures;
  for (const eval::CaseResult* r : report.unexpected)
    failures << r->name << ": " << r->reason << "\n";
  EXPECT_TRUE(report.unexpected.empty())
      << report.unexpected.size() << " of " << cases.size() << " cases fail once " << what << ":\n"
      << failures.str();
  std::cout << report.passed << " passed, " << report.failed << " failed, " << report.skipped
            << " skipped of " << cases.size() << " under " << suite << "\n";
}

}  // namespace onnxscript::testing
