#pragma once
// The `reduction` attribute shared by ScatterElements and ScatterND (v16+):
// how an update combines with the existing element.
#include <string>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {

/// The ScatterElements kernel (scatter_elements.cc), also serving Scatter.
void scatter_elements_kernel(KernelContext& ctx);

enum class ScatterReduction { kNone, kAdd, kMul, kMax, kMin };

inline ScatterReduction scatter_reduction(const KernelContext& ctx) {
  const std::string r = ctx.attr_string("reduction", "none");
  if (r == "none") return ScatterReduction::kNone;
  if (r == "add") return ScatterReduction::kAdd;
  if (r == "mul") return ScatterReduction::kMul;
  if (r == "max") return ScatterReduction::kMax;
  if (r == "min") return ScatterReduction::kMin;
  ctx.fail("unknown reduction '" + r + "'");
}

/// Runs `f.template operator()<T>()` for the real element type when a
/// reduction needs arithmetic, or by size when updates just overwrite.
template <typename F>
void scatter_dispatch(DataType dtype, ScatterReduction red, const KernelContext& ctx, F&& f) {
  if (red == ScatterReduction::kNone) return dispatch_by_size(dtype, ctx, f);
  dispatch<kNumericTypes>(dtype, ctx, f);
}

template <typename T>
inline void scatter_combine(T& dst, const T& upd, ScatterReduction red) {
  if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, Bytes16>) {
    dst = upd;
  } else {
    using C = compute_t<T>;
    const C a = static_cast<C>(dst), b = static_cast<C>(upd);
    switch (red) {
      case ScatterReduction::kNone:
        dst = upd;
        break;
      case ScatterReduction::kAdd:
        dst = static_cast<T>(a + b);
        break;
      case ScatterReduction::kMul:
        dst = static_cast<T>(a * b);
        break;
      case ScatterReduction::kMax:
        dst = b > a ? upd : dst;
        break;
      case ScatterReduction::kMin:
        dst = b < a ? upd : dst;
        break;
    }
  }
}

}  // namespace onnxscript::eval
