// The property test of the rewriter: every model of the ONNX node suites
// (libonnx 1.12's and the vendored 1.22 cases), optimized with the rewrite
// pass in the list and every rule (the opt-in Gemm one too), still gives its
// expected outputs, and a second optimization changes nothing. The cases the
// suite's manifest lists as failing without optimization are skipped.

#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <sstream>
#include <vector>

#include "onnxscript/eval/conformance.h"
#include "onnxscript/rewriter/rewriter.h"
#include "onnxscript/rewriter/rules.h"
#include "onnxscript/serde/text.h"
#include "onnxscript/support/error.h"

namespace onnxscript {
namespace {

namespace fs = std::filesystem;

std::vector<rewriter::Rule> every_rule() {
  std::vector<rewriter::Rule> rules = rewriter::default_rules();
  rules.push_back(rewriter::matmul_add_gemm_rule());
  return rules;
}

void optimize_twice(ir::Model& model) {
  rewriter::optimize_with_rewrites(model, {}, every_rule());
  const std::string once = text::print_model(model);
  const optimizer::PassManagerResult again =
      rewriter::optimize_with_rewrites(model, {}, every_rule());
  if (again.changed || text::print_model(model) != once)
    throw Error("a second optimization with the rewriter changed the model");
}

void expect_suite_survives_rewriting(const fs::path& suite, const fs::path& manifest_file) {
  const eval::Manifest manifest = eval::Manifest::load(manifest_file);
  std::vector<fs::path> cases;
  for (const fs::path& c : eval::find_cases(std::vector<fs::path>{suite}))
    if (!manifest.expected_failures.count(c.filename().string())) cases.push_back(c);
  ASSERT_GT(cases.size(), 100u) << "too few cases under " << suite;
  eval::ConformanceOptions options;
  options.prepare_model = optimize_twice;
  const eval::ConformanceReport report = eval::run_conformance(cases, eval::Manifest{}, options);
  std::ostringstream failures;
  for (const eval::CaseResult* r : report.unexpected)
    failures << r->name << ": " << r->reason << "\n";
  EXPECT_TRUE(report.unexpected.empty())
      << report.unexpected.size() << " of " << cases.size() << " cases fail once rewritten:\n"
      << failures.str();
  std::cout << report.passed << " passed, " << report.failed << " failed, " << report.skipped
            << " skipped of " << cases.size() << " under " << suite << "\n";
}

TEST(RewriterProperty, Onnx112NodeSuite) {
  expect_suite_survives_rewriting(
      fs::path(ONNX_TESTDATA_DIR) / "node",
      fs::path(ONNXSCRIPT_TEST_DATA_DIR) / "../conformance/manifest.txt");
}

TEST(RewriterProperty, Onnx122NodeSuite) {
  expect_suite_survives_rewriting(
      fs::path(ONNXSCRIPT_TEST_DATA_DIR) / "onnx-1.22/node",
      fs::path(ONNXSCRIPT_TEST_DATA_DIR) / "../conformance/manifest-onnx-1.22.txt");
}

}  // namespace
}  // namespace onnxscript
