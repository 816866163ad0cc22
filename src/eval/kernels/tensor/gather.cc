// Gather: picks entries along `axis` by index; the output shape is
// data.shape[:axis] + indices.shape + data.shape[axis+1:]. Negative indices
// count from the end (v11+; accepted in v1 too).
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void gather(KernelContext& ctx) {
  const Tensor& data = ctx.input_tensor(0);
  const Tensor& indices_t = ctx.input_tensor(1);
  const int64_t rank = data.rank();
  if (rank == 0) ctx.fail("data must have rank >= 1");
  const int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", 0), rank);
  std::vector<int64_t> indices = tensor_to_int64s(ctx, indices_t, "indices");
  const int64_t dim = data.shape()[axis];
  for (int64_t& i : indices) {
    if (i < -dim || i >= dim)
      ctx.fail(fmt::format("index {} is out of range for axis {} of length {}", i, axis, dim));
    if (i < 0) i += dim;
  }
  std::vector<int64_t> out_shape(data.shape().begin(), data.shape().begin() + axis);
  out_shape.insert(out_shape.end(), indices_t.shape().begin(), indices_t.shape().end());
  out_shape.insert(out_shape.end(), data.shape().begin() + axis + 1, data.shape().end());
  // Every output row is copied from a gathered input row.
  Tensor out = Tensor::uninitialized(data.dtype(), out_shape);
  const int64_t outer = shape_product(data.shape(), 0, axis);
  const int64_t inner = shape_product(data.shape(), axis + 1, rank);
  const int64_t n = static_cast<int64_t>(indices.size());
  dispatch_by_size(data.dtype(), ctx, [&]<typename U>() {
    const U* src = data.data<U>();
    U* dst = out.data<U>();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k = 0; k < n; ++k) {
        const U* s = src + (o * dim + indices[k]) * inner;
        std::copy(s, s + inner, dst);
        dst += inner;
      }
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_tensor_gather(KernelRegistry& registry) {
  for (int64_t v : {1, 11, 13}) registry.add("", "Gather", v, gather);
}

}  // namespace onnxscript::eval
