#pragma once
// Shared by the image kernels: the N-dimensional resampling engine behind
// Resize and Upsample (defined in resize.cc), element conversion from the
// double arithmetic those kernels use, and reading small float inputs.
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "eval/kernels/nn/nn_util.h"
#include "eval/util/shape_util.h"

namespace onnxscript::eval {

/// How output samples are computed from the input.
enum class ResizeMode { kNearest, kLinear, kCubic };

/// How an output coordinate maps to an input coordinate (Resize's
/// coordinate_transformation_mode; Upsample and Resize-10 use kAsymmetric).
enum class CoordinateTransform {
  kHalfPixel,
  kPytorchHalfPixel,
  kAlignCorners,
  kAsymmetric,
  kTfHalfPixelForNn,
  kTfCropAndResize,
  kHalfPixelSymmetric,
};

/// How nearest mode turns an input coordinate into an index. kLegacy is the
/// rule of Upsample and Resize-10, which have no nearest_mode: floor when the
/// axis grows (scale >= 1), ceil when it shrinks.
enum class NearestRounding { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil, kLegacy };

/// Everything the resampling engine needs besides the input.
struct ResizeSpec {
  ResizeMode mode = ResizeMode::kNearest;
  CoordinateTransform transform = CoordinateTransform::kHalfPixel;
  NearestRounding nearest = NearestRounding::kRoundPreferFloor;
  double cubic_coeff_a = -0.75;
  bool exclude_outside = false;
  /// Resize-18+: linear and cubic stretch their kernel by 1 / scale on the
  /// axes that shrink (scale < 1), so every input sample contributes.
  bool antialias = false;
  /// Output value where tf_crop_and_resize samples outside the input.
  double extrapolation_value = 0.0;
  std::vector<int64_t> out_shape;
  /// Per axis: the scale the coordinate transforms divide by (the given
  /// scale, or output length / input length when sizes were given).
  std::vector<double> scales;
  /// Per axis: the "length_resized" of the coordinate transforms: the
  /// unrounded input length * scale, or the size when sizes were given.
  std::vector<double> resized_lengths;
  /// Per axis, tf_crop_and_resize only: the normalised crop [start, end].
  std::vector<double> roi_start, roi_end;
};

/// Resamples `x` (any element type for nearest; numeric and complex types
/// for linear and cubic) to `spec.out_shape`. Integer results are rounded to
/// nearest even and saturated to the type's range.
Tensor resize_tensor(const KernelContext& ctx, const Tensor& x, const ResizeSpec& spec);

/// floor(length * scale), computed in float as the scales are floats (so
/// 10 * 0.7f gives 7, which is what a model's author means). Fails the
/// kernel when the result is beyond any tensor that could be allocated.
inline int64_t scaled_length(const KernelContext& ctx, int64_t length, float scale) {
  const float out = std::floor(static_cast<float>(length) * scale);
  if (!(out < 0x1p40f))
    ctx.fail(fmt::format("scale {} makes an output axis of {} elements, too large", scale, out));
  return static_cast<int64_t>(out);
}

/// `v` as element type T: integers round half to even and saturate (NaN
/// gives 0), bool is v != 0, complex gets a zero imaginary part, and strings
/// (which only nearest mode moves) are empty.
template <typename T>
T element_from_double(double v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v != 0.0;
  } else if constexpr (std::is_same_v<T, std::string>) {
    return std::string();
  } else if constexpr (std::is_same_v<T, std::complex<float>> ||
                       std::is_same_v<T, std::complex<double>>) {
    return T(static_cast<typename T::value_type>(v), 0);
  } else if constexpr (std::is_integral_v<T>) {
    if (std::isnan(v)) return T{0};
    const double r = std::nearbyint(v);
    if (r <= static_cast<double>(std::numeric_limits<T>::min()))
      return std::numeric_limits<T>::min();
    // 2^63 and 2^64 are exact doubles; anything at or past them saturates.
    if (r >= static_cast<double>(std::numeric_limits<T>::max()))
      return std::numeric_limits<T>::max();
    return static_cast<T>(r);
  } else {
    return static_cast<T>(static_cast<compute_t<T>>(v));
  }
}

/// The elements of a small float-typed input (float16, float, double, or
/// bfloat16) as doubles, naming the input in the error.
inline std::vector<double> float_input(const KernelContext& ctx, const Tensor& t,
                                       const char* what) {
  if (t.dtype() != DataType::kFloat && t.dtype() != DataType::kDouble &&
      t.dtype() != DataType::kFloat16 && t.dtype() != DataType::kBfloat16)
    ctx.fail(std::string(what) + " must be a float tensor, not " +
             std::string(ir::data_type_name(t.dtype())));
  return float_values(ctx, t);
}

}  // namespace onnxscript::eval
