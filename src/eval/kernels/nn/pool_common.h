#pragma once
// MaxPool, AveragePool and LpPool share one N-d sliding-window loop; see
// spatial.h for how kernel_shape, strides, pads, dilations, auto_pad and
// ceil_mode give the output size. Padding never wins a max, and for
// AveragePool it counts toward the divisor only with count_include_pad=1
// (positions past the end padding, which ceil_mode can create, never count).
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "eval/util/parallel.h"
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

/// ceil(a / b) for b > 0 and any sign of a.
inline int64_t pool_ceil_div(int64_t a, int64_t b) {
  return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

/// The kernel offsets [lo, hi) along one axis whose input coordinate
/// `first + k * dilation` lies in [begin, end).
inline std::pair<int64_t, int64_t> pool_taps(int64_t first, int64_t dilation, int64_t kernel,
                                             int64_t begin, int64_t end) {
  const int64_t lo = std::clamp<int64_t>(pool_ceil_div(begin - first, dilation), 0, kernel);
  const int64_t hi = std::clamp<int64_t>(pool_ceil_div(end - first, dilation), lo, kernel);
  return {lo, hi};
}

/// MaxPool and AveragePool over 2-D float planes: each window's valid taps
/// are computed once per output row and column instead of testing every tap,
/// and planes are split over the intra-op threads. The results are those of
/// the generic loop below (the same taps, order, NaN handling and divisor);
/// averages accumulate in double as there.
template <PoolKind K>
void pool_2d_float(const float* src, float* dst, int64_t planes, const Spatial& s,
                   bool include_pad) {
  const int64_t height = s.in[0], width = s.in[1], out_h = s.out[0], out_w = s.out[1];
  parallel_for(planes, 1, [&](int64_t begin, int64_t end) {
    for (int64_t plane = begin; plane < end; ++plane) {
      const float* xp = src + plane * height * width;
      float* yp = dst + plane * out_h * out_w;
      for (int64_t oh = 0; oh < out_h; ++oh) {
        const int64_t h0 = oh * s.strides[0] - s.pad_begin[0];
        const auto [kh_lo, kh_hi] = pool_taps(h0, s.dilations[0], s.kernel[0], 0, height);
        const auto [ph_lo, ph_hi] =
            pool_taps(h0, s.dilations[0], s.kernel[0], -s.pad_begin[0], height + s.pad_end[0]);
        for (int64_t ow = 0; ow < out_w; ++ow) {
          const int64_t w0 = ow * s.strides[1] - s.pad_begin[1];
          const auto [kw_lo, kw_hi] = pool_taps(w0, s.dilations[1], s.kernel[1], 0, width);
          if constexpr (K == PoolKind::kMax) {
            float best = -std::numeric_limits<float>::infinity();
            bool any = false;
            for (int64_t kh = kh_lo; kh < kh_hi; ++kh) {
              const float* row = xp + (h0 + kh * s.dilations[0]) * width + w0;
              for (int64_t kw = kw_lo; kw < kw_hi; ++kw) {
                const float v = row[kw * s.dilations[1]];
                if (!any || v > best) {
                  best = v;
                  any = true;
                }
              }
            }
            yp[oh * out_w + ow] = best;
          } else {
            double acc = 0.0;
            for (int64_t kh = kh_lo; kh < kh_hi; ++kh) {
              const float* row = xp + (h0 + kh * s.dilations[0]) * width + w0;
              for (int64_t kw = kw_lo; kw < kw_hi; ++kw)
                acc += static_cast<double>(row[kw * s.dilations[1]]);
            }
            int64_t count = (kh_hi - kh_lo) * (kw_hi - kw_lo);
            if (include_pad) {
              const auto [pw_lo, pw_hi] =
                  pool_taps(w0, s.dilations[1], s.kernel[1], -s.pad_begin[1], width + s.pad_end[1]);
              count = (ph_hi - ph_lo) * (pw_hi - pw_lo);
            }
            yp[oh * out_w + ow] = static_cast<float>(acc / static_cast<double>(count));
          }
        }
      }
    }
  });
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
  Tensor y = Tensor::uninitialized(x.dtype(), out_shape);  // every output is written
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
    if constexpr (K != PoolKind::kLp && std::is_same_v<T, float>) {
      if (nd == 2 && !idx_out) {
        pool_2d_float<K>(src, dst, n * c, s, include_pad);
        return;
      }
    }
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
