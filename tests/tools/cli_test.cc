// End-to-end tests of the `onnxscript` command-line tool.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_run.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/support/file_io.h"

namespace onnxscript {
namespace {

namespace fs = std::filesystem;

using testing::CliRun;
using testing::run_cli;

fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("onnxscript_cli_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

const std::string kModel = std::string(ONNX_TESTDATA_DIR) + "/node/test_add/model.onnx";

TEST(Cli, EverySubcommandHasHelp) {
  for (const char* cmd :
       {"print", "check", "convert", "run", "conformance", "optimize", "ops", "torchlib"}) {
    CliRun r = run_cli(std::string(cmd) + " --help");
    EXPECT_EQ(r.status, 0) << cmd;
    EXPECT_NE(r.output.find("Usage"), std::string::npos) << r.output;
  }
  EXPECT_EQ(run_cli("--help").status, 0);
}

// optimize folds Add (a, b) of two initializers ({1,2} + {3,4}) and the
// Mul by it into a Constant {4, 12} under y's name, and says so per pass.
TEST(Cli, OptimizeReportsEachPassAndWrites) {
  const fs::path dir = scratch("optimize");
  write_file_atomically(dir / "in.txt", R"(<ir_version: 9, opset_import: ["" : 19]>
g () => (float[2] y) <float[2] a = {1, 2}, float[2] b = {3, 4}> {
   c = Add (a, b)
   y = Mul (c, a)
}
)");
  CliRun r = run_cli("optimize " + (dir / "in.txt").string() + " " + (dir / "out.txt").string());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("fold"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("2 nodes folded"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("main graph: 2 -> 1 nodes"), std::string::npos) << r.output;
  CliRun printed = run_cli("print " + (dir / "out.txt").string());
  EXPECT_NE(printed.output.find("y = Constant <value: tensor = float[2] {4, 12}>"),
            std::string::npos)
      << printed.output;

  // Only the passes asked for; an unknown one is an error naming it.
  r = run_cli("optimize " + (dir / "in.txt").string() + " " + (dir / "out2.txt").string() +
              " --passes dce,cse");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.find("fold"), std::string::npos) << r.output;
  r = run_cli("optimize " + (dir / "in.txt").string() + " " + (dir / "out3.txt").string() +
              " --passes nosuch");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("unknown pass 'nosuch'"), std::string::npos) << r.output;
  // A limit below the 8 bytes of each result folds nothing.
  r = run_cli("optimize " + (dir / "in.txt").string() + " " + (dir / "out4.txt").string() +
              " --no-fold-above 4");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.find("nodes folded"), std::string::npos) << r.output;
}

TEST(Cli, PrintShowsTheGraph) {
  CliRun r = run_cli("print " + kModel);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("Add ("), std::string::npos) << r.output;
}

TEST(Cli, CheckAcceptsAValidModel) {
  CliRun r = run_cli("check " + kModel);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("ok"), std::string::npos) << r.output;
}

TEST(Cli, CheckValidatesAModelBeyondLibonnx) {
  fs::path dir = scratch("beyond");
  ir::Model model = serde::load_model(kModel);
  model.ir_version = 10;
  serde::save_model(model, dir / "ir10.onnx");
  CliRun r = run_cli("check " + (dir / "ir10.onnx").string());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("ok (the validator"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("not checked"), std::string::npos) << r.output;
}

TEST(Cli, CheckRejectsAnInvalidModelBeyondLibonnx) {
  fs::path dir = scratch("invalid22");
  write_file_atomically(dir / "bad.txt", R"(<ir_version: 10, opset_import: ["" : 22]>
g (float[2] X) => (float[2] Y) {
  Y = Relu<alpha = 0.5>(X)
})");
  CliRun r = run_cli("check " + (dir / "bad.txt").string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("main graph: node 0 (Relu): unknown attribute 'alpha'"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("libonnx"), std::string::npos) << r.output;
}

TEST(Cli, CheckSaysWhenAModelIsBeyondTheValidator) {
  fs::path dir = scratch("beyond13");
  ir::Model model = serde::load_model(kModel);
  model.ir_version = 14;
  serde::save_model(model, dir / "ir14.onnx");
  CliRun r = run_cli("check " + (dir / "ir14.onnx").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("not checked: IR version 14 is newer than the validator knows"),
            std::string::npos)
      << r.output;
}

TEST(Cli, CheckRejectsAnInvalidModel) {
  fs::path dir = scratch("invalid");
  ir::Model model = serde::load_model(kModel);
  // An operator libonnx does not know makes the checker fail.
  for (ir::Node* n : model.graph().nodes()) {
    ir::Node* bad = model.graph().insert_node_before(n, "NoSuchOperator", {n->input(0)}, 1);
    bad->output(0)->set_name("unused");
    break;
  }
  serde::save_model(model, dir / "bad.onnx");
  CliRun r = run_cli("check " + (dir / "bad.onnx").string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("NoSuchOperator"), std::string::npos) << r.output;
}

TEST(Cli, ConvertRoundTripsThroughText) {
  fs::path dir = scratch("convert");
  ASSERT_EQ(run_cli("convert " + kModel + " --to " + (dir / "m.txt").string()).status, 0);
  ASSERT_EQ(
      run_cli("convert " + (dir / "m.txt").string() + " --to " + (dir / "m.onnx").string()).status,
      0);
  EXPECT_EQ(run_cli("print " + kModel).output,
            run_cli("print " + (dir / "m.onnx").string()).output);
  EXPECT_EQ(read_file(dir / "m.txt"), run_cli("print " + kModel).output);
}

TEST(Cli, BadInputIsAnErrorNamingTheFileNotACrash) {
  fs::path dir = scratch("garbage");
  write_file_atomically(dir / "garbage.onnx", std::string("\x0a\xff\xff\xff\xff\x0f garbage"));
  CliRun r = run_cli("print " + (dir / "garbage.onnx").string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("garbage.onnx"), std::string::npos) << r.output;
  CliRun missing = run_cli("check " + (dir / "missing.onnx").string());
  EXPECT_EQ(missing.status, 1) << missing.output;
  EXPECT_NE(missing.output.find("missing.onnx"), std::string::npos) << missing.output;
  // A failed conversion leaves no output file.
  CliRun failed =
      run_cli("convert " + (dir / "garbage.onnx").string() + " --to " + (dir / "out.txt").string());
  EXPECT_NE(failed.status, 0);
  EXPECT_FALSE(fs::exists(dir / "out.txt"));
}

TEST(Cli, RunWritesOutputsThatMatchTheCase) {
  const fs::path dir = scratch("run");
  const std::string case_dir = std::string(ONNX_TESTDATA_DIR) + "/node/test_add";
  CliRun r = run_cli("run " + case_dir + "/model.onnx --input x=" + case_dir +
                     "/test_data_set_0/input_0.pb --input y=" + case_dir +
                     "/test_data_set_0/input_1.pb --output-dir " + dir.string());
  ASSERT_EQ(r.status, 0) << r.output;
  ASSERT_FALSE(fs::is_empty(dir)) << r.output;
}

TEST(Cli, RunTakesThreadsAndNoOptimizeWithoutChangingResults) {
  const std::string case_dir = std::string(ONNX_TESTDATA_DIR) + "/node/test_add";
  const std::string feed = " --input x=" + case_dir +
                           "/test_data_set_0/input_0.pb --input y=" + case_dir +
                           "/test_data_set_0/input_1.pb -q --output-dir ";
  const fs::path plain = scratch("run_plain"), tuned = scratch("run_tuned");
  CliRun a = run_cli("run " + case_dir + "/model.onnx" + feed + plain.string());
  CliRun b =
      run_cli("run " + case_dir + "/model.onnx --threads 1 --no-optimize" + feed + tuned.string());
  ASSERT_EQ(a.status, 0) << a.output;
  ASSERT_EQ(b.status, 0) << b.output;
  for (const auto& entry : fs::directory_iterator(plain)) {
    const fs::path other = tuned / entry.path().filename();
    ASSERT_TRUE(fs::exists(other)) << other;
    EXPECT_EQ(read_file(entry.path()), read_file(other)) << other;
  }
  CliRun shown = run_cli("run " + case_dir + "/model.onnx --show-plan" + feed + tuned.string());
  ASSERT_EQ(shown.status, 0) << shown.output;
  EXPECT_NE(shown.output.find("plan: 1 steps for 1 nodes\n  Add x 1"), std::string::npos)
      << shown.output;
  CliRun bad = run_cli("run " + case_dir + "/model.onnx --threads -2" + feed + tuned.string());
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.output.find("--threads"), std::string::npos) << bad.output;
}

TEST(Cli, RunRejectsAWrongInputNameClearly) {
  const std::string case_dir = std::string(ONNX_TESTDATA_DIR) + "/node/test_add";
  CliRun r = run_cli("run " + case_dir + "/model.onnx --input nosuch=" + case_dir +
                     "/test_data_set_0/input_0.pb");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("nosuch"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("terminate"), std::string::npos) << r.output;  // an error, not a crash
}

TEST(Cli, RunRejectsAMalformedNpyClearly) {
  const fs::path dir = scratch("bad_npy");
  const fs::path bad = dir / "x.npy";
  write_file_atomically(bad, "\x93NUMPY garbage");
  const std::string case_dir = std::string(ONNX_TESTDATA_DIR) + "/node/test_add";
  CliRun r = run_cli("run " + case_dir + "/model.onnx --input x=" + bad.string() +
                     " --input y=" + bad.string());
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("x.npy"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("terminate"), std::string::npos) << r.output;
}

TEST(Cli, MissingArgumentsPrintUsage) {
  CliRun r = run_cli("convert " + kModel);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("--to"), std::string::npos) << r.output;
}

TEST(Cli, OpsCoverageSaysHowEachOperatorVersionRuns) {
  CliRun r = run_cli("ops --coverage");
  ASSERT_EQ(r.status, 0) << r.output;
  // A kernel registered at this exact version; a schema body the evaluator
  // expands (NegativeLogLikelihoodLoss has no kernel on purpose).
  EXPECT_NE(r.output.find("\nai.onnx Add 14: kernel\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\nai.onnx NegativeLogLikelihoodLoss 13: function body\n"),
            std::string::npos);
  // Every version of an operator is listed, old ones included.
  EXPECT_NE(r.output.find("\nai.onnx Add 1: kernel\n"), std::string::npos);
  EXPECT_NE(r.output.find("\nai.onnx: "), std::string::npos) << "no per-domain summary";
}

// Every operator version libonnx 1.12 knows runs: by a kernel or through its
// schema's function body. This pins the evaluator's completeness.
// Every operator version libonnx 1.12 knows runs: by a kernel or through its
// schema's function body. The versions beyond it (the project's table,
// through opset 28) are listed too; those still missing are issue 24's list,
// and none of them may be an old version.
TEST(Cli, OpsCoverageHasNoMissingOperatorOfLibonnx) {
  CliRun r = run_cli("ops --missing");
  ASSERT_EQ(r.status, 0) << r.output;
  std::istringstream lines(r.output);
  std::string line;
  int missing = 0;
  while (std::getline(lines, line)) {
    if (line.size() < 9 || line.substr(line.size() - 9) != ": missing") continue;
    ++missing;
    std::istringstream fields(line);
    std::string domain, op;
    int64_t since = 0;
    fields >> domain >> op >> since;
    const int64_t libonnx_newest = domain == "ai.onnx"                    ? 17
                                   : domain == "ai.onnx.ml"               ? 3
                                   : domain == "ai.onnx.preview.training" ? 1
                                                                          : 0;
    EXPECT_GT(since, libonnx_newest) << line;
  }
  const std::string output = "\n" + r.output;
  for (const char* domain :
       {"ai.onnx: ", "ai.onnx.ml: ", "ai.onnx.preview: ", "ai.onnx.preview.training: "}) {
    const size_t at = output.find(std::string("\n") + domain);
    ASSERT_NE(at, std::string::npos) << domain << " has no summary line:\n" << r.output;
  }
  // --fail-on-missing fails exactly when something is missing.
  EXPECT_EQ(run_cli("ops --missing --fail-on-missing").status != 0, missing > 0);
}

TEST(Cli, OpsCoverageListsTheVersionsBeyondLibonnx) {
  CliRun r = run_cli("ops --coverage");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("\nai.onnx ReduceMax 18: kernel\n"), std::string::npos) << r.output;
  // Celu-28 has a kernel, and a function body (the project's, beyond libonnx).
  EXPECT_NE(r.output.find("\nai.onnx Celu 28: kernel + function body\n"), std::string::npos);
  EXPECT_NE(r.output.find("\nai.onnx Mish 18: kernel + function body\n"), std::string::npos);
  // The summary counts the bodies, those beyond libonnx apart
  // (tools/opgen/schemas/functions holds 22).
  EXPECT_NE(r.output.find("versions have a function body (22 of them beyond libonnx 1.12)\n"),
            std::string::npos);
  EXPECT_NE(r.output.find("\nai.onnx.preview FlexAttention 1: "), std::string::npos);
  // Every version through opset 28 runs, but the two ONNX deprecated at
  // ai.onnx.ml 5, which are not counted as missing.
  EXPECT_NE(r.output.find("\nai.onnx.ml TreeEnsembleRegressor 5: deprecated, no kernel\n"),
            std::string::npos);
  EXPECT_NE(r.output.find("\nai.onnx.ml: 23 kernel, 0 function body, 2 deprecated without a "
                          "kernel, 0 missing"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("\nai.onnx: 608 kernel, 4 function body, 0 deprecated without a kernel, "
                          "0 missing"),
            std::string::npos);
  EXPECT_EQ(run_cli("ops --missing --fail-on-missing").status, 0);
}

TEST(Cli, OpsFiltersByDomain) {
  CliRun r = run_cli("ops --domain ai.onnx.preview.training");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("ai.onnx.preview.training Adam 1"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("ai.onnx Add"), std::string::npos) << r.output;
}

TEST(Cli, TorchlibListsOverloadsAndCountsCoverage) {
  CliRun list = run_cli("torchlib");
  EXPECT_EQ(list.status, 0) << list.output;
  EXPECT_NE(list.output.find("aten::add.Tensor(Tensor self, Tensor other, Scalar alpha) -> Tensor"),
            std::string::npos)
      << list.output;
  const fs::path dir = scratch("torchlib");
  {
    std::ofstream names(dir / "names.txt");
    names << "# two registered names, one overload-less base name, one unknown\n"
             "aten::add.Tensor\naten::relu\naten::add\naten::no_such_op\n";
  }
  CliRun coverage = run_cli("torchlib --missing --coverage " + (dir / "names.txt").string());
  EXPECT_EQ(coverage.status, 0) << coverage.output;
  EXPECT_NE(coverage.output.find("covers 3 of 4 names"), std::string::npos) << coverage.output;
  EXPECT_NE(coverage.output.find("(2 of 3 distinct aten base operators)"), std::string::npos)
      << coverage.output;
  EXPECT_NE(coverage.output.find("aten::no_such_op\n"), std::string::npos) << coverage.output;
  EXPECT_NE(run_cli("torchlib --coverage " + (dir / "absent.txt").string()).status, 0);
}

}  // namespace
}  // namespace onnxscript
