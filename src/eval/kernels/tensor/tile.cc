// Tile: repeats the input `repeats[d]` times along each axis d (v6+). v1
// instead takes `tiles` and `axis` inputs and repeats along that one axis.
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void tile(KernelContext& ctx) {
  const Tensor& input = ctx.input_tensor(0);
  const int64_t rank = input.rank();
  std::vector<int64_t> repeats;
  if (ctx.version() < 6) {
    const int64_t tiles = tensor_to_int64(ctx, ctx.input_tensor(1), "tiles");
    const int64_t axis =
        normalize_axis(ctx, tensor_to_int64(ctx, ctx.input_tensor(2), "axis"), rank);
    repeats.assign(rank, 1);
    repeats[axis] = tiles;
  } else {
    repeats = tensor_to_int64s(ctx, ctx.input_tensor(1), "repeats");
  }
  if (static_cast<int64_t>(repeats.size()) != rank)
    ctx.fail(fmt::format("repeats has {} entries but the input has rank {}", repeats.size(), rank));
  std::vector<int64_t> out_shape(rank);
  for (int64_t d = 0; d < rank; ++d) {
    if (repeats[d] < 0) ctx.fail(fmt::format("repeats[{}] = {} is negative", d, repeats[d]));
    out_shape[d] = input.shape()[d] * repeats[d];
  }
  Tensor out(input.dtype(), out_shape);
  if (out.numel() == 0 || rank == 0) {
    if (rank == 0)
      ctx.set_output(0, input.clone());
    else
      ctx.set_output(0, out);
    return;
  }
  // Read the input at (out index mod input dim) along every axis.
  const std::vector<int64_t> in_strides = contiguous_strides(input.shape());
  dispatch_by_size(input.dtype(), ctx, [&]<typename U>() {
    const U* src = input.data<U>();
    U* dst = out.data<U>();
    const int64_t inner_in = input.shape()[rank - 1];
    const int64_t inner_out = out_shape[rank - 1];
    std::vector<int64_t> oshape(out_shape.begin(), out_shape.end() - 1);
    std::vector<int64_t> index(oshape.size(), 0);
    const std::vector<int64_t> zero(oshape.size(), 0);
    int64_t unused = 0;
    do {
      int64_t off = 0;
      for (size_t d = 0; d < oshape.size(); ++d)
        off += (index[d] % input.shape()[d]) * in_strides[d];
      for (int64_t i = 0; i < inner_out; i += inner_in)
        std::copy(src + off, src + off + inner_in, dst + i);
      dst += inner_out;
    } while (next_index(index, oshape, zero, unused));
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_tensor_tile(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 13}) registry.add("", "Tile", v, tile);
}

}  // namespace onnxscript::eval
