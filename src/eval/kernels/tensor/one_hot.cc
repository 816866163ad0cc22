// OneHot: output[..., i at axis, ...] = values[1] where i == indices[...],
// else values[0]. depth is a numeric scalar; negative indices count from the
// end of depth (v11; accepted in v9 too); out-of-range indices give all-off.
#include <cmath>

#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

std::vector<int64_t> as_int64s(const KernelContext& ctx, const Tensor& t) {
  std::vector<int64_t> out(t.numel());
  dispatch<kNumericTypes>(t.dtype(), ctx, [&]<typename T>() {
    const T* p = t.data<T>();
    for (int64_t i = 0; i < t.numel(); ++i) {
      if constexpr (std::is_floating_point_v<compute_t<T>>)
        out[i] = static_cast<int64_t>(std::trunc(static_cast<compute_t<T>>(p[i])));
      else
        out[i] = static_cast<int64_t>(p[i]);
    }
  });
  return out;
}

void one_hot(KernelContext& ctx) {
  const Tensor& indices_t = ctx.input_tensor(0);
  const Tensor& depth_t = ctx.input_tensor(1);
  const Tensor& values = ctx.input_tensor(2);
  if (depth_t.numel() != 1) ctx.fail("depth must have one element");
  if (values.numel() != 2) ctx.fail("values must have two elements [off, on]");
  const int64_t depth = as_int64s(ctx, depth_t)[0];
  if (depth < 1) ctx.fail(fmt::format("depth {} must be positive", depth));
  const std::vector<int64_t> indices = as_int64s(ctx, indices_t);
  const int64_t out_rank = indices_t.rank() + 1;
  const int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", -1), out_rank);
  std::vector<int64_t> out_shape = indices_t.shape().to_vector();
  out_shape.insert(out_shape.begin() + axis, depth);
  Tensor out(values.dtype(), out_shape);
  const int64_t outer = shape_product(indices_t.shape(), 0, axis);
  const int64_t inner = shape_product(indices_t.shape(), axis, indices_t.rank());
  dispatch_by_size(values.dtype(), ctx, [&]<typename U>() {
    const U off = values.data<U>()[0], on = values.data<U>()[1];
    U* dst = out.data<U>();
    std::fill_n(dst, out.numel(), off);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        int64_t k = indices[o * inner + i];
        if (k < 0) k += depth;
        if (k >= 0 && k < depth) dst[(o * depth + k) * inner + i] = on;
      }
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_tensor_one_hot(KernelRegistry& registry) {
  for (int64_t v : {9, 11}) registry.add("", "OneHot", v, one_hot);
}

}  // namespace onnxscript::eval
