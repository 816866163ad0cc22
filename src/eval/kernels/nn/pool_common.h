#pragma once
// MaxPool, AveragePool and LpPool share one N-d sliding-window loop; see
// spatial.h for how kernel_shape, strides, pads, dilations, auto_pad and
// ceil_mode give the output size. Padding never wins a max, and for
// AveragePool it counts toward the divisor only with count_include_pad=1
// (positions past the end padding, which ceil_mode can create, never count).
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "spatial.h"

namespace onnxscript::eval {

enum class PoolKind { kMax, kAverage, kLp };

/// The `p` attribute of LpPool/GlobalLpPool: a float in v1, an int from v2.
inline double lp_order(const KernelContext& ctx) {
  const ir::Attribute* a = ctx.attribute("p");
  if (!a) return 2.0;
  return a->type == ir::AttributeType::kFloat ? static_cast<double>(a->as_float())
                                              : static_cast<double>(a->as_int());
}

template <PoolKind K, typename Types>
void pool_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  if (x.rank() < 3) ctx.fail(fmt::format("X must have rank >= 3, not {}", x.rank()));
  const std::vector<int64_t> kernel = ctx.required_attribute("kernel_shape").as_ints();
  const bool ceil_mode = ctx.attr_int("ceil_mode", 0) != 0;
  const Spatial s =
      spatial_params(ctx, {x.shape().begin() + 2, x.shape().end()}, kernel, ceil_mode);
  const bool include_pad = ctx.attr_int("count_include_pad", 0) != 0;
  const bool column_major = ctx.attr_int("storage_order", 0) != 0;
  const double p = K == PoolKind::kLp ? lp_order(ctx) : 2.0;
  const int64_t n = x.shape()[0], c = x.shape()[1];
  std::vector<int64_t> out_shape{n, c};
  out_shape.insert(out_shape.end(), s.out.begin(), s.out.end());
  Tensor y(x.dtype(), out_shape);
  const bool want_indices = K == PoolKind::kMax && ctx.num_outputs() > 1;
  Tensor indices(DataType::kInt64, want_indices ? out_shape : std::vector<int64_t>{0});
  const size_t nd = s.dims;
  const int64_t isize = s.in_size(), osize = s.out_size();
  const std::vector<int64_t> in_strides = contiguous_strides(s.in);
  // Spatial index of an input position for the Indices output.
  std::vector<int64_t> index_strides = in_strides;
  if (column_major) {
    int64_t st = 1;
    for (size_t d = 0; d < nd; ++d) {
      index_strides[d] = st;
      st *= s.in[d];
    }
  }
  dispatch<Types>(x.dtype(), ctx, [&]<typename T>() {
    using C = compute_t<T>;
    const T* src = x.data<T>();
    T* dst = y.data<T>();
    int64_t* idx_out = want_indices ? indices.data<int64_t>() : nullptr;
    std::vector<int64_t> oidx(nd), kidx(nd);
    const std::vector<int64_t> zero(nd, 0);
    int64_t unused = 0;
    for (int64_t plane = 0; plane < n * c; ++plane) {
      const T* xp = src + plane * isize;
      std::fill(oidx.begin(), oidx.end(), 0);
      for (int64_t o = 0; o < osize; ++o) {
        double acc = K == PoolKind::kMax ? -std::numeric_limits<double>::infinity() : 0.0;
        int64_t best = -1, count = 0;
        std::fill(kidx.begin(), kidx.end(), 0);
        do {
          int64_t off = 0, where = 0;
          bool inside = true, in_padded = true;
          for (size_t d = 0; d < nd; ++d) {
            const int64_t i = oidx[d] * s.strides[d] - s.pad_begin[d] + kidx[d] * s.dilations[d];
            if (i < 0 || i >= s.in[d]) {
              inside = false;
              if (i < -s.pad_begin[d] || i >= s.in[d] + s.pad_end[d]) in_padded = false;
            }
            off += i * in_strides[d];
            where += i * index_strides[d];
          }
          if (inside) {
            const double v = static_cast<double>(static_cast<C>(xp[off]));
            if constexpr (K == PoolKind::kMax) {
              if (v > acc || best < 0) {
                acc = v;
                best = where;
              }
            } else if constexpr (K == PoolKind::kAverage) {
              acc += v;
              ++count;
            } else {
              acc += std::pow(std::fabs(v), p);
            }
          } else if (K == PoolKind::kAverage && include_pad && in_padded) {
            ++count;
          }
        } while (next_index(kidx, s.kernel, zero, unused));
        double r = acc;
        if constexpr (K == PoolKind::kAverage) r = acc / static_cast<double>(count);
        if constexpr (K == PoolKind::kLp) r = std::pow(acc, 1.0 / p);
        dst[plane * osize + o] = static_cast<T>(static_cast<C>(r));
        if (idx_out) idx_out[plane * osize + o] = plane * isize + best;
        next_index(oidx, s.out, zero, unused);
      }
    }
  });
  ctx.set_output(0, y);
  if (want_indices) ctx.set_output(1, indices);
}

/// GlobalMaxPool, GlobalAveragePool, GlobalLpPool: one window covering all
/// spatial axes; the output keeps them as length 1.
template <PoolKind K>
void global_pool_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  if (x.rank() < 3) ctx.fail(fmt::format("X must have rank >= 3, not {}", x.rank()));
  const double p = K == PoolKind::kLp ? lp_order(ctx) : 2.0;
  const int64_t planes = x.shape()[0] * x.shape()[1];
  const int64_t size = shape_product(x.shape(), 2, x.rank());
  std::vector<int64_t> out_shape(x.rank(), 1);
  out_shape[0] = x.shape()[0];
  out_shape[1] = x.shape()[1];
  Tensor y(x.dtype(), out_shape);
  dispatch<kFloatTypes>(x.dtype(), ctx, [&]<typename T>() {
    using C = compute_t<T>;
    const T* src = x.data<T>();
    for (int64_t plane = 0; plane < planes; ++plane) {
      double acc = K == PoolKind::kMax ? -std::numeric_limits<double>::infinity() : 0.0;
      for (int64_t i = 0; i < size; ++i) {
        const double v = static_cast<double>(static_cast<C>(src[plane * size + i]));
        if constexpr (K == PoolKind::kMax)
          acc = std::max(acc, v);
        else if constexpr (K == PoolKind::kAverage)
          acc += v;
        else
          acc += std::pow(std::fabs(v), p);
      }
      if constexpr (K == PoolKind::kAverage) acc /= static_cast<double>(size);
      if constexpr (K == PoolKind::kLp) acc = std::pow(acc, 1.0 / p);
      y.data<T>()[plane] = static_cast<T>(static_cast<C>(acc));
    }
  });
  ctx.set_output(0, y);
}

}  // namespace onnxscript::eval
