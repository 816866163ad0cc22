// `onnxscript optimize` with the rewriter: the rewrite pass in the default
// list, its rule counts, --gemm, --debug-rules, and --passes rewrite.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli_run.h"
#include "onnxscript/support/file_io.h"

namespace onnxscript {
namespace {

namespace fs = std::filesystem;

using testing::CliRun;
using testing::run_cli;

// Max(x, 0) is a Clip; MatMul + Add a Gemm only with --gemm.
TEST(RewriterCli, OptimizeRunsTheRewriter) {
  const fs::path dir = fs::temp_directory_path() / "onnxscript_rewriter_cli";
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_file_atomically(dir / "in.txt", R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[2,3] a, float[3,4] b, float[4] c) => (float[2,4] y) <float zero = {0}> {
   p = MatMul (a, b)
   q = Add (p, c)
   y = Max (q, zero)
}
)");
  const std::string in = (dir / "in.txt").string(), out = (dir / "out.txt").string();
  CliRun r = run_cli("optimize " + in + " " + out);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("rewrite"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("max-clip"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("matmul-add-gemm"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("main graph: 3 -> 3 nodes"), std::string::npos) << r.output;

  r = run_cli("optimize " + in + " " + out + " --gemm --debug-rules");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("matmul-add-gemm    fired 1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("main graph: 3 -> 2 nodes"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("not fired in the last round: cast-cast on main graph: 0/2 nodes "
                          "matched; no Cast node in the graph"),
            std::string::npos)
      << r.output;

  r = run_cli("optimize " + in + " " + out + " --passes rewrite");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.find("fold"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("max-clip"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace onnxscript
