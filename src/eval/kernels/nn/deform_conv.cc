// DeformConv (19, 22): convolution whose kernel taps are moved by learned
// offsets. X [N, C, D1, ...], W [M, C/group, k1, ...], offset
// [N, offset_group * nd * K, O1, ...] (nd spatial axes, K = k1 * k2 * ...),
// optional B [M] and mask [N, offset_group * K, O1, ...]. The output size
// follows Conv's rule from strides, dilations and pads (spatial.h).
//
// Output position o, kernel tap k (index kk along axis d) of a channel in
// offset group g reads X at the fractional coordinates
//   p_d = o_d * stride_d - pad_begin_d + kk * dilation_d
//         + offset[n, (g * K + k) * nd + d, o]
// by N-linear interpolation, where samples outside X count as 0, and
// multiplies it by mask[n, g * K + k, o] (1 without a mask). Channels are
// split evenly into offset_group groups. The sampled columns then go through
// one GEMM per image and group, as Conv's im2col does. For 2-D this is the
// deformable convolution of torchvision's deform_conv2d (offsets ordered
// (dy, dx) per tap); other ranks follow the same layout.
//
// Everything is computed in double and rounded once to X's type (float16,
// bfloat16, float or double; bfloat16 from version 22). Version 22 only
// widens the types, so one kernel serves both.
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "eval/kernels/linalg/gemm_util.h"
#include "nn_util.h"
#include "spatial.h"

namespace onnxscript::eval {
namespace {

/// X of one channel sampled at `pos` (nd coordinates) by N-linear
/// interpolation, with zero outside the input.
double deform_conv_sample(const double* xc, const Spatial& s,
                          const std::vector<int64_t>& in_strides, const double* pos) {
  const size_t nd = s.dims;
  int64_t lo[8];
  double frac[8];
  for (size_t d = 0; d < nd; ++d) {
    // At or beyond one pixel outside, every corner is padding.
    if (!(pos[d] > -1.0 && pos[d] < static_cast<double>(s.in[d]))) return 0.0;
    const double f = std::floor(pos[d]);
    lo[d] = static_cast<int64_t>(f);
    frac[d] = pos[d] - f;
  }
  double sum = 0.0;
  for (unsigned corner = 0; corner < (1u << nd); ++corner) {
    double weight = 1.0;
    int64_t index = 0;
    bool inside = true;
    for (size_t d = 0; d < nd && inside; ++d) {
      const bool high = (corner >> d) & 1u;
      const int64_t i = lo[d] + (high ? 1 : 0);
      inside = i >= 0 && i < s.in[d];
      weight *= high ? frac[d] : 1.0 - frac[d];
      index += i * in_strides[d];
    }
    if (inside && weight != 0.0) sum += weight * xc[index];
  }
  return sum;
}

void deform_conv(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const Tensor& w = ctx.input_tensor(1);
  const Tensor& off = ctx.input_tensor(2);
  require_type(kFloatTypes{}, x.dtype(), ctx);
  if (ctx.version() < 22 && x.dtype() == DataType::kBfloat16)
    ctx.fail("bfloat16 needs DeformConv-22");
  if (w.dtype() != x.dtype() || off.dtype() != x.dtype())
    ctx.fail("W and offset must have the element type of X");
  if (x.rank() < 3) ctx.fail(fmt::format("X must have rank >= 3, not {}", x.rank()));
  const size_t nd = x.rank() - 2;
  if (nd > 8) ctx.fail(fmt::format("{} spatial axes are more than the 8 supported", nd));
  if (w.rank() != x.rank() || off.rank() != x.rank())
    ctx.fail(fmt::format("W {} and offset {} must have the rank of X {}", shape_string(w.shape()),
                         shape_string(off.shape()), shape_string(x.shape())));
  const int64_t n = x.shape()[0], c = x.shape()[1], m = w.shape()[0];
  const int64_t group = conv_group(ctx, x, w);
  const int64_t offset_group = ctx.attr_int("offset_group", 1);
  if (offset_group <= 0 || c % offset_group != 0)
    ctx.fail(fmt::format("offset_group {} must divide the {} input channels", offset_group, c));
  const std::vector<int64_t> kernel = conv_kernel(ctx, w);
  const Spatial s = spatial_params(ctx, {x.shape().begin() + 2, x.shape().end()}, kernel, false);
  const int64_t ksize = s.kernel_size(), osize = s.out_size(), isize = s.in_size();

  // offset and mask: [N, channels, out...].
  auto check_map = [&](const Tensor& t, const char* name, int64_t channels) {
    std::vector<int64_t> want{n, channels};
    want.insert(want.end(), s.out.begin(), s.out.end());
    if (t.shape().to_vector() != want)
      ctx.fail(fmt::format("{} has shape {} but must be {} (offset_group {}, kernel {})", name,
                           shape_string(t.shape()), shape_string(want), offset_group,
                           shape_string(kernel)));
  };
  check_map(off, "offset", offset_group * static_cast<int64_t>(nd) * ksize);
  const Tensor* b = ctx.has_input(3) ? &ctx.input_tensor(3) : nullptr;
  if (b && (b->numel() != m || b->dtype() != x.dtype()))
    ctx.fail(fmt::format("B must have {} elements of the type of X", m));
  const Tensor* mask = ctx.has_input(4) ? &ctx.input_tensor(4) : nullptr;
  if (mask) {
    if (mask->dtype() != x.dtype()) ctx.fail("mask must have the element type of X");
    check_map(*mask, "mask", offset_group * ksize);
  }

  std::vector<int64_t> out_shape{n, m};
  out_shape.insert(out_shape.end(), s.out.begin(), s.out.end());
  std::vector<double> y(static_cast<size_t>(n * m * osize), 0.0);
  if (!y.empty() && ksize > 0) {
    const std::vector<double> xv = float_values(ctx, x), wv = float_values(ctx, w),
                              ov = float_values(ctx, off);
    const std::vector<double> mv = mask ? float_values(ctx, *mask) : std::vector<double>{};
    const std::vector<int64_t> in_strides = contiguous_strides(s.in);
    // Coordinates of every output position and kernel tap, axis by axis.
    std::vector<int64_t> out_coord(static_cast<size_t>(osize) * nd),
        tap_coord(static_cast<size_t>(ksize) * nd);
    auto unravel = [nd](int64_t flat, const std::vector<int64_t>& dims, int64_t* coord) {
      for (size_t d = nd; d-- > 0;) {
        coord[d] = flat % dims[d];
        flat /= dims[d];
      }
    };
    for (int64_t o = 0; o < osize; ++o) unravel(o, s.out, &out_coord[o * nd]);
    for (int64_t k = 0; k < ksize; ++k) unravel(k, s.kernel, &tap_coord[k * nd]);

    const int64_t cg = c / group, mg = m / group, c_per_offset = c / offset_group;
    std::vector<double> col(static_cast<size_t>(cg * ksize * osize));
    double pos[8];
    for (int64_t img = 0; img < n; ++img)
      for (int64_t g = 0; g < group; ++g) {
        for (int64_t ci = 0; ci < cg; ++ci) {
          const int64_t ch = g * cg + ci;
          const int64_t og = ch / c_per_offset;
          const double* xc = xv.data() + (img * c + ch) * isize;
          for (int64_t k = 0; k < ksize; ++k) {
            const double* offs =
                ov.data() + (img * offset_group * static_cast<int64_t>(nd) * ksize +
                             (og * ksize + k) * static_cast<int64_t>(nd)) *
                                osize;
            const double* mk =
                mask ? mv.data() + (img * offset_group * ksize + og * ksize + k) * osize : nullptr;
            double* row = col.data() + (ci * ksize + k) * osize;
            for (int64_t o = 0; o < osize; ++o) {
              for (size_t d = 0; d < nd; ++d)
                pos[d] = static_cast<double>(out_coord[o * nd + d] * s.strides[d] - s.pad_begin[d] +
                                             tap_coord[k * nd + d] * s.dilations[d]) +
                         offs[static_cast<int64_t>(d) * osize + o];
              const double v = deform_conv_sample(xc, s, in_strides, pos);
              row[o] = mk ? v * mk[o] : v;
            }
          }
        }
        double* yg = y.data() + (img * m + g * mg) * osize;
        gemm<double>(false, false, mg, osize, cg * ksize, 1.0, wv.data() + g * mg * cg * ksize,
                     col.data(), 0.0, yg);
      }
  }
  if (b) {
    const std::vector<double> bv = float_values(ctx, *b);
    for (int64_t img = 0; img < n; ++img)
      for (int64_t j = 0; j < m; ++j)
        for (int64_t o = 0; o < osize; ++o) y[(img * m + j) * osize + o] += bv[j];
  }
  ctx.set_output(0, float_tensor(ctx, x.dtype(), out_shape, y));
}

}  // namespace

void register_nn_deform_conv(KernelRegistry& registry) {
  // 22 only adds bfloat16 (refused at 19 above).
  for (int64_t v : {19, 22}) registry.add("", "DeformConv", v, deform_conv);
}

}  // namespace onnxscript::eval
