// Hand-checked reference cases for image operators that the ONNX backend
// suite does not cover: MaxRoiPool and LpNormalization (no upstream case at
// all) and a Resize variant it misses (one spatial axis, linear,
// tf_crop_and_resize with extrapolation). Each runs in our Session and in
// ONNX Runtime against outputs derived by hand from the specification.
#include <gtest/gtest.h>

#include "interop/reference_case.h"

namespace onnxscript::testing {
namespace {

using eval::RuntimeValue;
using ir::Attribute;
using ir::DataType;
using ir::Tensor;
using ir::Type;

Type float_type(const std::vector<int64_t>& dims) { return tensor_type(DataType::kFloat, dims); }

// X[n, 0, y, x] = 100 n + 4 y + x on two 4x4 maps.
Tensor roi_pool_input() {
  Tensor x(DataType::kFloat, {2, 1, 4, 4});
  for (int n = 0; n < 2; ++n)
    for (int i = 0; i < 16; ++i) x.data<float>()[n * 16 + i] = static_cast<float>(100 * n + i);
  return x;
}

TEST(ImageReference, MaxRoiPool) {
  // Caffe RoI pooling: the region [round(x1 s), round(x2 s)] x [round(y1 s),
  // round(y2 s)] (ends included) split into pooled_shape bins; bin p covers
  // [floor(p * len / pooled), ceil((p + 1) * len / pooled)) from the start,
  // clipped to the map; an empty bin gives 0.
  //  roi 0 [0, 0, 0, 3, 3]: 4x4 region, 2x2 bins -> maxima at (1,1), (1,3),
  //        (3,1), (3,3): 5, 7, 13, 15.
  //  roi 1 [0, 1, 1, 2, 3]: columns 1..2 (2 wide, bins of 1), rows 1..3 (3
  //        high, bins of 1.5): row bins [1, 3) and [2, 4), column bins [1, 2)
  //        and [2, 3) -> max at (2,1) = 9, (2,2) = 10, (3,1) = 13, (3,2) = 14.
  //  roi 2 [1, 0, 0, 3, 3]: roi 0 on the second map: 105, 107, 113, 115.
  //  roi 3 [0, 3, 3, 5, 5]: 3x3 from (3,3), bins of 1.5: bin (0,0) is
  //        [3, 5) clipped to [3, 4) -> 15; the others start at 4: empty -> 0.
  //  roi 4 [0, 6, 6, 8, 8]: entirely past the map -> 0.
  ReferenceCase c;
  c.name = "MaxRoiPool 2x2 bins";
  c.model = single_node_model(
      "", "MaxRoiPool", 12, {{"X", float_type({2, 1, 4, 4})}, {"rois", float_type({5, 5})}},
      {{"Y", float_type({5, 1, 2, 2})}}, {Attribute::make_ints("pooled_shape", {2, 2})});
  c.inputs = {roi_pool_input(), Tensor::from<float>({0, 0, 0, 3, 3, 0, 1, 1, 2, 3, 1, 0, 0,
                                                     3, 3, 0, 3, 3, 5, 5, 0, 6, 6, 8, 8},
                                                    {5, 5})};
  c.expected = {Tensor::from<float>(
      {5, 7, 13, 15, 9, 10, 13, 14, 105, 107, 113, 115, 15, 0, 0, 0, 0, 0, 0, 0}, {5, 1, 2, 2})};
  expect_reference_case(c);
}

TEST(ImageReference, MaxRoiPoolSpatialScale) {
  // spatial_scale 0.5: roi [0, 0.8, 0.8, 6.2, 6.2] snaps to round(0.4) = 0
  // and round(3.1) = 3, the 4x4 region of roi 0 above; pooled 1x1 -> 15.
  // roi [0, 2.2, 0.2, 4.2, 2.2]: columns round(1.1) = 1 .. round(2.1) = 2,
  // rows 0 .. round(1.1) = 1 -> max over rows 0..1, columns 1..2 = X[1,2] = 6.
  ReferenceCase c;
  c.name = "MaxRoiPool spatial_scale";
  c.model = single_node_model(
      "", "MaxRoiPool", 12, {{"X", float_type({2, 1, 4, 4})}, {"rois", float_type({2, 5})}},
      {{"Y", float_type({2, 1, 1, 1})}},
      {Attribute::make_ints("pooled_shape", {1, 1}), Attribute::make_float("spatial_scale", 0.5f)});
  c.inputs = {roi_pool_input(),
              Tensor::from<float>({0, 0.8f, 0.8f, 6.2f, 6.2f, 0, 2.2f, 0.2f, 4.2f, 2.2f}, {2, 5})};
  c.expected = {Tensor::from<float>({15, 6}, {2, 1, 1, 1})};
  expect_reference_case(c);
}

TEST(ImageReference, LpNormalizationL2LastAxis) {
  // p = 2, axis -1: [3, 4, 0] / 5 = [0.6, 0.8, 0]; [0, -5, 12] / 13.
  ReferenceCase c;
  c.name = "LpNormalization p=2";
  c.model = single_node_model("", "LpNormalization", 12, {{"x", float_type({2, 3})}},
                              {{"y", float_type({2, 3})}});
  c.inputs = {Tensor::from<float>({3, 4, 0, 0, -5, 12}, {2, 3})};
  c.expected = {Tensor::from<float>({0.6f, 0.8f, 0, 0, -5.0f / 13, 12.0f / 13}, {2, 3})};
  expect_reference_case(c);
}

TEST(ImageReference, LpNormalizationL1Axis0) {
  // p = 1, axis 0 of [[1, -2, 0.5], [3, 2, 1.5]]: column sums of |x| are 4,
  // 4, 2 -> [[0.25, -0.5, 0.25], [0.75, 0.5, 0.75]].
  ReferenceCase c;
  c.name = "LpNormalization p=1 axis=0";
  c.model = single_node_model("", "LpNormalization", 12, {{"x", float_type({2, 3})}},
                              {{"y", float_type({2, 3})}},
                              {Attribute::make_int("p", 1), Attribute::make_int("axis", 0)});
  c.inputs = {Tensor::from<float>({1, -2, 0.5f, 3, 2, 1.5f}, {2, 3})};
  c.expected = {Tensor::from<float>({0.25f, -0.5f, 0.25f, 0.75f, 0.5f, 0.75f}, {2, 3})};
  expect_reference_case(c);
}

TEST(ImageReference, ResizeLinearCropAndResizeOneSpatialAxis) {
  // X [1, 1, 4] = [0, 10, 20, 30]; sizes [1, 1, 5]; roi starts [0, 0, -0.25],
  // ends [1, 1, 1.25]. The batch and channel axes have one output each and
  // read 0.5 * (0 + 1) * (1 - 1) = 0. The spatial axis reads
  //   c = -0.25 * 3 + o * (1.25 + 0.25) * 3 / 4 = -0.75 + 1.125 o
  //     = -0.75 (outside: -1), 0.375 (3.75), 1.5 (15), 2.625 (26.25),
  //       3.75 (outside [0, 3]: -1).
  ReferenceCase c;
  c.name = "Resize linear tf_crop_and_resize 3-D";
  c.model = single_node_model(
      "", "Resize", 13,
      {{"X", float_type({1, 1, 4})},
       {"roi", float_type({6})},
       {"", Type{}},
       {"sizes", Type::tensor(DataType::kInt64, ir::Shape{ir::Dim(3)})}},
      {{"Y", float_type({1, 1, 5})}},
      {Attribute::make_string("mode", "linear"),
       Attribute::make_string("coordinate_transformation_mode", "tf_crop_and_resize"),
       Attribute::make_float("extrapolation_value", -1)});
  c.inputs = {Tensor::from<float>({0, 10, 20, 30}, {1, 1, 4}),
              Tensor::from<float>({0, 0, -0.25f, 1, 1, 1.25f}), Tensor::from<int64_t>({1, 1, 5})};
  c.expected = {Tensor::from<float>({-1, 3.75f, 15, 26.25f, -1}, {1, 1, 5})};
  expect_reference_case(c);
}

}  // namespace
}  // namespace onnxscript::testing
