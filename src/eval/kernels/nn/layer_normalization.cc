// LayerNormalization (v17): normalises over the axes [axis, rank):
// Y = (X - mean) / sqrt(var + epsilon) * Scale + B, with Scale and B
// broadcast to X.shape[axis:]. Optional outputs Mean and InvStdDev have X's
// shape with the normalised axes set to 1, in the stash type (float).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "eval/util/parallel.h"
#include "eval/util/vector_math.h"
#include "nn_util.h"

namespace onnxscript::eval {
namespace {

// Values of `t` broadcast (numpy rules) to `shape`, flattened.
std::vector<double> broadcast_param(const KernelContext& ctx, const Tensor& t,
                                    const std::vector<int64_t>& shape, const char* what) {
  if (broadcast_shapes(ctx, t.shape(), shape) != shape)
    ctx.fail(fmt::format("{} {} does not broadcast to {}", what, shape_string(t.shape()),
                         shape_string(shape)));
  return float_values(ctx, broadcast_to(t, shape));
}

// Scale or B as `inner` dense floats: its own data when it already has
// that many elements (it can then differ from the normalised shape only by
// leading 1s), else a broadcast copy held in `hold`.
const float* dense_param(const KernelContext& ctx, const Tensor& t,
                         const std::vector<int64_t>& shape, int64_t inner, Tensor& hold,
                         const char* what) {
  if (broadcast_shapes(ctx, t.shape(), shape) != shape)
    ctx.fail(fmt::format("{} {} does not broadcast to {}", what, shape_string(t.shape()),
                         shape_string(shape)));
  if (t.numel() == inner) return t.data<float>();
  hold = broadcast_to(t, shape);
  return hold.data<float>();
}

// float X, Scale and B with the float stash type: each row's statistics in
// float with vector partial sums (the stash type is the precision the
// operator's definition computes in), rows split over the intra-op threads.
void layer_normalization_float(KernelContext& ctx, int64_t axis, float eps) {
  const Tensor& x = ctx.input_tensor(0);
  const int64_t rank = x.rank();
  const std::vector<int64_t> norm_shape(x.shape().begin() + axis, x.shape().end());
  const int64_t outer = shape_product(x.shape(), 0, axis);
  const int64_t inner = shape_product(norm_shape, 0, norm_shape.size());
  Tensor scale_hold, bias_hold;
  const float* scale =
      dense_param(ctx, ctx.input_tensor(1), norm_shape, inner, scale_hold, "Scale");
  const float* bias = ctx.has_input(2)
                          ? dense_param(ctx, ctx.input_tensor(2), norm_shape, inner, bias_hold, "B")
                          : nullptr;
  std::vector<int64_t> stat_shape = x.shape().to_vector();
  for (int64_t d = axis; d < rank; ++d) stat_shape[d] = 1;
  Tensor y = Tensor::uninitialized(DataType::kFloat, x.shape());  // every row is written
  Tensor means = Tensor::uninitialized(DataType::kFloat, stat_shape);
  Tensor inv_stds = Tensor::uninitialized(DataType::kFloat, stat_shape);
  const float* src = x.data<float>();
  float* dst = y.data<float>();
  float* mp = means.data<float>();
  float* ip = inv_stds.data<float>();
  auto rows = [&](int64_t first, int64_t last) {
    for (int64_t o = first; o < last; ++o) {
      float mean = 0, var = 0;
      if (inner > 0) vmath::mean_variance(src + o * inner, inner, mean, var);
      const float r = 1.0f / std::sqrt(var + eps);
      vmath::normalize_row(src + o * inner, dst + o * inner, inner, mean, r, scale, bias);
      mp[o] = mean;
      ip[o] = r;
    }
  };
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 14) / std::max<int64_t>(1, inner));
  if (outer <= grain || intra_op_threads() == 1)
    rows(0, outer);
  else
    parallel_for(outer, grain, rows);
  ctx.set_output(0, y);
  if (ctx.num_outputs() > 1) ctx.set_output(1, means);
  if (ctx.num_outputs() > 2) ctx.set_output(2, inv_stds);
}

void layer_normalization(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const int64_t rank = x.rank();
  const int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", -1), rank);
  const double eps = ctx.attr_float("epsilon", 1e-5f);
  const int64_t stash = ctx.attr_int("stash_type", 1);
  const DataType stash_type =
      stash == static_cast<int64_t>(DataType::kBfloat16) ? DataType::kBfloat16 : DataType::kFloat;
  if (stash_type == DataType::kFloat && x.dtype() == DataType::kFloat &&
      ctx.input_tensor(1).dtype() == DataType::kFloat &&
      (!ctx.has_input(2) || ctx.input_tensor(2).dtype() == DataType::kFloat))
    return layer_normalization_float(ctx, axis, static_cast<float>(eps));
  const std::vector<int64_t> norm_shape(x.shape().begin() + axis, x.shape().end());
  const int64_t outer = shape_product(x.shape(), 0, axis);
  const int64_t inner = shape_product(norm_shape, 0, norm_shape.size());
  const std::vector<double> scale = broadcast_param(ctx, ctx.input_tensor(1), norm_shape, "Scale");
  const std::vector<double> bias = ctx.has_input(2)
                                       ? broadcast_param(ctx, ctx.input_tensor(2), norm_shape, "B")
                                       : std::vector<double>(inner, 0.0);
  std::vector<double> xv = float_values(ctx, x);
  std::vector<double> means(outer), inv_std(outer);
  for (int64_t o = 0; o < outer; ++o) {
    double* p = xv.data() + o * inner;
    double mean = 0, var = 0;
    for (int64_t i = 0; i < inner; ++i) mean += p[i];
    mean /= static_cast<double>(inner);
    for (int64_t i = 0; i < inner; ++i) var += (p[i] - mean) * (p[i] - mean);
    var /= static_cast<double>(inner);
    const double r = 1.0 / std::sqrt(var + eps);
    for (int64_t i = 0; i < inner; ++i) p[i] = (p[i] - mean) * r * scale[i] + bias[i];
    means[o] = mean;
    inv_std[o] = r;
  }
  ctx.set_output(0, float_tensor(ctx, x.dtype(), x.shape(), xv));
  std::vector<int64_t> stat_shape = x.shape().to_vector();
  for (int64_t d = axis; d < rank; ++d) stat_shape[d] = 1;
  if (ctx.num_outputs() > 1) ctx.set_output(1, float_tensor(ctx, stash_type, stat_shape, means));
  if (ctx.num_outputs() > 2) ctx.set_output(2, float_tensor(ctx, stash_type, stat_shape, inv_std));
}

}  // namespace

void register_nn_layer_normalization(KernelRegistry& registry) {
  registry.add("", "LayerNormalization", 17, layer_normalization);
}

}  // namespace onnxscript::eval
