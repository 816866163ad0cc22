// torchlib's further activations against PyTorch 1.13: expected values
// printed by torch at test-writing time (the expression is in the comment
// above each; F is torch.nn.functional, x the tensor below).
#include <gtest/gtest.h>

#include "onnxscript/torch_lib/ops.h"
#include "onnxscript/torch_lib/registry.h"
#include "torch_lib/values.h"

namespace onnxscript::torch_lib {
namespace {

using testing::dims;
using testing::expect_close;
using testing::f32;

// x = torch.tensor([-3.0, -1.0, -0.25, 0.0, 0.5, 2.0])
Tensor sample() { return f32({-3, -1, -0.25f, 0, 0.5f, 2}); }

TEST(TorchlibActivationsMore, SiluEluSeluCelu) {
  // F.silu(x)
  expect_close(aten_silu(sample()),
               {-0.14227761328220367f, -0.2689414322376251f, -0.10945587605237961f, 0,
                0.3112296760082245f, 1.7615940570831299f});
  // F.elu(x)
  expect_close(aten_elu(sample(), Value(int64_t{1}), Value(int64_t{1}), Value(int64_t{1})),
               {-0.9502129554748535f, -0.6321205496788025f, -0.22119921445846558f, 0, 0.5f, 2});
  // torch.ops.aten.elu(x, 0.5, 2.0, 1.5)
  expect_close(aten_elu(sample(), Value(0.5), Value(2.0), Value(1.5)),
               {-0.9888910055160522f, -0.7768698334693909f, -0.312710702419281f, 0, 1, 4});
  // F.selu(x)
  expect_close(aten_selu(sample()),
               {-1.6705687046051025f, -1.1113307476043701f, -0.38889017701148987f, 0,
                0.5253505110740662f, 2.1014020442962646f});
  // F.celu(x, alpha=2.0)
  expect_close(aten_celu(sample(), Value(2.0)),
               {-1.5537396669387817f, -0.7869386672973633f, -0.2350062131881714f, 0, 0.5f, 2});
}

TEST(TorchlibActivationsMore, LeakyReluSoftplusMish) {
  // F.leaky_relu(x) (slope 0.01) and F.leaky_relu(x, 0.2)
  expect_close(aten_leaky_relu(sample(), Value(0.01)), {-0.03f, -0.01f, -0.0025f, 0, 0.5f, 2});
  expect_close(aten_leaky_relu(sample(), Value(0.2)), {-0.6f, -0.2f, -0.05f, 0, 0.5f, 2});
  // F.softplus(x)
  expect_close(aten_softplus(sample(), Value(int64_t{1}), Value(int64_t{20})),
               {0.04858735203742981f, 0.3132616877555847f, 0.575939416885376f, 0.6931471824645996f,
                0.9740769863128662f, 2.1269280910491943f});
  // F.softplus(x, beta=2, threshold=1): x itself where 2x > 1
  expect_close(aten_softplus(sample(), Value(int64_t{2}), Value(int64_t{1})),
               {0.0012378426035866141f, 0.06346400082111359f, 0.2370384931564331f,
                0.3465735912322998f, 0.65663081407547f, 2});
  // F.mish(x)
  expect_close(aten_mish(sample()),
               {-0.14564746618270874f, -0.3034014403820038f, -0.12992696464061737f, 0,
                0.37524524331092834f, 1.9439589977264404f});
}

TEST(TorchlibActivationsMore, ShrinksThresholdsAndClamps) {
  // F.relu6(torch.tensor([-1.0, 3, 7])) -> [0, 3, 6]
  expect_close(aten_relu6(f32({-1, 3, 7})), {0, 3, 6});
  // F.hardshrink(x) -> [-3, -1, 0, 0, 0, 2]
  expect_close(aten_hardshrink(sample(), Value(0.5)), {-3, -1, 0, 0, 0, 2});
  // F.softshrink(x) -> [-2.5, -0.5, 0, 0, 0, 1.5]
  expect_close(aten_softshrink(sample(), Value(0.5)), {-2.5f, -0.5f, 0, 0, 0, 1.5f});
  // F.threshold(x, 0.1, 20.0) -> [20, 20, 20, 20, 0.5, 2]
  expect_close(aten_threshold(sample(), Value(0.1), Value(20.0)), {20, 20, 20, 20, 0.5f, 2});
  // F.logsigmoid(torch.tensor([-100.0, -1, 0, 1, 100]))
  expect_close(aten_log_sigmoid(f32({-100, -1, 0, 1, 100})),
               {-100, -1.3132617473602295f, -0.6931471824645996f, -0.3132616877555847f, 0});
}

TEST(TorchlibActivationsMore, LogSoftmaxGluPrelu) {
  // F.log_softmax(torch.tensor([[1.0, 2, 3], [4, 5, 6]]), dim=1)
  const Tensor m = f32({1, 2, 3, 4, 5, 6}, {2, 3});
  const std::vector<float> rows = {-2.4076058864593506f,  -1.4076058864593506f,
                                   -0.40760594606399536f, -2.4076058864593506f,
                                   -1.4076058864593506f,  -0.40760594606399536f};
  expect_close(aten_log_softmax(m, 1, std::nullopt), rows);
  expect_close(aten_log_softmax_half(m, -1, false), rows);
  expect_close(aten_log_softmax(Tensor::scalar<float>(3), 0, std::nullopt), {0});
  // F.glu(torch.tensor([[1.0, 2, 3, 4]]), dim=-1) -> [[0.95257413, 1.9640275]]
  const Value g = aten_glu(f32({1, 2, 3, 4}, {1, 4}), -1);
  expect_close(g, {0.9525741338729858f, 1.9640275239944458f});
  EXPECT_EQ(dims(g), (std::vector<int64_t>{1, 2}));
  EXPECT_THROW(aten_glu(f32({1, 2, 3}), 0), TypeError);
  // F.prelu(torch.tensor([-1.0, 2, -3, 4]).reshape(1, 2, 2, 1), torch.tensor([0.5, 0.25]))
  // -> [-0.5, 2, -0.75, 4]: the weight applies along dimension 1.
  expect_close(aten_prelu(f32({-1, 2, -3, 4}, {1, 2, 2, 1}), f32({0.5f, 0.25f})),
               {-0.5f, 2, -0.75f, 4});
}

TEST(TorchlibActivationsMore, RegisteredWithDefaults) {
  const Registry& r = torchlib_registry();
  // aten::leaky_relu with its default slope 0.01.
  expect_close(r.get_op_functions("aten::leaky_relu")[0]({Value(f32({-1, 1}))})[0], {-0.01f, 1});
  // aten::celu_ with its default alpha 1: celu(-1) = exp(-1) - 1.
  expect_close(r.get_op_functions("aten::celu_")[0]({Value(f32({-1}))})[0], {-0.6321205496788025f});
  for (const char* name : {"aten::silu_", "aten::elu_", "aten::hardsigmoid_", "aten::_log_softmax",
                           "aten::special_log_softmax", "aten::relu6_", "aten::mish_"}) {
    EXPECT_TRUE(r.is_registered_op(name)) << name;
  }
}

TEST(TorchlibActivationsMore, HardtanhBackwardPassesInsideTheRange) {
  // torch.ops.aten.hardtanh_backward(torch.tensor([1., 2, 3, 4]), torch.tensor([-2., -1, 0.5, 1]),
  //                                  -1, 1) -> [0, 0, 3, 0]
  expect_close(aten_hardtanh_backward(f32({1, 2, 3, 4}), f32({-2, -1, 0.5f, 1}), Value(int64_t{-1}),
                                      Value(int64_t{1})),
               {0, 0, 3, 0});
}

}  // namespace
}  // namespace onnxscript::torch_lib
