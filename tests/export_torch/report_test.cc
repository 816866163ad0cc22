// The exporter's reports: a model with an operator torchlib does not
// register fails with a markdown report and a SARIF log written (the log
// valid against the SARIF 2.1.0 schema), then exports after a script
// Function is registered for that operator, and matches LibTorch.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "export/torch/report.h"
#include "onnxscript/check/check.h"
#include "onnxscript/export/torch_module.h"
#include "onnxscript/onnxscript.h"
#include "onnxscript/support/file_io.h"

namespace onnxscript::torch {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

const fs::path kSchema = fs::path(ONNXSCRIPT_TEST_DATA_DIR) / "sarif/sarif-schema-2.1.0.json";
const fs::path kChecker = fs::path(ONNXSCRIPT_TEST_DATA_DIR) / "../export_torch/check_sarif.py";

struct ProcessResult {
  int status;
  std::string output;
};

ProcessResult run(const std::string& command) {
  std::FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  EXPECT_NE(pipe, nullptr);
  std::string output;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    output.append(buffer.data(), n);
  return {WEXITSTATUS(::pclose(pipe)), output};
}

// check_sarif.py's lines for `log` (the first is "valid" when the schema
// accepts it).
std::string check_sarif(const fs::path& log) {
  const ProcessResult r =
      run("/usr/bin/python3 " + kChecker.string() + " " + kSchema.string() + " " + log.string());
  EXPECT_EQ(r.status, 0) << r.output;
  return r.output;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("onnxscript_export_report_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// The report files in `dir` with extension `ext`.
std::vector<fs::path> files_in(const fs::path& dir, const std::string& ext) {
  std::vector<fs::path> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ext) out.push_back(e.path());
  return out;
}

Tensor to_ours(const at::Tensor& t) {
  const at::Tensor c = t.contiguous();
  Tensor out(DataType::kFloat, std::vector<int64_t>(c.sizes().begin(), c.sizes().end()));
  std::memcpy(out.raw_data(), c.data_ptr(), c.nbytes());
  return out;
}

// The Python file that makes the model: a Linear layer, then torch.hypot,
// which torchlib does not register (`onnxscript torchlib` does not list
// aten::hypot). The hypot call is on line kHypotLine of the file.
constexpr int kHypotLine = 9;
const char* const kModelScript = R"(import sys
import torch
torch.manual_seed(0)
class HypotModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 3)
    def forward(self, x):
        return torch.hypot(self.fc(x), torch.relu(x[:, :3]))
torch.jit.trace(HypotModel().eval(), torch.randn(2, 4)).save(sys.argv[1])
)";

// Writes the script into `dir` and runs it; the model's path.
fs::path make_hypot_model(const fs::path& dir) {
  const fs::path script = dir / "hypot_model.py";
  write_file_atomically(script, kModelScript);
  const fs::path model = dir / "hypot_model.pt";
  const ProcessResult r = run("/usr/bin/python3 " + script.string() + " " + model.string());
  EXPECT_EQ(r.status, 0) << "python3-torch is needed to make the model: " << r.output;
  return model;
}

TEST(ExportReport, AMissingOperatorFailsWithAReportThenARegisteredFunctionExportsIt) {
  const fs::path dir = scratch("story");
  const fs::path model = make_hypot_model(dir);
  const fs::path reports = dir / "reports";  // created by the export
  ExportOptions options;
  options.report_dir = reports;
  options.dynamic_shapes[0] = {{0, "batch"}};
  const at::Tensor x = ::torch::randn({2, 4});

  // 1. torchlib has no aten::hypot: the export fails, naming it...
  try {
    export_module(model, {to_ours(x)}, options);
    FAIL() << "expected ExporterError";
  } catch (const ExporterError& e) {
    ASSERT_EQ(e.diagnostics().size(), 1u) << e.what();
    EXPECT_EQ(e.diagnostics()[0].node, "aten::hypot");
    EXPECT_EQ(e.diagnostics()[0].rule, "unsupported-operator");
  }
  // ...and writes one report and one SARIF log.
  const auto mds = files_in(reports, ".md");
  const auto logs = files_in(reports, ".sarif");
  ASSERT_EQ(mds.size(), 1u);
  ASSERT_EQ(logs.size(), 1u);
  EXPECT_EQ(mds[0].stem(), logs[0].stem());
  EXPECT_THAT(mds[0].filename().string(), ::testing::StartsWith("onnx_export_"));
  // No temporary left behind by the atomic writes.
  EXPECT_EQ(std::distance(fs::directory_iterator(reports), fs::directory_iterator()), 2);

  const std::string md = read_text(mds[0]);
  EXPECT_THAT(md, HasSubstr("| status | **failed** (1 error, 0 warnings) |"));
  EXPECT_THAT(md, HasSubstr("| example inputs | `float[2,4]` |"));
  // The steps up to the failure ran; the ones after it did not.
  EXPECT_THAT(md, ::testing::ContainsRegex("\\| load \\(.*\\) \\| ok \\|"));
  EXPECT_THAT(md, ::testing::ContainsRegex("\\| passes \\(.*\\) \\| ok \\|"));
  EXPECT_THAT(md, ::testing::ContainsRegex("\\| inputs \\(.*\\) \\| ok \\|"));
  EXPECT_THAT(md,
              ::testing::ContainsRegex("\\| translate \\(.*\\) \\| FAILED \\| .* \\| 1 error \\|"));
  EXPECT_THAT(md, ::testing::ContainsRegex("\\| validate \\(.*\\) \\| not reached \\|"));
  // The error with the user's Python line.
  EXPECT_THAT(md, HasSubstr("## Errors\n\n1. [unsupported-operator] `aten::hypot`: aten::hypot"));
  // Traced graphs keep "file(line): function" as the line's text: the
  // report reads the line itself from the file.
  EXPECT_THAT(
      md, HasSubstr(fmt::format("at {}, line {}:", (dir / "hypot_model.py").string(), kHypotLine)));
  EXPECT_THAT(md, HasSubstr("   return torch.hypot(self.fc(x), torch.relu(x[:, :3]))\n"));
  EXPECT_THAT(md, HasSubstr("## Unsupported operators"));
  EXPECT_THAT(md, HasSubstr("| `aten::hypot` | 1 |"));
  // Operator counts of the frozen TorchScript graph, and its text.
  EXPECT_THAT(md, HasSubstr("| `aten::linear` | 1 |"));
  EXPECT_THAT(md, HasSubstr("| `aten::relu` | 1 |"));
  EXPECT_THAT(md, HasSubstr("| `aten::hypot` (unsupported) | 1 |"));
  EXPECT_THAT(md, HasSubstr("## TorchScript graph\n\n```\ngraph("));
  EXPECT_THAT(md, HasSubstr("aten::hypot("));

  // The SARIF log: valid, one error result at the hypot line.
  const std::string sarif = check_sarif(logs[0]);
  EXPECT_THAT(sarif, HasSubstr("valid\n"));
  EXPECT_THAT(sarif, HasSubstr("tool onnxscript-cpp_torch_exporter 0.1.0\n"));
  EXPECT_THAT(sarif, HasSubstr("rules unsupported-operator,unsupported-construct,"));
  EXPECT_THAT(sarif, HasSubstr("invocation false\n"));
  EXPECT_THAT(sarif, HasSubstr(fmt::format("result unsupported-operator error file://{} {} "
                                           "aten::hypot\n",
                                           (dir / "hypot_model.py").string(), kHypotLine)));
  EXPECT_THAT(sarif, HasSubstr("message aten::hypot: aten::hypot has no function in the registry"));
  EXPECT_THAT(sarif, HasSubstr("snippet return torch.hypot(self.fc(x), torch.relu(x[:, :3]))\n"));

  // 2. hypot(a, b) = sqrt(a^2 + b^2), registered as a script Function.
  auto registry = std::make_shared<torch_lib::Registry>(torch_lib::torchlib_registry());
  const Function hypot =
      script("hypot", {"self", "other"}, [](FLOAT<AnyRank> self, FLOAT<AnyRank> other) {
        namespace op = onnxscript::opset18;
        return op::Sqrt(op::Add(op::Mul(self, self), op::Mul(other, other)));
      });
  registry->register_op(hypot, "aten::hypot", "aten::hypot(Tensor self, Tensor other) -> Tensor");
  options.registry = registry;
  const ONNXProgram program = export_module(model, {to_ours(x)}, options);
  // It matches LibTorch's forward, at the example's batch and another.
  ::torch::jit::Module module = ::torch::jit::load(model.string());
  for (int64_t batch : {2, 5}) {
    const at::Tensor input = ::torch::randn({batch, 4});
    const at::Tensor expected = module.forward({input}).toTensor();
    const Tensor ours = program.run({to_ours(input)}).at(0).tensor();
    const at::Tensor got =
        at::from_blob(const_cast<void*>(ours.raw_data()), expected.sizes(), at::kFloat).clone();
    EXPECT_TRUE(::torch::allclose(got, expected, 1e-5, 1e-6)) << got << expected;
  }
  // A successful export writes its report too: a second pair, beside the first.
  ASSERT_EQ(files_in(reports, ".md").size(), 2u);
  for (const fs::path& p : files_in(reports, ".md")) {
    if (p == mds[0]) continue;
    const std::string ok = read_text(p);
    // Validation ran. (Today it warns that the output of the user's
    // Function has no type: inference does not type a model-local
    // function's outputs. A warning, not an error: the model runs.)
    EXPECT_THAT(ok, HasSubstr("| status | **succeeded** (0 errors, "));
    EXPECT_THAT(ok, ::testing::ContainsRegex("\\| validate \\(.*\\) \\| ok \\|"));
    EXPECT_THAT(ok, Not(HasSubstr("## Errors")));
    const fs::path log = fs::path(p).replace_extension(".sarif");
    const std::string checked = check_sarif(log);
    EXPECT_THAT(checked, HasSubstr("valid\n"));
    EXPECT_THAT(checked, HasSubstr("invocation true\n"));
    EXPECT_THAT(checked, Not(HasSubstr(" error ")));
  }
  fs::remove_all(dir);
}

// warnings_as_errors turns what validation finds into errors that fail the
// export. Which findings there are depends on the exporter (today: the
// output of a user's Function has no type), so both outcomes are checked
// against the findings of the same export without the option.
TEST(ExportReport, WarningsAsErrorsFailsOnValidationFindings) {
  const fs::path dir = scratch("strict");
  const fs::path model = make_hypot_model(dir);
  auto registry = std::make_shared<torch_lib::Registry>(torch_lib::torchlib_registry());
  registry->register_op(
      script("hypot", {"self", "other"},
             [](FLOAT<AnyRank> self, FLOAT<AnyRank> other) {
               namespace op = onnxscript::opset18;
               return op::Sqrt(op::Add(op::Mul(self, self), op::Mul(other, other)));
             }),
      "aten::hypot", "aten::hypot(Tensor self, Tensor other) -> Tensor");
  ExportOptions options;
  options.registry = registry;
  const Tensor x = to_ours(::torch::randn({2, 4}));
  const std::vector<std::string> findings =
      check::check_model(export_module(model, {x}, options).model()).errors;
  options.warnings_as_errors = true;
  options.report_dir = dir / "reports";
  if (findings.empty()) {
    EXPECT_NO_THROW(export_module(model, {x}, options));
  } else {
    try {
      export_module(model, {x}, options);
      FAIL() << "expected ExporterError for " << ::testing::PrintToString(findings);
    } catch (const ExporterError& e) {
      ASSERT_EQ(e.diagnostics().size(), findings.size());
      for (size_t i = 0; i < findings.size(); ++i) {
        EXPECT_EQ(e.diagnostics()[i].message, findings[i]);
        EXPECT_EQ(e.diagnostics()[i].rule, "validation");
        EXPECT_EQ(e.diagnostics()[i].level, DiagnosticLevel::kError);
      }
    }
    const auto mds = files_in(dir / "reports", ".md");
    ASSERT_EQ(mds.size(), 1u);
    EXPECT_THAT(read_text(mds[0]),
                ::testing::ContainsRegex("\\| validate \\(.*\\) \\| FAILED \\|"));
    const std::string sarif = check_sarif(files_in(dir / "reports", ".sarif").at(0));
    EXPECT_THAT(sarif, HasSubstr("result validation error - - model\n"));
  }
  fs::remove_all(dir);
}

TEST(ExportReport, NoReportUnlessAskedAndValidationOnlyWhenAsked) {
  ::torch::jit::Module m("Plain");
  m.define(R"(
def forward(self, x):
    return torch.relu(x)
)");
  std::vector<std::string> lines;
  ExportOptions options;
  options.progress = [&](const std::string& line) { lines.push_back(line); };
  export_module(m, {to_ours(::torch::randn({3}))}, options);
  // Progress: each step starts and ends; no validation without a report or
  // warnings_as_errors; no "load" for a module given in memory.
  EXPECT_THAT(lines, ::testing::Contains(::testing::StartsWith("passes: ")));
  EXPECT_THAT(lines, ::testing::Contains(::testing::StartsWith("translate: ok, ")));
  EXPECT_THAT(lines, Not(::testing::Contains(::testing::StartsWith("validate"))));
  EXPECT_THAT(lines, Not(::testing::Contains(::testing::StartsWith("load"))));
  lines.clear();
  options.warnings_as_errors = true;
  export_module(m, {to_ours(::torch::randn({3}))}, options);
  EXPECT_THAT(lines, ::testing::Contains(::testing::AllOf(::testing::StartsWith("validate: ok, "),
                                                          ::testing::EndsWith("(valid)"))));
}

TEST(ExportReport, AFileThatIsNotTorchScriptFailsAtLoadWithAReport) {
  const fs::path dir = scratch("load");
  write_file_atomically(dir / "not_a_model.pt", "not a zip file");
  ExportOptions options;
  options.report_dir = dir / "reports";
  EXPECT_THROW(export_module(dir / "not_a_model.pt", {}, options), IoError);
  const auto mds = files_in(dir / "reports", ".md");
  ASSERT_EQ(mds.size(), 1u);
  const std::string md = read_text(mds[0]);
  EXPECT_THAT(md, ::testing::ContainsRegex("\\| load \\(.*\\) \\| FAILED \\| .* \\| cannot load"));
  EXPECT_THAT(md, ::testing::ContainsRegex("\\| passes \\(.*\\) \\| not reached \\|"));
  EXPECT_THAT(md, HasSubstr("1. [load-error] `load`: cannot load the TorchScript module"));
  const std::string sarif = check_sarif(files_in(dir / "reports", ".sarif").at(0));
  EXPECT_THAT(sarif, HasSubstr("result load-error error - - load\n"));
  fs::remove_all(dir);
}

TEST(ExportReport, AnUnwritableReportFolderDoesNotHideTheExportError) {
  ::torch::jit::Module m("Missing");
  m.define(R"(
def forward(self, x):
    return torch.special_ndtr(x)
)");
  const fs::path dir = scratch("unwritable");
  write_file_atomically(dir / "file", "");  // a file where the folder should be
  ExportOptions options;
  options.report_dir = dir / "file" / "reports";
  EXPECT_THROW(export_module(m, {to_ours(::torch::randn({3}))}, options), ExporterError);
  fs::remove_all(dir);
}

// The SARIF writer on its own: text that JSON must escape, a warning, a
// source line without a file, and a path that must be percent-encoded.
TEST(ExportReport, SarifEscapesTextAndStaysValid) {
  report::ExportRecord r;
  r.model = "dir with space/m\"odel.pt";
  r.tool_version = "0.1.0";
  r.started = r.ended = std::chrono::system_clock::now();
  r.diagnostics.push_back({"aten::weird", "quote \" backslash \\ newline\n tab\t bell\x07 é", "",
                           "translation-error", DiagnosticLevel::kError});
  r.diagnostics.push_back(
      {"model", "a doubtful model", "", "validation", DiagnosticLevel::kWarning});
  r.diagnostics.push_back(
      {"aten::x", "from a string", "return torch.x(a)", "unsupported-operator"});
  r.diagnostics.push_back(
      {"aten::y", "in a file with a space", "/tmp/my dir/m.py:12: y = f(x)", "no-such-rule"});
  const fs::path dir = scratch("escape");
  write_file_atomically(dir / "log.sarif", report::render_sarif(r));
  const std::string out = check_sarif(dir / "log.sarif");
  EXPECT_THAT(out, HasSubstr("valid\n"));
  EXPECT_THAT(out, HasSubstr("result translation-error error - - aten::weird\n"));
  EXPECT_THAT(
      out, HasSubstr("message aten::weird: quote \" backslash \\ newline\\n tab\t bell\x07 é\n"));
  EXPECT_THAT(out, HasSubstr("result validation warning - - model\n"));
  EXPECT_THAT(out, HasSubstr("result unsupported-operator error - - aten::x\n"));
  EXPECT_THAT(out, HasSubstr("result no-such-rule error file:///tmp/my%20dir/m.py 12 aten::y\n"));
  // The markdown report of the same record keeps table cells intact.
  const std::string md = report::render_markdown(r);
  EXPECT_THAT(md, HasSubstr("| status | **failed** (3 errors, 1 warning) |"));
  EXPECT_THAT(md, HasSubstr("## Warnings\n\n1. [validation] `model`: a doubtful model"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace onnxscript::torch
