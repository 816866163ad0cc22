// Samples of the loss family (src/lib/torch_lib/ops/loss.cc): mse_loss,
// nll_loss and cross_entropy_loss, with each reduction (0 none, 1 mean, 2
// sum), class weights, ignore_index and class-probability targets. LibTorch
// 1.13 has no float16 CPU kernel for nll_loss or log_softmax, so only
// mse_loss has a float16 sample.

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {
namespace {

// Class indices written out (to place ignored targets).
Value indices(std::initializer_list<int64_t> values, Ints shape = {-1}) {
  return Value(Tensor::from<int64_t>(values, ir::Dims(shape.begin(), shape.end())));
}

}  // namespace

void add_loss_samples(SampleTable& t) {
  t.add("aten::mse_loss", "reduction omitted (mean)", {f32({3, 4}, 4000), f32({3, 4}, 4001)});
  t.add("aten::mse_loss", "reduction none", {f32({2, 3}, 4002), f32({2, 3}, 4003), 0});
  t.add("aten::mse_loss", "reduction sum, rank 3", {f32({2, 3, 2}, 4004), f32({2, 3, 2}, 4005), 2});
  t.add("aten::mse_loss", "reduction keyword", {f32({5}, 4006), f32({5}, 4007)},
        {{"reduction", 0}});
  t.add("aten::mse_loss", "double", {f64({4, 2}, 4008), f64({4, 2}, 4009)});
  t.add("aten::mse_loss", "float16", {f16({6}, 4010), f16({6}, 4011)}, {}, 2e-3);
  t.add("aten::mse_loss", "0-D", {f32({}, 4012), f32({}, 4013), 2});
  t.add("aten::mse_loss", "rank 4, sum", {f32({2, 1, 2, 3}, 4014), f32({2, 1, 2, 3}, 4015), 2});
  t.add("aten::mse_loss", "empty, none", {f32({0, 3}, 4016), f32({0, 3}, 4017), 0});

  // nll_loss takes log-probabilities; any values do for the comparison.
  t.add("aten::nll_loss", "defaults (mean)", {f32({4, 3}, 4020), i64({4}, 4021, 0, 2)});
  t.add("aten::nll_loss", "reduction none", {f32({4, 3}, 4022), i64({4}, 4023, 0, 2), Arg(), 0});
  t.add("aten::nll_loss", "reduction sum", {f32({5, 4}, 4024), i64({5}, 4025, 0, 3), Arg(), 2});
  t.add("aten::nll_loss", "weight, mean divides by the weights",
        {f32({5, 3}, 4026), i64({5}, 4027, 0, 2), f32({3}, 4028, 0.5, 2)});
  t.add("aten::nll_loss", "weight, none",
        {f32({3, 3}, 4029), i64({3}, 4030, 0, 2), f32({3}, 4031, 0.5, 2), 0});
  t.add("aten::nll_loss", "ignore_index keyword", {f32({4, 3}, 4032), indices({0, 1, 1, 2})},
        {{"ignore_index", 1}});
  t.add("aten::nll_loss", "default ignore_index -100 in the target",
        {f32({3, 2}, 4033), indices({1, -100, 0})});
  t.add("aten::nll_loss", "every target ignored gives NaN",
        {f32({2, 3}, 4034), indices({-100, -100})});
  // LibTorch 1.13's aten::nll_loss takes 1-D or 2-D input only (images go
  // through nll_loss2d).
  t.add("aten::nll_loss", "weight, sum, ignore_index",
        {f32({5, 3}, 4035), indices({0, 2, 1, 2, 0}), f32({3}, 4036, 0.5, 2), 2, 2});
  t.add("aten::nll_loss", "size-1 batch", {f32({1, 4}, 4037), i64({1}, 4038, 0, 3)});
  t.add("aten::nll_loss", "double", {f64({3, 4}, 4040), i64({3}, 4041, 0, 3)});
  t.add("aten::nll_loss", "rank 1 input, 0-D target", {f32({4}, 4042), indices({2}, {})});
  // nll_loss_forward: the loss and the total weight, every parameter given.
  const char* forward = "aten::nll_loss_forward";
  t.add(forward, "none: total weight 0", {f32({3, 4}, 4050), i64({3}, 4051, 0, 3), Arg(), 0, -100});
  t.add(forward, "mean", {f32({4, 3}, 4052), i64({4}, 4053, 0, 2), Arg(), 1, -100});
  t.add(forward, "weight, sum, ignore_index 0",
        {f32({5, 3}, 4054), indices({0, 2, 1, 2, 0}), f32({3}, 4055, 0.5, 2), 2, 0});
  t.add(forward, "weight, mean, double",
        {f64({3, 4}, 4056), i64({3}, 4057, 0, 3), f64({4}, 4058, 0.5, 2), 1, -100});
  t.add(forward, "rank 1 input", {f32({4}, 4059), indices({1}, {}), Arg(), 1, -100});
  t.add(forward, "every target ignored", {f32({2, 3}, 4060), indices({1, 1}), Arg(), 1, 1});

  t.add("aten::cross_entropy_loss", "class indices, defaults",
        {f32({4, 3}, 4050), i64({4}, 4051, 0, 2)});
  t.add("aten::cross_entropy_loss", "reduction none",
        {f32({3, 5}, 4052), i64({3}, 4053, 0, 4), Arg(), 0});
  t.add("aten::cross_entropy_loss", "reduction sum, weight",
        {f32({4, 3}, 4054), i64({4}, 4055, 0, 2), f32({3}, 4056, 0.5, 2), 2});
  t.add("aten::cross_entropy_loss", "weight, mean",
        {f32({5, 3}, 4057), i64({5}, 4058, 0, 2), f32({3}, 4059, 0.5, 2)});
  t.add("aten::cross_entropy_loss", "ignore_index keyword",
        {f32({4, 3}, 4060), indices({2, 0, 2, 1})}, {{"ignore_index", 2}});
  t.add("aten::cross_entropy_loss", "spatial (N, C, d1, d2)",
        {f32({2, 3, 2, 2}, 4061), i64({2, 2, 2}, 4062, 0, 2)});
  t.add("aten::cross_entropy_loss", "double", {f64({3, 4}, 4063), i64({3}, 4064, 0, 3)});
  t.add("aten::cross_entropy_loss", "class probabilities",
        {f32({3, 4}, 4065), f32({3, 4}, 4066, 0, 1)});
  t.add("aten::cross_entropy_loss", "class probabilities, none, spatial",
        {f32({2, 3, 2}, 4067), f32({2, 3, 2}, 4068, 0, 1), Arg(), 0});
  t.add("aten::cross_entropy_loss", "class probabilities, sum",
        {f32({2, 3}, 4069), f32({2, 3}, 4070, 0, 1), Arg(), 2});
  t.add("aten::cross_entropy_loss", "class probabilities with weight",
        {f32({3, 4}, 4071), f32({3, 4}, 4072, 0, 1), f32({4}, 4073, 0.5, 2)});
  t.add("aten::cross_entropy_loss", "label_smoothing, class indices",
        {f32({4, 3}, 4074), i64({4}, 4075, 0, 2)}, {{"label_smoothing", 0.1}});
  t.add("aten::cross_entropy_loss", "label_smoothing, weight, ignore_index",
        {f32({5, 3}, 4076), indices({0, 1, 2, 1, 0}), f32({3}, 4077, 0.5, 2), 1, 1, 0.2});
  t.add("aten::cross_entropy_loss", "label_smoothing, class probabilities",
        {f32({3, 4}, 4078), f32({3, 4}, 4079, 0, 1)}, {{"label_smoothing", 0.3}});
  t.add("aten::cross_entropy_loss", "rank 1 input, 0-D target", {f32({4}, 4080), indices({1}, {})});
}

}  // namespace onnxscript::torch_lib::comparison
