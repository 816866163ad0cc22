// Resize: resamples an N-D tensor along every axis by nearest, N-linear or
// N-cubic interpolation. For output index o on an axis of input length L and
// output length L', the input coordinate x is (coordinate_transformation_mode):
//   half_pixel           (o + 0.5) / scale - 0.5
//   pytorch_half_pixel   the same, but 0 when L' == 1
//   align_corners        o * (L - 1) / (L' - 1), 0 when L' == 1
//   asymmetric           o / scale
//   tf_half_pixel_for_nn (o + 0.5) / scale
//   tf_crop_and_resize   start * (L - 1) + o * (end - start) * (L - 1) / (L' - 1),
//                        or 0.5 * (start + end) * (L - 1) when L' == 1; an x
//                        outside [0, L - 1] gives extrapolation_value.
//   half_pixel_symmetric (19+) half_pixel shifted by L / 2 * (1 - n / L'),
//                        n the output length: the rounding of the output
//                        length is split evenly between both ends.
// With `scales`, the output has floor(L * scale) elements (in float), and
// `scale` and L' in the formulas are the given scale and the unrounded
// L * scale, not the output length: that is the behaviour the ONNX authors
// intend and the backend tests check (onnx/onnx#2462; ONNX Runtime uses the
// rounded length, which differs only when L * scale is fractional). With
// `sizes`, L' = sizes and scale = L' / L. The output length ignores roi
// (floor(L * scale), not the floor(L * (end - start) * scale) of the
// specification's text), as the reference implementation and ONNX Runtime do.
// nearest rounds x by nearest_mode and clamps to [0, L - 1]; linear clamps x
// to [0, L - 1] and blends the two neighbours; cubic blends the four
// neighbours floor(x) - 1 .. floor(x) + 2 with Keys' kernel (cubic_coeff_a),
// reading out-of-range neighbours from the edge, or, with exclude_outside,
// dropping them and renormalising the weights.
// Versions: 10 takes (X, scales) and behaves like Upsample (asymmetric;
// nearest floors when an axis grows and ceils when it shrinks); 11 adds roi,
// sizes and the attributes (scales required, empty when sizes is used); 13
// makes roi and scales optional and adds bfloat16. Integer inputs interpolate
// in double, then round half to even and saturate (the spec leaves this open).
// 18 adds `axes` (roi, scales and sizes name only those axes; the others keep
// their length), `keep_aspect_ratio_policy` (with sizes: not_larger and
// not_smaller resize every named axis by one scale, the smallest or largest
// size / L, to round(scale * L)) and `antialias`: on an axis that shrinks
// (scale < 1), linear and cubic stretch their kernel by 1 / scale, take every
// tap where the stretched kernel is non-zero around x (the taps i of
// floor-from-the-left base b = ceil(x) - 1, weight K(scale * (b + i - x))),
// and divide the weights by their sum. 19 adds half_pixel_symmetric.
// The resampling engine here also serves Upsample (see image_util.h).
#include <algorithm>

#include <fmt/format.h>

#include "image_util.h"

namespace onnxscript::eval {
namespace {

// The input taps of every output index along one axis.
struct AxisPlan {
  std::vector<int64_t> first;    // taps of output o: [first[o], first[o + 1])
  std::vector<int64_t> offset;   // input index times the axis' input stride
  std::vector<double> weight;    // weight of each tap
  std::vector<uint8_t> outside;  // tf_crop_and_resize sampled outside the input
};

double input_coordinate(const ResizeSpec& spec, size_t axis, int64_t o, int64_t in_len) {
  const double scale = spec.scales[axis];
  const double out_len = spec.resized_lengths[axis];
  const double x = static_cast<double>(o);
  switch (spec.transform) {
    case CoordinateTransform::kHalfPixel:
      return (x + 0.5) / scale - 0.5;
    case CoordinateTransform::kPytorchHalfPixel:
      return out_len > 1 ? (x + 0.5) / scale - 0.5 : 0.0;
    case CoordinateTransform::kAlignCorners:
      return out_len > 1 ? x * static_cast<double>(in_len - 1) / (out_len - 1) : 0.0;
    case CoordinateTransform::kAsymmetric:
      return x / scale;
    case CoordinateTransform::kTfHalfPixelForNn:
      return (x + 0.5) / scale;
    case CoordinateTransform::kTfCropAndResize: {
      const double start = spec.roi_start[axis], end = spec.roi_end[axis];
      const double span = static_cast<double>(in_len - 1);
      return out_len > 1 ? start * span + x * (end - start) * span / (out_len - 1)
                         : 0.5 * (start + end) * span;
    }
    case CoordinateTransform::kHalfPixelSymmetric: {
      const double adjustment = static_cast<double>(spec.out_shape[axis]) / out_len;
      const double offset = static_cast<double>(in_len) / 2.0 * (1.0 - adjustment);
      return offset + (x + 0.5) / scale - 0.5;
    }
  }
  return 0.0;
}

int64_t nearest_index(NearestRounding rounding, double x, double scale) {
  switch (rounding) {
    case NearestRounding::kRoundPreferFloor:
      return static_cast<int64_t>(std::ceil(x - 0.5));  // halves go down
    case NearestRounding::kRoundPreferCeil:
      return static_cast<int64_t>(std::floor(x + 0.5));  // halves go up
    case NearestRounding::kFloor:
      return static_cast<int64_t>(std::floor(x));
    case NearestRounding::kCeil:
      return static_cast<int64_t>(std::ceil(x));
    case NearestRounding::kLegacy:
      return static_cast<int64_t>(scale < 1.0 ? std::ceil(x) : std::floor(x));
  }
  return 0;
}

// Keys' cubic convolution kernel at distance s >= 0 with coefficient a.
double cubic_weight(double s, double a) {
  if (s <= 1.0) return ((a + 2.0) * s - (a + 3.0)) * s * s + 1.0;
  if (s < 2.0) return ((a * s - 5.0 * a) * s + 8.0 * a) * s - 4.0 * a;
  return 0.0;
}

// Antialiased linear or cubic on an axis with scale < 1: the kernel stretched
// by 1 / scale, its weights divided by their sum (after exclude_outside drops
// the taps outside the input).
template <typename AddTap>
void add_stretched_taps(const ResizeSpec& spec, double x, double scale, int64_t last,
                        AddTap&& add_tap) {
  const bool linear = spec.mode == ResizeMode::kLinear;
  // Far outside the input every tap reads the edge; keep ceil() finite.
  x = std::clamp(x, -4.0 / scale, static_cast<double>(last) + 4.0 / scale);
  const int64_t base = static_cast<int64_t>(std::ceil(x)) - 1;
  const double ratio = x - static_cast<double>(base);  // in (0, 1]
  const double support = linear ? 1.0 : 2.0;
  const int64_t first = static_cast<int64_t>(std::floor(-support / scale)) + 1;
  std::vector<double> w;
  double total = 0.0;
  for (int64_t i = first; i < 2 - first; ++i) {
    const double s = std::abs(scale * (static_cast<double>(i) - ratio));
    double weight = linear ? std::max(0.0, 1.0 - s) : cubic_weight(s, spec.cubic_coeff_a);
    if (spec.exclude_outside && (base + i < 0 || base + i > last)) weight = 0.0;
    w.push_back(weight);
    total += weight;
  }
  for (int64_t i = first; i < 2 - first; ++i)
    add_tap(std::clamp<int64_t>(base + i, 0, last),
            total != 0.0 ? w[static_cast<size_t>(i - first)] / total : 0.0);
}

AxisPlan plan_axis(const ResizeSpec& spec, size_t axis, int64_t in_len, int64_t out_len,
                   int64_t stride) {
  AxisPlan plan;
  plan.first.reserve(out_len + 1);
  plan.outside.assign(out_len, 0);
  const int64_t last = in_len - 1;
  auto add_tap = [&](int64_t index, double weight) {
    if (weight == 0.0) return;
    plan.offset.push_back(index * stride);
    plan.weight.push_back(weight);
  };
  for (int64_t o = 0; o < out_len; ++o) {
    plan.first.push_back(static_cast<int64_t>(plan.offset.size()));
    double x = input_coordinate(spec, axis, o, in_len);
    if (spec.transform == CoordinateTransform::kTfCropAndResize &&
        (x < 0.0 || x > static_cast<double>(last) || std::isnan(x))) {
      plan.outside[o] = 1;
      continue;
    }
    if (std::isnan(x)) x = 0.0;
    const double scale = spec.scales[axis];
    if (spec.antialias && scale < 1.0 && spec.mode != ResizeMode::kNearest) {
      add_stretched_taps(spec, x, scale, last, add_tap);
      continue;
    }
    switch (spec.mode) {
      case ResizeMode::kNearest: {
        const double clamped = std::clamp(x, -1.0, static_cast<double>(in_len));
        const int64_t i = nearest_index(spec.nearest, clamped, spec.scales[axis]);
        add_tap(std::clamp<int64_t>(i, 0, last), 1.0);
        break;
      }
      case ResizeMode::kLinear: {
        x = std::clamp(x, 0.0, static_cast<double>(last));
        const int64_t i0 = static_cast<int64_t>(std::floor(x));
        const double frac = x - static_cast<double>(i0);
        add_tap(i0, 1.0 - frac);
        add_tap(std::min(i0 + 1, last), frac);
        break;
      }
      case ResizeMode::kCubic: {
        // Far outside the input every tap reads the edge; keep floor() finite.
        x = std::clamp(x, -4.0, static_cast<double>(in_len) + 4.0);
        const int64_t i0 = static_cast<int64_t>(std::floor(x));
        const double t = x - static_cast<double>(i0);
        double w[4], total = 0.0;
        for (int k = 0; k < 4; ++k) {
          const int64_t i = i0 - 1 + k;
          w[k] = cubic_weight(std::abs(t - static_cast<double>(k - 1)), spec.cubic_coeff_a);
          if (spec.exclude_outside && (i < 0 || i > last)) w[k] = 0.0;
          total += w[k];
        }
        for (int k = 0; k < 4; ++k) {
          const double weight = spec.exclude_outside ? (total != 0.0 ? w[k] / total : 0.0) : w[k];
          add_tap(std::clamp<int64_t>(i0 - 1 + k, 0, last), weight);
        }
        break;
      }
    }
    // Every weight cancelled (e.g. exclude_outside with no tap inside): read
    // nothing, which gives 0.
  }
  plan.first.push_back(static_cast<int64_t>(plan.offset.size()));
  return plan;
}

// The complex types interpolate in complex<double>, the others in double.
template <typename T>
struct Accumulator {
  using type = double;
};
template <typename F>
struct Accumulator<std::complex<F>> {
  using type = std::complex<double>;
};

template <typename T>
auto element_value(const T& v) {
  if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>)
    return std::complex<double>(v.real(), v.imag());
  else
    return static_cast<double>(static_cast<compute_t<T>>(v));
}

template <typename T>
T element_from_accumulator(const typename Accumulator<T>::type& v) {
  if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>)
    return T(static_cast<typename T::value_type>(v.real()),
             static_cast<typename T::value_type>(v.imag()));
  else
    return element_from_double<T>(v);
}

template <typename T>
void resample(const Tensor& x, const ResizeSpec& spec, const std::vector<AxisPlan>& plans,
              Tensor& y) {
  const size_t rank = plans.size();
  const T* src = x.data<T>();
  T* dst = y.data<T>();
  const T extrapolated = element_from_double<T>(spec.extrapolation_value);
  std::vector<int64_t> index(rank, 0);
  const int64_t count = y.numel();
  for (int64_t flat = 0; flat < count; ++flat) {
    bool outside = false;
    for (size_t d = 0; d < rank; ++d) outside = outside || plans[d].outside[index[d]];
    if (outside) {
      dst[flat] = extrapolated;
    } else if (spec.mode == ResizeMode::kNearest) {
      int64_t offset = 0;
      for (size_t d = 0; d < rank; ++d) offset += plans[d].offset[plans[d].first[index[d]]];
      dst[flat] = src[offset];
    } else {
      if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>) {
        return;  // rejected by the caller
      } else {
        // Sum over the product of the axes' taps.
        typename Accumulator<T>::type sum{};
        auto walk = [&](auto& self, size_t d, int64_t offset, double weight) -> void {
          if (d == rank) {
            sum += weight * element_value(src[offset]);
            return;
          }
          const AxisPlan& p = plans[d];
          for (int64_t k = p.first[index[d]]; k < p.first[index[d] + 1]; ++k)
            self(self, d + 1, offset + p.offset[k], weight * p.weight[k]);
        };
        walk(walk, 0, 0, 1.0);
        dst[flat] = element_from_accumulator<T>(sum);
      }
    }
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < spec.out_shape[d]) break;
      index[d] = 0;
    }
  }
}

}  // namespace

Tensor resize_tensor(const KernelContext& ctx, const Tensor& x, const ResizeSpec& spec) {
  const size_t rank = static_cast<size_t>(x.rank());
  if (spec.out_shape.size() != rank || spec.scales.size() != rank ||
      spec.resized_lengths.size() != rank)
    ctx.fail(fmt::format("the output shape needs {} entries, one per axis of X", rank));
  if (spec.mode != ResizeMode::kNearest &&
      (x.dtype() == DataType::kBool || x.dtype() == DataType::kString))
    ctx.fail(fmt::format("{} interpolation needs a numeric element type, not {}",
                         spec.mode == ResizeMode::kLinear ? "linear" : "cubic",
                         ir::data_type_name(x.dtype())));
  double total = 1.0;
  for (int64_t n : spec.out_shape) total *= static_cast<double>(n);
  if (total > 0x1p40)
    ctx.fail(fmt::format("the output {} is too large", shape_string(spec.out_shape)));
  Tensor y(x.dtype(), spec.out_shape);
  if (y.numel() == 0) return y;
  const std::vector<int64_t> strides = contiguous_strides(x.shape());
  std::vector<AxisPlan> plans;
  for (size_t d = 0; d < rank; ++d) {
    if (x.shape()[d] == 0)
      ctx.fail(
          fmt::format("axis {} of X is empty and cannot be resized to {}", d, spec.out_shape[d]));
    plans.push_back(plan_axis(spec, d, x.shape()[d], spec.out_shape[d], strides[d]));
  }
  dispatch<kAllTypes>(x.dtype(), ctx, [&]<typename T>() { resample<T>(x, spec, plans, y); });
  return y;
}

namespace {

ResizeMode parse_mode(const KernelContext& ctx, const std::string& mode, bool allow_cubic) {
  if (mode == "nearest") return ResizeMode::kNearest;
  if (mode == "linear") return ResizeMode::kLinear;
  if (mode == "cubic" && allow_cubic) return ResizeMode::kCubic;
  ctx.fail(fmt::format("unknown mode '{}' (expected nearest, linear{})", mode,
                       allow_cubic ? " or cubic" : ""));
}

CoordinateTransform parse_transform(const KernelContext& ctx, const std::string& name) {
  if (name == "half_pixel_symmetric" && ctx.version() >= 19)
    return CoordinateTransform::kHalfPixelSymmetric;
  if (name == "half_pixel") return CoordinateTransform::kHalfPixel;
  if (name == "pytorch_half_pixel") return CoordinateTransform::kPytorchHalfPixel;
  if (name == "align_corners") return CoordinateTransform::kAlignCorners;
  if (name == "asymmetric") return CoordinateTransform::kAsymmetric;
  // Opset 13 dropped it from the documentation; models exported for 11 still
  // carry it, so every version accepts it.
  if (name == "tf_half_pixel_for_nn") return CoordinateTransform::kTfHalfPixelForNn;
  if (name == "tf_crop_and_resize") return CoordinateTransform::kTfCropAndResize;
  ctx.fail(fmt::format("unknown coordinate_transformation_mode '{}'", name));
}

NearestRounding parse_nearest(const KernelContext& ctx, const std::string& name) {
  if (name == "round_prefer_floor") return NearestRounding::kRoundPreferFloor;
  if (name == "round_prefer_ceil") return NearestRounding::kRoundPreferCeil;
  if (name == "floor") return NearestRounding::kFloor;
  if (name == "ceil") return NearestRounding::kCeil;
  ctx.fail(fmt::format("unknown nearest_mode '{}'", name));
}

// scales as floats: one positive finite value per axis of X.
std::vector<float> read_scales(const KernelContext& ctx, const Tensor& t, int64_t rank) {
  if (t.dtype() != DataType::kFloat)
    ctx.fail(fmt::format("scales must be float, not {}", ir::data_type_name(t.dtype())));
  if (t.numel() != rank)
    ctx.fail(fmt::format("scales has {} elements but X has rank {}", t.numel(), rank));
  std::vector<float> scales(t.data<float>(), t.data<float>() + t.numel());
  for (float s : scales)
    if (!(s > 0.0f) || !std::isfinite(s))
      ctx.fail(fmt::format("scales must be positive and finite, got {}", s));
  return scales;
}

// Resize-10: (X, scales) with mode nearest or linear, Upsample's coordinates.
void resize_v10(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  ResizeSpec spec;
  spec.mode = parse_mode(ctx, ctx.attr_string("mode", "nearest"), false);
  spec.transform = CoordinateTransform::kAsymmetric;
  spec.nearest = NearestRounding::kLegacy;
  const std::vector<float> scales = read_scales(ctx, ctx.input_tensor(1), x.rank());
  for (int64_t d = 0; d < x.rank(); ++d) {
    spec.out_shape.push_back(scaled_length(ctx, x.shape()[d], scales[d]));
    spec.scales.push_back(scales[d]);
    spec.resized_lengths.push_back(static_cast<double>(x.shape()[d]) * scales[d]);
  }
  ctx.set_output(0, resize_tensor(ctx, x, spec));
}

void resize(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const int64_t rank = x.rank();
  ResizeSpec spec;
  spec.mode = parse_mode(ctx, ctx.attr_string("mode", "nearest"), true);
  spec.transform =
      parse_transform(ctx, ctx.attr_string("coordinate_transformation_mode", "half_pixel"));
  spec.nearest = parse_nearest(ctx, ctx.attr_string("nearest_mode", "round_prefer_floor"));
  spec.cubic_coeff_a = ctx.attr_float("cubic_coeff_a", -0.75f);
  const int64_t exclude_outside = ctx.attr_int("exclude_outside", 0);
  if (exclude_outside != 0 && exclude_outside != 1)
    ctx.fail(fmt::format("exclude_outside must be 0 or 1, not {}", exclude_outside));
  spec.exclude_outside = exclude_outside == 1;
  spec.extrapolation_value = ctx.attr_float("extrapolation_value", 0.0f);

  // From 18 on, roi, scales and sizes may name a subset of the axes.
  std::vector<int64_t> axes;
  std::string policy = "stretch";
  if (ctx.version() >= 18) {
    const int64_t antialias = ctx.attr_int("antialias", 0);
    if (antialias != 0 && antialias != 1)
      ctx.fail(fmt::format("antialias must be 0 or 1, not {}", antialias));
    spec.antialias = antialias == 1;
    policy = ctx.attr_string("keep_aspect_ratio_policy", "stretch");
    if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller")
      ctx.fail(fmt::format(
          "unknown keep_aspect_ratio_policy '{}' (expected stretch, not_larger or not_smaller)",
          policy));
    if (ctx.attribute("axes") != nullptr) {
      std::vector<uint8_t> seen(static_cast<size_t>(rank), 0);
      for (int64_t a : ctx.attr_ints("axes")) {
        const int64_t axis = normalize_axis(ctx, a, rank);
        if (seen[axis]++) ctx.fail(fmt::format("axis {} is repeated in axes", a));
        axes.push_back(axis);
      }
    }
  }
  if (axes.empty())
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
  const int64_t n_axes = static_cast<int64_t>(axes.size());
  const bool named = ctx.attribute("axes") != nullptr && ctx.version() >= 18;
  const std::string axes_text =
      named ? fmt::format("axes {}", shape_string(axes)) : fmt::format("X of rank {}", rank);

  // Version 11 requires the roi and scales inputs; an empty tensor stands for
  // "not given" there, and from 13 on they may also be omitted.
  if (ctx.version() < 13 && (!ctx.has_input(1) || !ctx.has_input(2)))
    ctx.fail("Resize-11 needs the roi and scales inputs (empty tensors when unused)");
  const Tensor* scales_t =
      ctx.has_input(2) && ctx.input_tensor(2).numel() > 0 ? &ctx.input_tensor(2) : nullptr;
  const Tensor* sizes_t =
      ctx.has_input(3) && ctx.input_tensor(3).numel() > 0 ? &ctx.input_tensor(3) : nullptr;
  if (scales_t && sizes_t) ctx.fail("scales and sizes are both given; give exactly one");
  if (!scales_t && !sizes_t) ctx.fail("neither scales nor sizes is given; give exactly one");

  if (spec.transform == CoordinateTransform::kTfCropAndResize) {
    if (!ctx.has_input(1)) ctx.fail("tf_crop_and_resize needs the roi input");
    const std::vector<double> roi = float_input(ctx, ctx.input_tensor(1), "roi");
    if (static_cast<int64_t>(roi.size()) != 2 * n_axes)
      ctx.fail(
          fmt::format("roi has {} elements but {} needs {}", roi.size(), axes_text, 2 * n_axes));
    spec.roi_start.assign(rank, 0.0);
    spec.roi_end.assign(rank, 1.0);
    for (int64_t i = 0; i < n_axes; ++i) {
      spec.roi_start[axes[i]] = roi[i];
      spec.roi_end[axes[i]] = roi[n_axes + i];
    }
  }

  // Axes not named keep their length (scale 1).
  for (int64_t d = 0; d < rank; ++d) {
    spec.out_shape.push_back(x.shape()[d]);
    spec.scales.push_back(1.0);
    spec.resized_lengths.push_back(static_cast<double>(x.shape()[d]));
  }
  if (scales_t) {
    if (named && scales_t->numel() != n_axes)
      ctx.fail(fmt::format("scales has {} elements but {} needs {}", scales_t->numel(), axes_text,
                           n_axes));
    const std::vector<float> scales = read_scales(ctx, *scales_t, n_axes);
    for (int64_t i = 0; i < n_axes; ++i) {
      const int64_t d = axes[i];
      spec.out_shape[d] = scaled_length(ctx, x.shape()[d], scales[i]);
      spec.scales[d] = scales[i];
      spec.resized_lengths[d] = static_cast<double>(x.shape()[d]) * scales[i];
    }
  } else {
    const std::vector<int64_t> sizes = tensor_to_int64s(ctx, *sizes_t, "sizes");
    if (sizes_t->dtype() != DataType::kInt64) ctx.fail("sizes must be int64");
    if (static_cast<int64_t>(sizes.size()) != n_axes)
      ctx.fail(named ? fmt::format("sizes has {} elements but {} needs {}", sizes.size(), axes_text,
                                   n_axes)
                     : fmt::format("sizes has {} elements but X has rank {}", sizes.size(), rank));
    for (int64_t s : sizes)
      if (s < 0) ctx.fail(fmt::format("sizes must not be negative, got {}", s));
    if (policy != "stretch") {
      // One scale for every named axis: the smallest (not_larger) or largest
      // (not_smaller) size / L; each axis becomes round(scale * L).
      double scale = policy == "not_larger" ? std::numeric_limits<double>::infinity() : 0.0;
      for (int64_t i = 0; i < n_axes; ++i) {
        const int64_t len = x.shape()[axes[i]];
        if (len == 0) ctx.fail(fmt::format("axis {} of X is empty", axes[i]));
        const double r = static_cast<double>(sizes[i]) / static_cast<double>(len);
        scale = policy == "not_larger" ? std::min(scale, r) : std::max(scale, r);
      }
      for (int64_t i = 0; i < n_axes; ++i) {
        const int64_t d = axes[i];
        const double resized = scale * static_cast<double>(x.shape()[d]);
        spec.out_shape[d] = static_cast<int64_t>(std::floor(resized + 0.5));
        spec.scales[d] = scale;
        spec.resized_lengths[d] = resized;
      }
    } else {
      for (int64_t i = 0; i < n_axes; ++i) {
        const int64_t d = axes[i];
        spec.out_shape[d] = sizes[i];
        spec.resized_lengths[d] = static_cast<double>(sizes[i]);
        spec.scales[d] = x.shape()[d] > 0
                             ? static_cast<double>(sizes[i]) / static_cast<double>(x.shape()[d])
                             : 1.0;
      }
    }
  }
  ctx.set_output(0, resize_tensor(ctx, x, spec));
}

}  // namespace

void register_image_resize(KernelRegistry& registry) {
  registry.add("", "Resize", 10, resize_v10);
  for (int64_t v : {11, 13}) registry.add("", "Resize", v, resize);
  registry.add("", "Resize", 18, resize);  // adds antialias, axes, keep_aspect_ratio_policy
  registry.add("", "Resize", 19, resize);  // adds coordinate mode half_pixel_symmetric
}

}  // namespace onnxscript::eval
