// BatchNormalization: Y = scale * (X - mean) / sqrt(var + epsilon) + B per
// channel (axis 1). Inference uses the given mean and var.
// Training (v14/v15 training_mode=1; before v14, when the optional outputs
// are requested, and for v1/v6 only when is_test=0) normalises with the
// batch statistics (biased variance over N and the spatial axes) and outputs
// running_mean = mean * momentum + batch_mean * (1 - momentum) (likewise var);
// v1-v9 also output the batch mean and variance (saved_mean, saved_var).
// v1-v7 `spatial=0` gives the parameters shape [C, D1, ...] (per feature).
// v14 lets the statistics have their own type U, v15 separates scale/B (T1)
// from mean/var (T2).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "eval/util/parallel.h"
#include "nn_util.h"

namespace onnxscript::eval {
namespace {

// Inference on float X with per-channel statistics, the case of every
// exported CNN: each channel's scale / sqrt(var + eps) and shift are folded
// once (in double), and the elements take one float multiply-add, split
// over the intra-op threads by plane.
void infer_float(const Tensor& x, const std::vector<double>& scale, const std::vector<double>& bias,
                 const std::vector<double>& mean, const std::vector<double>& var, double eps,
                 KernelContext& ctx) {
  const int64_t c = x.shape()[1];
  const int64_t planes = x.shape()[0] * c;
  const int64_t spatial = planes == 0 ? 0 : x.numel() / planes;
  std::vector<float> mul(static_cast<size_t>(c)), add(static_cast<size_t>(c));
  for (int64_t ci = 0; ci < c; ++ci) {
    const double k = scale[ci] / std::sqrt(var[ci] + eps);
    mul[ci] = static_cast<float>(k);
    add[ci] = static_cast<float>(bias[ci] - mean[ci] * k);
  }
  Tensor y = Tensor::uninitialized(DataType::kFloat, x.shape());
  const float* src = x.data<float>();
  float* dst = y.data<float>();
  parallel_for(planes, std::max<int64_t>(1, (int64_t{1} << 14) / std::max<int64_t>(1, spatial)),
               [&](int64_t begin, int64_t end) {
                 for (int64_t p = begin; p < end; ++p) {
                   const float k = mul[p % c], b = add[p % c];
                   const float* in = src + p * spatial;
                   float* out = dst + p * spatial;
                   for (int64_t i = 0; i < spatial; ++i) out[i] = in[i] * k + b;
                 }
               });
  ctx.set_output(0, y);
}

void batch_normalization(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  if (x.rank() < 2) ctx.fail(fmt::format("X must have rank >= 2, not {}", x.rank()));
  const int64_t n = x.shape()[0], c = x.shape()[1];
  const int64_t spatial = shape_product(x.shape(), 2, x.rank());
  const double eps = ctx.attr_float("epsilon", 1e-5f);
  const double momentum = ctx.attr_float("momentum", 0.9f);
  const int64_t v = ctx.version();
  const bool training = v >= 14
                            ? ctx.attr_int("training_mode", 0) != 0
                            : ctx.num_outputs() > 1 && (v >= 7 || ctx.attr_int("is_test", 0) == 0);
  std::vector<std::vector<double>> params(4);
  bool per_feature = false;
  for (size_t i = 0; i < 4; ++i) {
    const Tensor& p = ctx.input_tensor(i + 1);
    params[i] = float_values(ctx, p);
    if (p.numel() == c * spatial && spatial != 1 && v < 9) {
      per_feature = true;
    } else if (p.numel() != c) {
      ctx.fail(fmt::format("input {} has {} elements but X has {} channels", i + 1, p.numel(), c));
    }
  }
  const std::vector<double>&scale = params[0], &bias = params[1];
  std::vector<double> mean = params[2], var = params[3];
  const int64_t groups = per_feature ? c * spatial : c;  // one statistic per group
  if (!training && !per_feature && x.dtype() == DataType::kFloat && ctx.num_outputs() == 1) {
    infer_float(x, scale, bias, mean, var, eps, ctx);
    return;
  }
  std::vector<double> xv = float_values(ctx, x);
  auto group_of = [&](int64_t ci, int64_t s) { return per_feature ? ci * spatial + s : ci; };
  std::vector<double> bmean(groups, 0.0), bvar(groups, 0.0);
  if (training) {
    std::vector<double> count(groups, 0.0);
    for (int64_t b = 0; b < n; ++b)
      for (int64_t ci = 0; ci < c; ++ci)
        for (int64_t s = 0; s < spatial; ++s) {
          bmean[group_of(ci, s)] += xv[(b * c + ci) * spatial + s];
          count[group_of(ci, s)] += 1;
        }
    for (int64_t g = 0; g < groups; ++g) bmean[g] /= count[g];
    for (int64_t b = 0; b < n; ++b)
      for (int64_t ci = 0; ci < c; ++ci)
        for (int64_t s = 0; s < spatial; ++s) {
          const double d = xv[(b * c + ci) * spatial + s] - bmean[group_of(ci, s)];
          bvar[group_of(ci, s)] += d * d;
        }
    for (int64_t g = 0; g < groups; ++g) bvar[g] /= count[g];
  }
  const std::vector<double>& use_mean = training ? bmean : mean;
  const std::vector<double>& use_var = training ? bvar : var;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t ci = 0; ci < c; ++ci)
      for (int64_t s = 0; s < spatial; ++s) {
        const int64_t g = group_of(ci, s);
        double& e = xv[(b * c + ci) * spatial + s];
        e = scale[g] * (e - use_mean[g]) / std::sqrt(use_var[g] + eps) + bias[g];
      }
  ctx.set_output(0, float_tensor(ctx, x.dtype(), x.shape(), xv));
  if (ctx.num_outputs() > 1) {
    const Tensor& mean_t = ctx.input_tensor(3);
    const Tensor& var_t = ctx.input_tensor(4);
    std::vector<double> rmean = mean, rvar = var;
    if (training)
      for (int64_t g = 0; g < groups; ++g) {
        rmean[g] = mean[g] * momentum + bmean[g] * (1 - momentum);
        rvar[g] = var[g] * momentum + bvar[g] * (1 - momentum);
      }
    ctx.set_output(1, float_tensor(ctx, mean_t.dtype(), mean_t.shape(), rmean));
    if (ctx.num_outputs() > 2)
      ctx.set_output(2, float_tensor(ctx, var_t.dtype(), var_t.shape(), rvar));
    if (ctx.num_outputs() > 3)
      ctx.set_output(3, float_tensor(ctx, mean_t.dtype(), mean_t.shape(), bmean));
    if (ctx.num_outputs() > 4)
      ctx.set_output(4, float_tensor(ctx, var_t.dtype(), var_t.shape(), bvar));
  }
}

}  // namespace

void register_nn_batch_normalization(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 7, 9, 14, 15})
    registry.add("", "BatchNormalization", v, batch_normalization);
}

}  // namespace onnxscript::eval
