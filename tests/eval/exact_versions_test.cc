// Exact version dispatch (issue 24, item 1): a node runs the kernel of exactly
// the operator version its opset selects, from the since-version table that
// covers every version through opset 28, or fails with an error naming the
// operator, the version and the opset. Before, a model at opset 18+ ran the
// newest kernel at or below its opset, so Resize-18's antialias and DFT-20's
// axis input were silently ignored.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "onnxscript/eval/eager.h"
#include "onnxscript/eval/schema_versions.h"
#include "onnxscript/eval/session.h"
#include "onnxscript/serde/text.h"

namespace onnxscript::eval {
namespace {

using ::testing::HasSubstr;

std::vector<float> floats_of(const RuntimeValue& v) {
  const Tensor& t = v.tensor();
  EXPECT_EQ(t.dtype(), DataType::kFloat);
  return {t.data<float>(), t.data<float>() + t.numel()};
}

// The KernelError message of running `session` on `inputs`, or "" when it ran.
std::string run_error(const Session& session, std::vector<RuntimeValue> inputs) {
  try {
    session.run(std::move(inputs));
  } catch (const KernelError& e) {
    return e.what();
  }
  return "";
}

// ---------------------------------------------------------------- the table

TEST(SchemaVersions, ResolvesAnOpsetToTheVersionItSelects) {
  EXPECT_EQ(schema_version("", "Abs", 18), 13);
  EXPECT_EQ(schema_version("ai.onnx", "Abs", 28), 13);
  EXPECT_EQ(schema_version("", "ReduceSum", 18), 13);
  EXPECT_EQ(schema_version("", "ReduceMax", 17), 13);
  EXPECT_EQ(schema_version("", "ReduceMax", 18), 18);
  EXPECT_EQ(schema_version("", "ReduceMax", 19), 18);
  EXPECT_EQ(schema_version("", "ReduceMax", 20), 20);
  EXPECT_EQ(schema_version("", "Resize", 18), 18);
  EXPECT_EQ(schema_version("", "Resize", 19), 19);
  EXPECT_EQ(schema_version("", "DFT", 20), 20);
  EXPECT_EQ(schema_version("", "Celu", 27), 12);
  EXPECT_EQ(schema_version("", "Celu", 28), 28);            // from the 1.23 additions
  EXPECT_EQ(schema_version("", "Celu", 11), std::nullopt);  // Celu starts at 12
  EXPECT_EQ(schema_version("ai.onnx.ml", "LabelEncoder", 5), 4);
  EXPECT_EQ(schema_version("ai.onnx.ml", "TreeEnsemble", 5), 5);
  EXPECT_EQ(schema_version("ai.onnx.preview", "FlexAttention", 1), 1);
  EXPECT_EQ(schema_version("ai.onnx.preview.training", "Adam", 1), 1);
  EXPECT_EQ(schema_version("", "NoSuchOp", 18), std::nullopt);
  EXPECT_EQ(schema_version("com.example", "Abs", 18), std::nullopt);
  EXPECT_THAT(
      std::vector<int64_t>(schema_versions("", "Pad").begin(), schema_versions("", "Pad").end()),
      ::testing::ElementsAre(1, 2, 11, 13, 18, 19, 21, 23, 24, 25));
  EXPECT_EQ(newest_known_opset(""), 28);
  EXPECT_EQ(newest_known_opset("ai.onnx.ml"), 5);
  EXPECT_EQ(newest_known_opset("ai.onnx.preview"), 1);
  EXPECT_EQ(newest_known_opset("ai.onnx.preview.training"), 1);
  EXPECT_EQ(newest_known_opset("com.example"), std::nullopt);
}

// ---------------------------------------------------------------- the registry

void first(KernelContext& ctx) { ctx.set_output(0, Tensor(DataType::kFloat, {1})); }

TEST(ExactDispatch, AKnownOperatorGetsOnlyAKernelOfTheVersionItsOpsetSelects) {
  KernelRegistry r;
  r.add("", "ReduceMax", 13, first);
  EXPECT_EQ(r.find("", "ReduceMax", 13), &first);
  EXPECT_EQ(r.find("", "ReduceMax", 17), &first);
  EXPECT_EQ(r.find("", "ReduceMax", 18), nullptr);  // ReduceMax-18 is a new version
  EXPECT_EQ(r.find("", "ReduceMax", 12), nullptr);  // ReduceMax-12, not registered
  // A version the operator's schema does not have cannot be registered.
  EXPECT_DEATH(r.add("", "ReduceMax", 14, first), "ReduceMax-14");
}

TEST(ExactDispatch, BuiltinKernelsAreRegisteredAtTheNewVersionsTheyImplement) {
  const auto entries = KernelRegistry::builtin().entries();
  auto has = [&](const char* op, int64_t v) {
    return std::find(entries.begin(), entries.end(),
                     std::make_tuple(std::string(), std::string(op), v)) != entries.end();
  };
  EXPECT_TRUE(has("ReduceMax", 18));
  EXPECT_TRUE(has("ReduceMean", 18));
  EXPECT_TRUE(has("Celu", 28));
  EXPECT_TRUE(has("Resize", 18));
  EXPECT_TRUE(has("Resize", 19));
  EXPECT_TRUE(has("DFT", 20));
  EXPECT_TRUE(has("Pad", 18));
  EXPECT_TRUE(has("Split", 18));
  // Deprecated at ai.onnx.ml 5 and not given a kernel there.
  EXPECT_EQ(std::find(entries.begin(), entries.end(),
                      std::make_tuple(std::string("ai.onnx.ml"),
                                      std::string("TreeEnsembleRegressor"), int64_t{5})),
            entries.end());
  // Every registration is at a version of the operator's schema.
  for (const auto& [domain, op, since] : entries) {
    const auto versions = schema_versions(domain, op);
    if (versions.empty()) continue;
    EXPECT_TRUE(std::binary_search(versions.begin(), versions.end(), since))
        << domain << "." << op << "-" << since;
  }
}

// ---------------------------------------------------------------- Reduce at 18

TEST(ExactDispatch, ReduceAtOpset18ReadsAxesFromTheInput) {
  ir::Model m = text::parse_model(R"(
<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x, int64[1] axes) => (float[2, 1] mx, float[2, 1] mean) {
  mx = ReduceMax (x, axes)
  mean = ReduceMean (x, axes)
}
)");
  Session session(std::move(m));
  EXPECT_TRUE(session.missing_kernels().empty());
  const auto out = session.run({RuntimeValue(Tensor::from<float>({1, 5, 3, -4, -2, -6}, {2, 3})),
                                RuntimeValue(Tensor::from<int64_t>({1}, {1}))});
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{5, -2}));
  EXPECT_EQ(floats_of(out[1]), (std::vector<float>{3, -4}));
}

// ---------------------------------------------------------------- silent cases

TEST(ExactDispatch, AnOperatorVersionWithoutAKernelIsAClearError) {
  ir::Model m = text::parse_model(R"(
<ir_version: 8, opset_import: ["ai.onnx.ml" : 5]>
g (float[1, 2] x) => (float[1, 1] y) {
  y = ai.onnx.ml.TreeEnsembleRegressor <n_targets: int = 1> (x)
}
)");
  Session session(std::move(m));
  EXPECT_EQ(session.missing_kernels(),
            std::vector<std::string>{"ai.onnx.ml.TreeEnsembleRegressor-5 (opset 5)"});
  const std::string error = run_error(session, {RuntimeValue(Tensor::from<float>({1, 2}, {1, 2}))});
  EXPECT_THAT(error, HasSubstr("TreeEnsembleRegressor-5 (opset 5) is deprecated: ONNX removed the "
                               "operator at that version"));
  EXPECT_THAT(error, HasSubstr("TreeEnsembleRegressor node"));
}

// Before exact dispatch, opset 18 ran Resize-13 and ignored antialias. On
// X[r, c] = 4 r + c (4x4) at scale 0.5, linear with antialias weighs input
// indices -1 (the edge 0), 0, 1, 2 by 1/8, 3/8, 3/8, 1/8 for output 0 (mean
// index 0.625) and 1, 2, 3, 4 (the edge 3) for output 1 (mean 2.375); X is
// linear, so Y = 4 R + C at those indices. Without antialias Y reads indices
// 0.5 and 2.5: 2.5, 4.5, 10.5, 12.5.
TEST(ExactDispatch, ResizeAtOpset18AppliesAntialias) {
  ir::Model m = text::parse_model(R"(
<ir_version: 8, opset_import: ["" : 18]>
g (float[1, 1, 4, 4] x, float[4] scales) => (float[1, 1, 2, 2] y) {
  y = Resize <mode: string = "linear", antialias: int = 1> (x, , scales)
}
)");
  Session session(std::move(m));
  EXPECT_TRUE(session.missing_kernels().empty());
  std::vector<float> pixels(16);
  for (int i = 0; i < 16; ++i) pixels[i] = static_cast<float>(i);
  const auto y = session.run({RuntimeValue(Tensor::from_span<float>(pixels, {1, 1, 4, 4})),
                              RuntimeValue(Tensor::from<float>({1, 1, 0.5f, 0.5f}, {4}))});
  EXPECT_THAT(floats_of(y.at(0)),
              ::testing::Pointwise(::testing::FloatNear(1e-5f),
                                   std::vector<float>{3.125f, 4.875f, 10.125f, 11.875f}));
}

TEST(ExactDispatch, ResizeAtOpset19SelectsResize19) {
  ir::Model m = text::parse_model(R"(
<ir_version: 8, opset_import: ["" : 19]>
g (float[1, 1, 2, 2] x, float[4] scales) => (float[1, 1, 4, 4] y) {
  y = Resize <mode: string = "nearest"> (x, , scales)
}
)");
  Session session(std::move(m));
  EXPECT_TRUE(session.missing_kernels().empty());
  const auto y = session.run({RuntimeValue(Tensor::from<float>({1, 2, 3, 4}, {1, 1, 2, 2})),
                              RuntimeValue(Tensor::from<float>({1, 1, 2, 2}, {4}))});
  EXPECT_THAT(floats_of(y.at(0)),
              ::testing::ElementsAre(1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4));
}

TEST(ExactDispatch, DftAtOpset20ReadsTheAxisFromItsInput) {
  ir::Model m = text::parse_model(R"(
<ir_version: 8, opset_import: ["" : 20]>
g (float[4, 1, 2] x, int64 axis) => (float[4, 1, 2] y) {
  y = DFT (x, , axis)
}
)");
  Session session(std::move(m));
  EXPECT_TRUE(session.missing_kernels().empty());
  // The signal runs along axis 0 (given), not 1 (DFT-17's default) nor -2
  // (DFT-20's, the length-1 axis): [1, 2, 3, 4] -> [10, -2+2i, -2, -2-2i].
  const auto y =
      session.run({RuntimeValue(Tensor::from<float>({1, 0, 2, 0, 3, 0, 4, 0}, {4, 1, 2})),
                   RuntimeValue(Tensor::scalar<int64_t>(0))});
  EXPECT_THAT(floats_of(y.at(0)), ::testing::ElementsAre(10, 0, -2, 2, -2, 0, -2, -2));
}

TEST(ExactDispatch, DftInverseOnesidedIsTheInverseRealTransform) {
  // Bins 0..2 of the spectrum of [0, 1, 2, 3]; the rest follow by symmetry.
  ir::Model m = text::parse_model(R"(
<ir_version: 8, opset_import: ["" : 19]>
g (float[1, 3, 2] x) => (float[1, 4, 1] y) {
  y = DFT <inverse: int = 1, onesided: int = 1> (x)
}
)");
  const auto y = Session(std::move(m))
                     .run({RuntimeValue(Tensor::from<float>({6, 0, -2, 2, -2, 0}, {1, 3, 2}))});
  ASSERT_EQ(y.at(0).tensor().shape(), (std::vector<int64_t>{1, 4, 1}));
  const std::vector<float> got = floats_of(y.at(0));
  const std::vector<float> expected = {0, 1, 2, 3};
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(got[i], expected[i], 1e-6) << i;
}

TEST(ExactDispatch, EagerCallsNameTheVersionAndTheOpset) {
  const RuntimeValue x(Tensor::from<float>({1, 2, 3, 4}, {1, 1, 2, 2}));
  const RuntimeValue scales(Tensor::from<float>({1, 1, 2, 2}, {4}));
  try {
    const RuntimeValue features(Tensor::from<float>({1, 2}, {1, 2}));
    run_op("TreeEnsembleRegressor", std::span<const RuntimeValue>(&features, 1), {}, 1, 5,
           "ai.onnx.ml");
    FAIL() << "expected an error";
  } catch (const KernelError& e) {
    EXPECT_THAT(std::string(e.what()),
                HasSubstr("TreeEnsembleRegressor-5 (opset 5) is deprecated: ONNX removed the "
                          "operator at that version (inputs: "));
  }
  // Resize at opset 17 runs Resize-13, at 18 Resize-18.
  for (int64_t opset : {17, 18}) {
    const auto out = run_op("Resize", {x, RuntimeValue(), scales}, {}, 1, opset);
    EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{1, 1, 4, 4}));
  }
}

TEST(ExactDispatch, AnOperatorBeforeItsFirstVersionSaysSo) {
  try {
    run_op("Celu", {RuntimeValue(Tensor::from<float>({1}))}, {}, 1, 11);
    FAIL() << "expected an error";
  } catch (const KernelError& e) {
    EXPECT_THAT(std::string(e.what()),
                HasSubstr("Celu does not exist at opset 11 (its first version is 12)"));
  }
}

// ---------------------------------------------------------------- function bodies

TEST(ExactDispatch, AFunctionBodyServesOnlyItsOwnVersion) {
  // NegativeLogLikelihoodLoss has no kernel at 13: at opset 18 its opset-13
  // body (the version opset 18 selects) is expanded; at opset 22, version 22
  // has no body in libonnx 1.12, and its own kernel runs, not the 13 body.
  const char* text = R"(
<ir_version: 8, opset_import: ["" : %d]>
g (float[2, 3] x, int64[2] t) => (float y) {
  y = NegativeLogLikelihoodLoss (x, t)
}
)";
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, text, 18);
  Session at18(text::parse_model(buffer));
  EXPECT_TRUE(at18.missing_kernels().empty());
  const auto out = at18.run({RuntimeValue(Tensor::from<float>({1, 2, 3, 4, 5, 6}, {2, 3})),
                             RuntimeValue(Tensor::from<int64_t>({0, 2}, {2}))});
  EXPECT_FLOAT_EQ(out[0].tensor().data<float>()[0], -3.5f);  // -(1 + 6) / 2

  std::snprintf(buffer, sizeof buffer, text, 22);
  Session at22(text::parse_model(buffer));
  EXPECT_TRUE(at22.missing_kernels().empty());
  ASSERT_EQ(KernelRegistry::builtin().find("", "NegativeLogLikelihoodLoss", 13), nullptr);
  ASSERT_NE(KernelRegistry::builtin().find("", "NegativeLogLikelihoodLoss", 22), nullptr);
  const auto out22 = at22.run({RuntimeValue(Tensor::from<float>({1, 2, 3, 4, 5, 6}, {2, 3})),
                               RuntimeValue(Tensor::from<int64_t>({0, 2}, {2}))});
  EXPECT_FLOAT_EQ(out22[0].tensor().data<float>()[0], -3.5f);
}

// ---------------------------------------------------------------- opset 17

TEST(ExactDispatch, AModelAtOpset17RunsAsBefore) {
  ir::Model m = text::parse_model(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] x, float[4] scales) => (float[2, 1] mx, float[2, 1] sum, float[1, 1, 4, 6] big) {
  mx = ReduceMax <axes: ints = [1]> (x)
  axes = Constant <value: tensor = int64[1] {1}> ()
  sum = ReduceSum (x, axes)
  x4 = Reshape (x, shape)
  shape = Constant <value: tensor = int64[4] {1, 1, 2, 3}> ()
  big = Resize <mode: string = "nearest"> (x4, , scales)
}
)");
  Session session(std::move(m));
  EXPECT_TRUE(session.missing_kernels().empty());
  const auto out = session.run({RuntimeValue(Tensor::from<float>({1, 5, 3, -4, -2, -6}, {2, 3})),
                                RuntimeValue(Tensor::from<float>({1, 1, 2, 2}, {4}))});
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{5, -2}));
  EXPECT_EQ(floats_of(out[1]), (std::vector<float>{9, -12}));
  EXPECT_EQ(floats_of(out[2]), (std::vector<float>{1,  1,  5,  5,  3,  3,  1,  1,  5,  5,  3, 3, -4,
                                                   -4, -2, -2, -6, -6, -4, -4, -2, -2, -6, -6}));
}

}  // namespace
}  // namespace onnxscript::eval
