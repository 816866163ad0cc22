// ScatterND: a copy of data where each index tuple (last axis of indices)
// addresses a slice that is overwritten by (v16+: or combined with, by
// `reduction` add/mul) the matching slice of updates.
#include <fmt/format.h>

#include "scatter_reduce.h"

namespace onnxscript::eval {
namespace {

void scatter_nd(KernelContext& ctx) {
  const Tensor& data = ctx.input_tensor(0);
  const Tensor& indices_t = ctx.input_tensor(1);
  const Tensor& updates = ctx.input_tensor(2);
  if (indices_t.dtype() != DataType::kInt64) ctx.fail("indices must be int64");
  if (updates.dtype() != data.dtype()) ctx.fail("updates must have the element type of data");
  const int64_t r = data.rank(), q = indices_t.rank();
  if (r < 1 || q < 1) ctx.fail("data and indices must have rank >= 1");
  const int64_t m = indices_t.shape()[q - 1];
  if (m > r) ctx.fail(fmt::format("indices.shape[-1] = {} exceeds the rank of data {}", m, r));
  std::vector<int64_t> expect(indices_t.shape().begin(), indices_t.shape().end() - 1);
  expect.insert(expect.end(), data.shape().begin() + m, data.shape().end());
  if (updates.shape() != expect)
    ctx.fail(fmt::format("updates has shape {} but must have {}", shape_string(updates.shape()),
                         shape_string(expect)));
  const ScatterReduction red = scatter_reduction(ctx);
  Tensor out = data.clone();
  const int64_t tuples = shape_product(indices_t.shape(), 0, q - 1);
  const int64_t slice = shape_product(data.shape(), m, r);
  const std::vector<int64_t> strides = contiguous_strides(data.shape());
  const int64_t* idx = indices_t.data<int64_t>();
  scatter_dispatch(data.dtype(), red, ctx, [&]<typename U>() {
    U* dst = out.data<U>();
    const U* upd = updates.data<U>();
    for (int64_t t = 0; t < tuples; ++t) {
      int64_t off = 0;
      for (int64_t j = 0; j < m; ++j) {
        int64_t k = *idx++;
        const int64_t dim = data.shape()[j];
        if (k < -dim || k >= dim)
          ctx.fail(fmt::format("index {} is out of range for axis {} of length {}", k, j, dim));
        if (k < 0) k += dim;
        off += k * strides[j];
      }
      for (int64_t i = 0; i < slice; ++i) scatter_combine(dst[off + i], upd[t * slice + i], red);
    }
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_tensor_scatter_nd(KernelRegistry& registry) {
  // 18 adds the max and min reductions, which scatter_reduce.h implements.
  for (int64_t v : {11, 13, 16, 18}) registry.add("", "ScatterND", v, scatter_nd);
}

}  // namespace onnxscript::eval
