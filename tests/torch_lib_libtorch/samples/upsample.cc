// Samples of the upsample family (src/lib/torch_lib/ops/upsample.cc):
// nearest, linear, bilinear, trilinear and bicubic resizing by output size,
// by scale factors (the .vec overloads), with and without align_corners,
// growing and shrinking.

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {
namespace {

using Floats = std::vector<double>;

// Interpolation sums weighted neighbours: a little rounding.
constexpr double kTol = 1e-4;

void add_nearest(SampleTable& t) {
  t.add("aten::upsample_nearest1d", "double the size", {f32({1, 2, 4}, 4000), Ints{8}});
  t.add("aten::upsample_nearest1d", "non-integer ratio", {f32({2, 1, 3}, 4001), Ints{7}});
  t.add("aten::upsample_nearest1d", "shrink", {f32({1, 2, 6}, 4002), Ints{4}});
  t.add("aten::upsample_nearest1d", "scales consistent with size",
        {f32({1, 1, 4}, 4003), Ints{8}, 2.0});
  t.add("aten::upsample_nearest2d", "double both sizes", {f32({1, 2, 3, 4}, 4010), Ints{6, 8}});
  t.add("aten::upsample_nearest2d", "non-integer ratios", {f32({2, 1, 3, 3}, 4011), Ints{5, 7}});
  t.add("aten::upsample_nearest2d", "shrink one dim", {f32({1, 1, 6, 4}, 4012), Ints{4, 4}});
  t.add("aten::upsample_nearest2d", "scales keywords", {f32({1, 1, 2, 3}, 4013), Ints{4, 9}},
        {{"scales_h", 2.0}, {"scales_w", 3.0}});
  t.add("aten::upsample_nearest2d", "double", {f64({1, 1, 2, 2}, 4014), Ints{3, 5}});
  t.onnxruntime_lacks("no double Resize");
  t.add("aten::upsample_nearest3d", "double every size",
        {f32({1, 1, 2, 2, 3}, 4020), Ints{4, 4, 6}});
  t.add("aten::upsample_nearest3d", "mixed", {f32({1, 2, 3, 2, 2}, 4021), Ints{2, 5, 3}});
  t.add("aten::upsample_nearest3d", "scales",
        {f32({1, 1, 2, 2, 2}, 4022), Ints{4, 2, 6}, 2.0, 1.0, 3.0});

  t.add("aten::upsample_nearest1d.vec", "output_size", {f32({1, 2, 4}, 4030), Ints{7}, Arg()});
  t.add("aten::upsample_nearest1d.vec", "scale_factors",
        {f32({1, 2, 3}, 4031), Arg(), Floats{2.0}});
  t.add("aten::upsample_nearest1d.vec", "non-integer scale",
        {f32({1, 1, 4}, 4032), Arg(), Floats{1.5}});
  t.add("aten::upsample_nearest2d.vec", "output_size",
        {f32({1, 2, 3, 4}, 4033), Ints{5, 6}, Arg()});
  t.add("aten::upsample_nearest2d.vec", "scale_factors",
        {f32({2, 1, 2, 3}, 4034), Arg(), Floats{2.0, 3.0}});
  t.add("aten::upsample_nearest2d.vec", "shrinking scale",
        {f32({1, 1, 4, 6}, 4035), Arg(), Floats{0.5, 0.5}});
  t.add("aten::upsample_nearest3d.vec", "output_size",
        {f32({1, 1, 2, 3, 2}, 4037), Ints{3, 3, 4}, Arg()});
  t.add("aten::upsample_nearest3d.vec", "scale_factors",
        {f32({1, 1, 2, 2, 2}, 4038), Arg(), Floats{2.0, 1.0, 2.0}});
}

void add_linear(SampleTable& t) {
  for (bool align : {false, true}) {
    const std::string a = align ? ", align_corners" : "";
    t.add("aten::upsample_linear1d", "grow" + a, {f32({1, 2, 4}, 4100), Ints{7}, align}, {}, kTol);
    t.add("aten::upsample_linear1d", "shrink" + a, {f32({2, 1, 6}, 4101), Ints{4}, align}, {},
          kTol);
    t.add("aten::upsample_bilinear2d", "grow" + a, {f32({1, 2, 3, 4}, 4102), Ints{5, 7}, align}, {},
          kTol);
    t.add("aten::upsample_bilinear2d", "shrink" + a, {f32({1, 1, 6, 5}, 4103), Ints{3, 2}, align},
          {}, kTol);
    t.add("aten::upsample_trilinear3d", "grow" + a,
          {f32({1, 1, 2, 3, 2}, 4104), Ints{3, 5, 4}, align}, {}, kTol);
    t.add("aten::upsample_bicubic2d", "grow" + a, {f32({1, 2, 3, 4}, 4105), Ints{6, 7}, align}, {},
          kTol);
    t.add("aten::upsample_bicubic2d", "shrink" + a, {f32({1, 1, 6, 6}, 4106), Ints{4, 3}, align},
          {}, kTol);
    t.add("aten::upsample_linear1d.vec", "output_size" + a,
          {f32({1, 2, 3}, 4107), Ints{5}, align, Arg()}, {}, kTol);
    t.add("aten::upsample_linear1d.vec", "scale_factors" + a,
          {f32({1, 2, 3}, 4108), Arg(), align, Floats{2.0}}, {}, kTol);
    t.add("aten::upsample_bilinear2d.vec", "output_size" + a,
          {f32({1, 1, 3, 3}, 4109), Ints{4, 6}, align, Arg()}, {}, kTol);
    t.add("aten::upsample_bilinear2d.vec", "scale_factors" + a,
          {f32({2, 1, 2, 3}, 4110), Arg(), align, Floats{2.0, 1.5}}, {}, kTol);
    t.add("aten::upsample_trilinear3d.vec", "output_size" + a,
          {f32({1, 1, 2, 2, 3}, 4111), Ints{3, 4, 3}, align, Arg()}, {}, kTol);
    t.add("aten::upsample_trilinear3d.vec", "scale_factors" + a,
          {f32({1, 1, 2, 2, 2}, 4112), Arg(), align, Floats{2.0, 2.0, 1.5}}, {}, kTol);
    t.add("aten::upsample_bicubic2d.vec", "output_size" + a,
          {f32({1, 1, 3, 4}, 4113), Ints{5, 5}, align, Arg()}, {}, kTol);
    t.add("aten::upsample_bicubic2d.vec", "scale_factors" + a,
          {f32({1, 2, 3, 3}, 4114), Arg(), align, Floats{2.0, 2.0}}, {}, kTol);
  }
  t.add("aten::upsample_linear1d", "scales consistent with size",
        {f32({1, 1, 4}, 4120), Ints{8}, false, 2.0}, {}, kTol);
  // Scales that are not the sizes' ratio: PyTorch maps coordinates by the
  // scale given.
  t.add("aten::upsample_bilinear2d", "scales other than the sizes' ratio",
        {f32({1, 1, 3, 3}, 4129), Ints{5, 5}, false, 1.7, 1.7}, {}, kTol);
  t.add("aten::upsample_nearest1d", "scale other than the sizes' ratio",
        {f32({1, 1, 4}, 4130), Ints{5}, 1.3});
  t.add("aten::upsample_linear1d", "double", {f64({1, 1, 3}, 4121), Ints{5}, false});
  t.onnxruntime_lacks("no double Resize");
  t.add("aten::upsample_bilinear2d", "scales keywords",
        {f32({1, 1, 2, 3}, 4122), Ints{4, 6}, false}, {{"scales_h", 2.0}, {"scales_w", 2.0}}, kTol);
  t.add("aten::upsample_bilinear2d", "double", {f64({1, 1, 2, 2}, 4123), Ints{3, 3}, true});
  t.onnxruntime_lacks("no double Resize");
  t.add("aten::upsample_trilinear3d", "shrink", {f32({1, 2, 4, 4, 4}, 4125), Ints{2, 3, 2}, false},
        {}, kTol);
  t.add("aten::upsample_trilinear3d", "scales",
        {f32({1, 1, 2, 2, 2}, 4126), Ints{4, 4, 4}, false, 2.0, 2.0, 2.0}, {}, kTol);
  t.add("aten::upsample_bicubic2d", "scales keywords", {f32({1, 1, 3, 3}, 4127), Ints{6, 6}, false},
        {{"scales_h", 2.0}, {"scales_w", 2.0}}, kTol);
  t.add("aten::upsample_bicubic2d", "double", {f64({1, 1, 3, 3}, 4128), Ints{5, 4}, true});
  t.onnxruntime_lacks("no double Resize");
}

// The anti-aliased forms: shrinking (where the filter widens), growing,
// both axes differing, the .vec overloads. Without align_corners: with it,
// PyTorch centers the taps at (i + 0.5) (in - 1) / (out - 1), which no
// Resize coordinate mode gives, and torchlib refuses it (tests/torch_lib).
void add_antialiased(SampleTable& t) {
  for (const char* name : {"aten::_upsample_bilinear2d_aa", "aten::_upsample_bicubic2d_aa"}) {
    t.add(name, "shrink", {f32({1, 2, 9, 8}, 4140), Ints{4, 3}, false}, {}, kTol);
    t.add(name, "grow", {f32({1, 1, 3, 4}, 4141), Ints{5, 7}, false}, {}, kTol);
    t.add(name, "shrink one axis, grow the other", {f32({2, 1, 8, 3}, 4142), Ints{3, 5}, false}, {},
          kTol);
  }
  for (const char* name :
       {"aten::_upsample_bilinear2d_aa.vec", "aten::_upsample_bicubic2d_aa.vec"}) {
    t.add(name, "output_size", {f32({1, 1, 7, 7}, 4143), Ints{3, 2}, false, Arg()}, {}, kTol);
    t.add(name, "scale_factors", {f32({1, 2, 8, 6}, 4144), Arg(), false, Floats{0.5, 0.5}}, {},
          kTol);
  }
  t.add("aten::_upsample_bilinear2d_aa", "scales keywords",
        {f32({1, 1, 8, 8}, 4145), Ints{4, 4}, false}, {{"scales_h", 0.5}, {"scales_w", 0.5}}, kTol);
  t.add("aten::_upsample_bicubic2d_aa", "double", {f64({1, 1, 6, 6}, 4146), Ints{4, 3}, false});
  t.onnxruntime_lacks("no double Resize");
}

}  // namespace

void add_upsample_samples(SampleTable& t) {
  add_nearest(t);
  add_linear(t);
  add_antialiased(t);
}

}  // namespace onnxscript::torch_lib::comparison
