// Quantization (QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear,
// MatMulInteger, QLinearMatMul, ConvInteger, QLinearConv), the random
// generators (RandomUniform/Normal and their *Like forms, Bernoulli,
// Multinomial), the text kernels (StringNormalizer, TfIdfVectorizer) and the
// preview.training kernels (Adagrad, Adam, Momentum, Gradient). Expected
// values are worked out by hand in the comments; random kernels are checked
// for reproducibility, ranges and loose statistics.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "eval/kernel_test_util.h"
#include "onnxscript/eval/eager.h"
#include "onnxscript/eval/session.h"
#include "onnxscript/ir/ir.h"

namespace onnxscript::eval {
namespace {

using ir::Attribute;
using test_util::run;
using ::testing::HasSubstr;
constexpr char kTraining[] = "ai.onnx.preview.training";

Tensor run1(std::string_view op, std::vector<RuntimeValue> inputs,
            std::vector<Attribute> attrs = {}, int64_t version = 17) {
  return run(op, std::move(inputs), std::move(attrs), 1, version)[0].tensor();
}

template <typename T>
std::vector<T> values(const Tensor& t) {
  EXPECT_EQ(t.dtype(), ir::data_type_of<T>());
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
}

std::vector<double> doubles(const Tensor& t) {
  std::vector<double> out;
  for (int64_t i = 0; i < t.numel(); ++i) {
    switch (t.dtype()) {
      case DataType::kFloat:
        out.push_back(t.data<float>()[i]);
        break;
      case DataType::kDouble:
        out.push_back(t.data<double>()[i]);
        break;
      case DataType::kFloat16:
        out.push_back(static_cast<float>(t.data<float16>()[i]));
        break;
      default:
        ADD_FAILURE() << "not a float tensor";
        return out;
    }
  }
  return out;
}

void expect_near(const std::vector<double>& actual, const std::vector<double>& expected,
                 double tolerance = 1e-6) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], tolerance) << "element " << i;
}

using test_util::error_of;

double mean_of(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

double variance_of(const std::vector<double>& v) {
  const double m = mean_of(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return s / static_cast<double>(v.size());
}

// ------------------------------------------------------------ quantization

TEST(QuantizeLinear, RoundsHalfToEven) {
  // x / 1 = 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4, 2.6 rounds to
  // 0, 2, 2, 0, -2, -2, 2, 3; plus the zero point 128.
  Tensor y = run1("QuantizeLinear",
                  {Tensor::from<float>({0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 2.4f, 2.6f}),
                   Tensor::scalar<float>(1.0f), Tensor::scalar<uint8_t>(128)});
  EXPECT_EQ(values<uint8_t>(y), (std::vector<uint8_t>{128, 130, 130, 128, 126, 126, 130, 131}));
  // With scale 2: 1/2, 3/2, 5/2, 7/2 -> 0, 2, 2, 4 (int8, zero point -1 -> -1, 1, 1, 3).
  y = run1("QuantizeLinear", {Tensor::from<float>({1, 3, 5, 7}), Tensor::scalar<float>(2.0f),
                              Tensor::scalar<int8_t>(-1)});
  EXPECT_EQ(values<int8_t>(y), (std::vector<int8_t>{-1, 1, 1, 3}));
  // int32 input: 7 / 2 = 3.5 -> 4, -7 / 2 = -3.5 -> -4, 5 / 2 = 2.5 -> 2.
  y = run1("QuantizeLinear", {Tensor::from<int32_t>({7, -7, 5}), Tensor::scalar<float>(2.0f),
                              Tensor::scalar<int8_t>(0)});
  EXPECT_EQ(values<int8_t>(y), (std::vector<int8_t>{4, -4, 2}));
}

TEST(QuantizeLinear, SaturatesAndDefaultsToUint8) {
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  constexpr float kInf = std::numeric_limits<float>::infinity();
  // No zero point: uint8 with 0. -1 -> 0, 300 -> 255, 255.4 -> 255, 255.5 -> 256 -> 255.
  Tensor y = run1("QuantizeLinear", {Tensor::from<float>({-1, 300, 255.4f, 255.5f, kInf}),
                                     Tensor::scalar<float>(1.0f)});
  EXPECT_EQ(values<uint8_t>(y), (std::vector<uint8_t>{0, 255, 255, 255, 255}));
  // int8: -200 -> -128, 200 -> 127, -128.5 -> -128 (even), 127.5 -> 128 -> 127,
  // -inf -> -128, NaN -> the zero point 0.
  y = run1("QuantizeLinear", {Tensor::from<float>({-200, 200, -128.5f, 127.5f, -kInf, kNaN}),
                              Tensor::scalar<float>(1.0f), Tensor::scalar<int8_t>(0)});
  EXPECT_EQ(values<int8_t>(y), (std::vector<int8_t>{-128, 127, -128, 127, -128, 0}));
  // The zero point moves the range: 100 / 0.5 + 100 = 300 -> 255; -10 / 0.5 + 100 = 80.
  y = run1("QuantizeLinear", {Tensor::from<float>({100, -10}), Tensor::scalar<float>(0.5f),
                              Tensor::scalar<uint8_t>(100)});
  EXPECT_EQ(values<uint8_t>(y), (std::vector<uint8_t>{255, 80}));
}

TEST(QuantizeLinear, PerAxisScalesAndZeroPoints) {
  // x [2, 3], axis 1, scale [1, 2, 4], zero point [0, 10, 20]:
  //   row 0: 4/1+0 = 4, 4/2+10 = 12, 4/4+20 = 21
  //   row 1: -8/1+0 = -8 -> 0, 8/2+10 = 14, 9/4 = 2.25 -> 2, +20 = 22
  const Tensor x = Tensor::from<float>({4, 4, 4, -8, 8, 9}, {2, 3});
  const Tensor scale = Tensor::from<float>({1, 2, 4});
  const Tensor zp = Tensor::from<uint8_t>({0, 10, 20});
  const std::vector<uint8_t> expected{4, 12, 21, 0, 14, 22};
  EXPECT_EQ(values<uint8_t>(run1("QuantizeLinear", {x, scale, zp})), expected);  // axis 1 default
  EXPECT_EQ(
      values<uint8_t>(run1("QuantizeLinear", {x, scale, zp}, {Attribute::make_int("axis", -1)})),
      expected);
  // axis 0: scale [1, 0.5], zero point [1, 2]: row 0: 4+1 = 5 (x3); row 1:
  // -16+2 -> 0, 16+2 = 18, 18+2 = 20.
  Tensor y =
      run1("QuantizeLinear", {x, Tensor::from<float>({1, 0.5f}), Tensor::from<uint8_t>({1, 2})},
           {Attribute::make_int("axis", 0)});
  EXPECT_EQ(values<uint8_t>(y), (std::vector<uint8_t>{5, 5, 5, 0, 18, 20}));
}

TEST(QuantizeLinear, RejectsBadParameters) {
  const Tensor x = Tensor::from<float>({1, 2, 3}, {1, 3});
  EXPECT_THAT(error_of([&] {
                run1("QuantizeLinear", {x, Tensor::scalar<float>(0.0f)});
              }),
              HasSubstr("non-zero"));
  // Per-axis needs opset 13.
  EXPECT_THAT(error_of([&] {
                run1("QuantizeLinear", {x, Tensor::from<float>({1, 2, 3})}, {}, /*version=*/10);
              }),
              HasSubstr("opset 13"));
  EXPECT_THAT(
      error_of([&] {
        run1("QuantizeLinear", {x, Tensor::from<float>({1, 2}), Tensor::from<uint8_t>({1, 2})});
      }),
      HasSubstr("has 3 along axis 1"));
  EXPECT_THAT(
      error_of([&] {
        run1("QuantizeLinear", {x, Tensor::from<float>({1, 2, 3}), Tensor::from<uint8_t>({1, 2})});
      }),
      HasSubstr("shape of the scale"));
  EXPECT_THAT(
      error_of([&] {
        run1("QuantizeLinear", {x, Tensor::scalar<float>(1.0f), Tensor::scalar<int32_t>(1)});
      }),
      HasSubstr("QuantizeLinear: element type int32"));
}

TEST(DequantizeLinear, ScalarPerAxisAndInt32) {
  // (0 - 128) * 0.5 = -64, 0, (255 - 128) * 0.5 = 63.5
  Tensor y = run1("DequantizeLinear", {Tensor::from<uint8_t>({0, 128, 255}),
                                       Tensor::scalar<float>(0.5f), Tensor::scalar<uint8_t>(128)});
  EXPECT_EQ(values<float>(y), (std::vector<float>{-64, 0, 63.5f}));
  // int32, no zero point: -5 * 0.25, 7 * 0.25
  y = run1("DequantizeLinear", {Tensor::from<int32_t>({-5, 7}), Tensor::scalar<float>(0.25f)});
  EXPECT_EQ(values<float>(y), (std::vector<float>{-1.25f, 1.75f}));
  // int8 [2, 2], axis 0, scale [1, 10], zero point [1, -1]:
  //   row 0: (1-1)*1 = 0, (2-1)*1 = 1; row 1: (3+1)*10 = 40, (4+1)*10 = 50
  y = run1("DequantizeLinear",
           {Tensor::from<int8_t>({1, 2, 3, 4}, {2, 2}), Tensor::from<float>({1, 10}),
            Tensor::from<int8_t>({1, -1})},
           {Attribute::make_int("axis", 0)});
  EXPECT_EQ(values<float>(y), (std::vector<float>{0, 1, 40, 50}));
  EXPECT_THAT(error_of([&] {
                run1("DequantizeLinear", {Tensor::from<int32_t>({1}), Tensor::scalar<float>(1.0f),
                                          Tensor::scalar<int32_t>(3)});
              }),
              HasSubstr("zero point 0"));
  EXPECT_THAT(error_of([&] {
                run1("DequantizeLinear", {Tensor::from<uint8_t>({1}), Tensor::scalar<float>(1.0f),
                                          Tensor::scalar<int8_t>(3)});
              }),
              HasSubstr("element type of x"));
}

TEST(DynamicQuantizeLinear, ScaleZeroPointAndValues) {
  // x = [0, 2, -3, 51]: lo = -3, hi = 51, scale = 54 / 255 = 0.211764...,
  // zero point = round(3 / scale) = round(14.1667) = 14;
  // y = round(x / scale) + 14 = [0+14, round(9.444)+14 = 23, -14+14 = 0, round(240.83)+14 = 255].
  auto out = run("DynamicQuantizeLinear", {Tensor::from<float>({0, 2, -3, 51})}, {}, 3);
  EXPECT_EQ(values<uint8_t>(out[0].tensor()), (std::vector<uint8_t>{14, 23, 0, 255}));
  EXPECT_FLOAT_EQ(out[1].tensor().data<float>()[0], 54.0f / 255.0f);
  EXPECT_EQ(out[2].tensor().data<uint8_t>()[0], 14);
  // Positive only: lo = 0 (the range holds 0), scale = 3 / 255, zero point 0,
  // y = [1 / (3/255) = 85, 255].
  out = run("DynamicQuantizeLinear", {Tensor::from<float>({1, 3})}, {}, 3);
  EXPECT_EQ(values<uint8_t>(out[0].tensor()), (std::vector<uint8_t>{85, 255}));
  EXPECT_EQ(out[2].tensor().data<uint8_t>()[0], 0);
  // All zeros: an empty range gives scale 0, zero point 0, y 0 (no 0 / 0).
  out = run("DynamicQuantizeLinear", {Tensor::from<float>({0, 0})}, {}, 3);
  EXPECT_EQ(values<uint8_t>(out[0].tensor()), (std::vector<uint8_t>{0, 0}));
  EXPECT_EQ(out[1].tensor().data<float>()[0], 0.0f);
  EXPECT_THAT(error_of([&] {
                run("DynamicQuantizeLinear",
                    {Tensor::from<float>({1, std::numeric_limits<float>::infinity()})}, {}, 3);
              }),
              HasSubstr("holds inf"));
}

TEST(MatMulInteger, PerRowAndPerColumnZeroPoints) {
  // A - a_zp (per row [1, 2]) = [[1-1, 2-1], [3-2, 4-2]] = [[0, 1], [1, 2]]
  // B - b_zp (per column [5, 6]) = [[5-5, 7-6], [9-5, 8-6]] = [[0, 1], [4, 2]]
  // product: [[0*0+1*4, 0*1+1*2], [1*0+2*4, 1*1+2*2]] = [[4, 2], [8, 5]]
  Tensor y = run1("MatMulInteger", {Tensor::from<uint8_t>({1, 2, 3, 4}, {2, 2}),
                                    Tensor::from<uint8_t>({5, 7, 9, 8}, {2, 2}),
                                    Tensor::from<uint8_t>({1, 2}), Tensor::from<uint8_t>({5, 6})});
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values<int32_t>(y), (std::vector<int32_t>{4, 2, 8, 5}));
  // Mixed int8 x uint8 without zero points: [-1, 2] . [3, 4] = 5; 1-D A drops M.
  y = run1("MatMulInteger", {Tensor::from<int8_t>({-1, 2}), Tensor::from<uint8_t>({3, 4}, {2, 1})});
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{1}));
  EXPECT_EQ(values<int32_t>(y), (std::vector<int32_t>{5}));
  // Stacked A [2, 1, 2] with per-row zero point [2, 1, 1] = [[[1]], [[2]]], B [2, 1]:
  //   (-128 - 1, 127 - 1) . (1, 1) = -3; (0 - 2, 10 - 2) . (1, 1) = 6
  y = run1("MatMulInteger",
           {Tensor::from<int8_t>({-128, 127, 0, 10}, {2, 1, 2}),
            Tensor::from<int8_t>({1, 1}, {2, 1}), Tensor::from<int8_t>({1, 2}, {2, 1, 1})});
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{2, 1, 1}));
  EXPECT_EQ(values<int32_t>(y), (std::vector<int32_t>{-3, 6}));
  EXPECT_THAT(error_of([&] {
                run1("MatMulInteger", {Tensor::from<uint8_t>({1, 2, 3, 4}, {2, 2}),
                                       Tensor::from<uint8_t>({1, 2, 3, 4}, {2, 2}),
                                       Tensor::from<uint8_t>({1, 2, 3})});
              }),
              HasSubstr("per row"));
  EXPECT_THAT(
      error_of([&] {
        run1("MatMulInteger", {Tensor::from<uint8_t>({1, 2}), Tensor::from<uint8_t>({1, 2, 3})});
      }),
      HasSubstr("inner dimensions"));
}

TEST(QLinearMatMul, Int8WithRoundingAndSaturation) {
  // A int8 [[4, -2], [6, 8], [127, -128]] - 2 = [[2, -4], [4, 6], [125, -130]]
  // B int8 [[3], [1]] - 1 = [[2], [0]]
  // acc = [[4], [8], [250]]; real = acc * 0.5 * 0.25 = [0.5, 1, 31.25];
  // / y_scale 0.125 = [4, 8, 250]; + zero point -3 = [1, 5, 247 -> 127].
  Tensor y = run1("QLinearMatMul", {Tensor::from<int8_t>({4, -2, 6, 8, 127, -128}, {3, 2}),
                                    Tensor::scalar<float>(0.5f), Tensor::scalar<int8_t>(2),
                                    Tensor::from<int8_t>({3, 1}, {2, 1}),
                                    Tensor::scalar<float>(0.25f), Tensor::scalar<int8_t>(1),
                                    Tensor::scalar<float>(0.125f), Tensor::scalar<int8_t>(-3)});
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(values<int8_t>(y), (std::vector<int8_t>{1, 5, 127}));
  // Ties: acc [5, 7, -5] * 1 * 1 / 2 = [2.5, 3.5, -2.5] -> [2, 4, -2] (+ zero point 10, uint8).
  // Per-column B scale [1, 1, 1]: one scale per column of B [1, 3].
  y = run1("QLinearMatMul", {Tensor::from<uint8_t>({1}, {1, 1}), Tensor::scalar<float>(1.0f),
                             Tensor::scalar<uint8_t>(0), Tensor::from<int8_t>({5, 7, -5}, {1, 3}),
                             Tensor::from<float>({1, 1, 1}), Tensor::from<int8_t>({0, 0, 0}),
                             Tensor::scalar<float>(2.0f), Tensor::scalar<uint8_t>(10)});
  EXPECT_EQ(values<uint8_t>(y), (std::vector<uint8_t>{12, 14, 8}));
  // Per-row A scale [1, 2] on A [2, 1] = [[1], [1]] (zero point 0), B [[3]] scale 1:
  //   acc = [3, 3]; real = [3 * 1, 3 * 2] = [3, 6]; y_scale 1, zero point 0.
  y = run1("QLinearMatMul", {Tensor::from<uint8_t>({1, 1}, {2, 1}), Tensor::from<float>({1, 2}),
                             Tensor::from<uint8_t>({0, 0}), Tensor::from<uint8_t>({3}, {1, 1}),
                             Tensor::scalar<float>(1.0f), Tensor::scalar<uint8_t>(0),
                             Tensor::scalar<float>(1.0f), Tensor::scalar<uint8_t>(0)});
  EXPECT_EQ(values<uint8_t>(y), (std::vector<uint8_t>{3, 6}));
  EXPECT_THAT(error_of([&] {
                run1("QLinearMatMul",
                     {Tensor::from<uint8_t>({1}, {1, 1}), Tensor::scalar<float>(1.0f),
                      Tensor::scalar<uint8_t>(0), Tensor::from<uint8_t>({1}, {1, 1}),
                      Tensor::scalar<float>(1.0f), Tensor::scalar<uint8_t>(0),
                      Tensor::from<float>({1, 1}), Tensor::from<uint8_t>({0, 0})});
              }),
              HasSubstr("one element"));
}

TEST(ConvInteger, ZeroPointsAndPadding) {
  // x - 1 = [[0, 1, 2], [3, 4, 5], [6, 7, 8]]; w = [[1, 0], [0, 2]]:
  // y[i][j] = x'[i][j] + 2 x'[i+1][j+1] = [[0+8, 1+10], [3+14, 4+16]] = [[8, 11], [17, 20]]
  const Tensor x = Tensor::from<uint8_t>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 3, 3});
  Tensor y = run1("ConvInteger", {x, Tensor::from<int8_t>({1, 0, 0, 2}, {1, 1, 2, 2}),
                                  Tensor::scalar<uint8_t>(1)});
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{1, 1, 2, 2}));
  EXPECT_EQ(values<int32_t>(y), (std::vector<int32_t>{8, 11, 17, 20}));
  // Two output channels, per-channel w zero point [0, 1] on w = [[[[1]]], [[[3]]]]:
  // channel 0 = x', channel 1 = 2 x'. Padding 1 on the left of a 1x1 kernel
  // with stride 2 reads the padding (contributes 0) at column 0.
  y = run1("ConvInteger",
           {x, Tensor::from<uint8_t>({1, 3}, {2, 1, 1, 1}), Tensor::scalar<uint8_t>(1),
            Tensor::from<uint8_t>({0, 1})},
           {Attribute::make_ints("pads", {0, 1, 0, 0}), Attribute::make_ints("strides", {1, 2})});
  // Padded row r: [pad, x'[r][0], x'[r][1], x'[r][2]]; stride 2 picks columns 0 and 2:
  // [0, x'[r][1]] -> channel 0: [0,1], [0,4], [0,7]; channel 1 doubles.
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{1, 2, 3, 2}));
  EXPECT_EQ(values<int32_t>(y), (std::vector<int32_t>{0, 1, 0, 4, 0, 7, 0, 2, 0, 8, 0, 14}));
  EXPECT_THAT(error_of([&] {
                run1("ConvInteger", {Tensor::from<uint8_t>({1, 2}), Tensor::from<uint8_t>({1})});
              }),
              HasSubstr("rank >= 3"));
  EXPECT_THAT(error_of([&] {
                run1("ConvInteger", {x, Tensor::from<uint8_t>({1, 3}, {2, 1, 1, 1}),
                                     Tensor::from<uint8_t>({1, 2})});
              }),
              HasSubstr("scalar"));
}

TEST(QLinearConv, BiasAndPerChannelWeightScales) {
  // x - 10 = [[0, 10], [20, 30]] (x_scale 0.5); w int8 [[[[2]]], [[[-1]]]] with
  // w_scale [0.5, 1], zero point 0; B = [4, -2]; y_scale 1, y_zero_point 20.
  //   channel 0: acc = 2 x' + 4 = [4, 24, 44, 64]; * 0.5 * 0.5 = [1, 6, 11, 16]; + 20
  //   channel 1: acc = -x' - 2 = [-2, -12, -22, -32]; * 0.5 * 1 = [-1, -6, -11, -16]; + 20
  Tensor y = run1(
      "QLinearConv",
      {Tensor::from<uint8_t>({10, 20, 30, 40}, {1, 1, 2, 2}), Tensor::scalar<float>(0.5f),
       Tensor::scalar<uint8_t>(10), Tensor::from<int8_t>({2, -1}, {2, 1, 1, 1}),
       Tensor::from<float>({0.5f, 1.0f}), Tensor::from<int8_t>({0, 0}), Tensor::scalar<float>(1.0f),
       Tensor::scalar<uint8_t>(20), Tensor::from<int32_t>({4, -2})});
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{1, 2, 2, 2}));
  EXPECT_EQ(values<uint8_t>(y), (std::vector<uint8_t>{21, 26, 31, 36, 19, 14, 9, 4}));
  EXPECT_THAT(
      error_of([&] {
        run1("QLinearConv",
             {Tensor::from<uint8_t>({10, 20, 30, 40}, {1, 1, 2, 2}), Tensor::scalar<float>(0.5f),
              Tensor::scalar<uint8_t>(10), Tensor::from<int8_t>({2, -1}, {2, 1, 1, 1}),
              Tensor::from<float>({0.5f, 1, 1}), Tensor::from<int8_t>({0, 0}),
              Tensor::scalar<float>(1.0f), Tensor::scalar<uint8_t>(20)});
      }),
      HasSubstr("w_scale"));
}

// ------------------------------------------------------------ random

std::vector<double> draw(std::string_view op, std::vector<RuntimeValue> inputs,
                         std::vector<Attribute> attrs) {
  return doubles(run1(op, std::move(inputs), std::move(attrs)));
}

TEST(RandomUniform, SeededRepeatsUnseededDiffersAndStaysInRange) {
  const std::vector<Attribute> seeded{
      Attribute::make_ints("shape", {100, 100}), Attribute::make_float("low", 2.0f),
      Attribute::make_float("high", 5.0f), Attribute::make_float("seed", 7.0f)};
  const std::vector<double> a = draw("RandomUniform", {}, seeded);
  EXPECT_EQ(a, draw("RandomUniform", {}, seeded));
  std::vector<Attribute> other_seed = seeded;
  other_seed.back() = Attribute::make_float("seed", 7.5f);
  EXPECT_NE(a, draw("RandomUniform", {}, other_seed));
  const std::vector<Attribute> unseeded(seeded.begin(), seeded.end() - 1);
  EXPECT_NE(draw("RandomUniform", {}, unseeded), draw("RandomUniform", {}, unseeded));
  for (double v : a) {
    ASSERT_GE(v, 2.0);
    ASSERT_LT(v, 5.0);
  }
  // U(2, 5): mean 3.5, variance 3^2 / 12 = 0.75. With 10^4 draws the mean's
  // standard error is 0.0087 and the variance's about 0.007.
  EXPECT_NEAR(mean_of(a), 3.5, 0.05);
  EXPECT_NEAR(variance_of(a), 0.75, 0.05);
}

TEST(RandomUniform, DtypeAndLikeForms) {
  Tensor t =
      run1("RandomUniform", {},
           {Attribute::make_ints("shape", {2, 3}), Attribute::make_int("dtype", 11)});  // double
  EXPECT_EQ(t.dtype(), DataType::kDouble);
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{2, 3}));
  t = run1("RandomUniform", {},
           {Attribute::make_ints("shape", {1000}), Attribute::make_int("dtype", 10),
            Attribute::make_float("low", 0.999f)});  // float16 near high
  EXPECT_EQ(t.dtype(), DataType::kFloat16);
  for (double v : doubles(t)) {
    ASSERT_GE(v, 0.999 - 1e-3);
    ASSERT_LT(v, 1.0);  // a float16 draw that rounds up to high is drawn again
  }
  // RandomUniformLike: the input's shape and type unless dtype says otherwise.
  t = run1("RandomUniformLike", {Tensor::from<double>({1, 2, 3}, {3, 1})}, {});
  EXPECT_EQ(t.dtype(), DataType::kDouble);
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{3, 1}));
  const std::vector<Attribute> seeded{Attribute::make_float("seed", 3.0f)};
  EXPECT_EQ(draw("RandomUniformLike", {Tensor::from<float>({0, 0, 0, 0})}, seeded),
            draw("RandomUniformLike", {Tensor::from<float>({0, 0, 0, 0})}, seeded));
  EXPECT_THAT(error_of([&] {
                run1("RandomUniform", {},
                     {Attribute::make_ints("shape", {2}), Attribute::make_float("low", 3.0f),
                      Attribute::make_float("high", 1.0f)});
              }),
              HasSubstr("low <= high"));
  EXPECT_THAT(error_of([&] {
                run1("RandomUniform", {},
                     {Attribute::make_ints("shape", {2}), Attribute::make_int("dtype", 6)});
              }),
              HasSubstr("element type int32"));
}

TEST(RandomNormal, StatisticsSeedAndLike) {
  const std::vector<Attribute> attrs{
      Attribute::make_ints("shape", {10000}), Attribute::make_float("mean", 1.0f),
      Attribute::make_float("scale", 2.0f), Attribute::make_float("seed", 11.0f)};
  const std::vector<double> a = draw("RandomNormal", {}, attrs);
  EXPECT_EQ(a, draw("RandomNormal", {}, attrs));
  // N(1, 4): the mean's standard error is 0.02, the variance's about 0.057.
  EXPECT_NEAR(mean_of(a), 1.0, 0.1);
  EXPECT_NEAR(variance_of(a), 4.0, 0.3);
  // About 68% within one standard deviation of the mean.
  double inside = 0;
  for (double v : a) inside += std::abs(v - 1.0) < 2.0;
  EXPECT_NEAR(inside / a.size(), 0.6827, 0.03);
  // scale 0 is the mean everywhere.
  EXPECT_EQ(draw("RandomNormal", {},
                 {Attribute::make_ints("shape", {3}), Attribute::make_float("mean", -2.0f),
                  Attribute::make_float("scale", 0.0f)}),
            (std::vector<double>{-2, -2, -2}));
  // RandomNormalLike: shape from the input; an int input needs a float dtype.
  Tensor t = run1("RandomNormalLike", {Tensor::from<int64_t>({1, 2, 3, 4}, {2, 2})},
                  {Attribute::make_int("dtype", 10)});
  EXPECT_EQ(t.dtype(), DataType::kFloat16);
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_THAT(error_of([&] { run1("RandomNormalLike", {Tensor::from<int64_t>({1})}); }),
              HasSubstr("element type int64"));
  EXPECT_THAT(error_of([&] {
                run1("RandomNormal", {},
                     {Attribute::make_ints("shape", {2}), Attribute::make_float("scale", -1.0f)});
              }),
              HasSubstr("scale -1"));
}

TEST(Bernoulli, ProbabilitiesDtypeAndErrors) {
  // p = 0 never fires, p = 1 always does.
  Tensor t = run1("Bernoulli", {Tensor::from<float>({0, 1, 0, 1})}, {}, 15);
  EXPECT_EQ(values<float>(t), (std::vector<float>{0, 1, 0, 1}));
  t = run1("Bernoulli", {Tensor::from<double>({1, 0})}, {Attribute::make_int("dtype", 9)}, 15);
  EXPECT_EQ(values<bool>(t), (std::vector<bool>{true, false}));
  // p = 0.3 over 10^4 draws: the rate's standard error is 0.0046.
  std::vector<float> p(10000, 0.3f);
  const std::vector<Attribute> seeded{Attribute::make_float("seed", 5.0f),
                                      Attribute::make_int("dtype", 7)};  // int64
  Tensor a = run1("Bernoulli", {Tensor::from_span<float>(p)}, seeded, 15);
  Tensor b = run1("Bernoulli", {Tensor::from_span<float>(p)}, seeded, 15);
  EXPECT_EQ(values<int64_t>(a), values<int64_t>(b));
  double ones = 0;
  for (int64_t v : values<int64_t>(a)) ones += static_cast<double>(v);
  EXPECT_NEAR(ones / p.size(), 0.3, 0.03);
  EXPECT_THAT(error_of([&] { run1("Bernoulli", {Tensor::from<float>({1.5f})}, {}, 15); }),
              HasSubstr("outside [0, 1]"));
}

TEST(Multinomial, FrequenciesFollowSoftmax) {
  // log-probabilities log 0.2, log 0.8, -inf: class 1 about 80% of the time,
  // class 2 never. 10^4 draws: standard error 0.004.
  const Tensor logits = Tensor::from<float>(
      {std::log(0.2f), std::log(0.8f), -std::numeric_limits<float>::infinity()}, {1, 3});
  const std::vector<Attribute> attrs{Attribute::make_int("sample_size", 10000),
                                     Attribute::make_int("dtype", 7),
                                     Attribute::make_float("seed", 2.0f)};
  Tensor t = run1("Multinomial", {logits}, attrs, 7);
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{1, 10000}));
  const std::vector<int64_t> v = values<int64_t>(t);
  EXPECT_EQ(v, values<int64_t>(run1("Multinomial", {logits}, attrs, 7)));
  double ones = 0;
  for (int64_t c : v) {
    ASSERT_TRUE(c == 0 || c == 1) << c;
    ones += c == 1;
  }
  EXPECT_NEAR(ones / v.size(), 0.8, 0.03);
  // Default dtype int32, sample_size 1; two rows.
  t = run1("Multinomial", {Tensor::from<double>({0, -1e9, -1e9, 0}, {2, 2})}, {}, 7);
  EXPECT_EQ(values<int32_t>(t), (std::vector<int32_t>{0, 1}));
  EXPECT_THAT(error_of([&] {
                run1("Multinomial", {Tensor::from<float>({1, 2})}, {}, 7);
              }),
              HasSubstr("batch_size, class_size"));
  EXPECT_THAT(error_of([&] {
                run1("Multinomial",
                     {Tensor::from<float>({-std::numeric_limits<float>::infinity()}, {1, 1})}, {},
                     7);
              }),
              HasSubstr("no finite"));
}

// ------------------------------------------------------------ text

Tensor strings(std::vector<std::string> v, std::vector<int64_t> shape = {-1}) {
  return Tensor::from_span<std::string>(v, std::move(shape));
}

TEST(StringNormalizer, StopwordsCaseInsensitiveAndSensitive) {
  const Tensor x = strings({"The", "cat", "a", "THE", "Dog"});
  // Case-insensitive (the default): "The", "a", "THE" are stop words.
  Tensor y = run1("StringNormalizer", {x},
                  {Attribute::make_strings("stopwords", {"the", "A"}),
                   Attribute::make_string("case_change_action", "UPPER")});
  EXPECT_EQ(values<std::string>(y), (std::vector<std::string>{"CAT", "DOG"}));
  // Case-sensitive: only exact matches go; here none does.
  y = run1("StringNormalizer", {x},
           {Attribute::make_strings("stopwords", {"the", "A"}),
            Attribute::make_int("is_case_sensitive", 1),
            Attribute::make_string("case_change_action", "LOWER")});
  EXPECT_EQ(values<std::string>(y), (std::vector<std::string>{"the", "cat", "a", "the", "dog"}));
  // [1, C] keeps its leading 1; dropping everything leaves [[""]].
  y = run1("StringNormalizer", {strings({"a", "A"}, {1, 2})},
           {Attribute::make_strings("stopwords", {"a"})});
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(values<std::string>(y), (std::vector<std::string>{""}));
  y = run1("StringNormalizer", {strings({"x"})}, {Attribute::make_strings("stopwords", {"X"})});
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{1}));
}

TEST(StringNormalizer, Utf8SimpleCaseMapping) {
  // Latin-1, Greek (final sigma uppercases to Σ), Cyrillic; ß has no
  // one-character uppercase and stays.
  const Tensor x = strings({"Ärger", "straße", "σίσυφος", "Привет Ёж"});
  Tensor y = run1("StringNormalizer", {x},
                  {Attribute::make_string("case_change_action", "UPPER"),
                   Attribute::make_string("locale", "en_US")});
  EXPECT_EQ(values<std::string>(y),
            (std::vector<std::string>{"ÄRGER", "STRAßE", "ΣΊΣΥΦΟΣ", "ПРИВЕТ ЁЖ"}));
  y = run1("StringNormalizer", {x}, {Attribute::make_string("case_change_action", "LOWER")});
  EXPECT_EQ(values<std::string>(y),
            (std::vector<std::string>{"ärger", "straße", "σίσυφος", "привет ёж"}));
  // Caseless stop words across scripts: "ÉTÉ" matches "été", "ΣΟΦΟΣ" matches
  // "σοφος" (final sigma folds to σ); "ete" is another word.
  y = run1("StringNormalizer", {strings({"été", "σοφος", "ete"})},
           {Attribute::make_strings("stopwords", {"ÉTÉ", "ΣΟΦΟΣ"})});
  EXPECT_EQ(values<std::string>(y), (std::vector<std::string>{"ete"}));
  // Bytes that are not UTF-8 pass through.
  y = run1("StringNormalizer", {strings({std::string("a\xff") + "B"})},
           {Attribute::make_string("case_change_action", "UPPER")});
  EXPECT_EQ(values<std::string>(y), (std::vector<std::string>{std::string("A\xff") + "B"}));
}

TEST(StringNormalizer, Errors) {
  EXPECT_THAT(error_of([&] {
                run1("StringNormalizer", {strings({"a", "b", "c", "d"}, {2, 2})});
              }),
              HasSubstr("[C] or [1, C]"));
  EXPECT_THAT(error_of([&] {
                run1("StringNormalizer", {strings({"a"})},
                     {Attribute::make_string("locale", "tr_TR")});
              }),
              HasSubstr("tr_TR"));
  EXPECT_THAT(error_of([&] {
                run1("StringNormalizer", {strings({"a"})},
                     {Attribute::make_string("case_change_action", "TITLE")});
              }),
              HasSubstr("TITLE"));
  EXPECT_THAT(error_of([&] { run1("StringNormalizer", {Tensor::from<int32_t>({1})}); }),
              HasSubstr("string tensor"));
}

std::vector<Attribute> tfidf_attrs(std::string mode, int64_t min_n, int64_t max_n, int64_t skip,
                                   std::vector<int64_t> counts, std::vector<int64_t> indexes) {
  return {Attribute::make_string("mode", std::move(mode)),
          Attribute::make_int("min_gram_length", min_n),
          Attribute::make_int("max_gram_length", max_n),
          Attribute::make_int("max_skip_count", skip),
          Attribute::make_ints("ngram_counts", std::move(counts)),
          Attribute::make_ints("ngram_indexes", std::move(indexes))};
}

TEST(TfIdfVectorizer, SkipGramsAndModes) {
  // X = [1, 2, 3, 1, 2]. Bigrams with skip 0: (1,2) (2,3) (3,1) (1,2);
  // with skip 1 (every other item): (1,3) (2,1) (3,2).
  // Pool (bigrams only): (1,2) (1,3) (3,2) (2,2) -> output 0, 1, 2, 3.
  const Tensor x = Tensor::from<int64_t>({1, 2, 3, 1, 2});
  auto attrs = [&](std::string mode, int64_t skip) {
    auto a = tfidf_attrs(std::move(mode), 2, 2, skip, {0, 0}, {0, 1, 2, 3});
    a.push_back(Attribute::make_ints("pool_int64s", {1, 2, 1, 3, 3, 2, 2, 2}));
    a.push_back(Attribute::make_floats("weights", {0.5f, 2, 3, 4}));
    return a;
  };
  // TF, skips 0..1: (1,2) twice, (1,3) once, (3,2) once, (2,2) never.
  EXPECT_EQ(values<float>(run1("TfIdfVectorizer", {x}, attrs("TF", 1))),
            (std::vector<float>{2, 1, 1, 0}));
  // TF, no skips: only (1,2), twice.
  EXPECT_EQ(values<float>(run1("TfIdfVectorizer", {x}, attrs("TF", 0))),
            (std::vector<float>{2, 0, 0, 0}));
  // TFIDF: counts times weights = [2*0.5, 1*2, 1*3, 0].
  EXPECT_EQ(values<float>(run1("TfIdfVectorizer", {x}, attrs("TFIDF", 1))),
            (std::vector<float>{1, 2, 3, 0}));
  // IDF: min(count, 1) times weights = [0.5, 2, 3, 0].
  EXPECT_EQ(values<float>(run1("TfIdfVectorizer", {x}, attrs("IDF", 1))),
            (std::vector<float>{0.5f, 2, 3, 0}));
}

TEST(TfIdfVectorizer, UnigramsOnceRowsAndStrings) {
  // Unigrams ignore skips: [5, 5, 6] with max_skip_count 3 counts 5 twice, 6 once.
  auto a = tfidf_attrs("TF", 1, 1, 3, {0}, {1, 0});
  a.push_back(Attribute::make_ints("pool_int64s", {5, 6}));
  EXPECT_EQ(values<float>(run1("TfIdfVectorizer", {Tensor::from<int32_t>({5, 5, 6})}, a)),
            (std::vector<float>{1, 2}));
  // 2-D strings: n-grams stay inside their row. Pool: "a", "b", then ("b","a").
  // Row 0 [a, b, a]: a 2, b 1, (b,a) 1. Row 1 [b, b, a]: a 1, b 2, (b,a) 1 —
  // and no (a,b) across the row boundary, which is not in the pool anyway.
  auto s = tfidf_attrs("TF", 1, 2, 0, {0, 2}, {0, 1, 2});
  s.push_back(Attribute::make_strings("pool_strings", {"a", "b", "b", "a"}));
  Tensor y = run1("TfIdfVectorizer", {strings({"a", "b", "a", "b", "b", "a"}, {2, 3})}, s);
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values<float>(y), (std::vector<float>{2, 1, 1, 1, 2, 1}));
  // Errors: string input with an integer pool; index count mismatch; both pools.
  EXPECT_THAT(error_of([&] { run1("TfIdfVectorizer", {strings({"a"})}, a); }),
              HasSubstr("pool_int64s needs int32 or int64"));
  auto wrong = tfidf_attrs("TF", 1, 1, 0, {0}, {0});
  wrong.push_back(Attribute::make_ints("pool_int64s", {5, 6}));
  EXPECT_THAT(error_of([&] { run1("TfIdfVectorizer", {Tensor::from<int64_t>({5})}, wrong); }),
              HasSubstr("ngram_indexes has 1 entries"));
  auto both = a;
  both.push_back(Attribute::make_strings("pool_strings", {"a"}));
  EXPECT_THAT(error_of([&] { run1("TfIdfVectorizer", {Tensor::from<int64_t>({5})}, both); }),
              HasSubstr("exactly one"));
  auto odd = tfidf_attrs("TF", 2, 2, 0, {0, 0}, {0});
  odd.push_back(Attribute::make_ints("pool_int64s", {1, 2, 3}));
  EXPECT_THAT(error_of([&] { run1("TfIdfVectorizer", {Tensor::from<int64_t>({5})}, odd); }),
              HasSubstr("not a multiple of 2"));
}

// ------------------------------------------------------------ training

std::vector<RuntimeValue> train(std::string_view op, std::vector<RuntimeValue> inputs,
                                std::vector<Attribute> attrs, size_t outputs) {
  return run(op, std::move(inputs), std::move(attrs), outputs, 1, kTraining);
}

TEST(Adagrad, OneStep) {
  // R 0.1, T 1, decay 1: r = 0.1 / (1 + 1) = 0.05. norm 0.5:
  // G_reg = 0.5 X + G = [0.5 + 0.5, -1 + 1] = [1, 0]; H_new = H + G_reg^2 = [0 + 1, 3 + 0];
  // X_new = X - r G_reg / (sqrt(H_new) + 0) = [1 - 0.05, -2 - 0] = [0.95, -2].
  auto out = train(
      "Adagrad",
      {Tensor::scalar<float>(0.1f), Tensor::scalar<int64_t>(1), Tensor::from<float>({1, -2}),
       Tensor::from<float>({0.5f, 1}), Tensor::from<float>({0, 3})},
      {Attribute::make_float("decay_factor", 1.0f), Attribute::make_float("norm_coefficient", 0.5f),
       Attribute::make_float("epsilon", 0.0f)},
      2);
  expect_near(doubles(out[0].tensor()), {0.95, -2.0});
  expect_near(doubles(out[1].tensor()), {1.0, 3.0});
}

TEST(Momentum, StandardNesterovAndMultipleTensors) {
  const std::vector<Attribute> standard{
      Attribute::make_float("alpha", 0.9f), Attribute::make_float("beta", 0.1f),
      Attribute::make_float("norm_coefficient", 0.0f), Attribute::make_string("mode", "standard")};
  auto inputs = [](int64_t t) {
    return std::vector<RuntimeValue>{Tensor::scalar<double>(0.5), Tensor::scalar<int64_t>(t),
                                     Tensor::from<double>({1, 2}), Tensor::from<double>({2, -4}),
                                     Tensor::from<double>({1, 1})};
  };
  // T = 0: beta counts as 1. V_new = 0.9 V + G = [2.9, -3.1]; X_new = X - 0.5 V_new =
  // [-0.45, 3.55].
  auto out = train("Momentum", inputs(0), standard, 2);
  expect_near(doubles(out[0].tensor()), {-0.45, 3.55});
  expect_near(doubles(out[1].tensor()), {2.9, -3.1});
  // T = 1: V_new = 0.9 V + 0.1 G = [1.1, 0.5]; X_new = [1 - 0.55, 2 - 0.25].
  out = train("Momentum", inputs(1), standard, 2);
  expect_near(doubles(out[0].tensor()), {0.45, 1.75});
  // Nesterov, T = 1: X_new = X - R (G + alpha V_new) = [1 - 0.5 (2 + 0.99), 2 - 0.5 (-4 + 0.45)].
  std::vector<Attribute> nesterov = standard;
  nesterov.back() = Attribute::make_string("mode", "nesterov");
  out = train("Momentum", inputs(1), nesterov, 2);
  expect_near(doubles(out[0].tensor()), {-0.495, 3.775});
  expect_near(doubles(out[1].tensor()), {1.1, 0.5});
  // Two tensors: inputs R, T, X1, X2, G1, G2, V1, V2; outputs X1, X2, V1, V2.
  // X1 = [1], G1 = [1], V1 = [0]: V_new = 1, X_new = 1 - 0.5 = 0.5 (T = 0).
  // X2 = [2, 3], G2 = [0, 2], V2 = [1, 0]: V_new = [0.9, 2], X_new = [1.55, 2].
  out = train("Momentum",
              {Tensor::scalar<float>(0.5f), Tensor::scalar<int64_t>(0), Tensor::from<float>({1}),
               Tensor::from<float>({2, 3}), Tensor::from<float>({1}), Tensor::from<float>({0, 2}),
               Tensor::from<float>({0}), Tensor::from<float>({1, 0})},
              standard, 4);
  expect_near(doubles(out[0].tensor()), {0.5});
  expect_near(doubles(out[1].tensor()), {1.55, 2.0});
  expect_near(doubles(out[2].tensor()), {1.0});
  expect_near(doubles(out[3].tensor()), {0.9, 2.0});
  EXPECT_THAT(error_of([&] {
                std::vector<Attribute> bad = standard;
                bad.back() = Attribute::make_string("mode", "heavy");
                train("Momentum", inputs(0), bad, 2);
              }),
              HasSubstr("heavy"));
  EXPECT_THAT(
      error_of([&] {
        train("Momentum",
              {Tensor::scalar<float>(0.5f), Tensor::scalar<int64_t>(0), Tensor::from<float>({1, 2}),
               Tensor::from<float>({1}), Tensor::from<float>({1, 2})},
              standard, 2);
      }),
      HasSubstr("type and shape of X_1"));
}

TEST(Adam, OneStepWithPostNorm) {
  // R 0.1, T 2, alpha 0.5, beta 0.75, epsilon 0, norm_coefficient_post 0.1;
  // X 1, G 2, V 1, H 4:
  //   V_new = 0.5 * 1 + 0.5 * 2 = 1.5; H_new = 0.75 * 4 + 0.25 * 4 = 4
  //   R_adj = 0.1 * sqrt(1 - 0.75^2) / (1 - 0.5^2) = 0.1 * 0.6614378278 / 0.75 = 0.0881917104
  //   X_new = (1 - 0.1) * (1 - 0.0881917104 * 1.5 / 2) = 0.9 * 0.9338562172 = 0.8404705955
  auto out =
      train("Adam",
            {Tensor::scalar<float>(0.1f), Tensor::scalar<int64_t>(2), Tensor::from<float>({1}),
             Tensor::from<float>({2}), Tensor::from<float>({1}), Tensor::from<float>({4})},
            {Attribute::make_float("alpha", 0.5f), Attribute::make_float("beta", 0.75f),
             Attribute::make_float("epsilon", 0.0f),
             Attribute::make_float("norm_coefficient_post", 0.1f)},
            3);
  expect_near(doubles(out[0].tensor()), {0.8404705955});
  expect_near(doubles(out[1].tensor()), {1.5});
  expect_near(doubles(out[2].tensor()), {4.0});
  EXPECT_THAT(error_of([&] {
                train(
                    "Adam",
                    {Tensor::scalar<float>(0.1f), Tensor::scalar<int64_t>(2),
                     Tensor::from<float>({1}), Tensor::from<float>({2}), Tensor::from<float>({1})},
                    {}, 3);
              }),
              HasSubstr("4 groups"));
}

// y = x * w - x / z, with Gradient(xs = [x, w], zs = [z], y = y) fed from
// separate graph inputs x_at, w_at, z_at: the point at which to differentiate.
ir::Model gradient_model(std::vector<int64_t> x_shape) {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports.set("", 17);
  m.opset_imports.set(kTraining, 1);
  ir::Graph& g = m.graph();
  auto floats = [](std::vector<int64_t> shape) {
    ir::Shape dims;
    for (int64_t d : shape) dims.push_back(ir::Dim(d));
    return ir::Type::tensor(DataType::kFloat, dims);
  };
  ir::Value* x = g.add_input("x", floats(x_shape));
  ir::Value* w = g.add_input("w", floats({}));
  ir::Value* z = g.add_input("z", floats({}));
  ir::Value* x_at = g.add_input("x_at", floats(x_shape));
  ir::Value* w_at = g.add_input("w_at", floats({}));
  ir::Value* z_at = g.add_input("z_at", floats({}));
  ir::Node* mul = g.append_node("Mul", {x, w}, 1);
  ir::Node* div = g.append_node("Div", {x, z}, 1);
  ir::Node* sub = g.append_node("Sub", {mul->output(0), div->output(0)}, 1);
  mul->output(0)->set_name("xw");
  div->output(0)->set_name("x_over_z");
  sub->output(0)->set_name("y");
  ir::Node* grad = g.append_node("Gradient", {x_at, w_at, z_at}, 2, kTraining);
  grad->set_attribute(Attribute::make_strings("xs", {"x", "w"}));
  grad->set_attribute(Attribute::make_strings("zs", {"z"}));
  grad->set_attribute(Attribute::make_string("y", "y"));
  grad->output(0)->set_name("dy_dx");
  grad->output(1)->set_name("dy_dw");
  g.outputs() = {sub->output(0), grad->output(0), grad->output(1)};
  return m;
}

TEST(Gradient, ReverseModeAtTheGivenPoint) {
  Session session(gradient_model({2}));
  // The forward inputs are unrelated to the point of differentiation.
  std::vector<RuntimeValue> in{Tensor::from<float>({100, 200}), Tensor::scalar<float>(9.0f),
                               Tensor::scalar<float>(9.0f),     Tensor::from<float>({1, 2}),
                               Tensor::scalar<float>(3.0f),     Tensor::scalar<float>(4.0f)};
  auto out = session.run(in);
  // At x = [1, 2], w = 3, z = 4, y = x w - x / z; the gradient of sum(y):
  //   d/dx = w - 1/z = 2.75 per element; d/dw = sum(x) = 3 (w broadcasts over x).
  expect_near(doubles(out[1].tensor()), {2.75, 2.75});
  expect_near(doubles(out[2].tensor()), {3.0});
  EXPECT_EQ(out[2].tensor().shape(), std::vector<int64_t>{});
}

TEST(Gradient, ErrorsNameWhatIsMissing) {
  // Eagerly there is no graph to differentiate.
  EXPECT_THAT(error_of([&] {
                run("Gradient", {Tensor::scalar<float>(1.0f)},
                    {Attribute::make_strings("xs", {"a"}), Attribute::make_string("y", "b")}, 1, 1,
                    kTraining);
              }),
              HasSubstr("not eagerly"));
  // An operator without a derivative here.
  ir::Model m = gradient_model({2});
  ir::Graph& g = m.graph();
  for (ir::Node* n : g.nodes())
    if (n->op_type() == "Gradient") n->set_attribute(Attribute::make_string("y", "softmax"));
  ir::Node* soft = g.insert_node_before(g.last_node(), "Softmax", {g.inputs()[0]}, 1);
  soft->output(0)->set_name("softmax");
  Session session(std::move(m));
  std::vector<RuntimeValue> in{Tensor::from<float>({1, 2}), Tensor::scalar<float>(1.0f),
                               Tensor::scalar<float>(1.0f), Tensor::from<float>({1, 2}),
                               Tensor::scalar<float>(1.0f), Tensor::scalar<float>(1.0f)};
  EXPECT_THAT(error_of([&] { session.run(in); }), HasSubstr("cannot differentiate Softmax"));
}

}  // namespace
}  // namespace onnxscript::eval
