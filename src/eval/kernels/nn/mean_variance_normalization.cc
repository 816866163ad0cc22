// MeanVarianceNormalization: Y = (X - E[X]) / sqrt(E[(X - E[X])^2] + 1e-9),
// the moments taken over `axes` (default [0, 2, 3]), as the schema's
// function body computes it. v13 adds bfloat16.
#include <cmath>

#include "nn_util.h"

namespace onnxscript::eval {
namespace {

void mean_variance_normalization(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const int64_t rank = x.rank();
  const std::vector<int64_t> axes = ctx.attr_ints("axes", {0, 2, 3});
  std::vector<bool> reduced(rank, false);
  for (int64_t a : axes) reduced[normalize_axis(ctx, a, rank, "axes entry")] = true;
  // Map each element to its statistics slot: the index over the kept axes.
  std::vector<int64_t> kept_shape(rank);
  for (int64_t d = 0; d < rank; ++d) kept_shape[d] = reduced[d] ? 1 : x.shape()[d];
  std::vector<int64_t> slot_strides = contiguous_strides(kept_shape);
  for (int64_t d = 0; d < rank; ++d)
    if (reduced[d]) slot_strides[d] = 0;
  const int64_t slots = shape_product(kept_shape, 0, rank);
  std::vector<double> xv = float_values(ctx, x);
  std::vector<int64_t> slot_of(xv.size());
  if (!xv.empty()) {
    std::vector<int64_t> index(rank, 0);
    int64_t slot = 0, i = 0;
    do slot_of[i++] = slot;
    while (next_index(index, x.shape(), slot_strides, slot));
  }
  std::vector<double> mean(slots, 0.0), var(slots, 0.0), count(slots, 0.0);
  for (size_t i = 0; i < xv.size(); ++i) {
    mean[slot_of[i]] += xv[i];
    count[slot_of[i]] += 1;
  }
  for (int64_t s = 0; s < slots; ++s) mean[s] /= count[s];
  for (size_t i = 0; i < xv.size(); ++i) {
    const double d = xv[i] - mean[slot_of[i]];
    var[slot_of[i]] += d * d;
  }
  for (int64_t s = 0; s < slots; ++s) var[s] /= count[s];
  for (size_t i = 0; i < xv.size(); ++i)
    xv[i] = (xv[i] - mean[slot_of[i]]) / std::sqrt(var[slot_of[i]] + 1e-9);
  ctx.set_output(0, float_tensor(ctx, x.dtype(), x.shape(), xv));
}

}  // namespace

void register_nn_mean_variance_normalization(KernelRegistry& registry) {
  for (int64_t v : {9, 13})
    registry.add("", "MeanVarianceNormalization", v, mean_variance_normalization);
}

}  // namespace onnxscript::eval
