// STFT (opset 17): the short-time Fourier transform of signal [batch,
// length, 1 (real) or 2 (complex)]. Frame f covers samples
// [f * frame_step, f * frame_step + frame_length); each frame is multiplied
// by `window` (rank 1, of frame_length samples; all ones when omitted) and
// transformed by a forward DFT of length frame_length. frame_length is the
// `frame_length` input or, without it, the window's length; when both are
// given they must agree. There are (length - frame_length) / frame_step + 1
// frames (no padding). Output [batch, frames, bins, 2] with bins =
// frame_length / 2 + 1 when `onesided` (the default; real signals only),
// frame_length otherwise. Computed in double; see fft.h.
#include <fmt/format.h>

#include "eval/kernels/nn/nn_util.h"
#include "fft.h"

namespace onnxscript::eval {
namespace {

void stft(KernelContext& ctx) {
  const Tensor& signal = ctx.input_tensor(0);
  require_type(kFloatTypes{}, signal.dtype(), ctx);
  if (signal.rank() != 3 || (signal.shape()[2] != 1 && signal.shape()[2] != 2))
    ctx.fail(
        fmt::format("signal {} must be [batch, length, 1 or 2]", shape_string(signal.shape())));
  const int64_t batch = signal.shape()[0], length = signal.shape()[1], parts = signal.shape()[2];
  const int64_t step = tensor_to_int64(ctx, ctx.input_tensor(1), "frame_step");
  if (step < 1) ctx.fail(fmt::format("frame_step {} must be positive", step));
  std::vector<double> window;
  int64_t frame_length = -1;
  if (ctx.has_input(2)) {
    const Tensor& w = ctx.input_tensor(2);
    if (w.dtype() != signal.dtype()) ctx.fail("window must have the element type of signal");
    if (w.rank() != 1) ctx.fail(fmt::format("window {} must be 1-D", shape_string(w.shape())));
    window = float_values(ctx, w);
    frame_length = w.shape()[0];
  }
  if (ctx.has_input(3)) {
    const int64_t given = tensor_to_int64(ctx, ctx.input_tensor(3), "frame_length");
    if (frame_length >= 0 && given != frame_length)
      ctx.fail(
          fmt::format("frame_length {} differs from the window length {}", given, frame_length));
    frame_length = given;
  }
  if (frame_length < 0) ctx.fail("either window or frame_length must be given");
  if (frame_length < 1 || frame_length > length)
    ctx.fail(fmt::format("frame_length {} must be in [1, {}] (the signal length)", frame_length,
                         length));
  if (window.empty()) window.assign(static_cast<size_t>(frame_length), 1.0);
  const int64_t onesided = ctx.attr_int("onesided", 1);
  if (onesided != 0 && onesided != 1) ctx.fail(fmt::format("onesided {} is not 0 or 1", onesided));
  if (onesided && parts == 2) ctx.fail("onesided output requires a real signal (last dimension 1)");

  const int64_t frames = (length - frame_length) / step + 1;
  const int64_t bins = onesided ? frame_length / 2 + 1 : frame_length;
  const std::vector<double> in = float_values(ctx, signal);
  std::vector<double> out(static_cast<size_t>(batch * frames * bins * 2));
  const FourierPlan plan(frame_length, false);
  std::vector<Complex> line(static_cast<size_t>(frame_length)), scratch;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t f = 0; f < frames; ++f) {
      const double* src = in.data() + (b * length + f * step) * parts;
      for (int64_t j = 0; j < frame_length; ++j)
        line[j] = Complex(src[j * parts], parts == 2 ? src[j * parts + 1] : 0.0) * window[j];
      plan.transform(line.data(), scratch);
      double* dst = out.data() + (b * frames + f) * bins * 2;
      for (int64_t k = 0; k < bins; ++k) {
        dst[2 * k] = line[k].real();
        dst[2 * k + 1] = line[k].imag();
      }
    }
  ctx.set_output(0, float_tensor(ctx, signal.dtype(), {batch, frames, bins, 2}, out));
}

}  // namespace

void register_signal_stft(KernelRegistry& registry) { registry.add("", "STFT", 17, stft); }

}  // namespace onnxscript::eval
