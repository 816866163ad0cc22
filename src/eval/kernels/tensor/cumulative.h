#pragma once
// The running reduction CumSum and CumProd share: along the axis given by a
// scalar int32/int64 input, each element becomes the combination of those
// before it (exclusive=1) or up to and including it, counted from the end
// with reverse=1. float16 and bfloat16 accumulate in float.
#include "eval/util/shape_util.h"

namespace onnxscript::eval {

using CumulativeTypes =
    TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBfloat16,
             DataType::kInt32, DataType::kInt64, DataType::kUint32, DataType::kUint64>;

/// Runs the cumulative operator of `ctx`: `identity` starts each run and
/// `combine(acc, v)` folds in the next element (in the element's compute type).
template <typename Combine>
void cumulative_kernel(KernelContext& ctx, int identity, Combine combine) {
  const Tensor& x = ctx.input_tensor(0);
  if (x.rank() == 0) ctx.fail("input must have rank >= 1");
  const int64_t axis =
      normalize_axis(ctx, tensor_to_int64(ctx, ctx.input_tensor(1), "axis"), x.rank());
  const bool exclusive = ctx.attr_int("exclusive", 0) != 0;
  const bool reverse = ctx.attr_int("reverse", 0) != 0;
  const int64_t dim = x.shape()[axis];
  const int64_t outer = shape_product(x.shape(), 0, axis);
  const int64_t inner = shape_product(x.shape(), axis + 1, x.rank());
  Tensor out(x.dtype(), x.shape());
  dispatch<CumulativeTypes>(x.dtype(), ctx, [&]<typename T>() {
    using C = compute_t<T>;
    const T* src = x.data<T>();
    T* dst = out.data<T>();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        C acc = static_cast<C>(identity);
        for (int64_t s = 0; s < dim; ++s) {
          const int64_t j = reverse ? dim - 1 - s : s;
          const int64_t off = (o * dim + j) * inner + i;
          const C v = static_cast<C>(src[off]);
          if (!exclusive) acc = static_cast<C>(combine(acc, v));
          dst[off] = static_cast<T>(acc);
          if (exclusive) acc = static_cast<C>(combine(acc, v));
        }
      }
  });
  ctx.set_output(0, out);
}

}  // namespace onnxscript::eval
