// Samples of the activations beyond the first milestone's
// (src/lib/torch_lib/ops/activation_more.cc): the scalar parameters given
// positionally, as keywords and omitted, ranks 0 to 4, empty tensors and
// double (LibTorch 1.13 has no float16 CPU kernel for these).

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {
namespace {

uint64_t next_seed() {
  static uint64_t seed = 20000;
  return seed++;
}

// The parameterless samples every elementwise activation gets. No float16:
// LibTorch 1.13's CPU kernels of these lack it ("not implemented for 'Half'").
void elementwise(SampleTable& t, const std::string& name, bool in_place = false) {
  t.add(name, "0-D", {f32({}, next_seed())});
  t.add(name, "rank 2", {f32({3, 4}, next_seed())});
  t.add(name, "empty (a 0-size dim)", {f32({0, 3}, next_seed())});
  t.add(name, "double", {f64({5}, next_seed())});
  if (in_place) return;
  t.add(name, "rank 1", {f32({6}, next_seed(), -8, 8)});
  t.add(name, "rank 3 with a size-1 dim", {f32({2, 1, 4}, next_seed())});
  t.add(name, "rank 4", {f32({2, 3, 2, 2}, next_seed())});
}

}  // namespace

void add_activation_samples(SampleTable& t) {
  for (const char* name : {"aten::silu", "aten::mish", "aten::selu", "aten::log_sigmoid"})
    elementwise(t, name);
  for (const char* name : {"aten::silu_", "aten::mish_", "aten::selu_", "aten::hardsigmoid_"})
    elementwise(t, name, true);
  t.add("aten::log_sigmoid", "large magnitudes do not overflow", {f32({6}, next_seed(), -90, 90)});

  for (const char* name : {"aten::elu", "aten::elu_"}) {
    elementwise(t, name, std::string(name).ends_with('_'));
    t.add(name, "alpha 0.5", {f32({2, 4}, next_seed()), 0.5});
    t.add(name, "alpha, scale, input_scale", {f32({2, 4}, next_seed()), 1.5, 2, 0.5});
    t.add(name, "keywords scale and input_scale", {f32({6}, next_seed())},
          {{"scale", 1.0507}, {"input_scale", 2}});
    t.add(name, "int alpha, double", {f64({5}, next_seed()), 2});
  }
  for (const char* name : {"aten::celu", "aten::celu_"}) {
    elementwise(t, name, std::string(name).ends_with('_'));
    t.add(name, "alpha 2", {f32({2, 4}, next_seed()), 2.0});
    t.add(name, "alpha keyword 0.5, double", {f64({5}, next_seed())}, {{"alpha", 0.5}});
  }
  for (const char* name : {"aten::leaky_relu", "aten::leaky_relu_"}) {
    elementwise(t, name, std::string(name).ends_with('_'));
    t.add(name, "slope 0.2", {f32({2, 4}, next_seed()), 0.2});
    t.add(name, "slope keyword, double", {f64({5}, next_seed())}, {{"negative_slope", 0.5}});
  }
  elementwise(t, "aten::softplus");
  t.add("aten::softplus", "beta 2", {f32({2, 4}, next_seed()), 2});
  t.add("aten::softplus", "beta and threshold: the linear part",
        {f32({8}, next_seed(), -6, 6), 2, 3});
  t.add("aten::softplus", "threshold keyword", {f32({8}, next_seed(), -6, 6)},
        {{"threshold", 1.5}});
  t.add("aten::softplus", "beta 0.5, double", {f64({6}, next_seed()), 0.5});

  for (const char* name : {"aten::hardshrink", "aten::softshrink"}) {
    elementwise(t, name);
    t.add(name, "lambd 1", {f32({2, 5}, next_seed()), 1});
    t.add(name, "lambd keyword 1.5, double", {f64({6}, next_seed())}, {{"lambd", 1.5}});
  }
  for (const char* name : {"aten::relu6", "aten::relu6_"}) {
    elementwise(t, name, std::string(name).ends_with('_'));
    t.add(name, "both clips", {f32({3, 4}, next_seed(), -9, 9)});
  }
  t.add("aten::relu6", "int64", {i64({8}, next_seed())});
  for (const char* name : {"aten::threshold", "aten::threshold_"}) {
    t.add(name, "threshold 0.5, value -1", {f32({3, 4}, next_seed()), 0.5, -1});
    t.add(name, "0-D", {f32({}, next_seed()), 0, 20});
    t.add(name, "empty", {f32({0, 2}, next_seed()), 0, 1});
    t.add(name, "double", {f64({5}, next_seed()), -0.5, 0.25});
    t.add(name, "int64", {i64({6}, next_seed()), 2, 7});
  }
  t.add("aten::threshold", "rank 4", {f32({2, 1, 3, 2}, next_seed()), 0, 0});

  t.add("aten::prelu", "one weight", {f32({2, 3, 4}, next_seed()), f32({1}, next_seed(), 0, 1)});
  t.add("aten::prelu", "a weight per channel (dim 1)",
        {f32({2, 3, 4}, next_seed()), f32({3}, next_seed(), 0, 1)});
  t.add("aten::prelu", "rank 4, per channel",
        {f32({1, 2, 3, 2}, next_seed()), f32({2}, next_seed(), 0, 1)});
  t.add("aten::prelu", "rank 2, per channel", {f32({4, 3}, next_seed()), f32({3}, next_seed())});
  t.add("aten::prelu", "double", {f64({2, 2, 2}, next_seed()), f64({2}, next_seed())});
  t.add("aten::prelu", "empty batch", {f32({0, 3, 2}, next_seed()), f32({3}, next_seed())});

  t.add("aten::glu", "dim omitted (last)", {f32({2, 4}, next_seed())});
  t.add("aten::glu", "dim 0", {f32({4, 3}, next_seed()), 0});
  t.add("aten::glu", "negative dim", {f32({2, 6, 3}, next_seed()), -2});
  t.add("aten::glu", "rank 1", {f32({6}, next_seed())});
  t.add("aten::glu", "rank 4, dim keyword", {f32({1, 2, 2, 4}, next_seed())}, {{"dim", 1}});
  t.add("aten::glu", "double", {f64({2, 2}, next_seed())});
  t.add("aten::glu", "empty", {f32({0, 4}, next_seed())});

  t.add("aten::hardtanh_backward", "default bounds",
        {f32({3, 4}, next_seed()), f32({3, 4}, next_seed(), -2, 2), -1, 1});
  t.add("aten::hardtanh_backward", "float bounds, broadcast gradient",
        {f32({4}, next_seed()), f32({2, 4}, next_seed()), -0.5, 2.5});
  t.add("aten::hardtanh_backward", "at the bounds",
        {f32({4}, next_seed()), Value(Tensor::from<float>({-1, 1, 0, 2}, {4})), -1, 1});
  t.add("aten::hardtanh_backward", "double", {f64({5}, next_seed()), f64({5}, next_seed()), -1, 1});
  t.add("aten::hardtanh_backward", "0-D", {f32({}, next_seed()), f32({}, next_seed()), -3, 3});

  for (const char* name : {"aten::log_softmax.int", "aten::special_log_softmax"}) {
    t.add(name, "last dim, negative", {f32({2, 3, 4}, next_seed()), -1});
    t.add(name, "dim 0", {f32({3, 2}, next_seed()), 0});
    t.add(name, "rank 4, dim 1", {f32({2, 3, 2, 2}, next_seed()), 1});
    t.add(name, "rank 1", {f32({5}, next_seed()), 0});
    t.add(name, "0-D", {f32({}, next_seed()), 0});
    t.add(name, "size-1 dim", {f32({3, 1}, next_seed()), 1});
    t.add(name, "double input", {f64({4}, next_seed()), 0});
    t.add(name, "dtype double keyword", {f32({2, 4}, next_seed()), 1}, {{"dtype", kDoubleCode}});
    t.add(name, "empty", {f32({0, 4}, next_seed()), 1});
  }
  t.add("aten::log_softmax.int", "dtype double positional",
        {f32({2, 3}, next_seed()), 1, kDoubleCode});
  for (const char* name : {"aten::_log_softmax", "aten::_softmax"}) {
    t.add(name, "last dim", {f32({2, 3, 4}, next_seed()), -1, false});
    t.add(name, "dim 0", {f32({3, 2}, next_seed()), 0, false});
    t.add(name, "rank 1", {f32({5}, next_seed()), 0, false});
    t.add(name, "0-D", {f32({}, next_seed()), 0, false});
    t.add(name, "double", {f64({2, 4}, next_seed()), 1, false});
    t.add(name, "rank 4", {f32({1, 2, 3, 2}, next_seed()), 2, false});
  }
}

}  // namespace onnxscript::torch_lib::comparison
