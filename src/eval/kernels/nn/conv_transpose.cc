// ConvTranspose: the gradient of Conv with respect to its input. X [N, C,
// D1, ...], W [C, M/group, k1, ...], B [M]. Output size per axis:
//   stride * (in - 1) + output_padding + ((k - 1) * dilation + 1) - pad_begin - pad_end
// When output_shape is given, the pads are derived from it (SAME_UPPER puts
// the odd padding at the end, otherwise at the beginning); auto_pad SAME_*
// without output_shape targets in * stride. Computed as one GEMM per image
// and group (W^T * X) followed by col2im. v11 only refines the docs.
#include <fmt/format.h>

#include "eval/kernels/linalg/gemm_util.h"
#include "spatial.h"

namespace onnxscript::eval {
namespace {

template <typename T>
void conv_transpose_typed(const T* x, const T* w, const T* bias, T* y, int64_t n, int64_t c,
                          int64_t m, int64_t group, const Spatial& s) {
  // Here s.in is the input (X) spatial size, s.out the output (Y) size.
  const int64_t cg = c / group, mg = m / group;
  const int64_t ksize = s.kernel_size(), isize = s.in_size(), osize = s.out_size();
  const size_t nd = s.dims;
  std::vector<T> col(mg * ksize * isize);
  const std::vector<int64_t> out_strides = contiguous_strides(s.out);
  // For each axis: target[d][k * in[d] + i] = output coordinate or -1.
  std::vector<std::vector<int64_t>> target(nd);
  for (size_t d = 0; d < nd; ++d) {
    target[d].resize(s.kernel[d] * s.in[d]);
    for (int64_t k = 0; k < s.kernel[d]; ++k)
      for (int64_t i = 0; i < s.in[d]; ++i) {
        const int64_t o = i * s.strides[d] - s.pad_begin[d] + k * s.dilations[d];
        target[d][k * s.in[d] + i] = (o >= 0 && o < s.out[d]) ? o : -1;
      }
  }
  std::vector<int64_t> kidx(nd), iidx(nd);
  const std::vector<int64_t> zero(nd, 0);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t g = 0; g < group; ++g) {
      // col [mg * K, in] = W_g^T [mg * K, cg] * X_g [cg, in]
      gemm<T>(true, false, mg * ksize, isize, cg, 1.0, w + g * cg * mg * ksize,
              x + (b * c + g * cg) * isize, 0.0, col.data());
      T* yg = y + (b * m + g * mg) * osize;
      const T* cr = col.data();
      for (int64_t j = 0; j < mg; ++j) {
        T* yj = yg + j * osize;
        std::fill(kidx.begin(), kidx.end(), 0);
        int64_t unused = 0;
        for (int64_t k = 0; k < ksize; ++k) {
          std::fill(iidx.begin(), iidx.end(), 0);
          for (int64_t i = 0; i < isize; ++i, ++cr) {
            int64_t off = 0;
            bool inside = true;
            for (size_t d = 0; d < nd; ++d) {
              const int64_t o = target[d][kidx[d] * s.in[d] + iidx[d]];
              if (o < 0) {
                inside = false;
                break;
              }
              off += o * out_strides[d];
            }
            if (inside) yj[off] += *cr;
            next_index(iidx, s.in, zero, unused);
          }
          next_index(kidx, s.kernel, zero, unused);
        }
        if (bias)
          for (int64_t o = 0; o < osize; ++o) yj[o] += bias[g * mg + j];
      }
    }
}

void conv_transpose(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const Tensor& w = ctx.input_tensor(1);
  require_type(kFloatTypes{}, x.dtype(), ctx);
  if (w.dtype() != x.dtype()) ctx.fail("W must have the element type of X");
  if (x.rank() < 3) ctx.fail(fmt::format("X must have rank >= 3, not {}", x.rank()));
  if (w.rank() != x.rank())
    ctx.fail(fmt::format("W {} and X {} must have the same rank", shape_string(w.shape()),
                         shape_string(x.shape())));
  const int64_t n = x.shape()[0], c = x.shape()[1];
  const int64_t group = ctx.attr_int("group", 1);
  if (group <= 0 || c % group != 0)
    ctx.fail(fmt::format("group {} must divide the {} input channels", group, c));
  if (w.shape()[0] != c)
    ctx.fail(fmt::format("W has {} input channels but X has {}", w.shape()[0], c));
  const int64_t m = w.shape()[1] * group;
  const size_t nd = x.rank() - 2;
  Spatial s;
  s.dims = nd;
  s.in.assign(x.shape().begin() + 2, x.shape().end());
  s.kernel.assign(w.shape().begin() + 2, w.shape().end());
  auto list = [&](const char* name, int64_t fallback, size_t count) {
    std::vector<int64_t> v = ctx.attr_ints(name);
    if (v.empty()) v.assign(count, fallback);
    if (v.size() != count)
      ctx.fail(fmt::format("{} has {} entries, expected {}", name, v.size(), count));
    return v;
  };
  s.strides = list("strides", 1, nd);
  s.dilations = list("dilations", 1, nd);
  const std::vector<int64_t> pads = list("pads", 0, 2 * nd);
  const std::vector<int64_t> out_pad = list("output_padding", 0, nd);
  std::vector<int64_t> output_shape = ctx.attr_ints("output_shape");
  if (output_shape.size() > nd) output_shape.erase(output_shape.begin(), output_shape.end() - nd);
  if (!output_shape.empty() && output_shape.size() != nd)
    ctx.fail("output_shape must name every spatial axis");
  const std::string auto_pad = ctx.attr_string("auto_pad", "NOTSET");
  s.out.resize(nd);
  s.pad_begin.resize(nd);
  s.pad_end.resize(nd);
  for (size_t d = 0; d < nd; ++d) {
    const int64_t full =
        s.strides[d] * (s.in[d] - 1) + out_pad[d] + (s.kernel[d] - 1) * s.dilations[d] + 1;
    if (!output_shape.empty() || auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      const int64_t target = output_shape.empty() ? s.in[d] * s.strides[d] : output_shape[d];
      // A target larger than `full` just leaves the extra outputs at the bias.
      const int64_t total = std::max<int64_t>(0, full - target);
      s.pad_begin[d] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      s.pad_end[d] = total - s.pad_begin[d];
      s.out[d] = target;
    } else {
      if (auto_pad == "VALID") {
        s.pad_begin[d] = s.pad_end[d] = 0;
      } else if (auto_pad == "NOTSET") {
        s.pad_begin[d] = pads[d];
        s.pad_end[d] = pads[d + nd];
      } else {
        ctx.fail("unknown auto_pad '" + auto_pad + "'");
      }
      s.out[d] = full - s.pad_begin[d] - s.pad_end[d];
    }
    if (s.out[d] < 0) ctx.fail(fmt::format("the output size on axis {} is negative", d));
  }
  run_convolution(ctx, x, w, n, m, s,
                  [&](const auto* xs, const auto* ws, const auto* bs, auto* ys) {
                    conv_transpose_typed(xs, ws, bs, ys, n, c, m, group, s);
                  });
}

}  // namespace

void register_nn_conv_transpose(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 11, 22}) registry.add("", "ConvTranspose", v, conv_transpose);
}

}  // namespace onnxscript::eval
