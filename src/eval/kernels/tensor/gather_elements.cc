// GatherElements: output[i][j][k] = data[index][j][k] for axis 0 (the index
// replaces the coordinate on `axis`); the output has the shape of indices.
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void gather_elements(KernelContext& ctx) {
  const Tensor& data = ctx.input_tensor(0);
  const Tensor& indices_t = ctx.input_tensor(1);
  const int64_t rank = data.rank();
  const int64_t axis = elements_axis(ctx, data, indices_t);
  const std::vector<int64_t> indices = tensor_to_int64s(ctx, indices_t, "indices");
  const std::vector<int64_t> strides = contiguous_strides(data.shape());
  const int64_t dim = data.shape()[axis];
  Tensor out(data.dtype(), indices_t.shape());
  if (out.numel() == 0) return ctx.set_output(0, out);
  dispatch_by_size(data.dtype(), ctx, [&]<typename U>() {
    const U* src = data.data<U>();
    U* dst = out.data<U>();
    std::vector<int64_t> index(rank, 0);
    int64_t off = 0;  // offset in data of the index with coordinate 0 on axis
    int64_t i = 0;
    std::vector<int64_t> masked = strides;
    masked[axis] = 0;
    do {
      int64_t k = indices[i];
      if (k < -dim || k >= dim)
        ctx.fail(fmt::format("index {} is out of range for axis {} of length {}", k, axis, dim));
      if (k < 0) k += dim;
      dst[i++] = src[off + k * strides[axis]];
    } while (next_index(index, indices_t.shape(), masked, off));
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_tensor_gather_elements(KernelRegistry& registry) {
  for (int64_t v : {11, 13}) registry.add("", "GatherElements", v, gather_elements);
}

}  // namespace onnxscript::eval
