// NegativeLogLikelihoodLoss (v22): input (N, C, d1, ..., dk) holds
// log-probabilities, target (N, d1, ..., dk) class indices, weight (C) an
// optional per-class weight. Each element's loss is
// -input[n, target, d...] * weight[target], or 0 where target equals
// ignore_index (which then has weight 0 as well). reduction "none" returns
// the losses, "sum" their sum, and "mean" (the default) their sum divided by
// the sum of the weights of the elements not ignored.
#include <fmt/format.h>

#include "nn_util.h"

namespace onnxscript::eval {
namespace {

void negative_log_likelihood_loss(KernelContext& ctx) {
  const Tensor& input = ctx.input_tensor(0);
  const Tensor& target = ctx.input_tensor(1);
  if (input.rank() < 2)
    ctx.fail(fmt::format("input {} needs rank 2 or more", shape_string(input.shape())));
  const int64_t n = input.shape()[0], c = input.shape()[1];
  const int64_t inner = shape_product(input.shape(), 2, input.rank());
  std::vector<int64_t> target_shape{n};
  for (int64_t d = 2; d < input.rank(); ++d) target_shape.push_back(input.shape()[d]);
  if (target.shape() != ir::Dims(target_shape))
    ctx.fail(fmt::format("target {} must be {}", shape_string(target.shape()),
                         shape_string(target_shape)));
  const std::vector<int64_t> labels = tensor_to_int64s(ctx, target, "target");
  std::vector<double> weight;
  if (ctx.num_inputs() > 2 && ctx.has_input(2)) {
    weight = float_values(ctx, ctx.input_tensor(2));
    if (static_cast<int64_t>(weight.size()) != c)
      ctx.fail(fmt::format("weight has {} values for {} classes", weight.size(), c));
  }
  const ir::Attribute* ignore_attr = ctx.attribute("ignore_index");
  const int64_t ignore = ctx.attr_int("ignore_index", 0);
  const std::string reduction = ctx.attr_string("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    ctx.fail(fmt::format("reduction must be none, sum or mean, got \"{}\"", reduction));
  const std::vector<double> x = float_values(ctx, input);
  std::vector<double> loss(labels.size());
  double total = 0, weight_sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < inner; ++j) {
      const size_t e = static_cast<size_t>(i * inner + j);
      const int64_t t = labels[e];
      if (ignore_attr && t == ignore) continue;
      if (t < 0 || t >= c)
        ctx.fail(fmt::format("target value {} is outside [0, {}) and not ignore_index", t, c));
      const double w = weight.empty() ? 1.0 : weight[t];
      loss[e] = -x[(i * c + t) * inner + j] * w;
      total += loss[e];
      weight_sum += w;
    }
  }
  if (reduction == "none") {
    ctx.set_output(0, float_tensor(ctx, input.dtype(), target_shape, loss));
  } else {
    const double r = reduction == "sum" ? total : total / weight_sum;
    ctx.set_output(0, float_tensor(ctx, input.dtype(), ir::Dims{}, {r}));
  }
}

}  // namespace

void register_nn_negative_log_likelihood_loss(KernelRegistry& registry) {
  // 22: only adds bfloat16 to version 13's input types; the same computation.
  // Versions 12 and 13 keep running their schema function bodies, which
  // libonnx 1.12 has (and which the session tests use on purpose); it has
  // none for 22.
  registry.add("", "NegativeLogLikelihoodLoss", 22, negative_log_likelihood_loss);
}

}  // namespace onnxscript::eval
