// TopK: the k largest (or, v11+ largest=0, smallest) entries along `axis`
// and their int64 indices; ties go to the lower index. k is an attribute in
// v1 and a one-element int64 input from v10. v11 adds integer types and
// `sorted` (unsorted output is still returned sorted, which the spec allows).
#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

using TopKTypes =
    TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBfloat16,
             DataType::kInt8, DataType::kInt16, DataType::kInt32, DataType::kInt64,
             DataType::kUint8, DataType::kUint16, DataType::kUint32, DataType::kUint64>;

void top_k(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  if (x.rank() == 0) ctx.fail("input must have rank >= 1");
  const int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", -1), x.rank());
  const int64_t k = ctx.version() < 10 ? ctx.required_attribute("k").as_int()
                                       : tensor_to_int64(ctx, ctx.input_tensor(1), "K");
  const int64_t dim = x.shape()[axis];
  if (k < 0 || k > dim) ctx.fail(fmt::format("k = {} is out of [0, {}]", k, dim));
  const bool largest = ctx.attr_int("largest", 1) != 0;
  std::vector<int64_t> out_shape = x.shape().to_vector();
  out_shape[axis] = k;
  Tensor values(x.dtype(), out_shape), indices(DataType::kInt64, out_shape);
  const int64_t outer = shape_product(x.shape(), 0, axis);
  const int64_t inner = shape_product(x.shape(), axis + 1, x.rank());
  dispatch<TopKTypes>(x.dtype(), ctx, [&]<typename T>() {
    using C = compute_t<T>;
    const T* src = x.data<T>();
    T* vout = values.data<T>();
    int64_t* iout = indices.data<int64_t>();
    std::vector<int64_t> order(dim);
    std::vector<C> line(dim);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        for (int64_t j = 0; j < dim; ++j) line[j] = static_cast<C>(src[(o * dim + j) * inner + i]);
        std::iota(order.begin(), order.end(), 0);
        auto better = [&](int64_t a, int64_t b) {
          if (line[a] != line[b]) return largest ? line[a] > line[b] : line[a] < line[b];
          return a < b;
        };
        std::partial_sort(order.begin(), order.begin() + k, order.end(), better);
        for (int64_t j = 0; j < k; ++j) {
          const int64_t off = (o * k + j) * inner + i;
          vout[off] = src[(o * dim + order[j]) * inner + i];
          iout[off] = order[j];
        }
      }
  });
  ctx.set_output(0, values);
  if (ctx.num_outputs() > 1) ctx.set_output(1, indices);
}

}  // namespace

void register_tensor_top_k(KernelRegistry& registry) {
  // 24 only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 10, 11, 24}) registry.add("", "TopK", v, top_k);
}

}  // namespace onnxscript::eval
