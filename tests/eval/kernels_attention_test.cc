// Tests for the attention-family kernels added for issue 24: Attention-25's
// sliding window, CausalConvWithState-27, LinearAttention-27 and
// ai.onnx.preview FlexAttention-1. Every expected value is worked out by hand
// in the comment above it.
#include <cmath>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "eval/kernel_test_util.h"
#include "onnxscript/eval/eager.h"
#include "onnxscript/eval/session.h"
#include "onnxscript/serde/text.h"

namespace onnxscript::eval {
namespace {

using ::testing::ElementsAre;
using ::testing::FloatNear;
using ::testing::HasSubstr;
using A = ir::Attribute;

using test_util::error_of;
using test_util::run;
using test_util::values;

// ------------------------------------------------------------ Attention-25

// Three queries of zeros score every key 0, so each row averages V over the
// keys its window keeps. V = [1, 10, 100].
std::vector<RuntimeValue> window_inputs() {
  return {Tensor::from<float>({0, 0, 0}, {1, 1, 3, 1}),
          Tensor::from<float>({0, 0, 0}, {1, 1, 3, 1}),
          Tensor::from<float>({1, 10, 100}, {1, 1, 3, 1})};
}

std::vector<float> window_run(int64_t left, int64_t right) {
  return values<float>(run(
      "Attention", window_inputs(),
      {A::make_int("left_window_size", left), A::make_int("right_window_size", right)}, 1, 25)[0]);
}

TEST(Attention25, SlidingWindowKeepsKeysAroundTheQuery) {
  // Unbounded on both sides: every row averages all three, 37.
  EXPECT_THAT(window_run(-1, -1),
              ElementsAre(FloatNear(37, 1e-4), FloatNear(37, 1e-4), FloatNear(37, 1e-4)));
  // One key back, none ahead: {0}, {0, 1}, {1, 2}.
  EXPECT_THAT(window_run(1, 0),
              ElementsAre(FloatNear(1, 1e-5), FloatNear(5.5, 1e-5), FloatNear(55, 1e-4)));
  // None back, one ahead: {0, 1}, {1, 2}, {2}.
  EXPECT_THAT(window_run(0, 1),
              ElementsAre(FloatNear(5.5, 1e-5), FloatNear(55, 1e-4), FloatNear(100, 1e-4)));
  // Unbounded back, none ahead is the causal mask: 1, 5.5, 37.
  EXPECT_THAT(window_run(-1, 0),
              ElementsAre(FloatNear(1, 1e-5), FloatNear(5.5, 1e-5), FloatNear(37, 1e-4)));
}

TEST(Attention25, WindowOfMinusOneAndZeroEqualsIsCausal) {
  // Distinct scores: Q = [1, -1, 2], K = [0.5, 1, -2], V = [3, 5, 7].
  std::vector<RuntimeValue> in{Tensor::from<float>({1, -1, 2}, {1, 1, 3, 1}),
                               Tensor::from<float>({0.5f, 1, -2}, {1, 1, 3, 1}),
                               Tensor::from<float>({3, 5, 7}, {1, 1, 3, 1})};
  auto windowed = values<float>(
      run("Attention", in,
          {A::make_int("left_window_size", -1), A::make_int("right_window_size", 0)}, 1, 25)[0]);
  auto causal = values<float>(run("Attention", in, {A::make_int("is_causal", 1)}, 1, 25)[0]);
  ASSERT_EQ(windowed.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_FLOAT_EQ(windowed[i], causal[i]) << i;
  // Row 1 by hand: scores -0.5 and -1 over keys 0 and 1.
  const double p0 = std::exp(-0.5), p1 = std::exp(-1.0);
  EXPECT_NEAR(windowed[1], (3 * p0 + 5 * p1) / (p0 + p1), 1e-5);
}

TEST(Attention25, WindowCountsPositionsAfterThePast) {
  // A past of one key (value 1000): queries 0 and 1 sit at positions 1 and 2.
  // With one key back and none ahead they keep keys {0, 1} and {1, 2}.
  std::vector<RuntimeValue> in{
      Tensor::from<float>({0, 0}, {1, 1, 2, 1}),  Tensor::from<float>({0, 0}, {1, 1, 2, 1}),
      Tensor::from<float>({1, 10}, {1, 1, 2, 1}), RuntimeValue(),
      Tensor::from<float>({0}, {1, 1, 1, 1}),     Tensor::from<float>({1000}, {1, 1, 1, 1})};
  auto out = run("Attention", in,
                 {A::make_int("left_window_size", 1), A::make_int("right_window_size", 0)}, 1, 25);
  EXPECT_THAT(values<float>(out[0]), ElementsAre(FloatNear(500.5, 1e-3), FloatNear(5.5, 1e-5)));
}

// ------------------------------------------------------------ CausalConvWithState-27

TEST(CausalConvWithState, PastStateBiasAndPresent) {
  // seq = past [4, 5] ++ input [1, 2, 3]; weight [1, 10, 100]; bias 0.5:
  //   t0: 4 + 50 + 100 + 0.5 = 154.5, t1: 5 + 10 + 200 + 0.5 = 215.5,
  //   t2: 1 + 20 + 300 + 0.5 = 321.5; present = the last two, [2, 3].
  auto out =
      run("CausalConvWithState",
          {Tensor::from<float>({1, 2, 3}, {1, 1, 3}), Tensor::from<float>({1, 10, 100}, {1, 1, 3}),
           Tensor::from<float>({0.5f}, {1}), Tensor::from<float>({4, 5}, {1, 1, 2})},
          {}, 2, 27);
  EXPECT_THAT(values<float>(out[0]), ElementsAre(154.5f, 215.5f, 321.5f));
  EXPECT_EQ(out[1].tensor().shape(), (std::vector<int64_t>{1, 1, 2}));
  EXPECT_THAT(values<float>(out[1]), ElementsAre(2, 3));
}

TEST(CausalConvWithState, ShortInputWithoutPastAndTwoChannels) {
  // k = 3, one step: channel 0 sees [0, 0, 2] with weights [1, 1, 1] -> 2;
  // channel 1 sees [0, 0, 3] with weights [0, 0, -1] -> -3. present keeps
  // the zero padding: [0, 2] and [0, 3].
  auto out = run(
      "CausalConvWithState",
      {Tensor::from<float>({2, 3}, {1, 2, 1}), Tensor::from<float>({1, 1, 1, 0, 0, -1}, {2, 1, 3})},
      {}, 2, 27);
  EXPECT_THAT(values<float>(out[0]), ElementsAre(2, -3));
  EXPECT_THAT(values<float>(out[1]), ElementsAre(0, 2, 0, 3));
}

TEST(CausalConvWithState, SiluInFloat16) {
  // k = 1, weight 2, input 1: silu(2) = 2 / (1 + e^-2) = 1.76159.
  auto out = run("CausalConvWithState",
                 {Tensor::from<float16>({float16(1.0f)}, {1, 1, 1}),
                  Tensor::from<float16>({float16(2.0f)}, {1, 1, 1})},
                 {A::make_string("activation", "silu")}, 2, 27);
  ASSERT_EQ(out[0].tensor().dtype(), DataType::kFloat16);
  EXPECT_NEAR(static_cast<float>(values<float16>(out[0])[0]), 2 / (1 + std::exp(-2.0f)), 2e-3);
  EXPECT_EQ(out[1].tensor().shape(), (std::vector<int64_t>{1, 1, 0}));
}

TEST(CausalConvWithState, BadInputsAreClearErrors) {
  const Tensor x = Tensor::from<float>({1, 2}, {1, 1, 2});
  EXPECT_THAT(error_of([&] {
                run("CausalConvWithState", {x, Tensor::from<float>({1, 2}, {2, 1, 1})}, {}, 2, 27);
              }),
              HasSubstr("CausalConvWithState: weight [2,1,1] must be (channels, 1, k)"));
  EXPECT_THAT(error_of([&] {
                run("CausalConvWithState", {x, Tensor::from<float>({1}, {1, 1, 1})},
                    {A::make_string("activation", "relu")}, 2, 27);
              }),
              HasSubstr("activation 'relu'"));
  EXPECT_THAT(error_of([&] {
                run("CausalConvWithState",
                    {x, Tensor::from<float>({1, 1}, {1, 1, 2}), RuntimeValue(),
                     Tensor::from<float>({1, 1}, {1, 1, 2})},
                    {}, 2, 27);
              }),
              HasSubstr("past_state [1,1,2] must be (batch, channels, k - 1)"));
}

// ------------------------------------------------------------ LinearAttention-27

// One head, d_k = d_v = 1, two steps, scale 1: q = [1, 2], k = [3, 4],
// v = [5, 6].
std::vector<RuntimeValue> scalar_steps() {
  return {Tensor::from<float>({1, 2}, {1, 2, 1}), Tensor::from<float>({3, 4}, {1, 2, 1}),
          Tensor::from<float>({5, 6}, {1, 2, 1})};
}

std::vector<A> one_head(const char* rule) {
  return {A::make_int("q_num_heads", 1), A::make_int("kv_num_heads", 1),
          A::make_string("update_rule", rule), A::make_float("scale", 1.0f)};
}

TEST(LinearAttention, LinearAndGatedRules) {
  // linear: S = 15, o = 15; S = 15 + 24 = 39, o = 2 * 39 = 78.
  auto lin = run("LinearAttention", scalar_steps(), one_head("linear"), 2, 27);
  EXPECT_THAT(values<float>(lin[0]), ElementsAre(15, 78));
  EXPECT_EQ(lin[1].tensor().shape(), (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_THAT(values<float>(lin[1]), ElementsAre(39));
  // gated, g = [0, ln 0.5] per head: S = 15; S = 7.5 + 24 = 31.5, o = 63.
  std::vector<RuntimeValue> in = scalar_steps();
  in.insert(in.end(), {RuntimeValue(), Tensor::from<float>({0, std::log(0.5f)}, {1, 2, 1})});
  auto gated = run("LinearAttention", in, one_head("gated"), 2, 27);
  EXPECT_THAT(values<float>(gated[0]), ElementsAre(FloatNear(15, 1e-5), FloatNear(63, 1e-4)));
}

TEST(LinearAttention, DeltaRules) {
  // delta, beta = [0.5, 1]: S = 3 * 0.5 * (5 - 0) = 7.5, o = 7.5; then
  // S^T k = 30, write 1 * (6 - 30) = -24, S = 7.5 + 4 * -24 = -88.5, o = -177.
  std::vector<RuntimeValue> in = scalar_steps();
  in.insert(in.end(), {RuntimeValue(), RuntimeValue(), Tensor::from<float>({0.5f, 1}, {1, 2, 1})});
  auto delta = run("LinearAttention", in, one_head("delta"), 2, 27);
  EXPECT_THAT(values<float>(delta[0]), ElementsAre(FloatNear(7.5, 1e-5), FloatNear(-177, 1e-3)));
  EXPECT_THAT(values<float>(delta[1]), ElementsAre(FloatNear(-88.5, 1e-4)));
  // gated_delta from a past state 2, g = ln 0.5, beta 1, q = k = 1, v = 3:
  // S' = 1, write 3 - 1 = 2, S = 3, o = 3.
  auto gd =
      run("LinearAttention",
          {Tensor::from<float>({1}, {1, 1, 1}), Tensor::from<float>({1}, {1, 1, 1}),
           Tensor::from<float>({3}, {1, 1, 1}), Tensor::from<float>({2}, {1, 1, 1, 1}),
           Tensor::from<float>({std::log(0.5f)}, {1, 1, 1}), Tensor::from<float>({1}, {1, 1, 1})},
          one_head("gated_delta"), 2, 27);
  EXPECT_THAT(values<float>(gd[0]), ElementsAre(FloatNear(3, 1e-5)));
  EXPECT_THAT(values<float>(gd[1]), ElementsAre(FloatNear(3, 1e-5)));
}

TEST(LinearAttention, GroupedHeadsDefaultScaleAndPerKeyDecay) {
  // Two query heads on one key/value head, d_k = d_v = 1, scale 1: S = 3 * 5,
  // head 0 (q = 1) outputs 15, head 1 (q = 2) 30, packed as [15, 30].
  auto gqa = run("LinearAttention",
                 {Tensor::from<float>({1, 2}, {1, 1, 2}), Tensor::from<float>({3}, {1, 1, 1}),
                  Tensor::from<float>({5}, {1, 1, 1})},
                 {A::make_int("q_num_heads", 2), A::make_int("kv_num_heads", 1),
                  A::make_string("update_rule", "linear"), A::make_float("scale", 1.0f)},
                 2, 27);
  EXPECT_THAT(values<float>(gqa[0]), ElementsAre(15, 30));
  // d_k = 4: the default scale is 1 / 2. k = q = e0, v = 8: o = 0.5 * 8 = 4.
  const Tensor e0 = Tensor::from<float>({1, 0, 0, 0}, {1, 1, 4});
  auto scaled = run("LinearAttention", {e0, e0, Tensor::from<float>({8}, {1, 1, 1})},
                    {A::make_int("q_num_heads", 1), A::make_int("kv_num_heads", 1),
                     A::make_string("update_rule", "linear")},
                    2, 27);
  EXPECT_THAT(values<float>(scaled[0]), ElementsAre(FloatNear(4, 1e-6)));
  // Per key dimension decay, d_k = 2, d_v = 1: the past rows [1, 1] scale by
  // [1, 0.25]; k = 0 writes nothing; q = [1, 1] reads 1.25.
  auto rows = run("LinearAttention",
                  {Tensor::from<float>({1, 1}, {1, 1, 2}), Tensor::from<float>({0, 0}, {1, 1, 2}),
                   Tensor::from<float>({0}, {1, 1, 1}), Tensor::from<float>({1, 1}, {1, 1, 2, 1}),
                   Tensor::from<float>({0, std::log(0.25f)}, {1, 1, 2})},
                  one_head("gated"), 2, 27);
  EXPECT_THAT(values<float>(rows[0]), ElementsAre(FloatNear(1.25, 1e-6)));
  EXPECT_THAT(values<float>(rows[1]), ElementsAre(FloatNear(1, 1e-6), FloatNear(0.25, 1e-6)));
}

TEST(LinearAttention, BadInputsAreClearErrors) {
  EXPECT_THAT(error_of([&] { run("LinearAttention", scalar_steps(), one_head("gated"), 2, 27); }),
              HasSubstr("LinearAttention: update_rule 'gated' needs the decay input"));
  EXPECT_THAT(error_of([&] { run("LinearAttention", scalar_steps(), one_head("fast"), 2, 27); }),
              HasSubstr("update_rule 'fast' is not one of"));
  EXPECT_THAT(error_of([&] {
                run("LinearAttention", scalar_steps(),
                    {A::make_int("q_num_heads", 1), A::make_int("kv_num_heads", 2)}, 2, 27);
              }),
              HasSubstr("not a positive multiple"));
  EXPECT_THAT(error_of([&] {
                run("LinearAttention", scalar_steps(), {A::make_int("q_num_heads", 1)}, 2, 27);
              }),
              HasSubstr("kv_num_heads"));
}

// ------------------------------------------------------------ FlexAttention-1

std::vector<RuntimeValue> flex(std::vector<RuntimeValue> inputs, std::vector<A> attrs = {}) {
  return run_op("FlexAttention", inputs, attrs, 1, 1, "ai.onnx.preview");
}

// Q = [1] against keys [0, 1] (scale 1): probabilities [1, e] / (1 + e).
TEST(FlexAttention, PlainAndGroupedHeads) {
  const float e = std::exp(1.0f);
  auto out =
      flex({Tensor::from<float>({1, 0}, {1, 2, 1, 1}), Tensor::from<float>({0, 1}, {1, 1, 2, 1}),
            Tensor::from<float>({10, 20}, {1, 1, 2, 1})},
           {A::make_float("scale", 1.0f)});
  // Head 1 (q = 0) shares the key/value head and averages: 15.
  EXPECT_THAT(values<float>(out[0]),
              ElementsAre(FloatNear((10 + 20 * e) / (1 + e), 1e-5), FloatNear(15, 1e-5)));
  // The default scale, 1 / sqrt(4) with head size 4: Q = K0 = [2, 0, 0, 0]
  // scores key 0 at 2 and key 1 (zeros) at 0.
  auto scaled = flex({Tensor::from<float>({2, 0, 0, 0}, {1, 1, 1, 4}),
                      Tensor::from<float>({2, 0, 0, 0, 0, 0, 0, 0}, {1, 1, 2, 4}),
                      Tensor::from<float>({1, 0}, {1, 1, 2, 1})});
  EXPECT_THAT(values<float>(scaled[0]),
              ElementsAre(FloatNear(std::exp(2.0f) / (std::exp(2.0f) + 1), 1e-6)));
}

// The modifiers run as subgraphs, so they need a Session.
std::vector<float> flex_with(const std::string& attrs) {
  ir::Model m = text::parse_model(R"(
<ir_version: 10, opset_import: ["" : 21, "ai.onnx.preview" : 1]>
g (float[1, 1, 1, 1] q, float[1, 1, 2, 1] k, float[1, 1, 2, 1] v) => (float[1, 1, 1, 1] y) {
  y = ai.onnx.preview.FlexAttention <scale: float = 1.0)" +
                                  attrs + R"(> (q, k, v)
}
)");
  Session session(std::move(m));
  EXPECT_TRUE(session.missing_kernels().empty());
  auto out = session.run({RuntimeValue(Tensor::from<float>({1}, {1, 1, 1, 1})),
                          RuntimeValue(Tensor::from<float>({0, 1}, {1, 1, 2, 1})),
                          RuntimeValue(Tensor::from<float>({10, 20}, {1, 1, 2, 1}))});
  return values<float>(out[0]);
}

TEST(FlexAttention, ScoreAndProbModifiersRunAsSubgraphs) {
  // Without modifiers: (10 + 20 e) / (1 + e).
  const float e = std::exp(1.0f);
  EXPECT_THAT(flex_with(""), ElementsAre(FloatNear((10 + 20 * e) / (1 + e), 1e-5)));
  // score_mod masks key 1 with -inf where the score is positive: only key 0, 10.
  EXPECT_THAT(flex_with(R"(, score_mod: graph = sm (float[1, 1, 1, 2] s) => (float[1, 1, 1, 2] o)
      <float zero = {0}, float ninf = {-inf}> {
      pos = Greater (s, zero)
      o = Where (pos, ninf, s)
  })"),
              ElementsAre(FloatNear(10, 1e-5)));
  // prob_mod halves the probabilities: half the plain result.
  EXPECT_THAT(flex_with(R"(, prob_mod: graph = pm (float[1, 1, 1, 2] p) => (float[1, 1, 1, 2] o)
      <float half = {0.5}> {
      o = Mul (p, half)
  })"),
              ElementsAre(FloatNear((5 + 10 * e) / (1 + e), 1e-5)));
}

TEST(FlexAttention, BadInputsAreClearErrors) {
  const Tensor q = Tensor::from<float>({1, 0, 0}, {1, 3, 1, 1});
  const Tensor kv = Tensor::from<float>({0, 1, 2, 3}, {1, 2, 2, 1});
  EXPECT_THAT(error_of([&] {
                flex({q, kv, kv});
              }),
              HasSubstr("FlexAttention: the number of query heads 3 is not a positive multiple"));
  EXPECT_THAT(error_of([&] {
                flex({Tensor::from<float>({1}, {1, 1, 1}), kv, kv});
              }),
              HasSubstr("must be 4-D"));
  EXPECT_THAT(error_of([&] {
                flex({kv, kv, kv}, {A::make_int("softmax_precision", 7)});
              }),
              HasSubstr("softmax_precision 7 is not a floating type"));
}

}  // namespace
}  // namespace onnxscript::eval
