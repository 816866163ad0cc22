// Tests for the image kernels (src/eval/kernels/image/): Resize, Upsample,
// GridSample, RoiAlign, NonMaxSuppression, MaxRoiPool, LpNormalization.
// Every expected value is worked out by hand from the operator's formula in
// the comment above it.
#include <cmath>
#include <complex>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "eval/kernel_test_util.h"
#include "onnxscript/eval/eager.h"

namespace onnxscript::eval {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::FloatNear;
using ::testing::HasSubstr;
using ::testing::Pointwise;
using A = ir::Attribute;

using test_util::values;

std::vector<int64_t> shape_of(const RuntimeValue& v) { return v.tensor().shape().to_vector(); }

void expect_error(std::string_view op, std::initializer_list<RuntimeValue> inputs,
                  std::initializer_list<A> attrs, const std::string& fragment,
                  int64_t version = 17) {
  try {
    run_op(op, inputs, attrs, 1, version);
    ADD_FAILURE() << op << " did not fail";
  } catch (const KernelError& e) {
    EXPECT_THAT(e.what(), HasSubstr(std::string(op) + ": " + fragment));
  }
}

const RuntimeValue kNone{};

// Resize-13 of a 1-D float tensor with `scales` or `sizes` (one of them empty).
std::vector<float> resize_1d(std::vector<float> x, std::vector<float> scales,
                             std::vector<int64_t> sizes, std::initializer_list<A> attrs,
                             RuntimeValue roi = RuntimeValue{}) {
  RuntimeValue s = scales.empty() ? RuntimeValue{} : RuntimeValue(Tensor::from_span<float>(scales));
  RuntimeValue z = sizes.empty() ? RuntimeValue{} : RuntimeValue(Tensor::from_span<int64_t>(sizes));
  return values<float>(run_op("Resize", {Tensor::from_span<float>(x), roi, s, z}, attrs)[0]);
}

auto near(std::vector<float> v) { return Pointwise(FloatNear(1e-4f), v); }

// x = [0, 10, 20, 30] (length 4) resized to length 8 (scale 2) by linear
// interpolation; x(c) = 10 * c after clamping c to [0, 3].
TEST(Resize, LinearOneDimensionEachCoordinateTransform) {
  const std::vector<float> x{0, 10, 20, 30};
  auto mode = [](const char* t) { return A::make_string("coordinate_transformation_mode", t); };
  const A linear = A::make_string("mode", "linear");
  // half_pixel: c = (o + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, ..., 3.25.
  EXPECT_THAT(resize_1d(x, {2}, {}, {linear, mode("half_pixel")}),
              near({0, 2.5, 7.5, 12.5, 17.5, 22.5, 27.5, 30}));
  // asymmetric: c = o / 2 = 0, 0.5, ..., 3.5 (clamped to 3).
  EXPECT_THAT(resize_1d(x, {2}, {}, {linear, mode("asymmetric")}),
              near({0, 5, 10, 15, 20, 25, 30, 30}));
  // align_corners: c = o * 3 / 7, so y = 30 o / 7.
  EXPECT_THAT(resize_1d(x, {2}, {}, {linear, mode("align_corners")}),
              near({0, 30 / 7.f, 60 / 7.f, 90 / 7.f, 120 / 7.f, 150 / 7.f, 180 / 7.f, 30}));
  // With scales, align_corners divides by the unrounded output length: scale
  // 0.6 gives floor(2.4) = 2 outputs at c = o * 3 / (2.4 - 1) = 0, 2.142857.
  EXPECT_THAT(resize_1d(x, {0.6f}, {}, {linear, mode("align_corners")}), near({0, 30 / 1.4f}));
  // tf_half_pixel_for_nn: c = (o + 0.5) / 2 = 0.25, 0.75, ..., 3.75.
  EXPECT_THAT(resize_1d(x, {2}, {}, {linear, mode("tf_half_pixel_for_nn")}),
              near({2.5, 7.5, 12.5, 17.5, 22.5, 27.5, 30, 30}));
  // pytorch_half_pixel equals half_pixel when the output is longer than 1...
  EXPECT_THAT(resize_1d(x, {2}, {}, {linear, mode("pytorch_half_pixel")}),
              near({0, 2.5, 7.5, 12.5, 17.5, 22.5, 27.5, 30}));
  // ...but for one output it reads c = 0, where half_pixel (scale 1/4) reads
  // c = (0 + 0.5) * 4 - 0.5 = 1.5, i.e. 15.
  EXPECT_THAT(resize_1d(x, {}, {1}, {linear, mode("pytorch_half_pixel")}), near({0}));
  EXPECT_THAT(resize_1d(x, {}, {1}, {linear, mode("half_pixel")}), near({15}));
}

TEST(Resize, TfCropAndResizeWithExtrapolation) {
  const std::vector<float> x{0, 10, 20, 30};
  const A linear = A::make_string("mode", "linear");
  const A crop = A::make_string("coordinate_transformation_mode", "tf_crop_and_resize");
  // roi [0.2, 0.8], 4 outputs: c = 0.2 * 3 + o * 0.6 * 3 / 3 = 0.6, 1.2, 1.8, 2.4.
  EXPECT_THAT(resize_1d(x, {}, {4}, {linear, crop}, Tensor::from<float>({0.2f, 0.8f})),
              near({6, 12, 18, 24}));
  // roi [-0.5, 1.5], 3 outputs: c = -1.5 + 3 o = -1.5 (outside), 1.5, 4.5 (outside).
  EXPECT_THAT(resize_1d(x, {}, {3}, {linear, crop, A::make_float("extrapolation_value", -1)},
                        Tensor::from<float>({-0.5f, 1.5f})),
              near({-1, 15, -1}));
  // One output samples the middle of the crop: c = 0.5 * (0 + 1) * 3 = 1.5.
  EXPECT_THAT(resize_1d(x, {}, {1}, {linear, crop}, Tensor::from<float>({0.0f, 1.0f})), near({15}));
  // Nearest extrapolates too: roi [-1, 1], 3 outputs: c = -3 (outside), 0, 3.
  EXPECT_THAT(resize_1d(x, {}, {3}, {crop, A::make_float("extrapolation_value", 7)},
                        Tensor::from<float>({-1.0f, 1.0f})),
              near({7, 0, 30}));
  // With scales the output length ignores the crop: floor(4 * 2) = 8 (as the
  // reference implementation and ONNX Runtime have it), and roi [0.25, 0.75]
  // reads c = 0.75 + o * 0.5 * 3 / 7, so y = 7.5 + 15 o / 7.
  std::vector<float> expected;
  for (int o = 0; o < 8; ++o) expected.push_back(7.5f + 15.0f * o / 7);
  EXPECT_THAT(resize_1d(x, {2}, {}, {linear, crop}, Tensor::from<float>({0.25f, 0.75f})),
              near(expected));
  expect_error("Resize", {Tensor::from_span<float>(x), kNone, kNone, Tensor::from<int64_t>({2})},
               {crop}, "tf_crop_and_resize needs the roi input");
  expect_error("Resize",
               {Tensor::from_span<float>(x), Tensor::from<float>({0, 1, 2}), kNone,
                Tensor::from<int64_t>({2})},
               {crop}, "roi has 3 elements but X of rank 1 needs 2");
}

TEST(Resize, NearestModes) {
  const std::vector<float> x{0, 1, 2, 3};
  auto nearest = [&](const char* transform, const char* rounding) {
    return resize_1d(x, {}, {8},
                     {A::make_string("coordinate_transformation_mode", transform),
                      A::make_string("nearest_mode", rounding)});
  };
  // asymmetric: c = o / 2 = 0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5: the halves decide.
  EXPECT_THAT(nearest("asymmetric", "round_prefer_floor"), ElementsAre(0, 0, 1, 1, 2, 2, 3, 3));
  // (3.5 rounds up to 4, clamped to 3.)
  EXPECT_THAT(nearest("asymmetric", "round_prefer_ceil"), ElementsAre(0, 1, 1, 2, 2, 3, 3, 3));
  // half_pixel: c = o / 2 - 0.25 = -0.25, 0.25, 0.75, ..., 3.25 (clamped).
  EXPECT_THAT(nearest("half_pixel", "floor"), ElementsAre(0, 0, 0, 1, 1, 2, 2, 3));
  EXPECT_THAT(nearest("half_pixel", "ceil"), ElementsAre(0, 1, 1, 2, 2, 3, 3, 3));
  // The default is half_pixel with round_prefer_floor: 0, 0, 1, 1, 2, 2, 3, 3.
  EXPECT_THAT(resize_1d(x, {2}, {}, {}), ElementsAre(0, 0, 1, 1, 2, 2, 3, 3));
  // Strings move in nearest mode: c = o / 2 (asymmetric) = 0, 0.5, 1, 1.5.
  auto strings = run_op(
      "Resize", {Tensor::from<std::string>({"a", "b"}), kNone, Tensor::from<float>({2}), kNone},
      {A::make_string("coordinate_transformation_mode", "asymmetric")});
  EXPECT_THAT(values<std::string>(strings[0]), ElementsAre("a", "a", "b", "b"));
}

TEST(Resize, BilinearAlignCornersTwoD) {
  // [[0, 10], [20, 30]] to 3x3 with align_corners: c = o * 1 / 2 on both axes,
  // so y(r, c) = 20 r + 10 c at r, c in {0, 0.5, 1}.
  auto y = run_op(
      "Resize",
      {Tensor::from<float>({0, 10, 20, 30}, {2, 2}), kNone, kNone, Tensor::from<int64_t>({3, 3})},
      {A::make_string("mode", "linear"),
       A::make_string("coordinate_transformation_mode", "align_corners")});
  EXPECT_EQ(shape_of(y[0]), (std::vector<int64_t>{3, 3}));
  EXPECT_THAT(values<float>(y[0]), near({0, 5, 10, 10, 15, 20, 20, 25, 30}));
}

TEST(Resize, IntegersRoundHalfToEvenAndSaturate) {
  // int32 [0, 10] linear to 4 (half_pixel, scale 2): c = -0.25 (clamped 0),
  // 0.25, 0.75, 1.25 (clamped 1) -> 0, 2.5, 7.5, 10 -> rounded half to even:
  // 0, 2, 8, 10.
  auto y =
      run_op("Resize", {Tensor::from<int32_t>({0, 10}), kNone, kNone, Tensor::from<int64_t>({4})},
             {A::make_string("mode", "linear")});
  EXPECT_THAT(values<int32_t>(y[0]), ElementsAre(0, 2, 8, 10));

  // Cubic (a = -0.75) overshoots at a step. [0, 0, 255, 255] to 8 (half_pixel,
  // scale 2): c = o / 2 - 0.25; taps floor(c) - 1 .. floor(c) + 2 clamped to
  // the edges; Keys' weights W(0.25) = 0.87890625, W(0.75) = 0.26171875,
  // W(1.25) = -0.10546875, W(1.75) = -0.03515625.
  //   o=0 c=-0.25: all taps read 0                                 -> 0
  //   o=1 c=0.25: only the tap at 2 (d = 1.75) reads 255: 255 * W(1.75) = -8.96
  //   o=2 c=0.75: tap 2 at d = 1.25: 255 * W(1.25) = -26.89
  //   o=3 c=1.25: taps 2, 3 at d = 0.75, 1.75: 255 * 0.2265625 = 57.77
  //   o=4 c=1.75: taps 2, 3 at d = 0.25, 1.25: 255 * 0.7734375 = 197.23
  //   o=5 c=2.25: taps 2, 3, 4->3 at d = 0.25, 0.75, 1.75: 255 * 1.10546875 = 281.89
  //   o=6 c=2.75: taps 2, 3, 4->3 at d = 0.75, 0.25, 1.25: 255 * 1.03515625 = 263.96
  //   o=7 c=3.25: every tap reads 255 and the weights sum to 1       -> 255
  const A cubic = A::make_string("mode", "cubic");
  auto wide = run_op(
      "Resize", {Tensor::from<int16_t>({0, 0, 255, 255}), kNone, kNone, Tensor::from<int64_t>({8})},
      {cubic});
  EXPECT_THAT(values<int16_t>(wide[0]), ElementsAre(0, -9, -27, 58, 197, 282, 264, 255));
  // uint8 saturates the overshoots to [0, 255].
  auto narrow = run_op(
      "Resize", {Tensor::from<uint8_t>({0, 0, 255, 255}), kNone, kNone, Tensor::from<int64_t>({8})},
      {cubic});
  EXPECT_THAT(values<uint8_t>(narrow[0]), ElementsAre(0, 0, 0, 58, 197, 255, 255, 255));
}

TEST(Resize, FloatingAndComplexTypes) {
  // [0, 10] linear to 4 (half_pixel): c = 0 (clamped), 0.25, 0.75, 1 -> 0, 2.5, 7.5, 10.
  auto run = [](Tensor x) {
    return run_op("Resize", {x, kNone, kNone, Tensor::from<int64_t>({4})},
                  {A::make_string("mode", "linear")})[0];
  };
  EXPECT_THAT(values<double>(run(Tensor::from<double>({0, 10}))), ElementsAre(0, 2.5, 7.5, 10));
  const std::vector<float16> halves = values<float16>(
      run(Tensor::from<float16>({static_cast<float16>(0.0f), static_cast<float16>(10.0f)})));
  ASSERT_EQ(halves.size(), 4u);
  EXPECT_EQ(static_cast<float>(halves[1]), 2.5f);
  EXPECT_EQ(static_cast<float>(halves[2]), 7.5f);
  // Complex values blend both parts: [0, 10 + 20i] -> 2.5 + 5i at c = 0.25.
  using C = std::complex<float>;
  const std::vector<C> complexes = values<C>(run(Tensor::from<C>({C(0, 0), C(10, 20)})));
  EXPECT_THAT(complexes, ElementsAre(C(0, 0), C(2.5f, 5), C(7.5f, 15), C(10, 20)));
}

TEST(Resize, Version10AndVersion11Inputs) {
  // Resize-10 (X, scales): asymmetric, nearest ceils when shrinking:
  // floor(4 * 0.6) = 2 outputs, c = o / 0.6 = 0, 1.67 -> ceil -> 0, 2.
  auto v10 =
      run_op("Resize", {Tensor::from<float>({1, 2, 3, 4}), Tensor::from<float>({0.6f})}, {}, 1, 10);
  EXPECT_THAT(values<float>(v10[0]), ElementsAre(1, 3));
  // Resize-11 takes sizes after an empty scales tensor.
  auto v11 = run_op("Resize",
                    {Tensor::from<float>({1, 2}), Tensor(DataType::kFloat, {0}),
                     Tensor(DataType::kFloat, {0}), Tensor::from<int64_t>({4})},
                    {A::make_string("coordinate_transformation_mode", "asymmetric")}, 1, 11);
  EXPECT_THAT(values<float>(v11[0]), ElementsAre(1, 1, 2, 2));
  expect_error("Resize", {Tensor::from<float>({1, 2}), kNone, Tensor::from<float>({2})}, {},
               "Resize-11 needs the roi and scales inputs", 11);
  expect_error("Resize", {Tensor::from<float>({1, 2}), Tensor::from<float>({2})},
               {A::make_string("mode", "cubic")}, "unknown mode 'cubic'", 10);
}

TEST(Resize, Errors) {
  const Tensor x = Tensor::from<float>({1, 2});
  expect_error("Resize", {x, kNone, Tensor::from<float>({2})}, {A::make_string("mode", "bogus")},
               "unknown mode 'bogus'");
  expect_error("Resize", {x, kNone, Tensor::from<float>({2})},
               {A::make_string("coordinate_transformation_mode", "sideways")},
               "unknown coordinate_transformation_mode 'sideways'");
  expect_error("Resize", {x, kNone, Tensor::from<float>({2})},
               {A::make_string("nearest_mode", "sometimes")}, "unknown nearest_mode 'sometimes'");
  expect_error("Resize", {x, kNone, Tensor::from<float>({2}), Tensor::from<int64_t>({4})}, {},
               "scales and sizes are both given");
  expect_error("Resize", {x, kNone, kNone, kNone}, {}, "neither scales nor sizes is given");
  expect_error("Resize", {x, kNone, Tensor::from<float>({1, 2})}, {},
               "scales has 2 elements but X has rank 1");
  expect_error("Resize", {x, kNone, kNone, Tensor::from<int64_t>({1, 4})}, {},
               "sizes has 2 elements but X has rank 1");
  expect_error("Resize", {x, kNone, Tensor::from<float>({0})}, {},
               "scales must be positive and finite");
  expect_error("Resize", {x, kNone, Tensor::from<float>({1e30f})}, {},
               "scale 1e+30 makes an output axis of 2e+30 elements, too large");
  expect_error("Resize", {x, kNone, kNone, Tensor::from<int64_t>({-1})}, {},
               "sizes must not be negative");
  expect_error("Resize", {x, kNone, Tensor::from<float>({2})}, {A::make_int("exclude_outside", 2)},
               "exclude_outside must be 0 or 1");
  expect_error("Resize", {Tensor::from<bool>({true, false}), kNone, Tensor::from<float>({2})},
               {A::make_string("mode", "linear")},
               "linear interpolation needs a numeric element type, not bool");
}

TEST(Upsample, VersionsAndModes) {
  // Upsample-9 nearest, scale 3: c = o / 3 floored: 0, 0, 0, 1, 1, 1.
  auto nearest =
      run_op("Upsample", {Tensor::from<int64_t>({1, 2}), Tensor::from<float>({3})}, {}, 1, 9);
  EXPECT_THAT(values<int64_t>(nearest[0]), ElementsAre(1, 1, 1, 2, 2, 2));
  // Upsample-7 linear with a scales attribute: [0, 10] by 4 reads c = o / 4 =
  // 0, 0.25, ..., 1.75, clamped to 1.
  auto linear = run_op("Upsample", {Tensor::from<float>({0, 10})},
                       {A::make_string("mode", "linear"), A::make_floats("scales", {4})}, 1, 7);
  EXPECT_THAT(values<float>(linear[0]), near({0, 2.5, 5, 7.5, 10, 10, 10, 10}));
  // Upsample-1: 4-D with height/width scales and mode bilinear. [[0, 10]]
  // (1x2) by 2x2: rows read r = o / 2 -> 0, 0 (clamped); columns as above.
  auto v1 = run_op("Upsample", {Tensor::from<float>({0, 10}, {1, 1, 1, 2})},
                   {A::make_string("mode", "bilinear"), A::make_float("height_scale", 2),
                    A::make_float("width_scale", 2)},
                   1, 1);
  EXPECT_EQ(shape_of(v1[0]), (std::vector<int64_t>{1, 1, 2, 4}));
  EXPECT_THAT(values<float>(v1[0]), near({0, 5, 10, 10, 0, 5, 10, 10}));
  // Opset 10 deprecates Upsample but old models still load.
  auto v10 = run_op("Upsample", {Tensor::from<float>({1, 2}), Tensor::from<float>({2})}, {}, 1, 10);
  EXPECT_THAT(values<float>(v10[0]), ElementsAre(1, 1, 2, 2));
  expect_error("Upsample", {Tensor::from<float>({1, 2}), Tensor::from<float>({0.5f})}, {},
               "scales must be finite and >= 1", 9);
  expect_error("Upsample", {Tensor::from<float>({1, 2}), Tensor::from<float>({2})},
               {A::make_string("mode", "cubic")}, "unknown mode 'cubic'", 9);
  expect_error("Upsample", {Tensor::from<float>({1, 2})},
               {A::make_float("height_scale", 2), A::make_float("width_scale", 2)}, "X must be 4-D",
               1);
}

// X = [[1, 2], [3, 4]] (1x1x2x2) sampled at grid points (gx, gy).
std::vector<float> grid_sample(std::vector<float> grid, std::initializer_list<A> attrs) {
  const int64_t points = static_cast<int64_t>(grid.size() / 2);
  auto y = run_op("GridSample",
                  {Tensor::from<float>({1, 2, 3, 4}, {1, 1, 2, 2}),
                   Tensor::from_span<float>(grid, {1, 1, points, 2})},
                  attrs, 1, 16);
  return values<float>(y[0]);
}

TEST(GridSample, ModesPaddingAndAlignCorners) {
  const A align = A::make_int("align_corners", 1);
  // align_corners=1: p = (g + 1) / 2 * (2 - 1): (-1,-1) -> (0,0); (1,1) -> (1,1);
  // (0,0) -> (0.5, 0.5), the mean 2.5.
  EXPECT_THAT(grid_sample({-1, -1, 1, 1, 0, 0}, {align}), near({1, 4, 2.5}));
  // align_corners=0: p = ((g + 1) * 2 - 1) / 2.
  //   (0, 0)  -> (0.5, 0.5): 2.5
  //   (-1,-1) -> (-0.5, -0.5): a quarter of X[0,0] = 0.25 (zeros outside)
  //   (1, -1) -> x 1.5, y -0.5: half of the row-0 blend 0.5 * X[0,1] = 0.5
  //   (-2, 0) -> x -1.5, y 0.5: both columns outside -> 0
  const std::vector<float> points{0, 0, -1, -1, 1, -1, -2, 0};
  EXPECT_THAT(grid_sample(points, {}), near({2.5, 0.25, 0.5, 0}));
  // border clamps p to [0, 1]: (0,0) 2.5; (0,0) -> 1; (x 1, y 0) -> 2;
  // (x 0, y 0.5) -> (1 + 3) / 2 = 2.
  EXPECT_THAT(grid_sample(points, {A::make_string("padding_mode", "border")}),
              near({2.5, 1, 2, 2}));
  // reflection mirrors about -0.5 and 1.5: -0.5 stays (then clamps to 0);
  // x -1.5 mirrors to 0.5: the point (0.5, 0.5) -> 2.5.
  EXPECT_THAT(grid_sample(points, {A::make_string("padding_mode", "reflection")}),
              near({2.5, 1, 2, 2.5}));
  // nearest rounds half to even: (0.5, 0.5) -> (0, 0) = 1; (x 1.5 -> 2, y -0.5
  // -> 0) is outside -> 0; with border x clamps to 1 first -> X[0,1] = 2.
  const A nearest = A::make_string("mode", "nearest");
  EXPECT_THAT(grid_sample({0, 0, 1, -1}, {nearest}), near({1, 0}));
  EXPECT_THAT(grid_sample({0, 0, 1, -1}, {nearest, A::make_string("padding_mode", "border")}),
              near({1, 2}));
  // bicubic at (0.5, 0.5): per axis weights W(1.5), W(0.5), W(0.5), W(1.5) =
  // -0.09375, 0.59375, 0.59375, -0.09375 on pixels -1, 0, 1, 2. With zeros
  // only pixels 0 and 1 count: 0.59375^2 * (1 + 2 + 3 + 4) = 3.525390625.
  // With border pixel -1 reads 0 and 2 reads 1: weights 0.5 and 0.5 -> 2.5.
  const A bicubic = A::make_string("mode", "bicubic");
  EXPECT_THAT(grid_sample({0, 0}, {bicubic}), near({3.525390625f}));
  EXPECT_THAT(grid_sample({0, 0}, {bicubic, A::make_string("padding_mode", "border")}),
              near({2.5}));
}

TEST(GridSample, Errors) {
  const Tensor x = Tensor::from<float>({1, 2, 3, 4}, {1, 1, 2, 2});
  const Tensor grid = Tensor::from<float>({0, 0}, {1, 1, 1, 2});
  expect_error("GridSample", {x, grid}, {A::make_string("mode", "bilinearish")},
               "unknown mode 'bilinearish'", 16);
  expect_error("GridSample", {x, grid}, {A::make_string("padding_mode", "wrap")},
               "unknown padding_mode 'wrap'", 16);
  expect_error("GridSample", {x, Tensor::from<float>({0, 0, 0}, {1, 1, 1, 3})}, {},
               "grid must be [N, H_out, W_out, 2]", 16);
  expect_error("GridSample", {Tensor::from<float>({1, 2}, {1, 2}), grid}, {}, "X must be 4-D", 16);
  expect_error("GridSample", {Tensor::from<int32_t>({1}, {1, 1, 1, 1}), grid}, {},
               "X must be float16, float or double", 16);
}

TEST(RoiAlign, AverageMaxAndCoordinateModes) {
  // X[y, x] = 4 y + x on a 4x4 map; bilinear interpolation of a linear
  // function is exact, so a point (y, x) inside reads 4 y + x.
  Tensor x(DataType::kFloat, {1, 1, 4, 4});
  for (int i = 0; i < 16; ++i) x.data<float>()[i] = static_cast<float>(i);
  const Tensor rois = Tensor::from<float>({0, 0, 2, 2}, {1, 4});
  const Tensor batch = Tensor::from<int64_t>({0});
  auto run = [&](std::initializer_list<A> attrs, int64_t version,
                 const Tensor* other_rois = nullptr) {
    return values<float>(
        run_op("RoiAlign", {x, other_rois ? *other_rois : rois, batch}, attrs, 1, version)[0]);
  };
  const A ratio2 = A::make_int("sampling_ratio", 2);
  // half_pixel (16's default): region [-0.5, 1.5]^2, one bin, 2x2 points at
  // -0.5 + 0.5, -0.5 + 1.5 = 0, 1: values 0, 1, 4, 5 -> mean 2.5.
  EXPECT_THAT(run({ratio2}, 16), near({2.5}));
  // output_half_pixel (and opset 10): region [0, 2]^2, points 0.5, 1.5:
  // 4 * 0.5 + 0.5 = 2.5, 3.5, 6.5, 7.5 -> mean 5.
  const A output_half = A::make_string("coordinate_transformation_mode", "output_half_pixel");
  EXPECT_THAT(run({ratio2, output_half}, 16), near({5}));
  EXPECT_THAT(run({ratio2}, 10), near({5}));
  // Adaptive sampling: ceil(2 / 1) = 2 points per axis, the same points.
  EXPECT_THAT(run({}, 10), near({5}));
  // spatial_scale 0.5 of the region [0, 0, 4, 4] is the same region.
  const Tensor doubled = Tensor::from<float>({0, 0, 4, 4}, {1, 4});
  EXPECT_THAT(run({ratio2, A::make_float("spatial_scale", 0.5f)}, 10, &doubled), near({5}));
  // max: per point the largest weighted corner w_i * v_i (weights all 0.25):
  // (0.5,0.5): corners 0,1,4,5 -> 1.25; (0.5,1.5): 1,2,5,6 -> 1.5;
  // (1.5,0.5): 4,5,8,9 -> 2.25; (1.5,1.5): 5,6,9,10 -> 2.5. Max 2.5.
  EXPECT_THAT(run({ratio2, A::make_string("mode", "max")}, 10), near({2.5}));
  // Two bins across (output_width 2) of region [0, 2]: bin width 1, one point
  // per bin at x 0.5 and 1.5, y 1 (output_height 1, one point at 1):
  // 4 + 0.5 = 4.5 and 5.5.
  EXPECT_THAT(run({A::make_int("sampling_ratio", 1), A::make_int("output_width", 2)}, 10),
              near({4.5, 5.5}));
  // A point beyond the map (y > H) reads 0: region [0, 10, 2, 12] samples
  // y = 10.5 and 11.5.
  const Tensor below = Tensor::from<float>({0, 10, 2, 12}, {1, 4});
  EXPECT_THAT(run({ratio2}, 10, &below), near({0}));
}

TEST(RoiAlign, Errors) {
  const Tensor x = Tensor::from<float>({1, 2, 3, 4}, {1, 1, 2, 2});
  const Tensor rois = Tensor::from<float>({0, 0, 1, 1}, {1, 4});
  expect_error("RoiAlign", {x, rois, Tensor::from<int64_t>({0})},
               {A::make_string("mode", "median")}, "unknown mode 'median'", 16);
  expect_error("RoiAlign", {x, rois, Tensor::from<int64_t>({0})},
               {A::make_string("coordinate_transformation_mode", "pixel")},
               "unknown coordinate_transformation_mode 'pixel'", 16);
  expect_error("RoiAlign", {x, rois, Tensor::from<int64_t>({1})}, {},
               "batch_indices[0] = 1 is out of [0, 1)", 16);
  expect_error("RoiAlign", {x, Tensor::from<float>({0, 0, 1}, {1, 3}), Tensor::from<int64_t>({0})},
               {}, "rois must be [num_rois, 4]", 16);
}

std::vector<int64_t> nms(std::vector<float> boxes, std::vector<float> scores,
                         std::vector<RuntimeValue> limits, std::initializer_list<A> attrs = {}) {
  const int64_t n = static_cast<int64_t>(scores.size());
  std::vector<RuntimeValue> inputs{Tensor::from_span<float>(boxes, {1, n, 4}),
                                   Tensor::from_span<float>(scores, {1, 1, n})};
  inputs.insert(inputs.end(), limits.begin(), limits.end());
  std::vector<A> attributes(attrs);
  auto y = run_op("NonMaxSuppression", inputs, attributes, 1, 11);
  EXPECT_EQ(shape_of(y[0]).size(), 2u);
  return values<int64_t>(y[0]);
}

TEST(NonMaxSuppression, FlippedCornersThresholdsAndLimits) {
  // Box 0 is the unit square given as [y1, x1, y2, x2] = [1, 1, 0, 0]; box 1
  // the unit square shifted 0.1 along x, also flipped: [1, 1.1, 0, 0.1];
  // box 2 = [0, 2, 1, 3] is disjoint. IoU(0, 1) = 0.9 / (1 + 1 - 0.9) = 0.818.
  const std::vector<float> boxes{1, 1, 0, 0, 1, 1.1f, 0, 0.1f, 0, 2, 1, 3};
  const std::vector<float> scores{0.9f, 0.8f, 0.7f};
  const Tensor limit3 = Tensor::from<int64_t>({3});
  // iou_threshold 0.5: box 1 is suppressed by box 0; rows are [batch, class, box].
  EXPECT_THAT(nms(boxes, scores, {limit3, Tensor::from<float>({0.5f})}),
              ElementsAre(0, 0, 0, 0, 0, 2));
  // iou_threshold 0.9: 0.818 is not above it, so all three, by score.
  EXPECT_THAT(nms(boxes, scores, {limit3, Tensor::from<float>({0.9f})}),
              ElementsAre(0, 0, 0, 0, 0, 1, 0, 0, 2));
  // At most one box per class.
  EXPECT_THAT(nms(boxes, scores, {Tensor::from<int64_t>({1}), Tensor::from<float>({0.5f})}),
              ElementsAre(0, 0, 0));
  // score_threshold 0.75 drops box 2 (0.7).
  EXPECT_THAT(
      nms(boxes, scores, {limit3, Tensor::from<float>({0.5f}), Tensor::from<float>({0.75f})}),
      ElementsAre(0, 0, 0));
  // max_output_boxes_per_class absent or 0 selects nothing: [0, 3].
  EXPECT_THAT(nms(boxes, scores, {}), ElementsAre());
  EXPECT_THAT(nms(boxes, scores, {Tensor::from<int64_t>({0})}), ElementsAre());
  // Scores order the output: box 2 first when it scores highest. With the
  // default iou_threshold 0 any overlap suppresses: box 1 goes.
  EXPECT_THAT(nms(boxes, {0.5f, 0.4f, 0.95f}, {limit3}), ElementsAre(0, 0, 2, 0, 0, 0));
  // center_point_box 1: [x_c, y_c, w, h]; box 0 = unit square at (0.5, 0.5),
  // box 1 = the same shifted 0.1 in x, box 2 disjoint: as in the first case.
  EXPECT_THAT(nms({0.5f, 0.5f, 1, 1, 0.6f, 0.5f, 1, 1, 2.5f, 0.5f, 1, 1}, scores,
                  {limit3, Tensor::from<float>({0.5f})}, {A::make_int("center_point_box", 1)}),
              ElementsAre(0, 0, 0, 0, 0, 2));
}

TEST(NonMaxSuppression, Errors) {
  const Tensor boxes = Tensor::from<float>({0, 0, 1, 1}, {1, 1, 4});
  const Tensor scores = Tensor::from<float>({0.5f}, {1, 1, 1});
  expect_error("NonMaxSuppression",
               {boxes, scores, Tensor::from<int64_t>({1}), Tensor::from<float>({1.5f})}, {},
               "iou_threshold must be in [0, 1]", 11);
  expect_error("NonMaxSuppression", {Tensor::from<float>({0, 0, 1, 1}, {1, 4}), scores}, {},
               "boxes must be [num_batches, spatial_dimension, 4]", 11);
  expect_error("NonMaxSuppression", {boxes, Tensor::from<float>({0.5f, 0.5f}, {1, 1, 2})}, {},
               "scores must be [num_batches, num_classes, spatial_dimension]", 11);
  expect_error("NonMaxSuppression", {boxes, scores}, {A::make_int("center_point_box", 2)},
               "center_point_box must be 0 or 1", 11);
}

TEST(MaxRoiPool, BinsAndClipping) {
  // X[y, x] = 4 y + x; roi [batch 0, x1 0, y1 0, x2 3, y2 3] spans 4x4
  // pixels, bins of 2x2: maxima at (1,1), (1,3), (3,1), (3,3) = 5, 7, 13, 15.
  // roi [0, 3, 3, 5, 5]: 3x3 pixels from (3, 3), bins of 1.5: bin (0,0)
  // covers rows [3, 3 + ceil(1.5)) clipped to [3, 4) -> X[3,3] = 15; the
  // others start at row or column 4, past the map: empty -> 0.
  Tensor x(DataType::kFloat, {1, 1, 4, 4});
  for (int i = 0; i < 16; ++i) x.data<float>()[i] = static_cast<float>(i);
  auto y = run_op("MaxRoiPool", {x, Tensor::from<float>({0, 0, 0, 3, 3, 0, 3, 3, 5, 5}, {2, 5})},
                  {A::make_ints("pooled_shape", {2, 2})}, 1, 1);
  EXPECT_EQ(shape_of(y[0]), (std::vector<int64_t>{2, 1, 2, 2}));
  EXPECT_THAT(values<float>(y[0]), ElementsAre(5, 7, 13, 15, 15, 0, 0, 0));
  expect_error("MaxRoiPool", {x, Tensor::from<float>({1, 0, 0, 3, 3}, {1, 5})},
               {A::make_ints("pooled_shape", {2, 2})}, "rois[0] has batch_id 1", 1);
  expect_error("MaxRoiPool", {x, Tensor::from<float>({0, 0, 0, 3, 3}, {1, 5})},
               {A::make_ints("pooled_shape", {2})}, "pooled_shape must be two positive", 1);
}

TEST(LpNormalization, PAndAxis) {
  // p = 2 along the last axis: [3, 4] / 5; a zero row stays zero.
  auto l2 = run_op("LpNormalization", {Tensor::from<float>({3, 4, 0, 0}, {2, 2})}, {}, 1, 1);
  EXPECT_THAT(values<float>(l2[0]), near({0.6f, 0.8f, 0, 0}));
  // p = 1 along axis 0: columns [1, 3] / 4 and [-2, 2] / 4.
  auto l1 = run_op("LpNormalization", {Tensor::from<float>({1, -2, 3, 2}, {2, 2})},
                   {A::make_int("p", 1), A::make_int("axis", 0)}, 1, 1);
  EXPECT_THAT(values<float>(l1[0]), near({0.25f, -0.5f, 0.75f, 0.5f}));
  expect_error("LpNormalization", {Tensor::from<float>({1})}, {A::make_int("p", 3)},
               "p must be 1 or 2, not 3", 1);
}

}  // namespace
}  // namespace onnxscript::eval
