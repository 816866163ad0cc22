// MaxUnpool: the partial inverse of MaxPool: a zero tensor with X's values
// written at the flat positions given by I (MaxPool's Indices). The output
// shape is the optional output_shape input, or per spatial axis
// (in - 1) * stride + kernel - pad_begin - pad_end. v11 only refines docs.
#include <fmt/format.h>

#include "spatial.h"

namespace onnxscript::eval {
namespace {

void max_unpool(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const Tensor& ind = ctx.input_tensor(1);
  if (x.rank() < 3) ctx.fail(fmt::format("X must have rank >= 3, not {}", x.rank()));
  if (ind.dtype() != DataType::kInt64 || ind.shape() != x.shape())
    ctx.fail("I must be int64 with the shape of X");
  const size_t nd = x.rank() - 2;
  const std::vector<int64_t> kernel = ctx.required_attribute("kernel_shape").as_ints();
  std::vector<int64_t> strides = ctx.attr_ints("strides"), pads = ctx.attr_ints("pads");
  if (strides.empty()) strides.assign(nd, 1);
  if (pads.empty()) pads.assign(2 * nd, 0);
  if (kernel.size() != nd || strides.size() != nd || pads.size() != 2 * nd)
    ctx.fail("kernel_shape, strides and pads must match the spatial rank");
  // The indices address the inferred shape (MaxPool's input); with another
  // output_shape each index is moved to the same coordinates in the output.
  std::vector<int64_t> inferred;
  for (size_t d = 0; d < nd; ++d)
    inferred.push_back((x.shape()[d + 2] - 1) * strides[d] + kernel[d] - pads[d] - pads[d + nd]);
  std::vector<int64_t> out_shape{x.shape()[0], x.shape()[1]};
  out_shape.insert(out_shape.end(), inferred.begin(), inferred.end());
  if (ctx.has_input(2)) {
    const std::vector<int64_t> given = tensor_to_int64s(ctx, ctx.input_tensor(2), "output_shape");
    if (given.size() != out_shape.size()) ctx.fail("output_shape must have the rank of X");
    if (given[0] != out_shape[0] || given[1] != out_shape[1])
      ctx.fail("output_shape must keep the batch and channel sizes of X");
    out_shape = given;
  }
  const std::vector<int64_t> out_spatial(out_shape.begin() + 2, out_shape.end());
  const std::vector<int64_t> in_strides = contiguous_strides(inferred);
  const std::vector<int64_t> out_strides = contiguous_strides(out_spatial);
  const int64_t in_plane = shape_product(inferred, 0, nd),
                out_plane = shape_product(out_spatial, 0, nd);
  const int64_t planes = out_shape[0] * out_shape[1];
  Tensor y(x.dtype(), out_shape);
  const int64_t* pi = ind.data<int64_t>();
  dispatch<kFloatTypes>(x.dtype(), ctx, [&]<typename T>() {
    const T* src = x.data<T>();
    T* dst = y.data<T>();
    for (int64_t i = 0; i < x.numel(); ++i) {
      if (pi[i] < 0 || pi[i] >= planes * in_plane)
        ctx.fail(fmt::format("index {} is outside the pooled input of {} elements", pi[i],
                             planes * in_plane));
      int64_t rem = pi[i] % in_plane, off = (pi[i] / in_plane) * out_plane;
      for (size_t d = 0; d < nd; ++d) {
        const int64_t coord = rem / in_strides[d];
        rem %= in_strides[d];
        if (coord >= out_spatial[d])
          ctx.fail(fmt::format("index {} falls outside output_shape {}", pi[i],
                               shape_string(out_shape)));
        off += coord * out_strides[d];
      }
      dst[off] = src[i];
    }
  });
  ctx.set_output(0, y);
}

}  // namespace

void register_nn_max_unpool(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {9, 11, 22}) registry.add("", "MaxUnpool", v, max_unpool);
}

}  // namespace onnxscript::eval
