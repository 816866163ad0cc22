// GatherND: each index tuple (last axis of `indices`) selects a slice of
// data; the first `batch_dims` (v12+) axes of data and indices are matched
// pairwise. Output shape: indices.shape[:-1] + data.shape[batch_dims + m:].
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void gather_nd(KernelContext& ctx) {
  const Tensor& data = ctx.input_tensor(0);
  const Tensor& indices_t = ctx.input_tensor(1);
  if (indices_t.dtype() != DataType::kInt64) ctx.fail("indices must be int64");
  const int64_t r = data.rank(), q = indices_t.rank();
  const int64_t b = ctx.attr_int("batch_dims", 0);
  if (r < 1 || q < 1) ctx.fail("data and indices must have rank >= 1");
  if (b < 0 || b >= std::min(r, q)) ctx.fail(fmt::format("batch_dims {} is out of range", b));
  for (int64_t d = 0; d < b; ++d)
    if (data.shape()[d] != indices_t.shape()[d])
      ctx.fail(fmt::format("batch dimension {} differs: data {} vs indices {}", d,
                           shape_string(data.shape()), shape_string(indices_t.shape())));
  const int64_t m = indices_t.shape()[q - 1];
  if (m < 1 || m > r - b)
    ctx.fail(fmt::format("indices.shape[-1] = {} must be in [1, {}]", m, r - b));
  std::vector<int64_t> out_shape(indices_t.shape().begin(), indices_t.shape().end() - 1);
  out_shape.insert(out_shape.end(), data.shape().begin() + b + m, data.shape().end());
  Tensor out(data.dtype(), out_shape);
  const int64_t batch = shape_product(data.shape(), 0, b);
  const int64_t tuples = shape_product(indices_t.shape(), b, q - 1);
  const int64_t slice = shape_product(data.shape(), b + m, r);
  const int64_t batch_stride = shape_product(data.shape(), b, r);
  const std::vector<int64_t> strides = contiguous_strides(data.shape());
  const int64_t* idx = indices_t.data<int64_t>();
  dispatch_by_size(data.dtype(), ctx, [&]<typename U>() {
    const U* src = data.data<U>();
    U* dst = out.data<U>();
    for (int64_t bi = 0; bi < batch; ++bi)
      for (int64_t t = 0; t < tuples; ++t) {
        int64_t off = bi * batch_stride;
        for (int64_t j = 0; j < m; ++j) {
          int64_t k = *idx++;
          const int64_t dim = data.shape()[b + j];
          if (k < -dim || k >= dim)
            ctx.fail(
                fmt::format("index {} is out of range for axis {} of length {}", k, b + j, dim));
          if (k < 0) k += dim;
          off += k * strides[b + j];
        }
        std::copy(src + off, src + off + slice, dst);
        dst += slice;
      }
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_tensor_gather_nd(KernelRegistry& registry) {
  for (int64_t v : {11, 12, 13}) registry.add("", "GatherND", v, gather_nd);
}

}  // namespace onnxscript::eval
