// Mod: C = A mod B element-wise with numpy broadcasting.
//   fmod=0: the remainder has the sign of the divisor (Python's %, numpy.mod).
//   fmod=1: the remainder has the sign of the dividend (C's fmod, numpy.fmod).
// The spec asks fmod=1 for floats; fmod=0 on floats computes numpy.mod anyway.
// An integer modulo zero gives 0 (numpy's result) instead of undefined
// behaviour; a float modulo zero gives NaN.
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {

template <typename C>
C c_mod(C a, C b) {  // sign of the dividend
  if constexpr (std::is_floating_point_v<C>) {
    return std::fmod(a, b);
  } else {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<C>)
      if (b == C(-1)) return 0;  // INT_MIN % -1 would trap
    return static_cast<C>(a % b);
  }
}

template <typename C>
C py_mod(C a, C b) {  // sign of the divisor
  C r = c_mod(a, b);
  if constexpr (std::is_floating_point_v<C>) {
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    // numpy gives the zero result the divisor's sign too.
    if (r == 0) r = std::copysign(C(0), b);
  } else if constexpr (std::is_signed_v<C>) {
    if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<C>(r + b);
  }
  return r;
}

void mod(KernelContext& ctx) {
  if (ctx.attr_int("fmod", 0) != 0)
    run_binary<kNumericTypes>(ctx, [](auto a, auto b) { return c_mod(a, b); });
  else
    run_binary<kNumericTypes>(ctx, [](auto a, auto b) { return py_mod(a, b); });
}
}  // namespace

void register_math_mod(KernelRegistry& registry) {
  for (int64_t v : {10, 13}) registry.add("", "Mod", v, mod);
}

}  // namespace onnxscript::eval
