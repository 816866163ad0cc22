#pragma once
// Loops shared by the element-wise kernels (math, activation, logic):
//
//   unary_map<T, R>(x, f)            R[i] = f(x[i])
//   binary_map<T, R>(ctx, a, b, f)   R = f(a, b) with numpy broadcasting
//   binary_into<A, B, R>(a, b, out, f)  the same into an allocated output
//
// `f` sees arithmetic values (arith_t<T>): float16 and bfloat16 are widened
// to float and the result is rounded back once. Loops are templates so that
// `f` inlines; there is no per-element indirect call. Fast paths cover the
// cases that dominate eager use: same shapes and a one-element operand.
//
// Integer helpers (wrap_add, safe_div, ...) give defined results where C++
// would have undefined behaviour: signed overflow wraps (two's complement, as
// numpy and ONNX Runtime do), and integer division by zero gives 0.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "eval/util/broadcast.h"
#include "eval/util/dispatch.h"
#include "eval/util/parallel.h"
#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval {

/// The type arithmetic happens in for elements of type T.
template <typename T>
struct Arith {
  using type = T;
};
template <>
struct Arith<float16> {
  using type = float;
};
template <>
struct Arith<bfloat16> {
  using type = float;
};
template <typename T>
using arith_t = typename Arith<T>::type;

/// True for the 16-bit float storage types.
template <typename T>
inline constexpr bool is_half_v = std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;

/// An element as its arithmetic type: float for the 16-bit floats, otherwise
/// the element itself (by reference, so strings are not copied).
template <typename T>
inline decltype(auto) to_arith(const T& v) {
  if constexpr (is_half_v<T>)
    return static_cast<float>(v);
  else
    return (v);
}

// ---- defined integer arithmetic -------------------------------------------

/// a + b modulo 2^bits (no signed-overflow UB; small types do not promote to int).
template <typename T>
inline T wrap_add(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  else
    return a + b;
}
/// a - b modulo 2^bits.
template <typename T>
inline T wrap_sub(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
  else
    return a - b;
}
/// a * b modulo 2^bits (uint16 * uint16 would overflow int after promotion).
template <typename T>
inline T wrap_mul(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  else
    return a * b;
}
/// -a modulo 2^bits (so -INT_MIN is INT_MIN, as in numpy).
template <typename T>
inline T wrap_neg(T a) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(uint64_t{0} - static_cast<uint64_t>(a));
  else
    return -a;
}
/// Integer division truncating toward zero. Division by zero gives 0 (numpy's
/// result, and not a crash); INT_MIN / -1 wraps to INT_MIN.
template <typename T>
inline T safe_div(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    if (b == 0) return T(0);
    if constexpr (std::is_signed_v<T>)
      if (b == T(-1)) return wrap_neg(a);
    return static_cast<T>(a / b);
  } else {
    return a / b;
  }
}

/// Float to integer with defined results: truncates toward zero; values
/// inside int64's range then wrap to T as integer casts do; NaN, infinities
/// and values beyond int64 give int64's minimum wrapped to T (what x86's
/// conversion instructions give, and so numpy and ONNX Runtime in practice).
template <typename T, typename F>
inline T float_to_int(F x) {
  static_assert(std::is_integral_v<T> && std::is_floating_point_v<F>);
  if constexpr (std::is_same_v<T, uint64_t>) {
    if (x >= F(0x1p63) && x < F(0x1p64)) return static_cast<uint64_t>(x);
  }
  if (x >= F(-0x1p63) && x < F(0x1p63)) return static_cast<T>(static_cast<int64_t>(x));
  return static_cast<T>(std::numeric_limits<int64_t>::min());
}

// ---- loops -----------------------------------------------------------------

/// Calls body(begin, end) over [0, n): on the calling thread for small n or
/// outside a multi-threaded Session run, else split across the intra-op
/// threads (each range at least 32K elements, so a hand-off pays for itself).
template <typename Body>
inline void elementwise_ranges(int64_t n, Body&& body) {
  constexpr int64_t kGrain = int64_t{1} << 15;
  if (n < 2 * kGrain || intra_op_threads() == 1) {
    body(int64_t{0}, n);
    return;
  }
  parallel_for(n, kGrain, body);
}

/// Whether `small`, without its leading 1s, is the last dimensions of
/// `out`: then element i of the output reads element i % numel(small).
inline bool repeats_along_leading_axes(const ir::Dims& small, const ir::Dims& out) {
  size_t first = 0;
  while (first < small.size() && small[first] == 1) ++first;
  const size_t kept = small.size() - first;
  if (kept == 0 || kept > out.size()) return false;
  for (size_t d = 0; d < kept; ++d)
    if (small[first + d] != out[out.size() - kept + d]) return false;
  return true;
}

/// Calls body(i, j, len) over the n output elements in runs where the
/// output index i goes with index j of an operand of `period` elements that
/// repeats along the output (j = i % period for the whole run), split over
/// the intra-op threads as elementwise_ranges splits.
template <typename Body>
inline void repeated_rows(int64_t n, int64_t period, Body&& body) {
  elementwise_ranges(n, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end;) {
      const int64_t j = i % period, len = std::min(period - j, end - i);
      body(i, j, len);
      i += len;
    }
  });
}

/// A new tensor of element type R and x's shape with y[i] = f(x[i]).
template <typename T, typename R = T, typename F>
Tensor unary_map(const Tensor& x, F&& f) {
  Tensor y = Tensor::uninitialized(ir::data_type_of<R>(), x.shape());
  const T* in = x.data<T>();
  R* out = y.data<R>();
  elementwise_ranges(x.numel(), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) out[i] = static_cast<R>(f(to_arith(in[i])));
  });
  return y;
}

/// out = f(a, b) element-wise, where `out` is already allocated with the
/// broadcast shape of a and b (it may alias `a` when a has out's shape).
template <typename A, typename B, typename R, typename F>
void binary_into(const Tensor& a, const Tensor& b, Tensor& out, F&& f) {
  const A* pa = a.data<A>();
  const B* pb = b.data<B>();
  R* po = out.data<R>();
  const int64_t n = out.numel();
  auto apply = [&f](const A& x, const B& y) { return static_cast<R>(f(to_arith(x), to_arith(y))); };
  // An operand with as many elements as the output has the output's layout
  // (its dimensions can only differ by leading 1s), so it can be read densely.
  const bool dense_a = a.numel() == n, dense_b = b.numel() == n;
  if (dense_a && dense_b) {
    elementwise_ranges(n, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) po[i] = apply(pa[i], pb[i]);
    });
    return;
  }
  if (dense_a && b.numel() == 1) {
    const B vb = pb[0];  // by value: `out` may alias `b`'s storage
    elementwise_ranges(n, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) po[i] = apply(pa[i], vb);
    });
    return;
  }
  if (dense_b && a.numel() == 1) {
    const A va = pa[0];
    elementwise_ranges(n, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) po[i] = apply(va, pb[i]);
    });
    return;
  }
  // One operand repeats whole along the leading axes (a bias [N] added to
  // [..., N], a [C, H, W] tensor to [B, C, H, W]): rows of its size, read
  // densely and split over the threads like the dense paths.
  if (dense_a && repeats_along_leading_axes(b.shape(), out.shape())) {
    repeated_rows(n, b.numel(), [&](int64_t i, int64_t j, int64_t len) {
      for (int64_t t = 0; t < len; ++t) po[i + t] = apply(pa[i + t], pb[j + t]);
    });
    return;
  }
  if (dense_b && repeats_along_leading_axes(a.shape(), out.shape())) {
    repeated_rows(n, a.numel(), [&](int64_t i, int64_t j, int64_t len) {
      for (int64_t t = 0; t < len; ++t) po[i + t] = apply(pa[j + t], pb[i + t]);
    });
    return;
  }
  const BroadcastPlan plan = make_broadcast_plan(out.shape(), {a.shape(), b.shape()});
  const int64_t sa = plan.inner_stride(0), sb = plan.inner_stride(1);
  for_each_broadcast_run(plan, [&](int64_t o, const int64_t* in, int64_t count) {
    const A* xa = pa + in[0];
    const B* xb = pb + in[1];
    R* xo = po + o;
    if (sa && sb) {
      for (int64_t i = 0; i < count; ++i) xo[i] = apply(xa[i], xb[i]);
    } else if (sa) {
      const B& vb = *xb;
      for (int64_t i = 0; i < count; ++i) xo[i] = apply(xa[i], vb);
    } else if (sb) {
      const A& va = *xa;
      for (int64_t i = 0; i < count; ++i) xo[i] = apply(va, xb[i]);
    } else {
      const R v = apply(*xa, *xb);
      for (int64_t i = 0; i < count; ++i) xo[i] = v;
    }
  });
}

/// The shape of the numpy broadcast of a and b, without allocating a plan in
/// the common equal-shape and one-element cases.
inline ir::Dims binary_out_shape(const KernelContext& ctx, const Tensor& a, const Tensor& b) {
  if (a.shape() == b.shape()) return a.shape();
  if (b.numel() == 1 && b.rank() <= a.rank()) return a.shape();
  if (a.numel() == 1 && a.rank() <= b.rank()) return b.shape();
  return broadcast_shape(ctx, a.shape(), b.shape());
}

/// A new tensor of element type R: f(a, b) with numpy broadcasting.
template <typename T, typename R = T, typename F>
Tensor binary_map(const KernelContext& ctx, const Tensor& a, const Tensor& b, F&& f) {
  Tensor out = Tensor::uninitialized(ir::data_type_of<R>(), binary_out_shape(ctx, a, b));
  binary_into<T, T, R>(a, b, out, std::forward<F>(f));
  return out;
}

/// Fails the kernel unless `a` and `b` have the same element type.
void require_same_type(const KernelContext& ctx, const Tensor& a, const Tensor& b);

/// `b` as the right operand of a binary operator: itself, or for versions
/// before `first_numpy_version` a view of it under the opset 1-6
/// `broadcast`/`axis` rule (see legacy_broadcast_shape), held in `view`.
const Tensor& binary_rhs(const KernelContext& ctx, const Tensor& a, const Tensor& b, Tensor& view,
                         int64_t first_numpy_version = 7);

/// The whole of a binary kernel whose inputs share an element type from
/// `Types`: output 0 = f(input 0, input 1) with broadcasting, of the input
/// type, or bool when `kBoolOut`.
template <typename Types, bool kBoolOut = false, typename F>
void run_binary(KernelContext& ctx, F f, int64_t first_numpy_version = 7) {
  const Tensor& a = ctx.input_tensor(0);
  Tensor view;
  const Tensor& b = binary_rhs(ctx, a, ctx.input_tensor(1), view, first_numpy_version);
  require_same_type(ctx, a, b);
  dispatch<Types>(a.dtype(), ctx, [&]<typename T>() {
    using R = std::conditional_t<kBoolOut, bool, T>;
    ctx.set_output(0, binary_map<T, R>(ctx, a, b, f));
  });
}

/// The whole of a unary kernel: output 0 = f(input 0) element-wise, of the
/// input type (or bool when `kBoolOut`).
template <typename Types, bool kBoolOut = false, typename F>
void run_unary(KernelContext& ctx, F f) {
  const Tensor& x = ctx.input_tensor(0);
  dispatch<Types>(x.dtype(), ctx, [&]<typename T>() {
    using R = std::conditional_t<kBoolOut, bool, T>;
    ctx.set_output(0, unary_map<T, R>(x, f));
  });
}

/// The broadcast shape of every input of a variadic operator; fails naming the
/// operator when they are incompatible or their element types differ.
std::vector<int64_t> variadic_out_shape(const KernelContext& ctx);

/// f folded left over every input of a variadic operator (Sum, Max, ...),
/// with numpy broadcasting: f(f(x0, x1), x2)... A single input is returned
/// as it is (sharing storage).
template <typename T, typename F>
Tensor fold_inputs(const KernelContext& ctx, F f) {
  const Tensor& first = ctx.input_tensor(0);
  if (ctx.num_inputs() == 1) return first;
  Tensor out = Tensor::uninitialized(first.dtype(), variadic_out_shape(ctx));
  binary_into<T, T, T>(first, ctx.input_tensor(1), out, f);
  for (size_t i = 2; i < ctx.num_inputs(); ++i)
    binary_into<T, T, T>(out, ctx.input_tensor(i), out, f);
  return out;
}

}  // namespace onnxscript::eval
