// The property test: every model of the ONNX node suites (libonnx 1.12's and
// the vendored 1.22 cases), optimized with the default passes, still gives
// its expected outputs, and optimizing it a second time changes nothing
// (optimize_checked throws, failing the case, when it does). The cases the
// suite's manifest lists as failing without optimization are skipped.

#include <gtest/gtest.h>

#include <filesystem>

#include "onnxscript/optimizer/optimize.h"
#include "optimizer/suite_property.h"

namespace onnxscript {
namespace {

namespace fs = std::filesystem;

void expect_suite_survives_optimization(const fs::path& suite, const fs::path& manifest_file) {
  testing::expect_suite_keeps_results(
      suite, manifest_file, [](ir::Model& model) { optimizer::optimize_checked(model); },
      "optimized");
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
