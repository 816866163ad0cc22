#pragma once
// Spatial attributes shared by Conv, ConvTranspose and the pooling kernels:
// kernel_shape, strides, dilations, pads ([x1_begin, x2_begin, ...,
// x1_end, x2_end, ...]) and auto_pad, and the output size they imply.
//
//   NOTSET:     out = floor((in + pad_b + pad_e - ((k-1)*d + 1)) / s) + 1
//               (ceil with ceil_mode, dropping a last window that would
//               start inside the end padding)
//   VALID:      no padding
//   SAME_UPPER: out = ceil(in / s), padding split evenly, the odd one at the end
//   SAME_LOWER: likewise, the odd one at the beginning
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {

struct Spatial {
  size_t dims = 0;               ///< Number of spatial axes.
  std::vector<int64_t> in, out;  ///< Spatial input and output sizes.
  std::vector<int64_t> kernel, strides, dilations;
  std::vector<int64_t> pad_begin, pad_end;
  int64_t in_size() const { return shape_product(in, 0, dims); }
  int64_t out_size() const { return shape_product(out, 0, dims); }
  int64_t kernel_size() const { return shape_product(kernel, 0, dims); }
};

/// The `group` attribute of a convolution of X [N, C, ...] by W [M, C/group,
/// k...], checked against the channels; fails naming what does not divide.
inline int64_t conv_group(const KernelContext& ctx, const Tensor& x, const Tensor& w) {
  const int64_t c = x.shape()[1], m = w.shape()[0];
  const int64_t group = ctx.attr_int("group", 1);
  if (group <= 0 || c % group != 0 || m % group != 0)
    ctx.fail(fmt::format("group {} must divide the {} input and {} output channels", group, c, m));
  if (w.shape()[1] != c / group)
    ctx.fail(fmt::format("W has {} input channels per group but X has {} / group {}", w.shape()[1],
                         c, group));
  return group;
}

/// A convolution's kernel sizes: W's spatial dimensions, which a given
/// `kernel_shape` must repeat.
inline std::vector<int64_t> conv_kernel(const KernelContext& ctx, const Tensor& w) {
  std::vector<int64_t> kernel(w.shape().begin() + 2, w.shape().end());
  if (const ir::Attribute* ks = ctx.attribute("kernel_shape"))
    if (ks->as_ints() != kernel)
      ctx.fail(fmt::format("kernel_shape {} does not match W {}", shape_string(ks->as_ints()),
                           shape_string(w.shape())));
  return kernel;
}

/// Reads strides, dilations, pads and auto_pad for input spatial sizes `in`
/// and `kernel`, and computes the output sizes (forward convolution/pooling).
inline Spatial spatial_params(const KernelContext& ctx, std::vector<int64_t> in,
                              std::vector<int64_t> kernel, bool ceil_mode) {
  Spatial s;
  s.dims = in.size();
  s.in = std::move(in);
  s.kernel = std::move(kernel);
  auto list = [&](const char* name, int64_t fallback, size_t n) {
    std::vector<int64_t> v = ctx.attr_ints(name);
    if (v.empty()) v.assign(n, fallback);
    if (v.size() != n)
      ctx.fail(
          fmt::format("{} has {} entries but there are {} spatial axes", name, v.size(), s.dims));
    return v;
  };
  if (s.kernel.size() != s.dims)
    ctx.fail(fmt::format("kernel_shape has {} entries but there are {} spatial axes",
                         s.kernel.size(), s.dims));
  s.strides = list("strides", 1, s.dims);
  s.dilations = list("dilations", 1, s.dims);
  const std::vector<int64_t> pads = list("pads", 0, 2 * s.dims);
  const std::string auto_pad = ctx.attr_string("auto_pad", "NOTSET");
  s.out.resize(s.dims);
  s.pad_begin.resize(s.dims);
  s.pad_end.resize(s.dims);
  for (size_t d = 0; d < s.dims; ++d) {
    const int64_t k = s.kernel[d], st = s.strides[d], dl = s.dilations[d], n = s.in[d];
    if (k <= 0 || st <= 0 || dl <= 0)
      ctx.fail("kernel_shape, strides and dilations must be positive");
    const int64_t span = (k - 1) * dl + 1;
    if (auto_pad == "NOTSET" || auto_pad == "VALID") {
      const int64_t pb = auto_pad == "VALID" ? 0 : pads[d],
                    pe = auto_pad == "VALID" ? 0 : pads[d + s.dims];
      if (pb < 0 || pe < 0) ctx.fail("pads must not be negative");
      const int64_t avail = n + pb + pe - span;
      if (avail < 0)
        ctx.fail(
            fmt::format("the kernel (extent {}) is larger than the padded input ({}) on axis {}",
                        span, n + pb + pe, d));
      int64_t o = (ceil_mode ? (avail + st - 1) / st : avail / st) + 1;
      if (ceil_mode && (o - 1) * st >= n + pb) --o;
      s.out[d] = o;
      s.pad_begin[d] = pb;
      s.pad_end[d] = pe;
    } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      const int64_t o = (n + st - 1) / st;
      const int64_t total = std::max<int64_t>(0, (o - 1) * st + span - n);
      s.out[d] = o;
      s.pad_begin[d] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      s.pad_end[d] = total - s.pad_begin[d];
    } else {
      ctx.fail("unknown auto_pad '" + auto_pad + "'");
    }
  }
  return s;
}

/// For each spatial axis d, table[d][kd * out[d] + od] is the input
/// coordinate that output od reads at kernel offset kd, or -1 in padding.
inline std::vector<std::vector<int64_t>> window_tables(const Spatial& s) {
  std::vector<std::vector<int64_t>> t(s.dims);
  for (size_t d = 0; d < s.dims; ++d) {
    t[d].resize(s.kernel[d] * s.out[d]);
    for (int64_t k = 0; k < s.kernel[d]; ++k)
      for (int64_t o = 0; o < s.out[d]; ++o) {
        const int64_t i = o * s.strides[d] - s.pad_begin[d] + k * s.dilations[d];
        t[d][k * s.out[d] + o] = (i >= 0 && i < s.in[d]) ? i : -1;
      }
  }
  return t;
}

/// Runs a convolution-like `compute(x, w, b, y)` on the element pointers of
/// X, W, the optional B and Y, whose element type is T. Float and double run
/// as they are; half types are widened to float once, computed in float
/// (accumulating in half precision would lose accuracy) and narrowed into Y.
template <typename T, typename Compute>
void compute_in_float_or_wider(const Tensor& x, const Tensor& w, const Tensor* b, Tensor& y,
                               Compute&& compute) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    compute(x.data<T>(), w.data<T>(), b ? b->data<T>() : nullptr, y.data<T>());
  } else {
    const auto widen = [](const Tensor& t) {
      std::vector<float> v(static_cast<size_t>(t.numel()));
      for (int64_t i = 0; i < t.numel(); ++i) v[i] = static_cast<float>(t.data<T>()[i]);
      return v;
    };
    const std::vector<float> xf = widen(x), wf = widen(w);
    const std::vector<float> bf = b ? widen(*b) : std::vector<float>{};
    std::vector<float> yf(static_cast<size_t>(y.numel()));
    compute(xf.data(), wf.data(), b ? bf.data() : static_cast<const float*>(nullptr), yf.data());
    for (int64_t i = 0; i < y.numel(); ++i) y.data<T>()[i] = static_cast<T>(yf[i]);
  }
}

/// What Conv and ConvTranspose do once their spatial sizes are known: check
/// the optional bias B (input 2, `m` elements of X's type), make Y of shape
/// [n, m, s.out...], run `compute(x, w, b, y)` on element pointers (through
/// compute_in_float_or_wider) and set Y as output 0. With
/// `writes_every_element`, Y is not zero-filled first: `compute` must set
/// every element (ConvTranspose accumulates into Y, so it leaves this off).
template <typename Compute>
void run_convolution(KernelContext& ctx, const Tensor& x, const Tensor& w, int64_t n, int64_t m,
                     const Spatial& s, Compute&& compute, bool writes_every_element = false) {
  std::vector<int64_t> out_shape{n, m};
  out_shape.insert(out_shape.end(), s.out.begin(), s.out.end());
  const Tensor* b = ctx.has_input(2) ? &ctx.input_tensor(2) : nullptr;
  if (b && (b->numel() != m || b->dtype() != x.dtype()))
    ctx.fail(fmt::format("B must have {} elements of the type of X", m));
  Tensor y = writes_every_element ? Tensor::uninitialized(x.dtype(), out_shape)
                                  : Tensor(x.dtype(), out_shape);
  if (y.numel() > 0) {
    dispatch<kFloatTypes>(x.dtype(), ctx,
                          [&]<typename T>() { compute_in_float_or_wider<T>(x, w, b, y, compute); });
  }
  ctx.set_output(0, y);
}

}  // namespace onnxscript::eval
