// DFT: the discrete Fourier transform of every line of `input` along `axis`.
// The last dimension of input holds a real value ([..., 1]) or a (real,
// imaginary) pair ([..., 2]); the output is complex [..., 2]. `axis` counts
// over the whole tensor; negative values count from the back with -2 the
// last signal axis. DFT-17 takes it as an attribute (default 1, the first
// axis after the batch), DFT-20 as an optional scalar input (default -2).
// `dft_length` zero-pads or truncates each line to that length. `inverse`
// computes x[j] = (1/n) sum_k X[k] e^{+2 pi i jk/n}.
// `onesided` keeps bins 0..n/2 only of a real input's spectrum, which is
// conjugate-symmetric. With `inverse` too, it is the inverse real transform
// (irfft): the complex input holds bins 0..m-1 of a symmetric spectrum, the
// rest follows by symmetry, and the output is the real signal [..., n, 1]
// with n = dft_length or 2 (m - 1).
// Computed in double for every element type; see fft.h.
#include <fmt/format.h>

#include "eval/kernels/nn/nn_util.h"
#include "fft.h"

namespace onnxscript::eval {
namespace {

void dft(KernelContext& ctx, int64_t axis) {
  const Tensor& x = ctx.input_tensor(0);
  require_type(kFloatTypes{}, x.dtype(), ctx);
  const int64_t rank = x.rank();
  if (rank < 2)
    ctx.fail(fmt::format("input {} must have rank >= 2 ([batch, ..., 1 or 2])",
                         shape_string(x.shape())));
  const int64_t parts = x.shape()[rank - 1];
  if (parts != 1 && parts != 2)
    ctx.fail(fmt::format("the last dimension of input {} must be 1 (real) or 2 (complex)",
                         shape_string(x.shape())));
  const int64_t given_axis = axis;
  if (axis < 0) axis += rank;
  if (axis < 0 || axis > rank - 2)
    ctx.fail(fmt::format("axis {} is not a signal axis of input {}", given_axis,
                         shape_string(x.shape())));
  const int64_t inverse = ctx.attr_int("inverse", 0), onesided = ctx.attr_int("onesided", 0);
  if ((inverse != 0 && inverse != 1) || (onesided != 0 && onesided != 1))
    ctx.fail(fmt::format("inverse ({}) and onesided ({}) must be 0 or 1", inverse, onesided));
  const bool irfft = inverse && onesided && parts == 2;
  if (onesided && parts == 2 && !inverse)
    ctx.fail("onesided output requires real input (last dimension 1)");
  const int64_t in_len = x.shape()[axis];
  int64_t n = irfft ? 2 * (in_len - 1) : in_len;
  if (ctx.has_input(1)) n = tensor_to_int64(ctx, ctx.input_tensor(1), "dft_length");
  if (n < 1) ctx.fail(fmt::format("the transform length {} must be positive", n));
  const int64_t out_len = onesided && !irfft ? n / 2 + 1 : n;
  const int64_t out_parts = irfft ? 1 : 2;

  std::vector<int64_t> out_shape = x.shape().to_vector();
  out_shape[axis] = out_len;
  out_shape[rank - 1] = out_parts;
  const int64_t outer = shape_product(x.shape(), 0, axis);
  const int64_t inner = shape_product(x.shape(), axis + 1, rank - 1);
  const std::vector<double> in = float_values(ctx, x);
  std::vector<double> out(static_cast<size_t>(outer * out_len * inner * out_parts));
  const FourierPlan plan(n, inverse != 0);
  const double scale = inverse ? 1.0 / static_cast<double>(n) : 1.0;
  const int64_t used = std::min(in_len, n);
  std::vector<Complex> line(static_cast<size_t>(n)), scratch;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      for (int64_t j = 0; j < used; ++j) {
        const double* v = in.data() + ((o * in_len + j) * inner + i) * parts;
        line[j] = Complex(v[0], parts == 2 ? v[1] : 0.0);
      }
      std::fill(line.begin() + used, line.end(), Complex(0));
      if (irfft) {
        // Bins past the given ones mirror those below n/2: X[n-k] = conj(X[k]).
        for (int64_t k = std::max<int64_t>(used, 1); k < n; ++k)
          if (n - k < used) line[k] = std::conj(line[n - k]);
      }
      plan.transform(line.data(), scratch);
      for (int64_t k = 0; k < out_len; ++k) {
        double* dst = out.data() + ((o * out_len + k) * inner + i) * out_parts;
        dst[0] = line[k].real() * scale;
        if (!irfft) dst[1] = line[k].imag() * scale;
      }
    }
  ctx.set_output(0, float_tensor(ctx, x.dtype(), out_shape, out));
}

void dft_17(KernelContext& ctx) { dft(ctx, ctx.attr_int("axis", 1)); }

void dft_20(KernelContext& ctx) {
  dft(ctx, ctx.has_input(2) ? tensor_to_int64(ctx, ctx.input_tensor(2), "axis") : -2);
}

}  // namespace

void register_signal_dft(KernelRegistry& registry) {
  registry.add("", "DFT", 17, dft_17);
  registry.add("", "DFT", 20, dft_20);  // axis becomes an input, default -2
}

}  // namespace onnxscript::eval
