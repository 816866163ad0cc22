#pragma once
// What the attention kernels (Attention, FlexAttention, LinearAttention) have
// in common: the grouped-head rule (query head h reads key/value head
// h / (q_heads / kv_heads)), the layout change between packed 3-D
// (batch, seq, heads * size) and heads-first 4-D (batch, heads, seq, size)
// buffers, the default scale, softmax along the keys in double, and the
// element type that softmax_precision names.
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "eval/kernels/nn/nn_util.h"

namespace onnxscript::eval {

/// How many query heads share one key/value head; fails unless `q_heads` is a
/// positive multiple of a positive `kv_heads`.
inline int64_t attention_group_size(const KernelContext& ctx, int64_t q_heads, int64_t kv_heads) {
  if (q_heads <= 0 || kv_heads <= 0 || q_heads % kv_heads != 0)
    ctx.fail(
        fmt::format("the number of query heads {} is not a positive multiple of the number "
                    "of key/value heads {}",
                    q_heads, kv_heads));
  return q_heads / kv_heads;
}

/// A (batch, heads, seq, size) buffer from a 3-D (batch, seq, heads * size)
/// or an already heads-first 4-D (batch, heads, seq, size) tensor of a
/// floating type. The caller has checked that the shape splits so.
inline std::vector<double> attention_heads_first(const KernelContext& ctx, const Tensor& t,
                                                 int64_t heads, int64_t seq, int64_t size) {
  std::vector<double> v = float_values(ctx, t);
  if (t.rank() == 4) return v;
  const int64_t batch = t.shape()[0];
  std::vector<double> out(v.size());
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t s = 0; s < seq; ++s)
      for (int64_t h = 0; h < heads; ++h)
        for (int64_t d = 0; d < size; ++d)
          out[((b * heads + h) * seq + s) * size + d] = v[((b * seq + s) * heads + h) * size + d];
  return out;
}

/// The packed (batch, seq, heads * size) order of a (batch, heads, seq, size) buffer.
inline std::vector<double> attention_heads_last(const std::vector<double>& v, int64_t batch,
                                                int64_t heads, int64_t seq, int64_t size) {
  std::vector<double> out(v.size());
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t s = 0; s < seq; ++s)
        for (int64_t d = 0; d < size; ++d)
          out[((b * seq + s) * heads + h) * size + d] = v[((b * heads + h) * seq + s) * size + d];
  return out;
}

/// The `scale` attribute, or 1 / sqrt(head_size) when it is absent.
inline double attention_scale(const KernelContext& ctx, int64_t head_size) {
  if (ctx.attribute("scale")) return static_cast<double>(ctx.attr_float("scale", 1.0f));
  return 1.0 / std::sqrt(static_cast<double>(head_size));
}

/// Softmax of each of the `rows` rows of `cols` values at `s`, in place. A row
/// whose values are all -inf becomes NaN, as a Softmax node computes it.
inline void attention_softmax_rows(double* s, int64_t rows, int64_t cols) {
  for (int64_t i = 0; i < rows; ++i) {
    double* row = s + i * cols;
    double peak = -std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < cols; ++j) peak = std::max(peak, row[j]);
    double sum = 0;
    for (int64_t j = 0; j < cols; ++j) sum += row[j] = std::exp(row[j] - peak);
    for (int64_t j = 0; j < cols; ++j) row[j] /= sum;
  }
}

/// The element type the `softmax_precision` attribute names (1 float, 10
/// float16, 11 double, 16 bfloat16); without it, double for double inputs and
/// float otherwise.
inline DataType attention_softmax_type(const KernelContext& ctx, DataType input) {
  const ir::Attribute* attr = ctx.attribute("softmax_precision");
  if (!attr) return input == DataType::kDouble ? DataType::kDouble : DataType::kFloat;
  const int64_t code = ctx.attr_int("softmax_precision", 1);
  switch (code) {
    case static_cast<int64_t>(DataType::kFloat):
    case static_cast<int64_t>(DataType::kFloat16):
    case static_cast<int64_t>(DataType::kDouble):
    case static_cast<int64_t>(DataType::kBfloat16):
      return static_cast<DataType>(code);
    default:
      ctx.fail(fmt::format(
          "softmax_precision {} is not a floating type (1 float, 10 float16, 11 double, 16 "
          "bfloat16)",
          code));
  }
}

}  // namespace onnxscript::eval
