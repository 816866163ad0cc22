// Trilu: keeps the upper (j - i >= k) or lower (j - i <= k) triangle of the
// last two axes and zeroes the rest; k is an optional int64 scalar input.
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void trilu(KernelContext& ctx) {
  const Tensor& input = ctx.input_tensor(0);
  if (input.rank() < 2) ctx.fail(fmt::format("input must have rank >= 2, not {}", input.rank()));
  const int64_t k = ctx.has_input(1) ? tensor_to_int64(ctx, ctx.input_tensor(1), "k") : 0;
  const bool upper = ctx.attr_int("upper", 1) != 0;
  const int64_t rows = input.shape()[input.rank() - 2], cols = input.shape()[input.rank() - 1];
  const int64_t batch = shape_product(input.shape(), 0, input.rank() - 2);
  Tensor out(input.dtype(), input.shape());  // zero-filled (empty strings)
  dispatch_by_size(input.dtype(), ctx, [&]<typename U>() {
    const U* src = input.data<U>();
    U* dst = out.data<U>();
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
          const int64_t off = (b * rows + i) * cols + j;
          if (upper ? j - i >= k : j - i <= k) dst[off] = src[off];
        }
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_tensor_trilu(KernelRegistry& registry) { registry.add("", "Trilu", 14, trilu); }

}  // namespace onnxscript::eval
