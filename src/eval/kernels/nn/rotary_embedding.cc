// RotaryEmbedding (v23): rotates the first rotary_embedding_dim (default: all)
// features of each head by position-dependent angles. X is 4-D
// (batch, num_heads, sequence, head_size) or 3-D (batch, sequence,
// num_heads * head_size, with the num_heads attribute). With position_ids
// (batch, sequence), cos_cache and sin_cache are (max_position + 1, dim / 2)
// and are indexed by position; without it they are (batch, sequence, dim / 2).
// The rotated features pair as (x[i], x[i + dim/2]), or as (x[2i], x[2i+1])
// when interleaved: x1' = cos * x1 - sin * x2, x2' = sin * x1 + cos * x2.
#include <fmt/format.h>

#include "nn_util.h"

namespace onnxscript::eval {
namespace {

void rotary_embedding(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const Tensor& cos_t = ctx.input_tensor(1);
  const Tensor& sin_t = ctx.input_tensor(2);
  const int64_t rank = x.rank();
  if (rank != 3 && rank != 4)
    ctx.fail(fmt::format("X {} must be 3-D or 4-D", shape_string(x.shape())));
  const int64_t batch = x.shape()[0];
  int64_t heads, seq, head_size;
  if (rank == 4) {
    heads = x.shape()[1];
    seq = x.shape()[2];
    head_size = x.shape()[3];
  } else {
    heads = ctx.attr_int("num_heads", 0);
    if (heads <= 0) ctx.fail("3-D X needs a positive num_heads attribute");
    seq = x.shape()[1];
    if (x.shape()[2] % heads != 0)
      ctx.fail(fmt::format("hidden size {} does not divide by num_heads {}", x.shape()[2], heads));
    head_size = x.shape()[2] / heads;
  }
  int64_t dim = ctx.attr_int("rotary_embedding_dim", 0);
  if (dim == 0) dim = head_size;
  if (dim < 0 || dim > head_size || dim % 2 != 0)
    ctx.fail(fmt::format("rotary_embedding_dim {} must be even and at most the head size {}", dim,
                         head_size));
  const int64_t half = dim / 2;
  const bool interleaved = ctx.attr_int("interleaved", 0) != 0;
  const bool has_pos = ctx.num_inputs() > 3 && ctx.has_input(3);
  std::vector<int64_t> pos;
  if (has_pos) {
    pos = tensor_to_int64s(ctx, ctx.input_tensor(3), "position_ids");
    if (static_cast<int64_t>(pos.size()) != batch * seq)
      ctx.fail("position_ids must be (batch, sequence)");
  }
  if (cos_t.shape() != sin_t.shape()) ctx.fail("cos_cache and sin_cache must have one shape");
  const int64_t cache_rank = has_pos ? 2 : 3;
  if (cos_t.rank() != cache_rank || cos_t.shape()[cache_rank - 1] < half)
    ctx.fail(fmt::format(
        "cos_cache {} must be {} with at least {} values per row", shape_string(cos_t.shape()),
        has_pos ? "(max_position + 1, dim / 2)" : "(batch, sequence, dim / 2)", half));
  if (!has_pos && (cos_t.shape()[0] != batch || cos_t.shape()[1] != seq))
    ctx.fail("without position_ids, the caches must be (batch, sequence, dim / 2)");
  const int64_t row_len = cos_t.shape()[cache_rank - 1];
  const int64_t rows = has_pos ? cos_t.shape()[0] : batch * seq;
  const std::vector<double> cosv = float_values(ctx, cos_t);
  const std::vector<double> sinv = float_values(ctx, sin_t);
  std::vector<double> xv = float_values(ctx, x);
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t s = 0; s < seq; ++s) {
      const int64_t row = has_pos ? pos[b * seq + s] : b * seq + s;
      if (row < 0 || row >= rows)
        ctx.fail(fmt::format("position id {} is outside the caches' {} rows", row, rows));
      const double* c = cosv.data() + row * row_len;
      const double* sn = sinv.data() + row * row_len;
      for (int64_t h = 0; h < heads; ++h) {
        const int64_t base = rank == 4 ? ((b * heads + h) * seq + s) * head_size
                                       : ((b * seq + s) * heads + h) * head_size;
        double* p = xv.data() + base;
        for (int64_t i = 0; i < half; ++i) {
          double& x1 = interleaved ? p[2 * i] : p[i];
          double& x2 = interleaved ? p[2 * i + 1] : p[i + half];
          const double a = x1, bb = x2;
          x1 = c[i] * a - sn[i] * bb;
          x2 = sn[i] * a + c[i] * bb;
        }
      }
    }
  }
  ctx.set_output(0, float_tensor(ctx, x.dtype(), x.shape(), xv));
}

}  // namespace

void register_nn_rotary_embedding(KernelRegistry& registry) {
  // 23: the operator's first version.
  registry.add("", "RotaryEmbedding", 23, rotary_embedding);
}

}  // namespace onnxscript::eval
