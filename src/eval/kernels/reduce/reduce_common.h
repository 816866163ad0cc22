#pragma once
// The Reduce* operators share one kernel, parameterised by what is
// accumulated and how the accumulator becomes the result.
//
// Axes: an attribute for every version up to 17, except ReduceSum which
// takes an optional int64 input from v13 (the others follow at v18; the
// kernel accepts either). Without axes every axis is reduced, unless
// noop_with_empty_axes=1, which makes the operator an identity. keepdims
// (default 1) keeps reduced axes as length 1.
//
// Accumulation is in double for floating types (float16/bfloat16 included)
// and in 64-bit integers for integer types; the result is converted back.
// Reducing an empty set gives the operation's identity: 0 for sums, 1 for
// products, -inf/+inf (or the integer extremes) for max/min, as ONNX 18
// specifies.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {

enum class ReduceKind { kSum, kMean, kMax, kMin, kProd, kL1, kL2, kLogSum, kLogSumExp, kSumSquare };

using ReduceTypes =
    TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBfloat16,
             DataType::kInt32, DataType::kInt64, DataType::kUint32, DataType::kUint64,
             DataType::kInt8, DataType::kUint8>;

namespace reduce_detail {

template <typename T>
using Acc = std::conditional_t<std::is_floating_point_v<compute_t<T>>, double,
                               std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>>;

template <ReduceKind K, typename A>
A initial() {
  if constexpr (K == ReduceKind::kProd) return A(1);
  if constexpr (K == ReduceKind::kMax) {
    if constexpr (std::is_floating_point_v<A>) return -std::numeric_limits<A>::infinity();
    return std::numeric_limits<A>::lowest();
  }
  if constexpr (K == ReduceKind::kMin) {
    if constexpr (std::is_floating_point_v<A>) return std::numeric_limits<A>::infinity();
    return std::numeric_limits<A>::max();
  }
  return A(0);
}

template <ReduceKind K, typename A>
inline void accumulate(A& acc, A v) {
  if constexpr (K == ReduceKind::kSum || K == ReduceKind::kMean || K == ReduceKind::kLogSum) {
    acc += v;
  } else if constexpr (K == ReduceKind::kProd) {
    acc *= v;
  } else if constexpr (K == ReduceKind::kMax) {
    // NaN propagates, as numpy's max does.
    if (v > acc || v != v) acc = v;
  } else if constexpr (K == ReduceKind::kMin) {
    if (v < acc || v != v) acc = v;
  } else if constexpr (K == ReduceKind::kL1) {
    if constexpr (std::is_unsigned_v<A>)
      acc += v;
    else
      acc += v < 0 ? -v : v;
  } else {  // kL2, kSumSquare
    acc += v * v;
  }
}

template <ReduceKind K, typename T, typename A>
inline T finish(A acc, int64_t count) {
  using C = compute_t<T>;
  if constexpr (K == ReduceKind::kMean) {
    if constexpr (std::is_floating_point_v<A>)
      return static_cast<T>(static_cast<C>(acc / count));
    else
      return count == 0 ? T{} : static_cast<T>(acc / static_cast<A>(count));
  } else if constexpr (K == ReduceKind::kL2) {
    return static_cast<T>(static_cast<C>(std::sqrt(static_cast<double>(acc))));
  } else if constexpr (K == ReduceKind::kLogSum) {
    return static_cast<T>(static_cast<C>(std::log(static_cast<double>(acc))));
  } else {
    return static_cast<T>(static_cast<C>(acc));
  }
}

/// Calls f(in_offset, out_offset, run) for runs of `run` consecutive input
/// elements that all map to out_offset (when the innermost axis is reduced)
/// or to out_offset..out_offset+run (when it is kept). An empty input has no
/// runs: f is never called, and every output keeps the operation's identity.
template <typename F>
void walk(std::span<const int64_t> shape, const std::vector<int64_t>& out_strides, F&& f) {
  const size_t rank = shape.size();
  if (rank == 0) return f(0, 0, 1);
  // The do-while below visits the first index before it looks at the
  // extents, so an extent of 0 must stop it here.
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return;
  std::vector<int64_t> outer(shape.begin(), shape.end() - 1);
  std::vector<int64_t> ostr(out_strides.begin(), out_strides.end() - 1);
  std::vector<int64_t> index(outer.size(), 0);
  const int64_t inner = shape[rank - 1];
  int64_t in = 0, out = 0;
  do {
    f(in, out, inner);
    in += inner;
  } while (next_index(index, outer, ostr, out));
}

}  // namespace reduce_detail

// Reduces `x` (the node's data input, or a view of it) by the node's axes.
template <ReduceKind K>
Tensor reduce_tensor(KernelContext& ctx, const Tensor& x) {
  using namespace reduce_detail;
  const int64_t rank = x.rank();
  std::vector<int64_t> axes =
      ctx.has_input(1) ? tensor_to_int64s(ctx, ctx.input_tensor(1), "axes") : ctx.attr_ints("axes");
  const bool keepdims = ctx.attr_int("keepdims", 1) != 0;
  if (axes.empty() && ctx.attr_int("noop_with_empty_axes", 0) != 0) {
    dispatch<ReduceTypes>(x.dtype(), ctx, []<typename T>() {});  // rejects unsupported types
    return x;
  }
  std::vector<bool> reduced(rank, axes.empty());
  for (int64_t a : axes) reduced[normalize_axis(ctx, a, rank)] = true;
  std::vector<int64_t> kept_shape(rank), out_shape;
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d) {
    kept_shape[d] = reduced[d] ? 1 : x.shape()[d];
    if (reduced[d]) count *= x.shape()[d];
    if (!reduced[d] || keepdims) out_shape.push_back(kept_shape[d]);
  }
  // Strides into the output for each input axis; 0 on reduced axes.
  std::vector<int64_t> out_strides = contiguous_strides(kept_shape);
  for (int64_t d = 0; d < rank; ++d)
    if (reduced[d]) out_strides[d] = 0;
  const bool inner_reduced = rank > 0 && reduced[rank - 1];
  Tensor out(x.dtype(), out_shape);
  dispatch<ReduceTypes>(x.dtype(), ctx, [&]<typename T>() {
    using A = Acc<T>;
    const T* src = x.data<T>();
    const int64_t n_out = out.numel();
    if constexpr (K == ReduceKind::kLogSumExp) {
      // Subtract the per-output maximum before exponentiating, for stability.
      // Computed in double for every type (integers included).
      std::vector<double> peak(n_out, -std::numeric_limits<double>::infinity()), sum(n_out, 0.0);
      walk(x.shape(), out_strides, [&](int64_t in, int64_t o, int64_t run) {
        for (int64_t i = 0; i < run; ++i) {
          const double v = static_cast<double>(static_cast<compute_t<T>>(src[in + i]));
          double& p = peak[inner_reduced ? o : o + i];
          if (v > p) p = v;
        }
      });
      walk(x.shape(), out_strides, [&](int64_t in, int64_t o, int64_t run) {
        for (int64_t i = 0; i < run; ++i) {
          const int64_t oo = inner_reduced ? o : o + i;
          const double v = static_cast<double>(static_cast<compute_t<T>>(src[in + i]));
          if (std::isfinite(peak[oo])) sum[oo] += std::exp(v - peak[oo]);
        }
      });
      T* dst = out.data<T>();
      for (int64_t o = 0; o < n_out; ++o) {
        const double r = std::isfinite(peak[o]) ? peak[o] + std::log(sum[o]) : peak[o];
        dst[o] = static_cast<T>(static_cast<compute_t<T>>(r));
      }
    } else {
      std::vector<A> acc(n_out, initial<K, A>());
      walk(x.shape(), out_strides, [&](int64_t in, int64_t o, int64_t run) {
        if (inner_reduced) {
          A& a = acc[o];
          for (int64_t i = 0; i < run; ++i)
            accumulate<K, A>(a, static_cast<A>(static_cast<compute_t<T>>(src[in + i])));
        } else {
          for (int64_t i = 0; i < run; ++i)
            accumulate<K, A>(acc[o + i], static_cast<A>(static_cast<compute_t<T>>(src[in + i])));
        }
      });
      T* dst = out.data<T>();
      for (int64_t o = 0; o < n_out; ++o) dst[o] = finish<K, T, A>(acc[o], count);
    }
  });
  return out;
}

template <ReduceKind K>
void reduce_kernel(KernelContext& ctx) {
  ctx.set_output(0, reduce_tensor<K>(ctx, ctx.input_tensor(0)));
}

// ReduceMax-20 and ReduceMin-20 also take bool: max is "any" and min is
// "all", which is the uint8 reduction of the same 0/1 bytes.
template <ReduceKind K>
void reduce_kernel_with_bool(KernelContext& ctx) {
  static_assert(K == ReduceKind::kMax || K == ReduceKind::kMin);
  const Tensor& x = ctx.input_tensor(0);
  if (x.dtype() != DataType::kBool) return reduce_kernel<K>(ctx);
  const Tensor bytes(DataType::kUint8, x.shape(), x.storage(), x.byte_offset());
  const Tensor r = reduce_tensor<K>(ctx, bytes);
  Tensor out(DataType::kBool, r.shape());
  const uint8_t* src = r.data<uint8_t>();
  bool* dst = out.data<bool>();
  // The min over an empty set is uint8's 255: true, written as a bool's 1.
  for (int64_t i = 0; i < r.numel(); ++i) dst[i] = src[i] != 0;
  ctx.set_output(0, out);
}

}  // namespace onnxscript::eval
