// `onnxscript export` without onnxscript-export beside it: what a build
// without ONNXSCRIPT_WITH_TORCH says. The tool is copied alone into a
// folder, so that the test means the same in either configuration.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "cli_run.h"

namespace onnxscript {
namespace {

namespace fs = std::filesystem;

TEST(CliExport, WithoutTheExporterSaysHowToGetOne) {
  const fs::path dir = fs::temp_directory_path() / "onnxscript_cli_no_exporter";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(ONNXSCRIPT_CLI, dir / "onnxscript");
  const testing::CliRun run = testing::run_shell(
      (dir / "onnxscript").string() + " export model.pt -o model.onnx --input x:float[1]");
  const std::string& output = run.output;
  EXPECT_EQ(run.status, 2) << output;
  EXPECT_THAT(output, ::testing::HasSubstr("this build has no PyTorch exporter"));
  EXPECT_THAT(output, ::testing::HasSubstr("-DONNXSCRIPT_WITH_TORCH=ON"));
  EXPECT_THAT(output, ::testing::HasSubstr("libtorch-dev"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace onnxscript
