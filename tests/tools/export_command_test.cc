// `onnxscript export` without onnxscript-export beside it: what a build
// without ONNXSCRIPT_WITH_TORCH says. The tool is copied alone into a
// folder, so that the test means the same in either configuration.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>

namespace onnxscript {
namespace {

namespace fs = std::filesystem;

TEST(CliExport, WithoutTheExporterSaysHowToGetOne) {
  const fs::path dir = fs::temp_directory_path() / "onnxscript_cli_no_exporter";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(ONNXSCRIPT_CLI, dir / "onnxscript");
  const std::string command =
      (dir / "onnxscript").string() + " export model.pt -o model.onnx --input x:float[1] 2>&1";
  std::FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  EXPECT_EQ(WEXITSTATUS(status), 2) << output;
  EXPECT_THAT(output, ::testing::HasSubstr("this build has no PyTorch exporter"));
  EXPECT_THAT(output, ::testing::HasSubstr("-DONNXSCRIPT_WITH_TORCH=ON"));
  EXPECT_THAT(output, ::testing::HasSubstr("libtorch-dev"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace onnxscript
