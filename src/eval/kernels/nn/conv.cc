// Conv: N-d convolution (1-D, 2-D, 3-D, ...) of X [N, C, D1, ...] with
// W [M, C/group, k1, ...] plus an optional bias B [M], with strides,
// dilations, pads/auto_pad and groups. float16/bfloat16 run in float.
// v11 only relaxes the kernel_shape inference; the semantics are the same.
//
// Paths, by what measurement on torchvision's CNNs showed to matter:
// - depthwise 3x3, stride 1 or 2, float (MobileNet): vector loops over a
//   zero-bordered copy of each plane (conv_depthwise.h);
// - other depthwise 2-D (one input and one output channel per group): a
//   direct sliding-window loop per plane; one GEMM per channel of a small
//   window would be all call overhead;
// - 1x1, unit stride, no padding: X is already the GEMM's right-hand matrix;
// - otherwise im2col (a specialised 2-D version that copies whole runs of
//   a row, a generic N-d one) into an uninitialised buffer, then one GEMM per
//   image and group.
// Planes, channels, im2col rows and blocks of the GEMM are split over the
// Session's intra-op threads (each BLAS call runs on one thread); each
// thread's block of the GEMM gets the bias right after its BLAS call, while
// it is in cache (conv_gemm).
//
// FusedConv (fused_conv.cc) runs the same code with an activation: the
// depthwise loops apply it to each row as they write it, the GEMM paths
// with the bias, to each thread's block of Y after its BLAS call.
#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#include "conv.h"
#include "conv_depthwise.h"
#include "eval/kernels/linalg/gemm_util.h"
#include "eval/util/parallel.h"
#include "nn_util.h"
#include "spatial.h"

namespace onnxscript::eval {
namespace {

// Fills col [C * K, O]: row (c, kernel offset), column = output position.
template <typename T>
void im2col(const T* x, int64_t channels, const Spatial& s,
            const std::vector<std::vector<int64_t>>& tab, T* col) {
  const size_t nd = s.dims;
  const int64_t ksize = s.kernel_size(), osize = s.out_size(), isize = s.in_size();
  const std::vector<int64_t> in_strides = contiguous_strides(s.in);
  const int64_t last_out = s.out[nd - 1];
  std::vector<int64_t> kidx(nd, 0), oidx(nd - 1, 0);
  const std::vector<int64_t> zero(nd, 0);
  const std::vector<int64_t> out_outer(s.out.begin(), s.out.end() - 1);
  for (int64_t c = 0; c < channels; ++c) {
    const T* xc = x + c * isize;
    std::fill(kidx.begin(), kidx.end(), 0);
    for (int64_t k = 0; k < ksize; ++k) {
      T* row = col + (c * ksize + k) * osize;
      // Walk output positions: outer axes by odometer, the last axis by table.
      std::fill(oidx.begin(), oidx.end(), 0);
      const int64_t* last = tab[nd - 1].data() + kidx[nd - 1] * last_out;
      int64_t unused = 0;
      do {
        int64_t base = 0;
        bool pad = false;
        for (size_t d = 0; d + 1 < nd; ++d) {
          const int64_t i = tab[d][kidx[d] * s.out[d] + oidx[d]];
          if (i < 0) pad = true;
          base += i * in_strides[d];
        }
        if (pad) {
          std::fill(row, row + last_out, T{});
        } else {
          for (int64_t o = 0; o < last_out; ++o) row[o] = last[o] < 0 ? T{} : xc[base + last[o]];
        }
        row += last_out;
      } while (next_index(oidx, out_outer, zero, unused));
      next_index(kidx, s.kernel, zero, unused);
    }
  }
}

// ceil(a / b) for b > 0 and any sign of a.
int64_t ceil_div(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

// The output columns [lo, hi) whose input column for kernel column `kw`
// lies inside the row (the others read padding).
std::pair<int64_t, int64_t> valid_columns(const Spatial& s, int64_t kw) {
  const int64_t width = s.in[1], out = s.out[1], stride = s.strides[1];
  const int64_t shift = kw * s.dilations[1] - s.pad_begin[1];  // input column of output 0
  const int64_t lo = std::clamp<int64_t>(ceil_div(-shift, stride), 0, out);
  const int64_t hi = std::clamp<int64_t>(ceil_div(width - shift, stride), lo, out);
  return {lo, hi};
}

// 2-D im2col: for each (channel, kh, kw) row and output row, the columns that
// read inside X are one strided run of an input row (a memcpy at unit
// stride), and the rest are zeros.
template <typename T>
void im2col_2d(const T* x, int64_t channels, const Spatial& s, T* col) {
  const int64_t height = s.in[0], width = s.in[1], out_h = s.out[0], out_w = s.out[1];
  const int64_t kh_n = s.kernel[0], kw_n = s.kernel[1], stride_w = s.strides[1];
  const int64_t osize = out_h * out_w;
  parallel_for(channels * kh_n, 4, [&](int64_t begin, int64_t end) {
    for (int64_t ck = begin; ck < end; ++ck) {
      const int64_t c = ck / kh_n, kh = ck % kh_n;
      const T* xc = x + c * height * width;
      for (int64_t kw = 0; kw < kw_n; ++kw) {
        T* row = col + (ck * kw_n + kw) * osize;
        const auto [lo, hi] = valid_columns(s, kw);
        const int64_t shift = kw * s.dilations[1] - s.pad_begin[1];
        for (int64_t oh = 0; oh < out_h; ++oh) {
          T* dst = row + oh * out_w;
          const int64_t ih = oh * s.strides[0] - s.pad_begin[0] + kh * s.dilations[0];
          if (ih < 0 || ih >= height) {
            std::fill(dst, dst + out_w, T{});
            continue;
          }
          std::fill(dst, dst + lo, T{});
          const T* src = xc + ih * width + lo * stride_w + shift;
          if (stride_w == 1) {
            if (hi > lo) std::memcpy(dst + lo, src, static_cast<size_t>(hi - lo) * sizeof(T));
          } else {
            for (int64_t o = lo; o < hi; ++o) dst[o] = src[(o - lo) * stride_w];
          }
          std::fill(dst + hi, dst + out_w, T{});
        }
      }
    }
  });
}

// Depthwise 2-D: plane p of Y is plane p of X under its own kh x kw window.
// Each output row accumulates one kernel tap at a time over the row's valid
// columns, a loop the compiler vectorises at unit stride.
template <typename T>
void depthwise_2d(const T* x, const T* w, const T* bias, T* y, int64_t n, int64_t c,
                  const Spatial& s, const ConvActivation& act) {
  const int64_t height = s.in[0], width = s.in[1], out_h = s.out[0], out_w = s.out[1];
  const int64_t kh_n = s.kernel[0], kw_n = s.kernel[1], stride_w = s.strides[1];
  std::vector<std::pair<int64_t, int64_t>> cols(static_cast<size_t>(kw_n));
  for (int64_t kw = 0; kw < kw_n; ++kw) cols[kw] = valid_columns(s, kw);
  parallel_for(n * c, 1, [&](int64_t begin, int64_t end) {
    for (int64_t plane = begin; plane < end; ++plane) {
      const int64_t ch = plane % c;
      const T* xp = x + plane * height * width;
      const T* wk = w + ch * kh_n * kw_n;
      T* yp = y + plane * out_h * out_w;
      const T b = bias ? bias[ch] : T{};
      for (int64_t oh = 0; oh < out_h; ++oh) {
        T* yrow = yp + oh * out_w;
        std::fill(yrow, yrow + out_w, b);
        for (int64_t kh = 0; kh < kh_n; ++kh) {
          const int64_t ih = oh * s.strides[0] - s.pad_begin[0] + kh * s.dilations[0];
          if (ih < 0 || ih >= height) continue;
          const T* xrow = xp + ih * width;
          for (int64_t kw = 0; kw < kw_n; ++kw) {
            const T wv = wk[kh * kw_n + kw];
            const auto [lo, hi] = cols[kw];
            const T* src = xrow + lo * stride_w + kw * s.dilations[1] - s.pad_begin[1];
            if (stride_w == 1) {
              for (int64_t o = lo; o < hi; ++o) yrow[o] += wv * src[o - lo];
            } else {
              for (int64_t o = lo; o < hi; ++o) yrow[o] += wv * src[(o - lo) * stride_w];
            }
          }
        }
        if (act.kind != ConvActivation::Kind::kNone) add_bias_and_activate(yrow, out_w, T{}, act);
      }
    }
  });
}

// The 3x3 depthwise geometry of `s` when the vector loops handle it.
bool depthwise3x3_geometry(const Spatial& s, DwGeometry& g) {
  if (s.kernel[0] != 3 || s.kernel[1] != 3 || s.dilations[0] != 1 || s.dilations[1] != 1 ||
      s.strides[0] != s.strides[1] || s.strides[0] > 2)
    return false;
  g.height = s.in[0];
  g.width = s.in[1];
  g.out_h = s.out[0];
  g.out_w = s.out[1];
  g.stride = s.strides[0];
  g.pad_top = s.pad_begin[0];
  g.pad_left = s.pad_begin[1];
  g.pad_bottom = s.pad_end[0];
  g.pad_right = s.pad_end[1];
  return true;
}

// Y[mg, osize] = act(W[mg, kdim] * cols[kdim, osize] + bias) for one image
// and group. The product is split over the intra-op threads as gemm() would
// split it (blocks of rows when there are many, else blocks of output
// positions), but each thread adds the bias and applies the activation to
// its own block right after its BLAS call, while the block is in cache:
// no serial pass over Y before the GEMM, and none after it.
template <typename T>
void conv_gemm(int64_t mg, int64_t osize, int64_t kdim, const T* w, const T* cols, const T* bias,
               T* y, const ConvActivation& act) {
  const bool epilogue = bias || act.kind != ConvActivation::Kind::kNone;
  // With an epilogue, a block's columns go in tiles of about 512 KB of Y, so
  // that the epilogue reads the tile from L2 rather than from memory (a
  // 1x1 convolution's whole block is megabytes); at least 256 columns, so
  // each BLAS call stays efficient.
  const int64_t tile =
      epilogue ? std::max<int64_t>(256, (int64_t{512} << 10) / (sizeof(T) * mg)) : osize;
  auto block = [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    for (int64_t t0 = c0; t0 < c1; t0 += tile) {
      const int64_t t1 = std::min(c1, t0 + tile);
      blas_gemm<T>(false, false, r1 - r0, t1 - t0, kdim, 1.0, w + r0 * kdim, kdim, cols + t0, osize,
                   0.0, y + r0 * osize + t0, osize);
      if (!epilogue) continue;
      for (int64_t r = r0; r < r1; ++r)
        add_bias_and_activate(y + r * osize + t0, t1 - t0, bias ? bias[r] : T{}, act);
    }
  };
  const int threads = intra_op_threads();
  // About a million multiply-adds per block at least, as gemm() splits.
  if (threads <= 1 || mg * osize * kdim < (int64_t{1} << 21)) {
    block(0, mg, 0, osize);
    return;
  }
  if (mg >= 4 * threads && mg >= osize / 8) {
    const int64_t grain = std::max<int64_t>(4, (int64_t{1} << 20) / (osize * kdim));
    parallel_split(mg, grain, [&](int64_t r0, int64_t r1) { block(r0, r1, 0, osize); });
  } else {
    const int64_t grain = std::max<int64_t>(16, (int64_t{1} << 20) / (mg * kdim));
    parallel_split(osize, grain, [&](int64_t c0, int64_t c1) { block(0, mg, c0, c1); });
  }
}

template <typename T>
void conv_typed(const T* x, const T* w, const T* bias, T* y, int64_t n, int64_t c, int64_t m,
                int64_t group, const Spatial& s, const ConvActivation& act) {
  const int64_t cg = c / group, mg = m / group;
  const int64_t ksize = s.kernel_size(), osize = s.out_size(), isize = s.in_size();
  if (cg * ksize == 0) {  // no input channels: Y is the bias (BLAS rejects k = 0)
    for (int64_t i = 0; i < n * m; ++i)
      std::fill(y + i * osize, y + (i + 1) * osize, act(bias ? bias[i % m] : T{}));
    return;
  }
  if (s.dims == 2 && group == c && m == c) {
    DwGeometry g;
    if constexpr (std::is_same_v<T, float>) {
      if (depthwise3x3_geometry(s, g)) {
        depthwise3x3(x, w, bias, y, n * c, c, g, act);
        return;
      }
    }
    depthwise_2d(x, w, bias, y, n, c, s, act);
    return;
  }
  // A 1x1 kernel with unit stride and no padding reads X directly.
  bool direct = true;
  for (size_t d = 0; d < s.dims; ++d)
    direct =
        direct && s.kernel[d] == 1 && s.strides[d] == 1 && s.pad_begin[d] == 0 && s.pad_end[d] == 0;
  // im2col sets every element of its buffer, so it is not zeroed first.
  std::unique_ptr<T[]> col(direct ? nullptr : new T[static_cast<size_t>(cg * ksize * osize)]);
  const auto tab = direct || s.dims == 2 ? std::vector<std::vector<int64_t>>{} : window_tables(s);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t g = 0; g < group; ++g) {
      const T* xg = x + (b * c + g * cg) * isize;
      const T* cols = xg;
      if (!direct) {
        if (s.dims == 2)
          im2col_2d(xg, cg, s, col.get());
        else
          im2col(xg, cg, s, tab, col.get());
        cols = col.get();
      }
      T* yg = y + (b * m + g * mg) * osize;
      conv_gemm(mg, osize, cg * ksize, w + g * mg * cg * ksize, cols,
                bias ? bias + g * mg : nullptr, yg, act);
    }
}

}  // namespace

void run_conv(KernelContext& ctx, const ConvActivation& act) {
  const Tensor& x = ctx.input_tensor(0);
  const Tensor& w = ctx.input_tensor(1);
  require_type(kFloatTypes{}, x.dtype(), ctx);
  if (w.dtype() != x.dtype()) ctx.fail("W must have the element type of X");
  if (x.rank() < 3) ctx.fail(fmt::format("X must have rank >= 3, not {}", x.rank()));
  if (w.rank() != x.rank())
    ctx.fail(fmt::format("W {} and X {} must have the same rank", shape_string(w.shape()),
                         shape_string(x.shape())));
  const int64_t n = x.shape()[0], c = x.shape()[1], m = w.shape()[0];
  const int64_t group = conv_group(ctx, x, w);
  const std::vector<int64_t> kernel = conv_kernel(ctx, w);
  const Spatial s = spatial_params(ctx, {x.shape().begin() + 2, x.shape().end()}, kernel, false);
  run_convolution(
      ctx, x, w, n, m, s,
      [&](const auto* xs, const auto* ws, const auto* bs, auto* ys) {
        conv_typed(xs, ws, bs, ys, n, c, m, group, s, act);
      },
      /*writes_every_element=*/true);
}

ConvActivation conv_activation(const KernelContext& ctx) {
  using Kind = ConvActivation::Kind;
  const std::string name = ctx.attr_string("activation", "");
  const std::vector<float> params = ctx.attr_floats("activation_params");
  struct Known {
    const char* name;
    Kind kind;
    size_t params;        // how many activation_params it takes at most
    float first, second;  // their defaults
  };
  const float inf = std::numeric_limits<float>::infinity();
  static const Known known[] = {
      {"Relu", Kind::kRelu, 0, 0, 0},
      {"Clip", Kind::kClip, 2, -inf, inf},
      {"LeakyRelu", Kind::kLeakyRelu, 1, 0.01f, 0},
      {"Sigmoid", Kind::kSigmoid, 0, 0, 0},
      {"Tanh", Kind::kTanh, 0, 0, 0},
      {"HardSigmoid", Kind::kHardSigmoid, 2, 0.2f, 0.5f},
      {"HardSwish", Kind::kHardSwish, 0, 0, 0},
  };
  for (const Known& k : known) {
    if (name != k.name) continue;
    if (params.size() > k.params)
      ctx.fail(fmt::format("activation {} takes at most {} activation_params, not {}", name,
                           k.params, params.size()));
    ConvActivation act;
    act.kind = k.kind;
    act.a = params.size() > 0 ? params[0] : k.first;
    act.b = params.size() > 1 ? params[1] : k.second;
    return act;
  }
  ctx.fail(
      fmt::format("unknown activation '{}' (Relu, Clip, LeakyRelu, Sigmoid, Tanh, "
                  "HardSigmoid, HardSwish)",
                  name));
}

namespace {
void conv(KernelContext& ctx) { run_conv(ctx, ConvActivation{}); }
}  // namespace

void register_nn_conv(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 11, 22}) registry.add("", "Conv", v, conv);
}

}  // namespace onnxscript::eval
