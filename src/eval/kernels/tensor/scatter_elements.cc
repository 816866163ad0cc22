// ScatterElements (and its v9 name Scatter): a copy of data where
// output[...index on axis...] = updates[...], with index = indices[...].
// v16 adds `reduction` (add, mul) to combine instead of overwrite.
#include <fmt/format.h>

#include "scatter_reduce.h"

namespace onnxscript::eval {

void scatter_elements_kernel(KernelContext& ctx) {
  const Tensor& data = ctx.input_tensor(0);
  const Tensor& indices_t = ctx.input_tensor(1);
  const Tensor& updates = ctx.input_tensor(2);
  const int64_t rank = data.rank();
  if (updates.dtype() != data.dtype()) ctx.fail("updates must have the element type of data");
  if (indices_t.shape() != updates.shape())
    ctx.fail(fmt::format("indices {} and updates {} must have the same shape",
                         shape_string(indices_t.shape()), shape_string(updates.shape())));
  const int64_t axis = elements_axis(ctx, data, indices_t);
  const ScatterReduction red = scatter_reduction(ctx);
  const std::vector<int64_t> indices = tensor_to_int64s(ctx, indices_t, "indices");
  Tensor out = data.clone();
  if (updates.numel() == 0) return ctx.set_output(0, out);
  const std::vector<int64_t> strides = contiguous_strides(data.shape());
  std::vector<int64_t> masked = strides;
  masked[axis] = 0;
  const int64_t dim = data.shape()[axis];
  scatter_dispatch(data.dtype(), red, ctx, [&]<typename U>() {
    U* dst = out.data<U>();
    const U* upd = updates.data<U>();
    std::vector<int64_t> index(rank, 0);
    int64_t off = 0, i = 0;
    do {
      int64_t k = indices[i];
      if (k < -dim || k >= dim)
        ctx.fail(fmt::format("index {} is out of range for axis {} of length {}", k, axis, dim));
      if (k < 0) k += dim;
      scatter_combine(dst[off + k * strides[axis]], upd[i], red);
      ++i;
    } while (next_index(index, indices_t.shape(), masked, off));
  });
  ctx.set_output(0, out);
}

void register_tensor_scatter_elements(KernelRegistry& registry) {
  // 18 adds the max and min reductions, which scatter_reduce.h implements.
  for (int64_t v : {11, 13, 16, 18})
    registry.add("", "ScatterElements", v, scatter_elements_kernel);
}

}  // namespace onnxscript::eval
