// Tests for the neural-network kernels (src/eval/kernels/nn/).
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

using test_util::values;

Tensor iota_f(std::vector<int64_t> shape) {
  Tensor t(DataType::kFloat, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = static_cast<float>(i);
  return t;
}

Tensor filled(std::vector<int64_t> shape, float v) {
  Tensor t(DataType::kFloat, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = v;
  return t;
}

void expect_error(std::string_view op, std::initializer_list<RuntimeValue> inputs,
                  std::initializer_list<A> attrs, const std::string& fragment) {
  try {
    run_op(op, inputs, attrs);
    ADD_FAILURE() << op << " did not fail";
  } catch (const KernelError& e) {
    EXPECT_THAT(e.what(), HasSubstr(std::string(op) + ": " + fragment));
  }
}

TEST(Softmax, AxisSemanticsChangedAtOpset13) {
  Tensor x(DataType::kFloat, {1, 2, 2});  // all zeros
  // Opset 11 coerces to [1, 4] at axis 1: four equal entries per row.
  EXPECT_THAT(values<float>(run_op("Softmax", {x}, {A::make_int("axis", 1)}, 1, 11)[0]),
              ElementsAre(0.25f, 0.25f, 0.25f, 0.25f));
  // Opset 13 normalises along axis 1 only: pairs.
  EXPECT_THAT(values<float>(run_op("Softmax", {x}, {A::make_int("axis", 1)}, 1, 13)[0]),
              ElementsAre(0.5f, 0.5f, 0.5f, 0.5f));
  auto big = run_op("Softmax", {Tensor::from<float>({1000, 1000})});
  EXPECT_THAT(values<float>(big[0]), ElementsAre(0.5f, 0.5f)) << "no overflow";
  expect_error("Softmax", {x}, {A::make_int("axis", 3)}, "axis 3 is out of range");
}

TEST(LogSoftmaxAndHardmax, Values) {
  EXPECT_THAT(values<float>(run_op("LogSoftmax", {Tensor::from<float>({0, 0})})[0]),
              ElementsAre(FloatNear(std::log(0.5f), 1e-6), FloatNear(std::log(0.5f), 1e-6)));
  EXPECT_THAT(values<float>(run_op("Hardmax", {Tensor::from<float>({1, 3, 3}, {1, 3})})[0]),
              ElementsAre(0, 1, 0));
  // Opset 1 Hardmax over a [2, 1, 2] input at axis 1 looks at 2 elements per row.
  EXPECT_THAT(
      values<float>(run_op("Hardmax", {Tensor::from<float>({1, 2, 4, 3}, {2, 1, 2})}, {}, 1, 1)[0]),
      ElementsAre(0, 1, 1, 0));
  expect_error("Hardmax", {Tensor::from<int32_t>({1})}, {}, "element type int32 is not supported");
}

TEST(BatchNormalization, InferenceAndTrainingMode) {
  Tensor x = Tensor::from<float>({1, 2}, {1, 2, 1, 1});
  auto out = run_op("BatchNormalization",
                    {x, Tensor::from<float>({1, 2}), Tensor::from<float>({0, 1}),
                     Tensor::from<float>({0, 1}), Tensor::from<float>({1, 4})},
                    {A::make_float("epsilon", 0)});
  // c0: (1 - 0) / 1 = 1; c1: 2 * (2 - 1) / 2 + 1 = 2.
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1, 2));

  // Training (v15): batch of [1, 3] on one channel: mean 2, biased var 1.
  std::vector<RuntimeValue> in{Tensor::from<float>({1, 3}, {2, 1}), Tensor::from<float>({1}),
                               Tensor::from<float>({0}), Tensor::from<float>({0}),
                               Tensor::from<float>({1})};
  std::vector<A> attrs{A::make_int("training_mode", 1), A::make_float("epsilon", 0)};
  auto tr = run_op("BatchNormalization", in, attrs, 3, 15);
  EXPECT_THAT(values<float>(tr[0]), ElementsAre(-1, 1));
  EXPECT_THAT(values<float>(tr[1]), ElementsAre(FloatNear(0.2f, 1e-6)));  // 0 * 0.9 + 2 * 0.1
  EXPECT_THAT(values<float>(tr[2]), ElementsAre(FloatNear(1.0f, 1e-6)));  // 1 * 0.9 + 1 * 0.1
  expect_error("BatchNormalization",
               {x, Tensor::from<float>({1}), Tensor::from<float>({0}), Tensor::from<float>({0}),
                Tensor::from<float>({1})},
               {}, "input 1 has 1 elements but X has 2 channels");
}

TEST(InstanceAndLayerNormalization, Values) {
  auto in = run_op(
      "InstanceNormalization",
      {Tensor::from<float>({1, 3}, {1, 1, 2}), Tensor::from<float>({2}), Tensor::from<float>({1})},
      {A::make_float("epsilon", 0)});
  EXPECT_THAT(values<float>(in[0]), ElementsAre(-1, 3));
  std::vector<RuntimeValue> inputs{Tensor::from<float>({1, 3, 2, 2}, {2, 2}),
                                   Tensor::from<float>({1, 1})};
  std::vector<A> attrs{A::make_float("epsilon", 0.25f)};
  auto ln = run_op("LayerNormalization", inputs, attrs, 3, 17);
  const float r = 1 / std::sqrt(1.25f);
  EXPECT_THAT(values<float>(ln[0]), ElementsAre(FloatNear(-r, 1e-6), FloatNear(r, 1e-6), 0, 0));
  EXPECT_EQ(ln[1].tensor().shape(), (std::vector<int64_t>{2, 1}));
  EXPECT_THAT(values<float>(ln[1]), ElementsAre(2, 2));
  EXPECT_THAT(values<float>(ln[2]), ElementsAre(FloatNear(r, 1e-6), FloatNear(2.0f, 1e-6)));
}

TEST(LrnAndMvn, Values) {
  auto lrn = run_op("LRN", {Tensor::from<float>({1, 2}, {1, 2, 1, 1})},
                    {A::make_int("size", 2), A::make_float("alpha", 1), A::make_float("beta", 1),
                     A::make_float("bias", 1)});
  // c0 sums channels 0..1: 1 / (1 + 5/2); c1 sums channel 1: 2 / (1 + 4/2).
  EXPECT_THAT(values<float>(lrn[0]),
              ElementsAre(FloatNear(1 / 3.5f, 1e-6), FloatNear(2 / 3.0f, 1e-6)));
  auto mvn = run_op("MeanVarianceNormalization", {Tensor::from<float>({1, 3}, {1, 1, 1, 2})});
  EXPECT_THAT(values<float>(mvn[0]), ElementsAre(FloatNear(-1, 1e-6), FloatNear(1, 1e-6)));
}

TEST(Conv, ValidPaddedStridedGroupedAndBias) {
  Tensor x = iota_f({1, 1, 3, 3});
  Tensor w = filled({1, 1, 2, 2}, 1);
  EXPECT_THAT(values<float>(run_op("Conv", {x, w})[0]), ElementsAre(8, 12, 20, 24));
  auto padded =
      run_op("Conv", {x, w}, {A::make_ints("pads", {1, 1, 1, 1}), A::make_ints("strides", {2, 2})});
  EXPECT_THAT(values<float>(padded[0]), ElementsAre(0, 3, 9, 24));
  // SAME_UPPER with a 2x2 kernel pads one row/column at the end.
  auto same = run_op("Conv", {x, w}, {A::make_string("auto_pad", "SAME_UPPER")});
  EXPECT_THAT(values<float>(same[0]), ElementsAre(8, 12, 7, 20, 24, 13, 13, 15, 8));
  // Two groups of one channel each, weights 1 and 2, bias 10 and 20.
  Tensor x2 = Tensor::from<float>({1, 2, 3, 4}, {1, 2, 2});
  Tensor w2 = Tensor::from<float>({1, 2}, {2, 1, 1});
  auto grouped = run_op("Conv", {x2, w2, Tensor::from<float>({10, 20})}, {A::make_int("group", 2)});
  EXPECT_THAT(values<float>(grouped[0]), ElementsAre(11, 12, 26, 28));
  // Dilation 2 on 1-D: taps at i and i+2.
  auto dil =
      run_op("Conv", {iota_f({1, 1, 5}), filled({1, 1, 2}, 1)}, {A::make_ints("dilations", {2})});
  EXPECT_THAT(values<float>(dil[0]), ElementsAre(2, 4, 6));
  expect_error("Conv", {x, filled({1, 2, 2, 2}, 1)}, {}, "W has 2 input channels");
}

// One input and one output channel per group on 2-D planes (MobileNet's
// depthwise convolutions) take a path of their own; the expected values are
// the window sums worked out by hand.
TEST(Conv, DepthwiseTwoD) {
  Tensor x = iota_f({1, 2, 3, 3});  // channel 0: 0..8, channel 1: 9..17
  Tensor w = Tensor::from<float>({1, 2, 3, 4, 1, 1, 1, 1}, {2, 1, 2, 2});
  auto plain = run_op("Conv", {x, w}, {A::make_int("group", 2)});
  EXPECT_THAT(values<float>(plain[0]), ElementsAre(27, 37, 57, 67, 44, 48, 56, 60));
  // Padding 1 and stride 2: each output sees the taps that fall inside X.
  auto strided = run_op("Conv", {x, w, Tensor::from<float>({10, 20})},
                        {A::make_int("group", 2), A::make_ints("pads", {1, 1, 1, 1}),
                         A::make_ints("strides", {2, 2})});
  EXPECT_THAT(values<float>(strided[0]), ElementsAre(10, 21, 40, 77, 29, 41, 47, 80));
}

// The depthwise path against a direct evaluation of the definition, on
// planes wide enough for whole vectorised runs, with asymmetric padding,
// strides and dilations.
TEST(Conv, DepthwiseMatchesTheDefinition) {
  const int64_t c = 3, h = 9, w = 21, k = 3;
  Tensor x(DataType::kFloat, {2, c, h, w});
  for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = static_cast<float>((i * 7) % 11) - 5;
  Tensor wt(DataType::kFloat, {c, 1, k, k});
  for (int64_t i = 0; i < wt.numel(); ++i) wt.data<float>()[i] = static_cast<float>(i % 5) - 2;
  const Tensor bias = Tensor::from<float>({1, -2, 3});
  for (int64_t stride : {1, 2})
    for (int64_t dilation : {1, 2}) {
      const std::vector<int64_t> pads{2, 1, 0, 2};  // top, left, bottom, right
      auto out = run_op("Conv", {x, wt, bias},
                        {A::make_int("group", c), A::make_ints("pads", pads),
                         A::make_ints("strides", {stride, stride}),
                         A::make_ints("dilations", {dilation, dilation})});
      const Tensor& y = out[0].tensor();
      const int64_t span = (k - 1) * dilation + 1;
      const int64_t oh = (h + pads[0] + pads[2] - span) / stride + 1;
      const int64_t ow = (w + pads[1] + pads[3] - span) / stride + 1;
      ASSERT_EQ(y.shape().to_vector(), (std::vector<int64_t>{2, c, oh, ow}));
      for (int64_t b = 0; b < 2; ++b)
        for (int64_t ch = 0; ch < c; ++ch)
          for (int64_t i = 0; i < oh; ++i)
            for (int64_t j = 0; j < ow; ++j) {
              float expected = bias.data<float>()[ch];
              for (int64_t p = 0; p < k; ++p)
                for (int64_t q = 0; q < k; ++q) {
                  const int64_t r = i * stride - pads[0] + p * dilation;
                  const int64_t s = j * stride - pads[1] + q * dilation;
                  if (r < 0 || r >= h || s < 0 || s >= w) continue;
                  expected += wt.data<float>()[(ch * k + p) * k + q] *
                              x.data<float>()[((b * c + ch) * h + r) * w + s];
                }
              ASSERT_NEAR(y.data<float>()[((b * c + ch) * oh + i) * ow + j], expected, 1e-4)
                  << "stride " << stride << " dilation " << dilation << " at " << b << "," << ch
                  << "," << i << "," << j;
            }
    }
}

TEST(Conv, DoubleAndThreeD) {
  Tensor x(DataType::kDouble, {1, 1, 2, 2, 2});
  for (int i = 0; i < 8; ++i) x.data<double>()[i] = i;
  Tensor w(DataType::kDouble, {1, 1, 2, 2, 2});
  for (int i = 0; i < 8; ++i) w.data<double>()[i] = 1;
  EXPECT_THAT(values<double>(run_op("Conv", {x, w})[0]), ElementsAre(28));
}

// Half types run through float: with values exact in both, the results are
// the float kernels' results.
TEST(ConvAndConvTranspose, HalfTypesMatchFloat) {
  const auto cast = [](const Tensor& t, DataType to) {
    return run_op("Cast", {t}, {A::make_int("to", static_cast<int64_t>(to))})[0].tensor();
  };
  const Tensor x = iota_f({1, 1, 3, 3});
  const Tensor w = filled({1, 1, 2, 2}, 1);
  const Tensor b = Tensor::from<float>({0.5f});
  for (const char* op : {"Conv", "ConvTranspose"}) {
    const std::vector<float> expected = values<float>(run_op(op, {x, w, b})[0]);
    ASSERT_FALSE(expected.empty());
    for (DataType half : {DataType::kFloat16, DataType::kBfloat16}) {
      const Tensor y = run_op(op, {cast(x, half), cast(w, half), cast(b, half)})[0].tensor();
      ASSERT_EQ(y.dtype(), half) << op;
      EXPECT_EQ(values<float>(cast(y, DataType::kFloat)), expected)
          << op << " in " << ir::data_type_name(half);
    }
  }
}

TEST(ConvTranspose, StridesAndOutputShape) {
  Tensor x = Tensor::from<float>({1, 2}, {1, 1, 2});
  Tensor w = filled({1, 1, 3}, 1);
  EXPECT_THAT(values<float>(run_op("ConvTranspose", {x, w})[0]), ElementsAre(1, 3, 3, 2));
  EXPECT_THAT(values<float>(run_op("ConvTranspose", {x, w}, {A::make_ints("strides", {2})})[0]),
              ElementsAre(1, 1, 3, 2, 2));
  auto op = run_op("ConvTranspose", {x, w},
                   {A::make_ints("strides", {2}), A::make_ints("output_padding", {1})});
  EXPECT_THAT(values<float>(op[0]), ElementsAre(1, 1, 3, 2, 2, 0));
  auto pads =
      run_op("ConvTranspose", {x, w, Tensor::from<float>({5})}, {A::make_ints("pads", {1, 1})});
  EXPECT_THAT(values<float>(pads[0]), ElementsAre(8, 8));
}

TEST(MaxPool, IndicesInBothStorageOrders) {
  Tensor x = iota_f({1, 1, 4, 4});
  std::vector<RuntimeValue> in{x};
  std::vector<A> attrs{A::make_ints("kernel_shape", {2, 2}), A::make_ints("strides", {2, 2})};
  auto out = run_op("MaxPool", in, attrs, 2, 12);
  EXPECT_THAT(values<float>(out[0]), ElementsAre(5, 7, 13, 15));
  EXPECT_THAT(values<int64_t>(out[1]), ElementsAre(5, 7, 13, 15));
  attrs.push_back(A::make_int("storage_order", 1));
  out = run_op("MaxPool", in, attrs, 2, 12);
  EXPECT_THAT(values<int64_t>(out[1]), ElementsAre(5, 13, 7, 15));
  // ceil_mode on a 3x3 input with k=2, s=2 gives 2x2 with partial windows.
  auto ceil = run_op("MaxPool", {iota_f({1, 1, 3, 3})},
                     {A::make_ints("kernel_shape", {2, 2}), A::make_ints("strides", {2, 2}),
                      A::make_int("ceil_mode", 1)});
  EXPECT_THAT(values<float>(ceil[0]), ElementsAre(4, 5, 7, 8));
  auto u8 = run_op("MaxPool", {Tensor::from<uint8_t>({3, 9, 1}, {1, 1, 3})},
                   {A::make_ints("kernel_shape", {2})});
  EXPECT_THAT(values<uint8_t>(u8[0]), ElementsAre(9, 9));
  expect_error("MaxPool", {x}, {}, "required attribute 'kernel_shape' is missing");
}

TEST(AveragePool, CountIncludePad) {
  Tensor x = Tensor::from<float>({1, 2, 3, 4}, {1, 1, 2, 2});
  std::vector<A> attrs{A::make_ints("kernel_shape", {3, 3}), A::make_ints("pads", {1, 1, 1, 1})};
  EXPECT_THAT(values<float>(run_op("AveragePool", {x}, {attrs[0], attrs[1]})[0]),
              ElementsAre(2.5f, 2.5f, 2.5f, 2.5f));
  auto incl = run_op("AveragePool", {x}, {attrs[0], attrs[1], A::make_int("count_include_pad", 1)});
  EXPECT_THAT(values<float>(incl[0]),
              ElementsAre(FloatNear(10 / 9.0f, 1e-6), FloatNear(10 / 9.0f, 1e-6),
                          FloatNear(10 / 9.0f, 1e-6), FloatNear(10 / 9.0f, 1e-6)));
}

TEST(LpAndGlobalPools, Values) {
  Tensor x = Tensor::from<float>({3, 4}, {1, 1, 2});
  EXPECT_THAT(values<float>(run_op("LpPool", {x}, {A::make_ints("kernel_shape", {2})})[0]),
              ElementsAre(5));
  EXPECT_THAT(values<float>(run_op("GlobalLpPool", {x})[0]), ElementsAre(5));
  EXPECT_THAT(values<float>(run_op("GlobalAveragePool", {x})[0]), ElementsAre(3.5f));
  auto gmax = run_op("GlobalMaxPool", {iota_f({1, 2, 2, 2})});
  EXPECT_EQ(gmax[0].tensor().shape(), (std::vector<int64_t>{1, 2, 1, 1}));
  EXPECT_THAT(values<float>(gmax[0]), ElementsAre(3, 7));
}

TEST(MaxUnpool, ScattersAndRemapsToOutputShape) {
  Tensor x = Tensor::from<float>({5, 6, 7, 8}, {1, 1, 2, 2});
  Tensor ind = Tensor::from<int64_t>({5, 7, 13, 15}, {1, 1, 2, 2});
  std::vector<A> attrs{A::make_ints("kernel_shape", {2, 2}), A::make_ints("strides", {2, 2})};
  auto out = run_op("MaxUnpool", {x, ind}, {attrs[0], attrs[1]});
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{1, 1, 4, 4}));
  EXPECT_EQ(values<float>(out[0])[5], 5);
  EXPECT_EQ(values<float>(out[0])[15], 8);
  auto bigger =
      run_op("MaxUnpool", {x, ind, Tensor::from<int64_t>({1, 1, 5, 5})}, {attrs[0], attrs[1]});
  const auto v = values<float>(bigger[0]);
  EXPECT_EQ(v[6], 5);   // (1,1)
  EXPECT_EQ(v[18], 8);  // (3,3)
}

TEST(Dropout, InferenceIsIdentityAndTrainingIsSeeded) {
  Tensor x = filled({64}, 1);
  auto inf = run_op("Dropout", {x}, {}, 2);
  EXPECT_EQ(inf[0].tensor().storage(), x.storage());
  const auto mask = values<bool>(inf[1]);
  EXPECT_TRUE(std::all_of(mask.begin(), mask.end(), [](bool b) { return b; }));
  // Before opset 10 the mask has the input's type.
  EXPECT_EQ(run_op("Dropout", {x}, {}, 2, 7)[1].tensor().dtype(), DataType::kFloat);
  std::vector<RuntimeValue> in{x, Tensor::scalar(0.5f), Tensor::scalar(true)};
  std::vector<A> attrs{A::make_int("seed", 42)};
  auto a = run_op("Dropout", in, attrs, 2, 13);
  auto b = run_op("Dropout", in, attrs, 2, 13);
  EXPECT_EQ(values<float>(a[0]), values<float>(b[0])) << "same seed, same mask";
  const auto y = values<float>(a[0]);
  const auto keep = values<bool>(a[1]);
  int kept = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    EXPECT_EQ(y[i], keep[i] ? 2.0f : 0.0f);
    kept += keep[i];
  }
  EXPECT_GT(kept, 10);
  EXPECT_LT(kept, 54);
}

}  // namespace
}  // namespace onnxscript::eval
