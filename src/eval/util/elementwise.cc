#include "eval/util/elementwise.h"

#include <fmt/format.h>

namespace onnxscript::eval {

void require_same_type(const KernelContext& ctx, const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype())
    ctx.fail(fmt::format("inputs must have the same element type, not {} and {}",
                         ir::data_type_name(a.dtype()), ir::data_type_name(b.dtype())));
}

const Tensor& binary_rhs(const KernelContext& ctx, const Tensor& a, const Tensor& b, Tensor& view,
                         int64_t first_numpy_version) {
  if (ctx.version() >= first_numpy_version) return b;
  std::vector<int64_t> shape = legacy_broadcast_shape(ctx, a.shape(), b.shape());
  if (shape == b.shape()) return b;
  view = b.reshaped(std::move(shape));
  return view;
}

std::vector<int64_t> variadic_out_shape(const KernelContext& ctx) {
  if (ctx.num_inputs() == 0) ctx.fail("needs at least one input");
  const Tensor& first = ctx.input_tensor(0);
  std::vector<int64_t> shape = first.shape().to_vector(), next;
  for (size_t i = 1; i < ctx.num_inputs(); ++i) {
    const Tensor& t = ctx.input_tensor(i);
    require_same_type(ctx, first, t);
    if (t.shape() == shape) continue;
    if (!try_broadcast_shape(shape, t.shape(), next)) {
      std::vector<std::string> all;
      for (size_t j = 0; j < ctx.num_inputs(); ++j)
        all.push_back(fmt::format("[{}]", fmt::join(ctx.input_tensor(j).shape(), ",")));
      ctx.fail(fmt::format("cannot broadcast shapes {}", fmt::join(all, ", ")));
    }
    shape.swap(next);
  }
  return shape;
}

}  // namespace onnxscript::eval
