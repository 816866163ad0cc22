// The property test of the rewriter: every model of the ONNX node suites
// (libonnx 1.12's and the vendored 1.22 cases), optimized with the rewrite
// pass in the list and every rule (the opt-in Gemm one too), still gives its
// expected outputs, and a second optimization changes nothing. The cases the
// suite's manifest lists as failing without optimization are skipped.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "onnxscript/rewriter/rewriter.h"
#include "onnxscript/rewriter/rules.h"
#include "onnxscript/serde/text.h"
#include "onnxscript/support/error.h"
#include "optimizer/suite_property.h"

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
  testing::expect_suite_keeps_results(suite, manifest_file, optimize_twice, "rewritten");
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
