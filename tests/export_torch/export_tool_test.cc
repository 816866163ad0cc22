// `onnxscript-export` and `onnxscript export`, end to end: models made with
// Debian's python3-torch at test time, exported by the tool, checked, run in
// our Session and compared with LibTorch's forward; bad arguments; reports.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>

#include "onnxscript/check/check.h"
#include "onnxscript/eval/session.h"
#include "onnxscript/export/torch_module.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/support/file_io.h"

namespace onnxscript::torch {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

struct ProcessResult {
  int status;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs `program args`, stdout and stderr apart.
ProcessResult run(const std::string& program, const std::string& args) {
  const fs::path err_file =
      fs::temp_directory_path() / ("onnxscript_export_tool_stderr_" + std::to_string(::getpid()));
  const std::string command = program + " " + args + " 2>" + err_file.string();
  std::FILE* pipe = ::popen(command.c_str(), "r");
  EXPECT_NE(pipe, nullptr);
  std::string out;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  std::string err = read_file(err_file);
  fs::remove(err_file);
  return {WEXITSTATUS(status), out, err};
}

ProcessResult tool(const std::string& args) { return run(ONNXSCRIPT_EXPORT_TOOL, args); }

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("onnxscript_export_tool_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Two traced models: a Linear + ReLU (one float input), and one that adds an
// Embedding of int64 ids to a Linear of floats (two inputs of two types).
fs::path make_models(const std::string& name) {
  const fs::path dir = scratch(name);
  write_file_atomically(dir / "make.py", R"(import sys, torch
torch.manual_seed(0)
class LinearRelu(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 3)
    def forward(self, x):
        return torch.relu(self.fc(x))
class Mixed(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 3)
        self.emb = torch.nn.Embedding(10, 3)
    def forward(self, x, ids):
        return self.fc(x) + self.emb(ids)
out = sys.argv[1]
torch.jit.trace(LinearRelu().eval(), torch.randn(2, 4)).save(out + '/linear_relu.pt')
torch.jit.trace(Mixed().eval(), (torch.randn(2, 4), torch.tensor([1, 2]))).save(out + '/mixed.pt')
)");
  const ProcessResult r = run("/usr/bin/python3", (dir / "make.py").string() + " " + dir.string());
  EXPECT_EQ(r.status, 0) << "python3-torch is needed to make the models: " << r.err;
  return dir;
}

at::Tensor from_ours(const Tensor& t) {
  std::vector<int64_t> sizes(t.shape().begin(), t.shape().end());
  return at::from_blob(const_cast<void*>(t.raw_data()), sizes, at::kFloat).clone();
}

Tensor to_ours(const at::Tensor& t) {
  const at::Tensor c = t.contiguous();
  std::vector<int64_t> sizes(c.sizes().begin(), c.sizes().end());
  Tensor out(c.scalar_type() == at::kLong ? DataType::kInt64 : DataType::kFloat, sizes);
  std::memcpy(out.raw_data(), c.data_ptr(), c.nbytes());
  return out;
}

TEST(ExportTool, ExportsALinearModelWithANamedBatchThatMatchesLibTorch) {
  const fs::path dir = make_models("linear");
  const ProcessResult r =
      tool((dir / "linear_relu.pt").string() + " -o " + (dir / "out.onnx").string() +
           " --input image:float[2,4] --dynamic image:0=batch");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("exported "));
  EXPECT_THAT(r.out, HasSubstr("2 initializers"));
  // Progress on stderr, a line per step.
  for (const char* step : {"load: ok", "passes: ok", "inputs: ok", "translate: ok"})
    EXPECT_THAT(r.err, HasSubstr(std::string("onnxscript-export: ") + step)) << r.err;
  const auto model = std::make_shared<const ir::Model>(serde::load_model(dir / "out.onnx"));
  const check::CheckResult checked = check::check_model(*model);
  EXPECT_TRUE(checked.ok()) << ::testing::PrintToString(checked.errors);
  ASSERT_EQ(model->graph().inputs().size(), 1u);
  EXPECT_EQ(model->graph().inputs()[0]->name(), "image");  // the name given
  EXPECT_EQ(model->graph().inputs()[0]->type()->to_string(), "float[batch,4]");
  ::torch::jit::Module module = ::torch::jit::load((dir / "linear_relu.pt").string());
  const eval::Session session(model);
  for (int64_t batch : {2, 7}) {
    const at::Tensor x = ::torch::randn({batch, 4});
    const at::Tensor expected = module.forward({x}).toTensor();
    const auto outputs = session.run(std::vector<eval::RuntimeValue>{to_ours(x)});
    EXPECT_TRUE(::torch::allclose(from_ours(outputs.at(0).tensor()), expected, 1e-5, 1e-6))
        << "batch " << batch;
  }
  fs::remove_all(dir);
}

TEST(ExportTool, OnnxscriptExportRunsTheExporterWithTwoInputsOfTwoTypes) {
  const fs::path dir = make_models("mixed");
  // Through the main tool, which execs onnxscript-export from its folder.
  const ProcessResult r =
      run(ONNXSCRIPT_CLI, "export " + (dir / "mixed.pt").string() + " -o " +
                              (dir / "mixed.onnx").string() +
                              " --input x:float[2,4] --input ids:int64[2] --verbose");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("input  x: float[2,4]"));
  EXPECT_THAT(r.out, HasSubstr("input  ids: int64[2]"));
  const auto model = std::make_shared<const ir::Model>(serde::load_model(dir / "mixed.onnx"));
  EXPECT_TRUE(check::check_model(*model).ok());
  ::torch::jit::Module module = ::torch::jit::load((dir / "mixed.pt").string());
  const at::Tensor x = ::torch::randn({2, 4});
  const at::Tensor ids = ::torch::tensor({9, 0}, at::kLong);
  const at::Tensor expected = module.forward({x, ids}).toTensor();
  const eval::Session session(model);
  const auto outputs = session.run(std::vector<eval::RuntimeValue>{to_ours(x), to_ours(ids)});
  EXPECT_TRUE(::torch::allclose(from_ours(outputs.at(0).tensor()), expected, 1e-5, 1e-6));

  // --no-weights: no initializers; each weight a graph input instead.
  const ProcessResult bare =
      tool((dir / "mixed.pt").string() + " -o " + (dir / "bare.onnx").string() +
           " --input x:float[2,4] --input ids:int64[2] --no-weights");
  ASSERT_EQ(bare.status, 0) << bare.err;
  EXPECT_THAT(bare.out, HasSubstr("left out"));
  const ir::Model no_weights = serde::load_model(dir / "bare.onnx");
  EXPECT_EQ(no_weights.graph().initializers().size(), 0u);
  EXPECT_EQ(no_weights.graph().inputs().size(), 2u + 3u);  // x, ids, fc.weight, fc.bias, emb.weight
  EXPECT_LT(fs::file_size(dir / "bare.onnx"), fs::file_size(dir / "mixed.onnx"));
  fs::remove_all(dir);
}

TEST(ExportTool, HelpSaysHowInputsAndExampleValuesWork) {
  for (const ProcessResult& r : {tool("--help"), run(ONNXSCRIPT_CLI, "export --help")}) {
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("--input"));
    EXPECT_THAT(r.out, HasSubstr("NAME:TYPE[D0,D1,...]"));
    EXPECT_THAT(r.out, HasSubstr("deterministic"));
    EXPECT_THAT(r.out, HasSubstr("std::mt19937"));
    EXPECT_THAT(r.out, HasSubstr("--report"));
  }
  // The main tool lists the command.
  EXPECT_THAT(run(ONNXSCRIPT_CLI, "--help").out, HasSubstr("export"));
}

TEST(ExportTool, BadArgumentsAreExplainedWithStatus2) {
  const fs::path dir = make_models("bad");
  const std::string pt = (dir / "linear_relu.pt").string();
  const std::string out = " -o " + (dir / "o.onnx").string();
  struct Case {
    std::string args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"", "MODEL is required"},
      {pt + " --input x:float[2,4]", "--output is required"},
      {pt + out, "--input is required"},
      {pt + out + " --input x:float3[2,4]", "unknown element type 'float3'"},
      {pt + out + " --input x:float[2,a]", "'a' is not a size"},
      {pt + out + " --input x:float[2,-1]", "'-1' is not a size"},
      {pt + out + " --input xfloat[2,4]", "no ':' after the input's name"},
      {pt + out + " --input x:float", "no [dims] after the type"},
      {pt + out + " --input x:float[2,4] --input x:float[1]", "another input is named 'x'"},
      {pt + out + " --input x:float[2,4] --dynamic y:0=batch", "no --input is named 'y'"},
      {pt + out + " --input x:float[2,4] --dynamic x:2=batch", "has rank 2: no axis 2"},
      {pt + out + " --input x:float[2,4] --dynamic x:0", "has no '='"},
      {pt + " -o /nonexistent/folder/o.onnx --input x:float[2,4]", "does not exist"},
      {pt + out + " --input x:float[2,4] --opset abc", "--opset"},
  };
  for (const Case& c : cases) {
    const ProcessResult r = tool(c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.says)) << c.args;
    EXPECT_FALSE(fs::exists(dir / "o.onnx")) << c.args;
  }
  fs::remove_all(dir);
}

TEST(ExportTool, AFailedExportIsStatus1WithItsDiagnostics) {
  const fs::path dir = make_models("failed");
  const std::string out = " -o " + (dir / "o.onnx").string();
  // No such file.
  ProcessResult r = tool((dir / "missing.pt").string() + out + " --input x:float[2,4]");
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("cannot load the TorchScript module"));
  // forward takes one input.
  r = tool((dir / "linear_relu.pt").string() + out + " --input x:float[2,4] --input y:float[2]");
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("forward takes 1 inputs, 2 example inputs were given"));
  // An element type the model cannot take (int64 into a float Linear).
  r = tool((dir / "linear_relu.pt").string() + out + " --input x:int64[2,4]");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("translate: FAILED"));
  EXPECT_THAT(r.err, HasSubstr("aten::linear: Gemm: inputs 'A' and 'B' share type T"));
  // Another opset than torchlib's.
  r = tool((dir / "linear_relu.pt").string() + out + " --input x:float[2,4] --opset 17");
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("converting between opsets is not implemented"));
  EXPECT_FALSE(fs::exists(dir / "o.onnx"));
  fs::remove_all(dir);
}

TEST(ExportTool, ReportFolderGetsTheReportOfAFailedExport) {
  const fs::path dir = scratch("report");
  write_file_atomically(dir / "make.py", R"(import sys, torch
class M(torch.nn.Module):
    def forward(self, x):
        return torch.copysign(x, -x) + torch.hypot(x, x)
torch.jit.trace(M(), torch.randn(3)).save(sys.argv[1])
)");
  ASSERT_EQ(
      run("/usr/bin/python3", (dir / "make.py").string() + " " + (dir / "m.pt").string()).status,
      0);
  const ProcessResult r = tool((dir / "m.pt").string() + " -o " + (dir / "m.onnx").string() +
                               " --input x:float[3] --report " + (dir / "reports").string());
  EXPECT_EQ(r.status, 1);
  // Every unsupported operator, each with its Python line.
  EXPECT_THAT(r.err, HasSubstr("2 problems"));
  EXPECT_THAT(r.err, HasSubstr("aten::copysign"));
  EXPECT_THAT(r.err, HasSubstr("aten::hypot"));
  EXPECT_THAT(r.err, HasSubstr((dir / "make.py").string() + ":4: "));
  EXPECT_THAT(r.err, HasSubstr("onnxscript-export: report: " + (dir / "reports").string()));
  size_t md = 0, sarif = 0;
  for (const auto& e : fs::directory_iterator(dir / "reports")) {
    md += e.path().extension() == ".md";
    sarif += e.path().extension() == ".sarif";
  }
  EXPECT_EQ(md, 1u);
  EXPECT_EQ(sarif, 1u);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace onnxscript::torch
