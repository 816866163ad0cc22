// MelWeightMatrix (opset 17): a [dft_length / 2 + 1, num_mel_bins] matrix
// that maps a onesided linear-frequency spectrum to mel bands. With
// mel(f) = 2595 log10(1 + f / 700), num_mel_bins + 2 band edges are taken
// at mel(lower_edge_hertz) + i * step, step = (mel(upper) - mel(lower)) /
// (num_mel_bins + 2) (so the last edge falls short of upper_edge_hertz, as
// in the ONNX reference), turned back into hertz and then into spectrogram
// bins floor((dft_length + 1) * hz / sample_rate). Band i is a triangle
// over bins [edge i, edge i+2] with peak 1 at edge i+1: rising
// (j - left) / (center - left) on [left, center], falling
// (right - j) / (right - center) on [center, right); a band whose left and
// center edges share a bin has a 1 there. Bins past the last spectrogram
// row are dropped. The output type is `output_datatype` (default float).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "eval/kernels/nn/nn_util.h"
#include "window_common.h"

namespace onnxscript::eval {
namespace {

void mel_weight_matrix(KernelContext& ctx) {
  const int64_t num_mel_bins = tensor_to_int64(ctx, ctx.input_tensor(0), "num_mel_bins");
  const int64_t dft_length = tensor_to_int64(ctx, ctx.input_tensor(1), "dft_length");
  const int64_t sample_rate = tensor_to_int64(ctx, ctx.input_tensor(2), "sample_rate");
  const Tensor& lower_t = ctx.input_tensor(3);
  const Tensor& upper_t = ctx.input_tensor(4);
  if (lower_t.numel() != 1 || upper_t.numel() != 1)
    ctx.fail("lower_edge_hertz and upper_edge_hertz must be scalars");
  const double lower = float_values(ctx, lower_t)[0], upper = float_values(ctx, upper_t)[0];
  if (num_mel_bins < 1 || dft_length < 1 || sample_rate < 1)
    ctx.fail(fmt::format("num_mel_bins ({}), dft_length ({}) and sample_rate ({}) must be positive",
                         num_mel_bins, dft_length, sample_rate));
  if (!(lower >= 0 && lower < upper && std::isfinite(upper)))
    ctx.fail(fmt::format(
        "the edges must satisfy 0 <= lower_edge_hertz ({}) < upper_edge_hertz ({})", lower, upper));
  const DataType dtype = output_datatype(ctx);
  require_type(kNumericTypes{}, dtype, ctx);

  auto mel = [](double hz) { return 2595.0 * std::log10(1.0 + hz / 700.0); };
  const double mel_lower = mel(lower);
  const double step = (mel(upper) - mel_lower) / static_cast<double>(num_mel_bins + 2);
  // Edges stay whole numbers held in doubles: a huge upper edge must not
  // overflow an integer, and only bins inside the matrix are visited.
  std::vector<double> edges(static_cast<size_t>(num_mel_bins + 2));
  for (int64_t i = 0; i < num_mel_bins + 2; ++i) {
    const double hz = 700.0 * (std::pow(10.0, (mel_lower + i * step) / 2595.0) - 1.0);
    edges[i] =
        std::floor(static_cast<double>(dft_length + 1) * hz / static_cast<double>(sample_rate));
  }
  const int64_t spectrogram_bins = dft_length / 2 + 1;
  std::vector<double> out(static_cast<size_t>(spectrogram_bins * num_mel_bins), 0.0);
  // Visits the bins j in [first, last] that are rows of the matrix.
  auto for_bins = [&](double first, double last, auto&& fn) {
    const double lo = std::max(first, 0.0);
    const double hi = std::min(last, static_cast<double>(spectrogram_bins - 1));
    for (double j = lo; j <= hi; j += 1.0) fn(static_cast<int64_t>(j), j);
  };
  for (int64_t band = 0; band < num_mel_bins; ++band) {
    const double left = edges[band], center = edges[band + 1], right = edges[band + 2];
    double* column = out.data() + band;
    if (center == left) {
      for_bins(center, center, [&](int64_t j, double) { column[j * num_mel_bins] = 1.0; });
    } else {
      for_bins(left, center, [&](int64_t j, double jd) {
        column[j * num_mel_bins] = (jd - left) / (center - left);
      });
    }
    for_bins(center, right - 1, [&](int64_t j, double jd) {
      column[j * num_mel_bins] = (right - jd) / (right - center);
    });
  }
  ctx.set_output(0, numeric_tensor(ctx, dtype, {spectrogram_bins, num_mel_bins}, out));
}

}  // namespace

void register_signal_mel_weight_matrix(KernelRegistry& registry) {
  registry.add("", "MelWeightMatrix", 17, mel_weight_matrix);
}

}  // namespace onnxscript::eval
