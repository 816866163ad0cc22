#pragma once
// ArgMax and ArgMin share everything but the comparison: the int64 index of
// the extreme along `axis` (keepdims keeps it as a length-1 axis), the first
// one unless select_last_index=1 (v12+).
#include "eval/util/shape_util.h"

namespace onnxscript::eval {

using ArgTypes =
    TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBfloat16,
             DataType::kInt8, DataType::kInt16, DataType::kInt32, DataType::kInt64,
             DataType::kUint8, DataType::kUint16, DataType::kUint32, DataType::kUint64>;

template <bool kMax>
void arg_reduce(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const int64_t rank = x.rank();
  const int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", 0), rank == 0 ? 1 : rank);
  const bool keepdims = ctx.attr_int("keepdims", 1) != 0;
  const bool last = ctx.attr_int("select_last_index", 0) != 0;
  const int64_t dim = rank == 0 ? 1 : x.shape()[axis];
  if (dim == 0) ctx.fail("cannot take the arg of an empty axis");
  std::vector<int64_t> out_shape = x.shape().to_vector();
  if (rank > 0) {
    if (keepdims)
      out_shape[axis] = 1;
    else
      out_shape.erase(out_shape.begin() + axis);
  }
  Tensor out(DataType::kInt64, out_shape);
  const int64_t outer = shape_product(x.shape(), 0, axis);
  const int64_t inner = shape_product(x.shape(), axis + 1, rank);
  dispatch<ArgTypes>(x.dtype(), ctx, [&]<typename T>() {
    using C = compute_t<T>;
    const T* src = x.data<T>();
    int64_t* dst = out.data<int64_t>();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        const T* p = src + o * dim * inner + i;
        C best = static_cast<C>(p[0]);
        int64_t where = 0;
        for (int64_t j = 1; j < dim; ++j) {
          const C v = static_cast<C>(p[j * inner]);
          const bool better = kMax ? (last ? v >= best : v > best) : (last ? v <= best : v < best);
          if (better) {
            best = v;
            where = j;
          }
        }
        dst[o * inner + i] = where;
      }
  });
  ctx.set_output(0, out);
}

}  // namespace onnxscript::eval
