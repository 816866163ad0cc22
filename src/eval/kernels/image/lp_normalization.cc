// LpNormalization (1): y = x / ||x||_p along `axis` (default -1), with
// ||x||_1 = sum |x_i| and ||x||_2 = sqrt(sum x_i^2); p must be 1 or 2. A
// vector whose norm is 0 stays 0 (no 0/0 NaNs), as in ONNX Runtime.
#include <fmt/format.h>

#include "image_util.h"

namespace onnxscript::eval {
namespace {

void lp_normalization(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  require_type(kFloatTypes{}, x.dtype(), ctx);
  const int64_t p = ctx.attr_int("p", 2);
  if (p != 1 && p != 2) ctx.fail(fmt::format("p must be 1 or 2, not {}", p));
  if (x.rank() == 0) ctx.fail("input must have rank >= 1");
  const int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", -1), x.rank());
  const int64_t outer = shape_product(x.shape(), 0, axis);
  const int64_t length = x.shape()[axis];
  const int64_t inner = shape_product(x.shape(), axis + 1, x.rank());
  std::vector<double> v = float_values(ctx, x);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      double* first = v.data() + o * length * inner + i;
      double norm = 0.0;
      for (int64_t k = 0; k < length; ++k) {
        const double e = first[k * inner];
        norm += p == 1 ? std::abs(e) : e * e;
      }
      if (p == 2) norm = std::sqrt(norm);
      if (norm == 0.0) continue;  // all zeros: leave them
      for (int64_t k = 0; k < length; ++k) first[k * inner] /= norm;
    }
  ctx.set_output(0, float_tensor(ctx, x.dtype(), x.shape(), v));
}

}  // namespace

void register_image_lp_normalization(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 22}) registry.add("", "LpNormalization", v, lp_normalization);
}

}  // namespace onnxscript::eval
