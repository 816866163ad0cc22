// Shrink: Y = X + bias for X < -lambd, X - bias for X > lambd, 0 otherwise
// (lambd 0.5, bias 0 by default). Integer inputs compute in double and
// convert back with float_to_int, so results out of range stay defined.
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void shrink(KernelContext& ctx) {
  const double lambd = ctx.attr_float("lambd", 0.5f);
  const double bias = ctx.attr_float("bias", 0.0f);
  run_unary<kNumericTypes>(ctx, [lambd, bias]<typename C>(C x) -> C {
    const double v = static_cast<double>(x);
    const double y = v < -lambd ? v + bias : (v > lambd ? v - bias : 0.0);
    if constexpr (std::is_floating_point_v<C>)
      return static_cast<C>(y);
    else
      return float_to_int<C>(y);
  });
}
}  // namespace

void register_activation_shrink(KernelRegistry& registry) { registry.add("", "Shrink", 9, shrink); }

}  // namespace onnxscript::eval
