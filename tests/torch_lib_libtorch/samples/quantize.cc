// Samples of fake quantization (src/lib/torch_lib/ops/quantize.cc): signed
// and unsigned ranges, narrow ranges that clamp, zero points, float, double
// and float16, 0-D, the tensor_qparams overload, and per channel along
// several axes with int32 and float zero points.

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {
namespace {

uint64_t next_seed() {
  static uint64_t seed = 73000;
  return seed++;
}

void add_per_tensor(SampleTable& t) {
  const char* name = "aten::fake_quantize_per_tensor_affine";
  t.add(name, "int8 range", {f32({2, 5}, next_seed()), 0.1, 0, -128, 127});
  t.add(name, "4-bit range clamps, zero point 3", {f32({8}, next_seed()), 0.25, 3, 0, 15});
  t.add(name, "double", {f64({3, 4}, next_seed()), 0.05, -10, -128, 127});
  t.add(name, "float16", {f16({6}, next_seed()), 0.125, 2, 0, 255});
  t.add(name, "0-D", {f32({}, next_seed()), 0.3, 1, 0, 7});
  t.add(name, "empty", {f32({0, 3}, next_seed()), 0.1, 0, 0, 255});
  const char* tensor = "aten::fake_quantize_per_tensor_affine.tensor_qparams";
  t.add(tensor, "scale and int32 zero point tensors",
        {f32({3, 4}, next_seed()), Value(Tensor::from<float>({0.2f}, {1})),
         Value(Tensor::from<int32_t>({2}, {1})), 0, 31});
  t.add(tensor, "rank 3, signed",
        {f32({2, 2, 3}, next_seed()), Value(Tensor::from<float>({0.05f}, {1})),
         Value(Tensor::from<int32_t>({-3}, {1})), -64, 63});
}

void add_per_channel(SampleTable& t) {
  const char* name = "aten::fake_quantize_per_channel_affine";
  t.add(name, "axis 1, int32 zero points",
        {f32({2, 3, 4}, next_seed()), f32({3}, next_seed(), 0.05, 0.3),
         i32({3}, next_seed(), 0, 10), 1, 0, 255});
  t.add(name, "axis 0, float zero points",
        {f32({4, 5}, next_seed()), f32({4}, next_seed(), 0.05, 0.3), f32({4}, next_seed(), -2, 2),
         0, -128, 127});
  t.add(name, "last axis, narrow range",
        {f32({3, 2}, next_seed()), f32({2}, next_seed(), 0.1, 0.5), i32({2}, next_seed(), 0, 3), 1,
         0, 7});
  t.add(name, "double, rank 1",
        {f64({5}, next_seed()), f32({5}, next_seed(), 0.05, 0.3), i32({5}, next_seed(), -5, 5), 0,
         -128, 127});
}

}  // namespace

void add_quantize_samples(SampleTable& t) {
  add_per_tensor(t);
  add_per_channel(t);
}

}  // namespace onnxscript::torch_lib::comparison
