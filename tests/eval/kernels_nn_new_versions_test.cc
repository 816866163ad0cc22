// Tests for the neural-network kernels of operator versions newer than
// opset 17: Attention-23/24, RMSNormalization-23, RotaryEmbedding-23,
// GroupNormalization-18/21, Gelu-20, Swish-24, SwiGLU-28 and
// NegativeLogLikelihoodLoss-22.
#include <cmath>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "eval/kernel_test_util.h"
#include "onnxscript/eval/eager.h"

namespace onnxscript::eval {
namespace {

using ::testing::ElementsAre;
using ::testing::FloatNear;
using ::testing::HasSubstr;
using A = ir::Attribute;

using test_util::error_of;
using test_util::run;
using test_util::values;

// Two query heads share one key/value head (GQA); with scale 1 head 0
// (q = 1) scores the keys [0, 1] and head 1 (q = 0) scores [0, 0].
std::vector<RuntimeValue> gqa_inputs() {
  return {Tensor::from<float>({1, 0}, {1, 2, 1, 1}), Tensor::from<float>({0, 1}, {1, 1, 2, 1}),
          Tensor::from<float>({10, 20}, {1, 1, 2, 1})};
}

TEST(Attention, GroupedHeadsAndQkOutput) {
  auto out = run("Attention", gqa_inputs(), {A::make_float("scale", 1.0f)}, 4, 23);
  const float e = std::exp(1.0f);
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{1, 2, 1, 1}));
  EXPECT_THAT(values<float>(out[0]),
              ElementsAre(FloatNear((10 + 20 * e) / (1 + e), 1e-5), FloatNear(15, 1e-5)));
  EXPECT_THAT(values<float>(out[3]), ElementsAre(0, 1, 0, 0));
  // Softcap comes before the mask: mode 1 shows it, mode 2 adds the bias.
  auto capped = run("Attention", gqa_inputs(),
                    {A::make_float("scale", 1.0f), A::make_float("softcap", 0.5f),
                     A::make_int("qk_matmul_output_mode", 1)},
                    4, 23);
  EXPECT_THAT(values<float>(capped[3]),
              ElementsAre(0, FloatNear(0.5f * std::tanh(2.0f), 1e-6), 0, 0));
}

TEST(Attention, MasksCausalAndNonpad) {
  std::vector<RuntimeValue> in = gqa_inputs();
  in.push_back(Tensor::from<bool>({true, false}, {2}));
  auto masked = run("Attention", in, {A::make_float("scale", 1.0f)}, 1, 23);
  EXPECT_THAT(values<float>(masked[0]), ElementsAre(FloatNear(10, 1e-5), FloatNear(10, 1e-5)));
  // An additive mask shorter than the keys is padded with -inf.
  in[3] = Tensor::from<float>({0}, {1});
  masked = run("Attention", in, {A::make_float("scale", 1.0f)}, 1, 23);
  EXPECT_THAT(values<float>(masked[0]), ElementsAre(FloatNear(10, 1e-5), FloatNear(10, 1e-5)));
  // Causal with one query: key 1 lies above the diagonal.
  auto causal = run("Attention", gqa_inputs(),
                    {A::make_float("scale", 1.0f), A::make_int("is_causal", 1)}, 1, 23);
  EXPECT_THAT(values<float>(causal[0]), ElementsAre(FloatNear(10, 1e-5), FloatNear(10, 1e-5)));
  // Attention-24: nonpad_kv_seqlen keeps the first key only.
  in = gqa_inputs();
  in.insert(in.end(),
            {RuntimeValue(), RuntimeValue(), RuntimeValue(), Tensor::from<int64_t>({1}, {1})});
  auto nonpad = run("Attention", in, {A::make_float("scale", 1.0f)}, 1, 24);
  EXPECT_THAT(values<float>(nonpad[0]), ElementsAre(FloatNear(10, 1e-5), FloatNear(10, 1e-5)));
}

TEST(Attention, ThreeDWithPastAndPresent) {
  // One head of size 1: Q (1, 1, 1), K and V (1, 1, 1), a past of one step.
  std::vector<RuntimeValue> in{
      Tensor::from<float>({0}, {1, 1, 1}),    Tensor::from<float>({5}, {1, 1, 1}),
      Tensor::from<float>({4}, {1, 1, 1}),    RuntimeValue(),
      Tensor::from<float>({7}, {1, 1, 1, 1}), Tensor::from<float>({2}, {1, 1, 1, 1})};
  auto out =
      run("Attention", in, {A::make_int("q_num_heads", 1), A::make_int("kv_num_heads", 1)}, 3, 23);
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{1, 1, 1}));
  EXPECT_THAT(values<float>(out[0]), ElementsAre(FloatNear(3, 1e-6)));
  EXPECT_EQ(out[1].tensor().shape(), (std::vector<int64_t>{1, 1, 2, 1}));
  EXPECT_THAT(values<float>(out[1]), ElementsAre(7, 5));
  EXPECT_THAT(values<float>(out[2]), ElementsAre(2, 4));
  EXPECT_THAT(error_of([&] {
                run("Attention", {in[0], in[1], in[2]}, {}, 1, 23);
              }),
              HasSubstr("q_num_heads"));
}

TEST(RmsNormalization, LastAxis) {
  auto out = run("RMSNormalization",
                 {Tensor::from<float>({3, 4}, {1, 2}), Tensor::from<float>({1, 2}, {2})},
                 {A::make_float("epsilon", 0)}, 1, 23);
  const float r = std::sqrt(12.5f);
  EXPECT_THAT(values<float>(out[0]), ElementsAre(FloatNear(3 / r, 1e-6), FloatNear(8 / r, 1e-6)));
}

TEST(RotaryEmbedding, PositionIdsAndInterleaved) {
  // A quarter turn: cos 0, sin 1 maps (x1, x2) = (1, 2) to (-2, 1).
  std::vector<RuntimeValue> in{
      Tensor::from<float>({1, 2, 5}, {1, 1, 1, 3}), Tensor::from<float>({1, 0}, {2, 1}),
      Tensor::from<float>({0, 1}, {2, 1}), Tensor::from<int64_t>({1}, {1, 1})};
  auto out = run("RotaryEmbedding", in, {A::make_int("rotary_embedding_dim", 2)}, 1, 23);
  EXPECT_THAT(values<float>(out[0]), ElementsAre(-2, 1, 5));
  in[0] = Tensor::from<float>({1, 5, 2, 6}, {1, 1, 4});
  auto inter =
      run("RotaryEmbedding",
          {in[0], Tensor::from<float>({0, 1}, {1, 1, 2}), Tensor::from<float>({1, 0}, {1, 1, 2})},
          {A::make_int("num_heads", 1), A::make_int("interleaved", 1)}, 1, 23);
  EXPECT_THAT(values<float>(inter[0]), ElementsAre(-5, 1, 2, 6));
}

TEST(GroupNormalization, PerGroupAndPerChannelParameters) {
  // One group over two channels [0, 1] and [2, 3]: mean 1.5, variance 1.25.
  const Tensor x = Tensor::from<float>({0, 1, 2, 3}, {1, 2, 2});
  const float r = 1 / std::sqrt(1.25f);
  auto v21 = run("GroupNormalization",
                 {x, Tensor::from<float>({1, 2}, {2}), Tensor::from<float>({0, 1}, {2})},
                 {A::make_int("num_groups", 1), A::make_float("epsilon", 0)}, 1, 21);
  EXPECT_THAT(values<float>(v21[0]),
              ElementsAre(FloatNear(-1.5f * r, 1e-5), FloatNear(-0.5f * r, 1e-5),
                          FloatNear(1 + 1.0f * r, 1e-5), FloatNear(1 + 3.0f * r, 1e-5)));
  auto v18 =
      run("GroupNormalization", {x, Tensor::from<float>({2}, {1}), Tensor::from<float>({1}, {1})},
          {A::make_int("num_groups", 1), A::make_float("epsilon", 0)}, 1, 18);
  EXPECT_THAT(values<float>(v18[0])[0], FloatNear(1 - 3.0f * r, 1e-5));
  EXPECT_THAT(error_of([&] {
                run("GroupNormalization",
                    {x, Tensor::from<float>({2}, {1}), Tensor::from<float>({1}, {1})},
                    {A::make_int("num_groups", 1)}, 1, 21);
              }),
              HasSubstr("one per channel"));
}

TEST(Activations, GeluSwishAndSwiGlu) {
  const Tensor one = Tensor::from<float>({1}, {1});
  EXPECT_THAT(values<float>(run("Gelu", {one}, {}, 1, 20)[0]),
              ElementsAre(FloatNear(0.841345f, 1e-6)));
  EXPECT_THAT(values<float>(run("Gelu", {one}, {A::make_string("approximate", "tanh")}, 1, 20)[0]),
              ElementsAre(FloatNear(0.841192f, 1e-6)));
  EXPECT_THAT(values<float>(run("Swish", {one}, {A::make_float("alpha", 2)}, 1, 24)[0]),
              ElementsAre(FloatNear(0.880797f, 1e-6)));
  EXPECT_THAT(values<float>(run("SwiGLU", {one, Tensor::from<float>({3}, {1})}, {}, 1, 28)[0]),
              ElementsAre(FloatNear(2.193176f, 1e-6)));
}

TEST(NegativeLogLikelihoodLoss, ReductionsWeightsAndIgnoreIndex) {
  const Tensor input = Tensor::from<float>({-1, -2, -3, -4, -5, -6}, {2, 3});
  const Tensor target = Tensor::from<int64_t>({0, 2}, {2});
  const Tensor weight = Tensor::from<float>({1, 1, 3}, {3});
  // Losses 1 and 6 * 3, over weights 1 + 3.
  EXPECT_THAT(
      values<float>(run("NegativeLogLikelihoodLoss", {input, target, weight}, {}, 1, 22)[0]),
      ElementsAre(FloatNear(19.0f / 4, 1e-6)));
  auto none = run("NegativeLogLikelihoodLoss", {input, target},
                  {A::make_string("reduction", "none"), A::make_int("ignore_index", 2)}, 1, 22);
  EXPECT_THAT(values<float>(none[0]), ElementsAre(1, 0));
  auto sum = run("NegativeLogLikelihoodLoss", {input, target}, {A::make_string("reduction", "sum")},
                 1, 22);
  EXPECT_THAT(values<float>(sum[0]), ElementsAre(7));
}

}  // namespace
}  // namespace onnxscript::eval
