// Samples of the linear algebra families (src/lib/torch_lib/ops/linalg.cc
// and linalg_more.cc): det, linalg_det, logdet, bilinear; and aten::cross,
// which shape_more.cc registers next to linalg_cross but which is a linear
// algebra operator (its samples are here so that the shape family's file
// keeps to shapes). LibTorch 1.13 has no float16 CPU kernel for any of them.

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {
namespace {

// Matrices written out (singular, negative or positive determinant).
Value floats(std::initializer_list<float> values, Ints shape) {
  return Value(Tensor::from<float>(values, ir::Dims(shape.begin(), shape.end())));
}

// A determinant of a 3x3 or larger matrix sums products of several
// elements, each rounded in float32; LibTorch's LU and ONNX's Det round
// differently.
constexpr double kDetTolerance = 1e-4;

}  // namespace

void add_linalg_samples(SampleTable& t) {
  for (const char* name : {"aten::det", "aten::linalg_det"}) {
    t.add(name, "2x2", {f32({2, 2}, 3000)});
    t.add(name, "3x3", {f32({3, 3}, 3001)}, {}, kDetTolerance);
    t.add(name, "batch of 3x3", {f32({4, 3, 3}, 3002)}, {}, kDetTolerance);
    t.add(name, "rank 4 batch", {f32({2, 1, 2, 2}, 3003)});
    t.add(name, "1x1", {f32({1, 1}, 3004)});
    t.add(name, "singular", {floats({1, 2, 2, 4}, {2, 2})});
    t.add(name, "double", {f64({3, 3}, 3005)});
    t.onnxruntime_lacks("no double Det");
    t.add(name, "double batch", {f64({2, 4, 4}, 3006)});
    t.onnxruntime_lacks("no double Det");
  }
  t.add("aten::linalg_det", "empty batch", {f32({0, 2, 2}, 3007)});
  t.add("aten::logdet", "positive determinant", {floats({4, 1, 0, 1, 3, 1, 0, 1, 2}, {3, 3})}, {},
        kDetTolerance);
  t.add("aten::logdet", "negative determinant gives NaN", {floats({1, 2, 3, 4}, {2, 2})});
  t.add("aten::logdet", "singular gives -inf", {floats({1, 2, 2, 4}, {2, 2})});
  t.add("aten::logdet", "batch", {floats({2, 0, 0, 3, 1, 2, 3, 4}, {2, 2, 2})});
  t.add("aten::logdet", "double", {Value(Tensor::from<double>({5, 2, 1, 3}, {2, 2}))});
  t.onnxruntime_lacks("no double Det");
  t.add("aten::logdet", "1x1", {f32({1, 1}, 3010, 0.5, 3)});

  t.add("aten::bilinear", "rank 2 with bias",
        {f32({3, 4}, 3020), f32({3, 5}, 3021), f32({2, 4, 5}, 3022), f32({2}, 3023)}, {},
        kDetTolerance);
  t.add("aten::bilinear", "bias omitted",
        {f32({2, 3}, 3024), f32({2, 2}, 3025), f32({4, 3, 2}, 3026)}, {}, kDetTolerance);
  t.add("aten::bilinear", "rank 3 inputs",
        {f32({2, 3, 4}, 3027), f32({2, 3, 2}, 3028), f32({5, 4, 2}, 3029), f32({5}, 3030)}, {},
        kDetTolerance);
  t.add("aten::bilinear", "bias None, double",
        {f64({2, 3}, 3031), f64({2, 3}, 3032), f64({2, 3, 3}, 3033), Arg()});
  t.add("aten::bilinear", "rank 1 inputs",
        {f32({3}, 3034), f32({2}, 3035), f32({4, 3, 2}, 3036), f32({4}, 3037)});
  t.add("aten::bilinear", "empty batch",
        {f32({0, 3}, 3038), f32({0, 2}, 3039), f32({4, 3, 2}, 3040)});

  t.add("aten::cross", "rank 1", {f32({3}, 3050), f32({3}, 3051)});
  t.add("aten::cross", "dim 1", {f32({4, 3}, 3052), f32({4, 3}, 3053), 1});
  t.add("aten::cross", "negative dim", {f32({2, 3, 2}, 3054), f32({2, 3, 2}, 3055), -2});
  t.add("aten::cross", "dim None takes the first of size 3",
        {f32({3, 3}, 3056), f32({3, 3}, 3057)});
  t.add("aten::cross", "dim keyword None", {f32({2, 3}, 3058), f32({2, 3}, 3059)},
        {{"dim", Arg()}});
  t.add("aten::cross", "broadcast size-1 dim", {f32({1, 3}, 3060), f32({4, 3}, 3061), 1});
  t.add("aten::cross", "int64", {i64({2, 3}, 3062), i64({2, 3}, 3063), 1});
  t.add("aten::cross", "double rank 4", {f64({2, 1, 3, 2}, 3064), f64({2, 1, 3, 2}, 3065), 2});
  t.add("aten::cross", "empty", {f32({0, 3}, 3066), f32({0, 3}, 3067), 1});
}

}  // namespace onnxscript::torch_lib::comparison
