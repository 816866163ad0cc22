// The property test: every model of the ONNX node suites (libonnx 1.12's and
// the vendored 1.22 cases), optimized with the default passes, still gives
// its expected outputs, and optimizing it a second time changes nothing
// (optimize_checked throws, failing the case, when it does). The cases the
// suite's manifest lists as failing without optimization are skipped.

#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <sstream>
#include <vector>

#include "onnxscript/eval/conformance.h"
#include "onnxscript/optimizer/optimize.h"

namespace onnxscript {
namespace {

namespace fs = std::filesystem;

void expect_suite_survives_optimization(const fs::path& suite, const fs::path& manifest_file) {
  const eval::Manifest manifest = eval::Manifest::load(manifest_file);
  std::vector<fs::path> cases;
  for (const fs::path& c : eval::find_cases(std::vector<fs::path>{suite}))
    if (!manifest.expected_failures.count(c.filename().string())) cases.push_back(c);
  ASSERT_GT(cases.size(), 100u) << "too few cases under " << suite;
  eval::ConformanceOptions options;
  options.prepare_model = [](ir::Model& model) { optimizer::optimize_checked(model); };
  const eval::ConformanceReport report = eval::run_conformance(cases, eval::Manifest{}, options);
  std::ostringstream failures;
  for (const eval::CaseResult* r : report.unexpected)
    failures << r->name << ": " << r->reason << "\n";
  EXPECT_TRUE(report.unexpected.empty())
      << report.unexpected.size() << " of " << cases.size() << " cases fail once optimized:\n"
      << failures.str();
  std::cout << report.passed << " passed, " << report.failed << " failed, " << report.skipped
            << " skipped of " << cases.size() << " under " << suite << "\n";
}

TEST(OptimizerProperty, Onnx112NodeSuite) {
  expect_suite_survives_optimization(
      fs::path(ONNX_TESTDATA_DIR) / "node",
      fs::path(ONNXSCRIPT_TEST_DATA_DIR) / "../conformance/manifest.txt");
}

TEST(OptimizerProperty, Onnx122NodeSuite) {
  expect_suite_survives_optimization(
      fs::path(ONNXSCRIPT_TEST_DATA_DIR) / "onnx-1.22/node",
      fs::path(ONNXSCRIPT_TEST_DATA_DIR) / "../conformance/manifest-onnx-1.22.txt");
}

}  // namespace
}  // namespace onnxscript
