// Clip: Y = min(max(X, min), max) element-wise.
//   Clip-1: `min`/`max` float attributes; an absent one does not clamp.
//   Clip-6: the same attributes, defaulting to -FLT_MAX / FLT_MAX.
//   Clip-11+: optional one-element inputs 1 (min) and 2 (max) of X's type,
//   defaulting to the type's range; Clip-12 added the integer types.
// When min > max every element becomes max (the spec's rule), and NaN stays
// NaN, as numpy.clip does.
#include <fmt/format.h>

#include <limits>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {

// The value of optional input `i` (one element of type T), or `fallback`.
template <typename T>
arith_t<T> bound_input(const KernelContext& ctx, size_t i, const Tensor& x, arith_t<T> fallback) {
  if (!ctx.has_input(i)) return fallback;
  const Tensor& t = ctx.input_tensor(i);
  require_same_type(ctx, x, t);
  if (t.numel() != 1)
    ctx.fail(fmt::format("input {} ({}) must have one element, not {}", i, i == 1 ? "min" : "max",
                         t.numel()));
  return static_cast<arith_t<T>>(t.data<T>()[0]);
}

void clip(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  dispatch<kNumericTypes>(x.dtype(), ctx, [&]<typename T>() {
    using C = arith_t<T>;
    C lo = std::numeric_limits<C>::lowest(), hi = std::numeric_limits<C>::max();
    if (ctx.version() >= 11) {
      lo = bound_input<T>(ctx, 1, x, lo);
      hi = bound_input<T>(ctx, 2, x, hi);
    } else if constexpr (std::is_floating_point_v<C>) {
      // Before opset 11 the bounds are float attributes.
      const float fmax = std::numeric_limits<float>::max();
      const bool v1 = ctx.version() < 6;
      if (ctx.attribute("min") || !v1) lo = static_cast<C>(ctx.attr_float("min", -fmax));
      if (ctx.attribute("max") || !v1) hi = static_cast<C>(ctx.attr_float("max", fmax));
    } else {
      ctx.fail("integer inputs need opset 12 or later");
    }
    ctx.set_output(0, unary_map<T>(x, [lo, hi](C v) {
                     v = v < lo ? lo : v;
                     return v > hi ? hi : v;
                   }));
  });
}
}  // namespace

void register_math_clip(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 11, 12, 13}) registry.add("", "Clip", v, clip);
}

}  // namespace onnxscript::eval
