// Conv: N-d convolution (1-D, 2-D, 3-D, ...) of X [N, C, D1, ...] with
// W [M, C/group, k1, ...] plus an optional bias B [M], with strides,
// dilations, pads/auto_pad and groups. Computed per image and group as
// im2col followed by one GEMM (sgemm/dgemm); float16/bfloat16 run in float.
// v11 only relaxes the kernel_shape inference; the semantics are the same.
#include <fmt/format.h>

#include "eval/kernels/linalg/gemm_util.h"
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

template <typename T>
void conv_typed(const T* x, const T* w, const T* bias, T* y, int64_t n, int64_t c, int64_t m,
                int64_t group, const Spatial& s) {
  const int64_t cg = c / group, mg = m / group;
  const int64_t ksize = s.kernel_size(), osize = s.out_size(), isize = s.in_size();
  const auto tab = window_tables(s);
  // A 1x1 kernel with unit stride and no padding reads X directly.
  bool direct = true;
  for (size_t d = 0; d < s.dims; ++d)
    direct =
        direct && s.kernel[d] == 1 && s.strides[d] == 1 && s.pad_begin[d] == 0 && s.pad_end[d] == 0;
  std::vector<T> col(direct ? 0 : cg * ksize * osize);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t g = 0; g < group; ++g) {
      const T* xg = x + (b * c + g * cg) * isize;
      const T* cols = xg;
      if (!direct) {
        im2col(xg, cg, s, tab, col.data());
        cols = col.data();
      }
      T* yg = y + (b * m + g * mg) * osize;
      gemm<T>(false, false, mg, osize, cg * ksize, 1.0, w + g * mg * cg * ksize, cols, 0.0, yg);
      if (bias)
        for (int64_t j = 0; j < mg; ++j)
          for (int64_t o = 0; o < osize; ++o) yg[j * osize + o] += bias[g * mg + j];
    }
}

void conv(KernelContext& ctx) {
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
  run_convolution(ctx, x, w, n, m, s,
                  [&](const auto* xs, const auto* ws, const auto* bs, auto* ys) {
                    conv_typed(xs, ws, bs, ys, n, c, m, group, s);
                  });
}

}  // namespace

void register_nn_conv(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 11, 22}) registry.add("", "Conv", v, conv);
}

}  // namespace onnxscript::eval
