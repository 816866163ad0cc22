// Pow: Z = X ^ Y element-wise with numpy broadcasting (opset 7+; opset 1 has
// the legacy `broadcast`/`axis` attributes). From opset 12 the exponent may
// have another element type than the base; Z has the base's type.
// Integer bases with integer exponents use exact repeated squaring that wraps
// on overflow; a negative exponent gives 1/base^n truncated (so 0 unless the
// base is +-1, and 0 for a zero base instead of a division by zero).
// Float exponents on integer bases compute in double and convert with
// float_to_int, so NaN or huge results are defined too.
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {

using kPowBaseTypes = TypeList<DataType::kInt32, DataType::kInt64, DataType::kFloat,
                               DataType::kDouble, DataType::kFloat16, DataType::kBfloat16>;

template <typename B, typename E>
B int_pow(B base, E exp) {
  if constexpr (std::is_signed_v<E>) {
    if (exp < 0) {
      if (base == B(1)) return B(1);
      if (base == B(-1)) return (exp % 2 == 0) ? B(1) : B(-1);
      return B(0);
    }
  }
  B result = 1;
  // Repeated squaring; the exponent's low bit decides each multiply.
  auto e = static_cast<std::make_unsigned_t<E>>(exp);
  while (e != 0) {
    if (e & 1u) result = wrap_mul(result, base);
    e >>= 1;
    if (e != 0) base = wrap_mul(base, base);
  }
  return result;
}

template <typename B, typename E>
B pow_value(B base, E exp) {
  if constexpr (std::is_floating_point_v<B>) {
    return static_cast<B>(std::pow(static_cast<double>(base), static_cast<double>(exp)));
  } else if constexpr (std::is_integral_v<E>) {
    return int_pow(base, exp);
  } else {
    return float_to_int<B>(std::pow(static_cast<double>(base), static_cast<double>(exp)));
  }
}

void pow_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  Tensor view;
  const Tensor& y = binary_rhs(ctx, x, ctx.input_tensor(1), view);
  if (ctx.version() < 12) require_same_type(ctx, x, y);
  dispatch<kPowBaseTypes>(x.dtype(), ctx, [&]<typename B>() {
    dispatch<kNumericTypes>(y.dtype(), ctx, [&]<typename E>() {
      Tensor out(x.dtype(), binary_out_shape(ctx, x, y));
      binary_into<B, E, B>(x, y, out, [](auto b, auto e) { return pow_value(b, e); });
      ctx.set_output(0, std::move(out));
    });
  });
}
}  // namespace

void register_math_pow(KernelRegistry& registry) {
  for (int64_t v : {1, 7, 12, 13, 15}) registry.add("", "Pow", v, pow_kernel);
}

}  // namespace onnxscript::eval
