// The conformance runner: value comparison, the manifest, and whole cases
// written to a temporary folder.
#include "onnxscript/eval/conformance.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "onnxscript/eval/tensor_io.h"
#include "onnxscript/ir/ir.h"
#include "onnxscript/serde/serde.h"

namespace onnxscript::eval {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

RuntimeValue floats(std::initializer_list<float> v) { return Tensor::from<float>(v); }

TEST(Compare, FloatsWithinToleranceAndNanMatchesOnlyNan) {
  EXPECT_EQ(compare_values(floats({1.0f, 100.0f}), floats({1.0005f, 100.09f})), "");
  EXPECT_THAT(compare_values(floats({1.0f, 100.0f}), floats({1.0f, 100.2f}), {}, "output 'y'"),
              HasSubstr("output 'y': element [1] expected 100, got 100.19999"));
  // atol matters around zero: 9e-8 passes, 1e-6 does not.
  EXPECT_EQ(compare_values(floats({0.0f}), floats({9e-8f})), "");
  EXPECT_NE(compare_values(floats({0.0f}), floats({1e-6f})), "");
  EXPECT_EQ(compare_values(floats({NAN, INFINITY}), floats({NAN, INFINITY})), "");
  EXPECT_THAT(compare_values(floats({NAN}), floats({1.0f})), HasSubstr("expected nan, got 1"));
  EXPECT_THAT(compare_values(floats({1.0f}), floats({NAN})), HasSubstr("expected 1, got nan"));
  EXPECT_NE(compare_values(floats({INFINITY}), floats({-INFINITY})), "");
  EXPECT_THAT(compare_values(floats({1, 2, 3}), floats({1, 5, 9})),
              HasSubstr("(2 of 3 elements differ, max abs diff 6)"));
}

TEST(Compare, IntegersBoolsAndStringsAreExact) {
  EXPECT_EQ(compare_values(Tensor::from<int64_t>({1, 2}), Tensor::from<int64_t>({1, 2})), "");
  EXPECT_THAT(
      compare_values(Tensor::from<int64_t>({1000000, 2}), Tensor::from<int64_t>({1000001, 2})),
      HasSubstr("element [0] expected 1000000, got 1000001"));
  EXPECT_THAT(
      compare_values(Tensor::from<int64_t>({INT64_MAX}), Tensor::from<int64_t>({INT64_MAX - 1})),
      HasSubstr("expected 9223372036854775807, got 9223372036854775806"));
  EXPECT_NE(compare_values(Tensor::from<bool>({true}), Tensor::from<bool>({false})), "");
  EXPECT_THAT(compare_values(Tensor::from<std::string>({"a"}), Tensor::from<std::string>({"b"})),
              HasSubstr("expected 'a', got 'b'"));
}

TEST(Compare, ShapesTypesAndStructureMustMatch) {
  EXPECT_THAT(
      compare_values(Tensor::from<float>({1, 2}, {2, 1}), Tensor::from<float>({1, 2}, {1, 2})),
      HasSubstr("expected shape [2,1], got [1,2]"));
  EXPECT_THAT(compare_values(Tensor::from<float>({1}), Tensor::from<double>({1})),
              HasSubstr("expected element type float, got double"));
  ir::Type t = ir::Type::tensor(DataType::kFloat);
  RuntimeValue seq2 = RuntimeValue::sequence(t, {floats({1}), floats({2})});
  RuntimeValue seq1 = RuntimeValue::sequence(t, {floats({1})});
  EXPECT_EQ(compare_values(seq2, RuntimeValue::sequence(t, {floats({1}), floats({2})})), "");
  EXPECT_THAT(compare_values(seq2, seq1), HasSubstr("sequence of 2 elements, got 1"));
  EXPECT_THAT(
      compare_values(seq2, RuntimeValue::sequence(t, {floats({1}), floats({3})}), {}, "out"),
      HasSubstr("out[1]: element [0]"));
  EXPECT_THAT(compare_values(seq1, floats({1})), HasSubstr("expected sequence"));
  RuntimeValue empty = RuntimeValue::optional(t, std::nullopt);
  RuntimeValue full = RuntimeValue::optional(t, floats({1}));
  EXPECT_EQ(compare_values(empty, RuntimeValue::optional(t, std::nullopt)), "");
  EXPECT_NE(compare_values(empty, full), "");
  EXPECT_EQ(compare_values(full, RuntimeValue::optional(t, floats({1}))), "");
}

TEST(Manifest, ParsesEntriesCommentsAndRejectsBadLines) {
  Manifest m = Manifest::parse(
      "# header\n\ntest_a no kernel for Foo-13  \n  test_b   wrong # trailing comment\n");
  ASSERT_EQ(m.expected_failures.size(), 2u);
  EXPECT_EQ(m.expected_failures.at("test_a"), "no kernel for Foo-13");
  EXPECT_EQ(m.expected_failures.at("test_b"), "wrong");
  EXPECT_THROW(Manifest::parse("test_a\n"), ParseError);
  EXPECT_THROW(Manifest::parse("test_a x\ntest_a y\n", "m.txt"), ParseError);
  try {
    Manifest::parse("ok reason\ntest_a\n", "m.txt");
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("m.txt:2"));
  }
}

// Writes a one-node case: y = Identity(x) (or an operator without a kernel).
fs::path write_case(const fs::path& root, const std::string& name, const std::string& op,
                    const Tensor& input, const Tensor& expected) {
  const fs::path dir = root / name;
  fs::create_directories(dir / "test_data_set_0");
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports.set("", 17);
  ir::Value* x = m.graph().add_input("x", ir::Type::tensor(input.dtype()));
  ir::Node* n = m.graph().append_node(op, {x}, 1);
  n->output(0)->set_name("y");
  n->output(0)->set_type(ir::Type::tensor(expected.dtype()));
  m.graph().outputs() = {n->output(0)};
  serde::save_model(m, dir / "model.onnx");
  save_value_pb(input, dir / "test_data_set_0" / "input_0.pb", "x");
  save_value_pb(expected, dir / "test_data_set_0" / "output_0.pb", "y");
  return dir;
}

class ConformanceRun : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / fmt::format("onnxscript_conformance_test_{}", ::getpid());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

TEST_F(ConformanceRun, ReportsPassFailSkipAndChecksTheManifest) {
  write_case(root_, "test_pass", "Identity", Tensor::from<float>({1, 2}),
             Tensor::from<float>({1, 2}));
  write_case(root_, "test_wrong", "Identity", Tensor::from<float>({1, 2}),
             Tensor::from<float>({1, 3}));
  write_case(root_, "test_missing", "NoSuchOp", Tensor::from<float>({1}), Tensor::from<float>({1}));
  write_case(root_, "test_stale", "Identity", Tensor::from<int32_t>({7}),
             Tensor::from<int32_t>({7}));
  fs::create_directories(root_ / "test_nodata");
  fs::copy_file(root_ / "test_pass" / "model.onnx", root_ / "test_nodata" / "model.onnx");
  fs::create_directories(root_ / "not_a_case");

  const fs::path roots[] = {root_};
  const std::vector<fs::path> cases = find_cases(roots);
  ASSERT_EQ(cases.size(), 5u);
  EXPECT_EQ(cases[0].filename(), "test_missing");

  Manifest manifest = Manifest::parse("test_missing no kernel\ntest_stale was broken\n");
  for (bool isolate : {false, true}) {
    ConformanceOptions options;
    options.isolate = isolate;
    ConformanceReport report = run_conformance(cases, manifest, options);
    EXPECT_EQ(report.passed, 2u);
    EXPECT_EQ(report.failed, 2u);
    EXPECT_EQ(report.skipped, 1u);
    ASSERT_EQ(report.unexpected.size(), 1u);
    EXPECT_EQ(report.unexpected[0]->name, "test_wrong");
    EXPECT_THAT(report.unexpected[0]->reason,
                HasSubstr("output 'y': element [1] expected 3, got 2"));
    ASSERT_EQ(report.stale.size(), 1u);
    EXPECT_EQ(report.stale[0]->name, "test_stale");
    EXPECT_FALSE(report.ok());

    std::ostringstream out;
    print_report(report, manifest, out);
    const std::string text = out.str();
    EXPECT_THAT(text, HasSubstr("FAIL test_wrong: output 'y'"));
    EXPECT_THAT(
        text,
        HasSubstr("XFAIL test_missing: no kernel for NoSuchOp-17 (inputs: tensor(float)[1])"));
    EXPECT_THAT(
        text,
        HasSubstr("STALE test_stale: passes, but the manifest expects a failure (was broken)"));
    EXPECT_THAT(text, HasSubstr("SKIP test_nodata: no test_data_set_* folder"));
    EXPECT_THAT(text, HasSubstr("\n2 passed, 2 failed, 1 skipped\n"));

    // The written manifest lists exactly the current failures, and makes the run pass.
    const std::string written = format_manifest(report);
    EXPECT_THAT(written, HasSubstr("test_missing no kernel for NoSuchOp-17"));
    EXPECT_THAT(written, HasSubstr("test_wrong output 'y'"));
    EXPECT_TRUE(run_conformance(cases, Manifest::parse(written), options).ok());
  }
}

TEST_F(ConformanceRun, ABrokenCaseIsAFailureNotACrash) {
  const fs::path dir = root_ / "test_garbage";
  fs::create_directories(dir / "test_data_set_0");
  std::ofstream(dir / "model.onnx") << "this is not a model";
  CaseResult r = run_case(dir);
  EXPECT_EQ(r.status, CaseStatus::kFailed);
  EXPECT_THAT(r.reason, HasSubstr("model.onnx"));
  EXPECT_EQ(r.reason.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace onnxscript::eval
