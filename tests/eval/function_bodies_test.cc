// The project's function bodies for the operator versions beyond libonnx 1.12
// that ONNX defines by a function (tools/opgen/schemas/functions/). Each body
// (a) parses and passes check_model inside a model that calls it, and (b) run
// as a model-local function (so the Session expands it instead of running the
// kernel) gives the kernel's outputs on the inputs of the ONNX 1.22
// conformance cases of its operator, within the conformance tolerance; where a
// case is of exactly the body's version, the body also meets the case's
// expected outputs. The Session's own lookup of a body (no kernel) is checked
// through the same path the evaluator takes.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "eval/schema_functions.h"
#include "onnxscript/check/check.h"
#include "onnxscript/eval/conformance.h"
#include "onnxscript/eval/coverage.h"
#include "onnxscript/eval/schema_versions.h"
#include "onnxscript/eval/session.h"
#include "onnxscript/eval/tensor_io.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/serde/text.h"

namespace onnxscript::eval {
namespace {

namespace fs = std::filesystem;
using detail::ProjectFunctionBody;

const fs::path kNodeCases = fs::path(ONNXSCRIPT_TEST_DATA_DIR) / "onnx-1.22" / "node";
// ONNX 1.12's cases (Debian's libonnx-testdata): inputs for the operators
// the vendored 1.22 cases lack (Celu, Softplus), run at the body's version.
const fs::path kOldNodeCases = fs::path(ONNX_TESTDATA_DIR) / "node";
// The domain the tests give a body, so that the model's own function, not
// the kernel, runs the node.
constexpr const char* kBodyDomain = "test.body";

std::string key_of(const ProjectFunctionBody& body) {
  return fmt::format("{}-{}", body.op_type, body.since_version);
}

// The versions beyond libonnx that ONNX 1.22 (1.23 for opset 28) defines by
// a function and for which a static body could be written; see the README
// beside the bodies for those left out and why.
TEST(FunctionBodies, EveryExpectedVersionHasABody) {
  std::vector<std::string> got;
  for (const ProjectFunctionBody& body : detail::project_function_bodies()) {
    EXPECT_EQ(body.domain, "") << body.file;
    got.push_back(key_of(body));
  }
  EXPECT_THAT(
      got, ::testing::UnorderedElementsAre(
               "AffineGrid-20", "Celu-28", "Elu-22", "Gelu-20", "GroupNormalization-18",
               "GroupNormalization-21", "HardSigmoid-22", "HardSwish-22", "Mish-18", "Mish-22",
               "RMSNormalization-23", "ReduceL1-18", "ReduceL2-18", "ReduceLogSum-18",
               "ReduceLogSumExp-18", "ReduceSumSquare-18", "Selu-22", "Softplus-22", "Softsign-22",
               "SwiGLU-28", "Swish-24", "ThresholdedRelu-22"));
}

// The body of `body`, renamed into kBodyDomain.
std::unique_ptr<ir::Function> body_in_test_domain(const ProjectFunctionBody& body) {
  std::unique_ptr<ir::Function> f = text::parse_function(body.text, body.file);
  f->domain = kBodyDomain;
  return f;
}

// A copy of `kernel_model` whose one node calls the body as a model-local
// function. The copy goes through text: the node's `= Op ` becomes
// `= test.body.Op `.
ir::Model with_body(const ir::Model& kernel_model, const ProjectFunctionBody& body) {
  std::string text = text::print_model(kernel_model);
  const std::string call = fmt::format("= {} ", body.op_type);
  const size_t at = text.find(call);
  if (at == std::string::npos)
    throw Error(fmt::format("no call of {} in the model text:\n{}", body.op_type, text));
  text.replace(at, call.size(), fmt::format("= {}.{} ", kBodyDomain, body.op_type));
  ir::Model model = text::parse_model(text, body.file);
  model.opset_imports.set(kBodyDomain, 1);
  model.functions().push_back(body_in_test_domain(body));
  return model;
}

// One single-node conformance case of the operator (the `_expanded` ones are
// the ONNX body inlined, and are left to the conformance run).
struct Case {
  fs::path dir;
  int64_t case_since = 0;  // The version the case's own opset selects.
};

// The cases under `root` whose one node is in ai.onnx, by operator.
std::map<std::string, std::vector<Case>> cases_by_op(const fs::path& root) {
  std::map<std::string, std::vector<Case>> out;
  if (!fs::exists(root)) return out;
  for (const auto& entry : fs::directory_iterator(root)) {
    const std::string name = entry.path().filename().string();
    if (name.find("_expanded") != std::string::npos) continue;
    if (!fs::exists(entry.path() / "model.onnx")) continue;
    ir::Model m;
    try {
      m = serde::load_model(entry.path() / "model.onnx");
    } catch (const Error&) {
      continue;  // not a case these tests can use
    }
    if (m.graph().num_nodes() != 1) continue;
    const ir::Node& node = **m.graph().nodes().begin();
    if (!node.domain().empty() && node.domain() != "ai.onnx") continue;
    const int64_t opset = m.opset_imports.find("").value_or(0);
    const auto since = schema_version("", node.op_type(), opset);
    out[node.op_type()].push_back(Case{entry.path(), since.value_or(0)});
  }
  for (auto& [op, cases] : out)
    std::sort(cases.begin(), cases.end(),
              [](const Case& a, const Case& b) { return a.dir < b.dir; });
  return out;
}

// The ONNX 1.22 cases of `op_type`, or ONNX 1.12's when 1.22 has none.
std::vector<Case> cases_of(const std::string& op_type) {
  static const std::map<std::string, std::vector<Case>> current = cases_by_op(kNodeCases);
  static const std::map<std::string, std::vector<Case>> old = cases_by_op(kOldNodeCases);
  for (const auto* cases : {&current, &old}) {
    auto it = cases->find(op_type);
    if (it != cases->end()) return it->second;
  }
  return {};
}

std::vector<fs::path> numbered(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> out;
  for (size_t i = 0;; ++i) {
    fs::path p = dir / fmt::format("{}_{}.pb", prefix, i);
    if (!fs::exists(p)) break;
    out.push_back(p);
  }
  return out;
}

// (a) for one model: check_model finds nothing.
void expect_checks(const ir::Model& model, const std::string& what) {
  const check::CheckResult result = check::check_model(model);
  EXPECT_TRUE(result.checked) << what << ": " << result.skipped_reason;
  EXPECT_THAT(result.errors, ::testing::IsEmpty()) << what;
}

// Runs one case at the body's version through the kernel and through the
// body, and compares. Returns whether it ran.
bool compare_on_case(const ProjectFunctionBody& body, const Case& c) {
  const std::string what = fmt::format("{} on {}", body.file, c.dir.filename().string());
  ir::Model kernel_model = serde::load_model(c.dir / "model.onnx");
  kernel_model.opset_imports.set("", body.since_version);
  ir::Model body_model = with_body(kernel_model, body);
  expect_checks(body_model, what);

  const fs::path data = c.dir / "test_data_set_0";
  std::vector<RuntimeValue> inputs;
  const auto& graph_inputs = kernel_model.graph().inputs();
  const std::vector<fs::path> input_files = numbered(data, "input");
  for (size_t i = 0; i < input_files.size(); ++i)
    inputs.push_back(load_value_pb(
        input_files[i], i < graph_inputs.size() ? proto_kind_hint(graph_inputs[i]->type()) : ""));

  std::vector<RuntimeValue> from_kernel, from_body;
  try {
    from_kernel = Session(std::move(kernel_model)).run(inputs);
  } catch (const Error& e) {
    ADD_FAILURE() << what << ": the kernel failed: " << e.what();
    return false;
  }
  try {
    from_body = Session(std::move(body_model)).run(inputs);
  } catch (const Error& e) {
    ADD_FAILURE() << what << ": the body failed: " << e.what();
    return false;
  }
  EXPECT_EQ(from_body.size(), from_kernel.size()) << what;
  const std::vector<fs::path> expected_files = numbered(data, "output");
  for (size_t i = 0; i < std::min(from_body.size(), from_kernel.size()); ++i) {
    EXPECT_EQ(compare_values(from_kernel[i], from_body[i], {}, fmt::format("output {}", i)), "")
        << what << " (body against kernel)";
    if (c.case_since == body.since_version && i < expected_files.size()) {
      EXPECT_EQ(compare_values(load_value_pb(expected_files[i]), from_body[i], {},
                               fmt::format("output {}", i)),
                "")
          << what << " (body against the case's expected output)";
    }
  }
  return true;
}

class EachBody : public ::testing::TestWithParam<std::string> {
 protected:
  const ProjectFunctionBody& body() const {
    for (const ProjectFunctionBody& b : detail::project_function_bodies())
      if (key_of(b) == GetParam()) return b;
    throw Error("no body " + GetParam());
  }
};

// (a) and (b) over every conformance case of the operator.
TEST_P(EachBody, MatchesTheKernelOnTheConformanceCases) {
  const ProjectFunctionBody& b = body();
  int ran = 0;
  for (const Case& c : cases_of(b.op_type)) ran += compare_on_case(b, c) ? 1 : 0;
  EXPECT_GT(ran, 0) << b.file << ": no conformance case of " << b.op_type << " ran";
}

// The bodies with conformance cases to run on. GroupNormalization-18 takes
// scale and bias per group, but the cases are of version 21 (per channel);
// Swish and SwiGLU have no case in either suite. Their inputs are in the
// tests below.
std::vector<std::string> keys_with_cases() {
  std::vector<std::string> out;
  for (const ProjectFunctionBody& b : detail::project_function_bodies()) {
    const std::string key = key_of(b);
    if (key != "GroupNormalization-18" && key != "Swish-24" && key != "SwiGLU-28")
      out.push_back(key);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Bodies, EachBody, ::testing::ValuesIn(keys_with_cases()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

const ProjectFunctionBody& body_named(const std::string& key) {
  for (const ProjectFunctionBody& b : detail::project_function_bodies())
    if (key_of(b) == key) return b;
  throw Error("no body " + key);
}

// Runs `kernel_text` (a model whose one node is the body's operator) through
// the kernel and through the body, checking the body's model first, and
// expects the same outputs. Returns the body's outputs.
std::vector<RuntimeValue> run_both(const std::string& key, std::string_view kernel_text,
                                   const std::vector<RuntimeValue>& inputs) {
  const ProjectFunctionBody& body = body_named(key);
  ir::Model kernel_model = text::parse_model(kernel_text);
  ir::Model body_model = with_body(kernel_model, body);
  expect_checks(body_model, body.file);
  const auto from_kernel = Session(std::move(kernel_model)).run(inputs);
  auto from_body = Session(std::move(body_model)).run(inputs);
  EXPECT_EQ(from_kernel.size(), from_body.size()) << key;
  for (size_t i = 0; i < std::min(from_kernel.size(), from_body.size()); ++i)
    EXPECT_EQ(compare_values(from_kernel[i], from_body[i]), "") << key << " output " << i;
  return from_body;
}

double sigmoid(double v) { return 1 / (1 + std::exp(-v)); }

// Swish-24: x * sigmoid(alpha * x), by the formula, with the default alpha
// and with alpha = 0.5.
TEST(FunctionBodies, Swish24) {
  const std::vector<float> x{-3, -0.5f, 0, 1, 2.5f};
  for (const float alpha : {1.0f, 0.5f}) {
    const std::string text = fmt::format(R"(
<ir_version: 10, opset_import: ["" : 24]>
g (float[5] x) => (float[5] y)
{{
   y = Swish <alpha: float = {}> (x)
}}
)",
                                         alpha);
    const auto y = run_both("Swish-24", text, {Tensor::from_span<float>(x, {5})});
    for (size_t i = 0; i < x.size(); ++i)
      EXPECT_NEAR(y[0].tensor().data<float>()[i], x[i] * sigmoid(alpha * x[i]), 1e-6)
          << "alpha " << alpha << " x " << x[i];
  }
}

// SwiGLU-28: swish_alpha(a) * b elementwise, alpha = 1.702 and the default.
TEST(FunctionBodies, SwiGLU28) {
  const std::vector<float> a{-2, -0.25f, 0, 0.75f, 4, 1};
  const std::vector<float> b{3, -1, 5, 2, -0.5f, 0};
  for (const float alpha : {1.0f, 1.702f}) {
    const std::string text = fmt::format(R"(
<ir_version: 10, opset_import: ["" : 28]>
g (float[2,3] a, float[2,3] b) => (float[2,3] y)
{{
   y = SwiGLU <alpha: float = {}> (a, b)
}}
)",
                                         alpha);
    const auto y =
        run_both("SwiGLU-28", text,
                 {Tensor::from_span<float>(a, {2, 3}), Tensor::from_span<float>(b, {2, 3})});
    for (size_t i = 0; i < a.size(); ++i)
      EXPECT_NEAR(y[0].tensor().data<float>()[i], a[i] * sigmoid(alpha * a[i]) * b[i], 1e-5)
          << "alpha " << alpha << " at " << i;
  }
}

// The opset-18 reductions with no axes and noop_with_empty_axes = 1 reduce
// nothing, but the bodies still apply their elementwise part (their
// ReduceSum passes the values through), as ONNX's own function bodies of
// these versions do: |x|, |x|, ln x, x and x^2 of each element. The
// attribute's description says instead that the output is the input, and
// that is what the kernels return; the two readings of the specification
// differ, so this pins the bodies' reading by hand values and the kernels'
// by the input, and compares nothing between them.
TEST(FunctionBodies, ReductionsWithNoAxesAndNoopKeepTheElementwisePart) {
  const std::vector<float> x{-0.5f, 2, 3, 1.5f};
  const std::vector<float> positive{0.5f, 2, 3, 1.5f};
  struct Expectation {
    const std::vector<float>* input;
    std::vector<float> body;
  };
  const std::map<std::string, Expectation> expected{
      {"ReduceL1", {&x, {0.5f, 2, 3, 1.5f}}},
      {"ReduceL2", {&x, {0.5f, 2, 3, 1.5f}}},
      {"ReduceLogSum",
       {&positive, {std::log(0.5f), std::log(2.0f), std::log(3.0f), std::log(1.5f)}}},
      {"ReduceLogSumExp", {&x, {-0.5f, 2, 3, 1.5f}}},
      {"ReduceSumSquare", {&x, {0.25f, 4, 9, 2.25f}}},
  };
  for (const auto& [op, want] : expected) {
    const std::string text = fmt::format(R"(
<ir_version: 10, opset_import: ["" : 18]>
g (float[2,2] x) => (float[2,2] y)
{{
   y = {} <noop_with_empty_axes: int = 1> (x)
}}
)",
                                         op);
    ir::Model kernel_model = text::parse_model(text);
    ir::Model body_model = with_body(kernel_model, body_named(op + "-18"));
    expect_checks(body_model, op);
    const std::vector<RuntimeValue> in{Tensor::from_span<float>(*want.input, {2, 2})};
    const auto from_body = Session(std::move(body_model)).run(in);
    const auto from_kernel = Session(std::move(kernel_model)).run(in);
    for (size_t i = 0; i < want.body.size(); ++i) {
      EXPECT_NEAR(from_body[0].tensor().data<float>()[i], want.body[i], 1e-6) << op << " at " << i;
      EXPECT_EQ(from_kernel[0].tensor().data<float>()[i], (*want.input)[i]) << op << " at " << i;
    }
  }
}

// GroupNormalization-18: scale and bias per group. X (2, 4, 3) in two groups
// of two channels. Group (n=0, g=0) holds 0..5: mean 2.5, variance 35/12;
// with scale 2 and bias 1 its first element is 2 * (0 - 2.5) / sqrt(35/12 +
// 1e-5) + 1.
TEST(FunctionBodies, GroupNormalization18PerGroupScale) {
  const ProjectFunctionBody* body = nullptr;
  for (const ProjectFunctionBody& b : detail::project_function_bodies())
    if (key_of(b) == "GroupNormalization-18") body = &b;
  ASSERT_NE(body, nullptr);
  ir::Model kernel_model = text::parse_model(R"(
<ir_version: 10, opset_import: ["" : 18]>
g (float[2,4,3] x, float[2] scale, float[2] bias) => (float[2,4,3] y)
{
   y = GroupNormalization <num_groups: int = 2> (x, scale, bias)
}
)");
  ir::Model body_model = with_body(kernel_model, *body);
  expect_checks(body_model, body->file);
  std::vector<float> x(24);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i * i % 7) + 0.25f * i;
  x[0] = 0, x[1] = 1, x[2] = 2, x[3] = 3, x[4] = 4, x[5] = 5;
  std::vector<RuntimeValue> in{Tensor::from_span<float>(x, {2, 4, 3}), Tensor::from<float>({2, -1}),
                               Tensor::from<float>({1, 0.5f})};
  const auto from_kernel = Session(std::move(kernel_model)).run(in);
  const auto from_body = Session(std::move(body_model)).run(in);
  EXPECT_EQ(compare_values(from_kernel[0], from_body[0]), "");
  const double first = 2 * (0 - 2.5) / std::sqrt(35.0 / 12 + 1e-5) + 1;
  EXPECT_NEAR(from_body[0].tensor().data<float>()[0], first, 1e-5);
}

// The evaluator's own path: an operator version with no kernel but a project
// body is expanded. No version with a body lacks a kernel today, so this
// checks the lookup the Session uses, and that a coverage line says both.
TEST(FunctionBodies, TheEvaluatorFindsEachBody) {
  for (const ProjectFunctionBody& b : detail::project_function_bodies()) {
    const detail::SchemaFunctionInfo info =
        detail::find_schema_function(b.domain, b.op_type, b.since_version);
    EXPECT_EQ(info.kind, detail::SchemaFunctionKind::kStatic) << b.file;
    EXPECT_EQ(info.since_version, b.since_version) << b.file;
    // A later opset that selects the same version finds it too.
    EXPECT_EQ(detail::find_schema_function(b.domain, b.op_type, b.since_version).since_version,
              b.since_version);
    std::unique_ptr<ir::Function> f =
        detail::schema_function_body(b.domain, b.op_type, b.since_version);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->name, b.op_type);
  }
  // Mish-18 is selected by opsets 18 to 21.
  EXPECT_EQ(detail::find_schema_function("", "Mish", 21).since_version, 18);
  EXPECT_EQ(detail::find_schema_function("", "Mish", 22).since_version, 22);
  // A version libonnx knows keeps libonnx's answer.
  EXPECT_EQ(detail::find_schema_function("", "Mish", 17).since_version, 0);

  int with_body = 0;
  for (const OperatorCoverage& entry : operator_coverage()) {
    if (entry.from_libonnx || !entry.has_function_body) continue;
    ++with_body;
    EXPECT_NE(entry.kind, CoverageKind::kMissing) << entry.op_type << "-" << entry.since_version;
    if (entry.kind == CoverageKind::kKernel) {
      EXPECT_EQ(describe(entry), "kernel + function body") << entry.op_type;
    }
  }
  EXPECT_EQ(with_body, static_cast<int>(detail::project_function_bodies().size()));
}

}  // namespace
}  // namespace onnxscript::eval
