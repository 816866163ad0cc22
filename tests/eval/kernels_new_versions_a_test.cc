// Tests for the kernels of operator versions newer than opset 17, group A
// (tensor, image and text): Resize-18/19, Split-18, Pad-18/19/21+,
// GridSample-20/22, Range-27, CumProd-26, BitCast-26, TensorScatter-24,
// CenterCropPad-18, Col2Im-18, AffineGrid-20, StringConcat-20 and
// StringSplit-20. Each runs at exactly the version it tests, so each fails
// without its kernel. Every expected value is worked out by hand from the
// operator's specification in the comment above it.
#include <cstdint>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "eval/kernel_test_util.h"
#include "onnxscript/eval/eager.h"

namespace onnxscript::eval {
namespace {

using ::testing::ElementsAre;
using ::testing::FloatNear;
using ::testing::HasSubstr;
using ::testing::Pointwise;
using A = ir::Attribute;

using test_util::error_of;
using test_util::values;

std::vector<int64_t> shape_of(const RuntimeValue& v) { return v.tensor().shape().to_vector(); }

auto near(std::vector<float> v) { return Pointwise(FloatNear(1e-4f), v); }

const RuntimeValue kNone{};

// ---- Resize-18 and Resize-19 ----

RuntimeValue resize(const Tensor& x, RuntimeValue scales, RuntimeValue sizes,
                    std::initializer_list<A> attrs, int64_t version, RuntimeValue roi = {}) {
  return run_op("Resize", {x, roi, scales, sizes}, attrs, 1, version)[0];
}

// antialias: x = [0, 10, 20, 30] to 2 (scale 0.5), half_pixel: c = 2 o + 0.5.
// The triangle kernel stretched by 1 / 0.5 reaches 2 samples either side:
// taps -1, 0, 1, 2 around base 0 with ratio 0.5 weigh 1 - |0.5 (i - 0.5)| =
// 0.25, 0.75, 0.75, 0.25, divided by their sum 2: 0.125, 0.375, 0.375, 0.125.
//   o = 0: taps at -1 (edge: 0), 0, 1, 2: 0.375 * 10 + 0.125 * 20 = 6.25
//   o = 1: taps at 1, 2, 3, 4 (edge: 30): 1.25 + 7.5 + 11.25 + 3.75 = 23.75
// Without antialias, linear reads c: 5 and 25.
TEST(Resize18, AntialiasStretchesLinearWhenShrinking) {
  const Tensor x = Tensor::from<float>({0, 10, 20, 30});
  const Tensor sizes = Tensor::from<int64_t>({2});
  const A linear = A::make_string("mode", "linear");
  EXPECT_THAT(values<float>(resize(x, kNone, sizes, {linear, A::make_int("antialias", 1)}, 18)),
              near({6.25f, 23.75f}));
  EXPECT_THAT(values<float>(resize(x, kNone, sizes, {linear}, 18)), near({5, 25}));
  // Growing (scale 2), antialias changes nothing: half_pixel c = (o + 0.5) / 2 - 0.5.
  EXPECT_THAT(values<float>(resize(Tensor::from<float>({0, 10}), Tensor::from<float>({2}), kNone,
                                   {linear, A::make_int("antialias", 1)}, 19)),
              near({0, 2.5f, 7.5f, 10}));
  // Cubic at scale 0.5 on the ramp [0, 10, ..., 70] to 4: o = 1 samples c =
  // 2.5, base 2, ratio 0.5, taps i = -3 .. 4 weighing W(|0.5 (i - 0.5)|) for
  // Keys' W (a = -0.75): W(1.75) = -0.03515625, W(1.25) = -0.10546875,
  // W(0.75) = 0.26171875, W(0.25) = 0.87890625, each twice; the sum is 2, so
  // the outer taps weigh -0.017578125. They are inputs -1 and 6; -1 reads the
  // edge 0 instead of the ramp's -10, so y = 25 + 10 * -0.017578125 =
  // 24.82421875. o = 2 (c = 4.5) mirrors it: input 8 reads 70, not 80:
  // 45 + 0.17578125.
  const Tensor ramp = Tensor::from<float>({0, 10, 20, 30, 40, 50, 60, 70});
  const auto y =
      values<float>(resize(ramp, kNone, Tensor::from<int64_t>({4}),
                           {A::make_string("mode", "cubic"), A::make_int("antialias", 1)}, 18));
  EXPECT_NEAR(y[1], 24.82421875f, 1e-4f);
  EXPECT_NEAR(y[2], 45.17578125f, 1e-4f);
}

// axes names the axes scales / sizes / roi refer to; the others keep their
// length. X = [[0, 10, 20, 30], [100, 110, 120, 130]], axes [-1], scale 0.5,
// nearest (round_prefer_floor), half_pixel: c = 2 o + 0.5 -> 0, 2.
TEST(Resize18, AxesAndKeepAspectRatioPolicy) {
  const Tensor x = Tensor::from<float>({0, 10, 20, 30, 100, 110, 120, 130}, {2, 4});
  auto y = resize(x, Tensor::from<float>({0.5f}), kNone, {A::make_ints("axes", {-1})}, 18);
  EXPECT_EQ(shape_of(y), (std::vector<int64_t>{2, 2}));
  EXPECT_THAT(values<float>(y), ElementsAre(0, 20, 100, 120));
  // Before 18 the scales must cover every axis.
  EXPECT_THAT(error_of([&] {
                resize(x, Tensor::from<float>({0.5f}), kNone, {A::make_ints("axes", {1})}, 13);
              }),
              HasSubstr("scales has 1 elements but X has rank 2"));
  // X [3, 5] with sizes [2, 2]: not_larger takes min(2/3, 2/5) = 0.4 ->
  // [round(1.2), round(2)] = [1, 2]; not_smaller max = 2/3 -> [2, round(3.33)] = [2, 3].
  const Tensor x35(DataType::kFloat, {3, 5});
  const Tensor sizes = Tensor::from<int64_t>({2, 2});
  auto policy = [](const char* p) { return A::make_string("keep_aspect_ratio_policy", p); };
  EXPECT_EQ(shape_of(resize(x35, kNone, sizes, {policy("not_larger")}, 18)),
            (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(shape_of(resize(x35, kNone, sizes, {policy("not_smaller")}, 19)),
            (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(shape_of(resize(x35, kNone, sizes, {policy("stretch")}, 18)),
            (std::vector<int64_t>{2, 2}));
  EXPECT_THAT(error_of([&] { resize(x35, kNone, sizes, {policy("fit")}, 18); }),
              HasSubstr("unknown keep_aspect_ratio_policy 'fit'"));
  // tf_crop_and_resize with axes: the roi names only axis 1 ([start, end] =
  // [0, 1]); axis 0 keeps [0, 1] too. Sizes [3] on axis 1, linear:
  // c = o * 3 / 2 = 0, 1.5, 3 -> 0, 15, 30 on row 0.
  y = resize(x, kNone, Tensor::from<int64_t>({3}),
             {A::make_ints("axes", {1}), A::make_string("mode", "linear"),
              A::make_string("coordinate_transformation_mode", "tf_crop_and_resize")},
             18, Tensor::from<float>({0, 1}));
  EXPECT_THAT(values<float>(y), near({0, 15, 30, 100, 115, 130}));
}

// half_pixel_symmetric (19): x = [0, 10, 20, 30], scale 0.7: 2 outputs, L' =
// 2.8. adjustment = 2 / 2.8, offset = 4 / 2 * (1 - adjustment) = 0.571429;
// c = offset + (o + 0.5) / 0.7 - 0.5 = 0.785714, 2.214286 (symmetric: 0.785714
// from either end); linear gives 10 c.
TEST(Resize19, HalfPixelSymmetric) {
  const Tensor x = Tensor::from<float>({0, 10, 20, 30});
  const A symmetric = A::make_string("coordinate_transformation_mode", "half_pixel_symmetric");
  EXPECT_THAT(values<float>(resize(x, Tensor::from<float>({0.7f}), kNone,
                                   {symmetric, A::make_string("mode", "linear")}, 19)),
              near({7.857143f, 22.142857f}));
  EXPECT_THAT(error_of([&] { resize(x, Tensor::from<float>({0.7f}), kNone, {symmetric}, 18); }),
              HasSubstr("unknown coordinate_transformation_mode 'half_pixel_symmetric'"));
}

// ---- Split-18 ----

// num_outputs: 7 elements into 4 -> ceil(7 / 4) = 2 each, the last gets 1.
TEST(Split18, NumOutputsMakesTheLastChunkSmaller) {
  const Tensor x = Tensor::from<int32_t>({1, 2, 3, 4, 5, 6, 7});
  auto y = run_op("Split", {x}, {A::make_int("num_outputs", 4)}, 4, 18);
  ASSERT_EQ(y.size(), 4u);
  EXPECT_THAT(values<int32_t>(y[0]), ElementsAre(1, 2));
  EXPECT_THAT(values<int32_t>(y[2]), ElementsAre(5, 6));
  EXPECT_THAT(values<int32_t>(y[3]), ElementsAre(7));
  // The split input still works, and the two together are refused.
  y = run_op("Split", {x, Tensor::from<int64_t>({3, 4})}, {}, 2, 18);
  EXPECT_THAT(values<int32_t>(y[1]), ElementsAre(4, 5, 6, 7));
  EXPECT_THAT(
      error_of([&] {
        run_op("Split", {x, Tensor::from<int64_t>({3, 4})}, {A::make_int("num_outputs", 2)}, 2, 18);
      }),
      HasSubstr("split and num_outputs are both given"));
  EXPECT_THAT(error_of([&] { run_op("Split", {x}, {A::make_int("num_outputs", 3)}, 4, 18); }),
              HasSubstr("num_outputs is 3 but the node has 4 outputs"));
}

// ---- Pad-18, 19, 21+ ----

TEST(Pad18, AxesWrapAndPackedTypes) {
  // axes [1] (here -1): pads [1, 1] applies to the columns only.
  const Tensor x = Tensor::from<float>({1, 2, 3, 4}, {2, 2});
  auto y = run_op("Pad", {x, Tensor::from<int64_t>({1, 1}), kNone, Tensor::from<int64_t>({-1})}, {},
                  1, 18)[0];
  EXPECT_EQ(shape_of(y), (std::vector<int64_t>{2, 4}));
  EXPECT_THAT(values<float>(y), ElementsAre(0, 1, 2, 0, 0, 3, 4, 0));
  // wrap (19): [1, 2, 3] with pads [2, 1]: output o reads (o - 2) mod 3.
  const Tensor v = Tensor::from<int64_t>({1, 2, 3});
  const A wrap = A::make_string("mode", "wrap");
  EXPECT_THAT(values<int64_t>(run_op("Pad", {v, Tensor::from<int64_t>({2, 1})}, {wrap}, 1, 19)[0]),
              ElementsAre(2, 3, 1, 2, 3, 1));
  EXPECT_THAT(error_of([&] {
                run_op("Pad", {v, Tensor::from<int64_t>({2, 1})}, {wrap}, 1, 18);
              }),
              HasSubstr("unsupported mode 'wrap'"));
  // int4 (21+): [1, -2, 3] packed low nibble first is 0xE1 0x03; padded in
  // front with 5: [5, 1, -2, 3] is 0x15 0x3E.
  Tensor i4(DataType::kInt4, {3});
  static_cast<uint8_t*>(i4.raw_data())[0] = 0xE1;
  static_cast<uint8_t*>(i4.raw_data())[1] = 0x03;
  Tensor five(DataType::kInt4, {});
  static_cast<uint8_t*>(five.raw_data())[0] = 0x05;
  for (int64_t version : {21, 25}) {
    const Tensor p =
        run_op("Pad", {i4, Tensor::from<int64_t>({1, 0}), five}, {}, 1, version)[0].tensor();
    ASSERT_EQ(p.nbytes(), 2u);
    EXPECT_EQ(static_cast<const uint8_t*>(p.raw_data())[0], 0x15);
    EXPECT_EQ(static_cast<const uint8_t*>(p.raw_data())[1], 0x3E);
  }
  EXPECT_THAT(error_of([&] {
                run_op("Pad", {i4, Tensor::from<int64_t>({1, 0})}, {}, 1, 19);
              }),
              HasSubstr("element type int4 needs Pad-21 or later"));
}

// ---- GridSample-20 and 22 ----

// 3-D: X[d, h, w] = 4 d + 2 h + w on a 2x2x2 volume; grid points (x, y, z)
// with align_corners=1 map -1 and 1 to indices 0 and 1.
//   (0, 0, 0): the centre, trilinear mean 3.5
//   (1, -1, -1): w 1, h 0, d 0 -> 1;  (-1, 1, 1): w 0, h 1, d 1 -> 6
TEST(GridSample20, VolumetricAndOneDimensional) {
  const Tensor x = Tensor::from<float>({0, 1, 2, 3, 4, 5, 6, 7}, {1, 1, 2, 2, 2});
  const Tensor grid = Tensor::from<float>({0, 0, 0, 1, -1, -1, -1, 1, 1}, {1, 1, 1, 3, 3});
  const A align = A::make_int("align_corners", 1);
  auto y = run_op("GridSample", {x, grid}, {align}, 1, 20)[0];
  EXPECT_EQ(shape_of(y), (std::vector<int64_t>{1, 1, 1, 1, 3}));
  EXPECT_THAT(values<float>(y), near({3.5f, 1, 6}));
  // nearest rounds 0.5 half to even: index 0 on each axis -> 0.
  EXPECT_THAT(values<float>(run_op("GridSample", {x, grid},
                                   {align, A::make_string("mode", "nearest")}, 1, 20)[0]),
              near({0, 1, 6}));
  // 20 renamed bilinear to linear; 16 takes only 4-D input.
  EXPECT_THAT(error_of([&] {
                run_op("GridSample", {x, grid}, {A::make_string("mode", "bilinear")}, 1, 20);
              }),
              HasSubstr("unknown mode 'bilinear' (expected linear, nearest or cubic)"));
  EXPECT_THAT(error_of([&] {
                run_op("GridSample", {x, grid}, {}, 1, 16);
              }),
              HasSubstr("X must be 4-D"));
  // 1-D: X = [0, 10, 20], grid -1 -> 0, 0.5 -> 1.5 (align_corners) -> 0, 15.
  EXPECT_THAT(values<float>(run_op("GridSample",
                                   {Tensor::from<float>({0, 10, 20}, {1, 1, 3}),
                                    Tensor::from<float>({-1, 0.5f}, {1, 2, 1})},
                                   {align}, 1, 20)[0]),
              near({0, 15}));
  // cubic at the centre of a 4x4 ramp X[h, w] = w with border padding: by
  // symmetry of the weights about 1.5, the value is 1.5.
  std::vector<float> ramp;
  for (int h = 0; h < 4; ++h)
    for (int w = 0; w < 4; ++w) ramp.push_back(static_cast<float>(w));
  EXPECT_THAT(
      values<float>(run_op(
          "GridSample",
          {Tensor::from_span<float>(ramp, {1, 1, 4, 4}), Tensor::from<float>({0, 0}, {1, 1, 1, 2})},
          {A::make_string("mode", "cubic"), A::make_string("padding_mode", "border")}, 1, 20)[0]),
      near({1.5f}));
}

// 22 adds bfloat16: X = [2, 4] (H 1, W 2), point (0, 0) with align_corners
// -> w 0.5, h 0 -> 3, exact in bfloat16.
TEST(GridSample22, Bfloat16) {
  const Tensor x = Tensor::from<bfloat16>({bfloat16(2.0f), bfloat16(4.0f)}, {1, 1, 1, 2});
  const Tensor grid = Tensor::from<float>({0, 0}, {1, 1, 1, 2});
  const A align = A::make_int("align_corners", 1);
  const auto y = values<bfloat16>(run_op("GridSample", {x, grid}, {align}, 1, 22)[0]);
  ASSERT_EQ(y.size(), 1u);
  EXPECT_EQ(static_cast<float>(y[0]), 3.0f);
  EXPECT_THAT(error_of([&] {
                run_op("GridSample", {x, grid}, {align}, 1, 20);
              }),
              HasSubstr("X must be float16, float or double"));
}

// ---- Range-27, CumProd-26, BitCast-26 ----

// float16 [1, 2) by 0.25: ceil(1 / 0.25) = 4 elements, computed in float.
TEST(Range27, Float16AndStashType) {
  auto h = [](float v) { return Tensor::scalar(float16(v)); };
  for (int64_t stash : {1, 11}) {
    const auto y = values<float16>(
        run_op("Range", {h(1), h(2), h(0.25f)}, {A::make_int("stash_type", stash)}, 1, 27)[0]);
    ASSERT_EQ(y.size(), 4u);
    EXPECT_EQ(static_cast<float>(y[3]), 1.75f);
  }
  EXPECT_THAT(error_of([&] {
                run_op("Range", {h(1), h(2), h(0.25f)}, {}, 1, 11);
              }),
              HasSubstr("element type float16 needs Range-27"));
  EXPECT_THAT(values<int32_t>(run_op("Range",
                                     {Tensor::scalar<int32_t>(10), Tensor::scalar<int32_t>(4),
                                      Tensor::scalar<int32_t>(-3)},
                                     {}, 1, 27)[0]),
              ElementsAre(10, 7));
}

TEST(CumProd26, ExclusiveReverseAndAxis) {
  const Tensor x = Tensor::from<float>({1, 2, 3, 4});
  const Tensor axis = Tensor::scalar<int64_t>(0);
  EXPECT_THAT(values<float>(run_op("CumProd", {x, axis}, {}, 1, 26)[0]), ElementsAre(1, 2, 6, 24));
  EXPECT_THAT(values<float>(run_op("CumProd", {x, axis}, {A::make_int("exclusive", 1)}, 1, 26)[0]),
              ElementsAre(1, 1, 2, 6));
  EXPECT_THAT(values<float>(run_op("CumProd", {x, axis}, {A::make_int("reverse", 1)}, 1, 26)[0]),
              ElementsAre(24, 24, 12, 4));
  // [[1, 2], [3, 4]] along axis -1 (int32 axis input).
  EXPECT_THAT(
      values<int32_t>(run_op(
          "CumProd", {Tensor::from<int32_t>({1, 2, 3, 4}, {2, 2}), Tensor::scalar<int32_t>(-1)}, {},
          1, 26)[0]),
      ElementsAre(1, 2, 3, 12));
}

// 1.0f is 0x3F800000 = 1065353216; int8 -1 is the byte 255.
TEST(BitCast26, ReinterpretsBitsOfEqualWidth) {
  const A to_int32 = A::make_int("to", static_cast<int64_t>(DataType::kInt32));
  auto y = run_op("BitCast", {Tensor::from<float>({1.0f, -0.0f}, {2, 1})}, {to_int32}, 1, 26)[0];
  EXPECT_EQ(shape_of(y), (std::vector<int64_t>{2, 1}));
  EXPECT_THAT(values<int32_t>(y), ElementsAre(1065353216, INT32_MIN));
  EXPECT_THAT(values<uint8_t>(run_op("BitCast", {Tensor::from<int8_t>({-1, 5})},
                                     {A::make_int("to", static_cast<int64_t>(DataType::kUint8))}, 1,
                                     26)[0]),
              ElementsAre(255, 5));
  EXPECT_THAT(error_of([&] {
                run_op("BitCast", {Tensor::from<float>({1.0f})},
                       {A::make_int("to", static_cast<int64_t>(DataType::kInt64))}, 1, 26);
              }),
              HasSubstr("float has 32 bits but int64 has 64"));
}

// ---- TensorScatter-24, CenterCropPad-18, Col2Im-18, AffineGrid-20 ----

// Cache [2, 4, 1] of zeros (batch 2, sequence axis -2 = 1), update [2, 2, 1]
// = [[1, 2], [3, 4]].
TEST(TensorScatter24, LinearAndCircular) {
  const Tensor cache(DataType::kFloat, {2, 4, 1});
  const Tensor update = Tensor::from<float>({1, 2, 3, 4}, {2, 2, 1});
  // No write_indices: both at 0.
  EXPECT_THAT(values<float>(run_op("TensorScatter", {cache, update}, {}, 1, 24)[0]),
              ElementsAre(1, 2, 0, 0, 3, 4, 0, 0));
  // linear at [0, 2].
  EXPECT_THAT(values<float>(run_op("TensorScatter", {cache, update, Tensor::from<int64_t>({0, 2})},
                                   {}, 1, 24)[0]),
              ElementsAre(1, 2, 0, 0, 0, 0, 3, 4));
  // circular at [1, 3]: batch 1 writes positions 3 and 0.
  EXPECT_THAT(values<float>(run_op("TensorScatter", {cache, update, Tensor::from<int64_t>({1, 3})},
                                   {A::make_string("mode", "circular")}, 1, 24)[0]),
              ElementsAre(0, 1, 2, 0, 4, 0, 0, 3));
  EXPECT_THAT(error_of([&] {
                run_op("TensorScatter", {cache, update, Tensor::from<int64_t>({1, 3})}, {}, 1, 24);
              }),
              HasSubstr("write index 3 does not fit 2 entries in a cache of 4 (linear mode)"));
}

// Cropping 5 to 3 starts at (5 - 3) / 2 = 1; padding 5 to 8 puts (8 - 5) / 2
// = 1 zero before and 2 after.
TEST(CenterCropPad18, CropPadAndAxes) {
  const Tensor x = Tensor::from<int32_t>({1, 2, 3, 4, 5});
  EXPECT_THAT(
      values<int32_t>(run_op("CenterCropPad", {x, Tensor::from<int64_t>({3})}, {}, 1, 18)[0]),
      ElementsAre(2, 3, 4));
  EXPECT_THAT(
      values<int32_t>(run_op("CenterCropPad", {x, Tensor::from<int64_t>({8})}, {}, 1, 18)[0]),
      ElementsAre(0, 1, 2, 3, 4, 5, 0, 0));
  // axes [-1] on [[1, 2, 3], [4, 5, 6]]: 3 -> 2 starts at 0.
  auto y = run_op("CenterCropPad",
                  {Tensor::from<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3}), Tensor::from<int32_t>({2})},
                  {A::make_ints("axes", {-1})}, 1, 18)[0];
  EXPECT_EQ(shape_of(y), (std::vector<int64_t>{2, 2}));
  EXPECT_THAT(values<int32_t>(y), ElementsAre(1, 2, 4, 5));
}

// 1-D image of 4, block 2: with stride 1 there are 3 positions; block
// element k of position p lands on p + k. Columns [1, 2, 3] (k 0) and
// [10, 20, 30] (k 1) give [1, 2 + 10, 3 + 20, 30]. With stride 2 there are 2
// positions and element k of position p lands on 2 p + k.
TEST(Col2Im18, SumsOverlappingBlocks) {
  const Tensor cols = Tensor::from<float>({1, 2, 3, 10, 20, 30}, {1, 2, 3});
  auto y = run_op("Col2Im", {cols, Tensor::from<int64_t>({4}), Tensor::from<int64_t>({2})}, {}, 1,
                  18)[0];
  EXPECT_EQ(shape_of(y), (std::vector<int64_t>{1, 1, 4}));
  EXPECT_THAT(values<float>(y), ElementsAre(1, 12, 23, 30));
  EXPECT_THAT(values<float>(run_op("Col2Im",
                                   {Tensor::from<float>({1, 2, 10, 20}, {1, 2, 2}),
                                    Tensor::from<int64_t>({4}), Tensor::from<int64_t>({2})},
                                   {A::make_ints("strides", {2})}, 1, 18)[0]),
              ElementsAre(1, 10, 2, 20));
  EXPECT_THAT(
      error_of([&] {
        run_op("Col2Im", {cols, Tensor::from<int64_t>({5}), Tensor::from<int64_t>({2})}, {}, 1, 18);
      }),
      HasSubstr("input has 3 block positions but the image holds 4"));
}

// Identity theta on a 2x2 output: base coordinates (2 i + 1) / 2 - 1 = -0.5,
// 0.5 (align_corners=0) or -1, 1 (align_corners=1); grid[h, w] = (x_w, y_h).
TEST(AffineGrid20, TwoAndThreeDimensions) {
  const Tensor identity = Tensor::from<float>({1, 0, 0, 0, 1, 0}, {1, 2, 3});
  const Tensor size = Tensor::from<int64_t>({1, 1, 2, 2});
  auto y = run_op("AffineGrid", {identity, size}, {}, 1, 20)[0];
  EXPECT_EQ(shape_of(y), (std::vector<int64_t>{1, 2, 2, 2}));
  EXPECT_THAT(values<float>(y), near({-0.5f, -0.5f, 0.5f, -0.5f, -0.5f, 0.5f, 0.5f, 0.5f}));
  // theta [[1, 0, 0.25], [0, 2, 0]] with align_corners: (x + 0.25, 2 y).
  const Tensor theta = Tensor::from<float>({1, 0, 0.25f, 0, 2, 0}, {1, 2, 3});
  EXPECT_THAT(values<float>(
                  run_op("AffineGrid", {theta, size}, {A::make_int("align_corners", 1)}, 1, 20)[0]),
              near({-0.75f, -2, 1.25f, -2, -0.75f, 2, 1.25f, 2}));
  // 3-D, D = H = 1 (coordinate 0), W = 2 with align_corners: x = -1, 1.
  const Tensor identity3 = Tensor::from<float>({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}, {1, 3, 4});
  y = run_op("AffineGrid", {identity3, Tensor::from<int64_t>({1, 1, 1, 1, 2})},
             {A::make_int("align_corners", 1)}, 1, 20)[0];
  EXPECT_EQ(shape_of(y), (std::vector<int64_t>{1, 1, 1, 2, 3}));
  EXPECT_THAT(values<float>(y), near({-1, 0, 0, 1, 0, 0}));
}

// ---- StringConcat-20, StringSplit-20 ----

TEST(StringConcat20, Broadcasts) {
  auto y = run_op(
      "StringConcat",
      {Tensor::from<std::string>({"a", "b"}, {2, 1}), Tensor::from<std::string>({"x", "y", "z"})},
      {}, 1, 20)[0];
  EXPECT_EQ(shape_of(y), (std::vector<int64_t>{2, 3}));
  EXPECT_THAT(values<std::string>(y), ElementsAre("ax", "ay", "az", "bx", "by", "bz"));
}

// A delimiter separates at every occurrence (empty pieces kept); without one
// whitespace runs separate and the ends give nothing. Y pads with "" to the
// most pieces; Z counts them. maxsplit leaves the rest in the last piece.
TEST(StringSplit20, DelimiterWhitespaceAndMaxsplit) {
  auto y = run_op("StringSplit", {Tensor::from<std::string>({"a,b,,c", "d"})},
                  {A::make_string("delimiter", ",")}, 2, 20);
  EXPECT_EQ(shape_of(y[0]), (std::vector<int64_t>{2, 4}));
  EXPECT_THAT(values<std::string>(y[0]), ElementsAre("a", "b", "", "c", "d", "", "", ""));
  EXPECT_THAT(values<int64_t>(y[1]), ElementsAre(4, 1));
  y = run_op("StringSplit", {Tensor::from<std::string>({"  a \t b c ", ""})},
             {A::make_int("maxsplit", 1)}, 2, 20);
  EXPECT_THAT(values<std::string>(y[0]), ElementsAre("a", "b c ", "", ""));
  EXPECT_THAT(values<int64_t>(y[1]), ElementsAre(2, 0));
  y = run_op("StringSplit", {Tensor::from<std::string>({"x-y-z"})},
             {A::make_string("delimiter", "-"), A::make_int("maxsplit", 1)}, 2, 20);
  EXPECT_THAT(values<std::string>(y[0]), ElementsAre("x", "y-z"));
}

}  // namespace
}  // namespace onnxscript::eval
