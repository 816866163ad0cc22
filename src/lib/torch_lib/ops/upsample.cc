// Upsampling: upsample_nearest1d / 2d / 3d, upsample_linear1d,
// upsample_bilinear2d, upsample_trilinear3d and upsample_bicubic2d, with an
// output size or (the .vec overloads) scale factors, as ONNX's Resize.
// PyTorch's "nearest" takes floor(out_index * in / out): Resize's
// "asymmetric" coordinates with "floor" rounding. Its linear and cubic
// modes use half-pixel coordinates ("pytorch_half_pixel"), or
// "align_corners"; cubic uses a = -0.75, Resize's default.
// The anti-aliased forms (_upsample_bilinear2d_aa, _upsample_bicubic2d_aa)
// are Resize's antialias, which widens the filter by 1 / scale when
// downscaling, with the taps outside the input left out and the weights
// renormalized (exclude_outside) as PyTorch does, and a = -0.5 for cubic;
// not with align_corners (an error).

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"

namespace onnxscript::torch_lib {

namespace detail {

// float[] arguments (scale factors): bind.h converts the other ATen types;
// only this family takes a float list, so its conversion lives here.
template <>
struct Converter<std::vector<double>> {
  static std::vector<double> from(const ArgSite& site, const Arg& arg) {
    if (const auto* d = std::get_if<std::vector<double>>(&arg.storage())) return *d;
    if (const auto* i = std::get_if<std::vector<int64_t>>(&arg.storage()))
      return std::vector<double>(i->begin(), i->end());
    bad_argument(site, arg, "a list of floats");
  }
};

}  // namespace detail

namespace {

// The leading batch and channel sizes followed by `output_size`.
Value full_sizes(const Value& self, const Value& output_size) {
  const Value leading = op::Slice(op::Shape(self), int64s({0}), int64s({2}));
  return op::Concat(std::vector<Value>{leading, op::Cast(output_size, {.to = DataType::kInt64})},
                    {.axis = 0});
}

// The scales of the fixed-arity overloads, as Resize's scales, when PyTorch
// maps coordinates by them: every one given, no align_corners (which maps
// through the sizes), and the output size what Resize makes of them
// (floor(L * scale)) for the static input sizes.
std::optional<std::vector<double>> given_scales(const Value& self, const Value& output_size,
                                                const std::vector<std::optional<double>>& scales,
                                                bool align_corners) {
  if (align_corners || !output_size.is_concrete()) return std::nullopt;
  const std::optional<ir::Shape> shape = self.shape();
  if (!shape) return std::nullopt;
  const Tensor sizes = output_size.tensor();
  if (sizes.dtype() != DataType::kInt64 || sizes.numel() != static_cast<int64_t>(scales.size()))
    return std::nullopt;
  std::vector<double> result;
  for (size_t i = 0; i < scales.size(); ++i) {
    const auto& length = (*shape)[2 + i];
    if (!scales[i] || *scales[i] <= 0 || !length.is_static()) return std::nullopt;
    const double out = std::floor(static_cast<double>(length.value()) * *scales[i]);
    if (out != static_cast<double>(sizes.data<int64_t>()[i])) return std::nullopt;
    result.push_back(*scales[i]);
  }
  return result;
}

Value resize(const Value& self, const std::optional<Value>& output_size,
             const std::optional<std::vector<double>>& scale_factors, const std::string& mode,
             bool align_corners, size_t spatial, std::string_view aten_op, bool antialias = false) {
  if (antialias && align_corners) {
    throw NotImplementedError(fmt::format(
        "{}: align_corners=True is not exported: PyTorch's anti-aliased filter is then centered "
        "at (i + 0.5) (in - 1) / (out - 1), which no coordinate mode of ONNX's Resize gives",
        aten_op));
  }
  const std::string coordinates = mode == "nearest" ? "asymmetric"
                                  : align_corners   ? "align_corners"
                                                    : "pytorch_half_pixel";
  const ops::Resize_18_Attributes attributes{.antialias = antialias ? 1 : 0,
                                             .coordinate_transformation_mode = coordinates,
                                             .cubic_coeff_a = antialias ? -0.5f : -0.75f,
                                             .exclude_outside = antialias ? 1 : 0,
                                             .mode = mode,
                                             .nearest_mode = "floor"};
  if (output_size)
    return op::Resize(self, Value(), Value(), full_sizes(self, *output_size), attributes);
  if (!scale_factors || scale_factors->size() != spatial) {
    throw TypeError(fmt::format("{}: needs an output size or {} scale factors", aten_op, spatial));
  }
  if (align_corners) {
    // align_corners maps through the sizes, (L - 1) / (L' - 1), with
    // PyTorch's output length floor(L * scale); Resize given scales would
    // take the unrounded L * scale for L' (so would the reference), hence
    // sizes computed from the scales.
    const Value lengths = op::Cast(
        op::Slice(op::Shape(self), int64s({2}), int64s({static_cast<int64_t>(2 + spatial)})),
        {.to = DataType::kDouble});
    const Value sizes =
        op::Floor(op::Mul(lengths, Value(Tensor::from_span<double>(*scale_factors))));
    return op::Resize(self, Value(), Value(),
                      full_sizes(self, op::Cast(sizes, {.to = DataType::kInt64})), attributes);
  }
  std::vector<float> scales{1.0f, 1.0f};
  for (double s : *scale_factors) scales.push_back(static_cast<float>(s));
  return op::Resize(self, Value(), Value(Tensor::from_span<float>(scales)), attributes);
}

}  // namespace

// The scales of the spatial dimensions among the (up to three) given.
std::vector<std::optional<double>> first_scales(size_t spatial, std::optional<double> s1,
                                                std::optional<double> s2,
                                                std::optional<double> s3) {
  std::vector<std::optional<double>> all{s1, s2, s3};
  all.resize(std::min<size_t>(spatial, 3));
  return all;
}

Value aten_upsample_nearest(Value self, Value output_size, std::optional<double> scales_1,
                            std::optional<double> scales_2, std::optional<double> scales_3) {
  const size_t spatial = static_cast<size_t>(require_rank(self, "aten::upsample_nearest") - 2);
  const auto scales =
      given_scales(self, output_size, first_scales(spatial, scales_1, scales_2, scales_3), false);
  if (scales) return resize(self, std::nullopt, scales, "nearest", false, spatial, "");
  return resize(self, output_size, std::nullopt, "nearest", false, spatial,
                "aten::upsample_nearest");
}

Value aten_upsample_nearest_vec(Value input, std::optional<Value> output_size,
                                std::optional<std::vector<double>> scale_factors) {
  const int64_t rank = require_rank(input, "aten::upsample_nearest.vec");
  return resize(input, output_size, scale_factors, "nearest", false, static_cast<size_t>(rank - 2),
                "aten::upsample_nearest.vec");
}

Value aten_upsample_linear(Value self, Value output_size, bool align_corners,
                           std::optional<double> scales_1, std::optional<double> scales_2,
                           std::optional<double> scales_3) {
  const size_t spatial = static_cast<size_t>(require_rank(self, "aten::upsample_linear") - 2);
  const auto scales = given_scales(
      self, output_size, first_scales(spatial, scales_1, scales_2, scales_3), align_corners);
  if (scales) return resize(self, std::nullopt, scales, "linear", false, spatial, "");
  return resize(self, output_size, std::nullopt, "linear", align_corners, spatial,
                "aten::upsample_linear");
}

Value aten_upsample_linear_vec(Value input, std::optional<Value> output_size, bool align_corners,
                               std::optional<std::vector<double>> scale_factors) {
  const int64_t rank = require_rank(input, "aten::upsample_linear.vec");
  return resize(input, output_size, scale_factors, "linear", align_corners,
                static_cast<size_t>(rank - 2), "aten::upsample_linear.vec");
}

Value aten_upsample_bicubic2d(Value self, Value output_size, bool align_corners,
                              std::optional<double> scales_h, std::optional<double> scales_w) {
  const auto scales = given_scales(self, output_size, {scales_h, scales_w}, align_corners);
  if (scales) return resize(self, std::nullopt, scales, "cubic", false, 2, "");
  return resize(self, output_size, std::nullopt, "cubic", align_corners, 2,
                "aten::upsample_bicubic2d");
}

Value aten_upsample_bicubic2d_vec(Value input, std::optional<Value> output_size, bool align_corners,
                                  std::optional<std::vector<double>> scale_factors) {
  return resize(input, output_size, scale_factors, "cubic", align_corners, 2,
                "aten::upsample_bicubic2d.vec");
}

Value aten_upsample_bilinear2d_aa(Value self, Value output_size, bool align_corners,
                                  std::optional<double> scales_h, std::optional<double> scales_w) {
  const auto scales = given_scales(self, output_size, {scales_h, scales_w}, align_corners);
  if (scales) return resize(self, std::nullopt, scales, "linear", false, 2, "", true);
  return resize(self, output_size, std::nullopt, "linear", align_corners, 2,
                "aten::_upsample_bilinear2d_aa", true);
}

Value aten_upsample_bilinear2d_aa_vec(Value input, std::optional<Value> output_size,
                                      bool align_corners,
                                      std::optional<std::vector<double>> scale_factors) {
  return resize(input, output_size, scale_factors, "linear", align_corners, 2,
                "aten::_upsample_bilinear2d_aa.vec", true);
}

Value aten_upsample_bicubic2d_aa(Value self, Value output_size, bool align_corners,
                                 std::optional<double> scales_h, std::optional<double> scales_w) {
  const auto scales = given_scales(self, output_size, {scales_h, scales_w}, align_corners);
  if (scales) return resize(self, std::nullopt, scales, "cubic", false, 2, "", true);
  return resize(self, output_size, std::nullopt, "cubic", align_corners, 2,
                "aten::_upsample_bicubic2d_aa", true);
}

Value aten_upsample_bicubic2d_aa_vec(Value input, std::optional<Value> output_size,
                                     bool align_corners,
                                     std::optional<std::vector<double>> scale_factors) {
  return resize(input, output_size, scale_factors, "cubic", align_corners, 2,
                "aten::_upsample_bicubic2d_aa.vec", true);
}

// The fixed-arity overloads: the unused scales trail as None.
Value aten_upsample_nearest1d(Value self, Value output_size, std::optional<double> scales) {
  return aten_upsample_nearest(self, output_size, scales, std::nullopt, std::nullopt);
}
Value aten_upsample_nearest2d(Value self, Value output_size, std::optional<double> scales_h,
                              std::optional<double> scales_w) {
  return aten_upsample_nearest(self, output_size, scales_h, scales_w, std::nullopt);
}
Value aten_upsample_linear1d(Value self, Value output_size, bool align_corners,
                             std::optional<double> scales) {
  return aten_upsample_linear(self, output_size, align_corners, scales, std::nullopt, std::nullopt);
}
Value aten_upsample_bilinear2d(Value self, Value output_size, bool align_corners,
                               std::optional<double> scales_h, std::optional<double> scales_w) {
  return aten_upsample_linear(self, output_size, align_corners, scales_h, scales_w, std::nullopt);
}

void register_upsample(Registry& r) {
  using detail::overload;
  r.add(overload<aten_upsample_nearest1d>(
      "aten::upsample_nearest1d(Tensor self, SymInt[1] output_size, float? scales=None) -> "
      "Tensor"));
  r.add(overload<aten_upsample_nearest2d>(
      "aten::upsample_nearest2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? "
      "scales_w=None) -> Tensor"));
  r.add(overload<aten_upsample_nearest>(
      "aten::upsample_nearest3d(Tensor self, SymInt[3] output_size, float? scales_d=None, float? "
      "scales_h=None, float? scales_w=None) -> Tensor"));
  for (const char* name : {"upsample_nearest1d", "upsample_nearest2d", "upsample_nearest3d"}) {
    r.add(overload<aten_upsample_nearest_vec>(
        fmt::format("aten::{}.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> "
                    "Tensor",
                    name)));
  }
  r.add(overload<aten_upsample_linear1d>(
      "aten::upsample_linear1d(Tensor self, SymInt[1] output_size, bool align_corners, float? "
      "scales=None) -> Tensor"));
  r.add(overload<aten_upsample_bilinear2d>(
      "aten::upsample_bilinear2d(Tensor self, SymInt[2] output_size, bool align_corners, float? "
      "scales_h=None, float? scales_w=None) -> Tensor"));
  r.add(overload<aten_upsample_linear>(
      "aten::upsample_trilinear3d(Tensor self, SymInt[3] output_size, bool align_corners, float? "
      "scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor"));
  for (const char* name : {"upsample_linear1d", "upsample_bilinear2d", "upsample_trilinear3d"}) {
    r.add(overload<aten_upsample_linear_vec>(
        fmt::format("aten::{}.vec(Tensor input, SymInt[]? output_size, bool align_corners, "
                    "float[]? scale_factors) -> Tensor",
                    name)));
  }
  r.add(overload<aten_upsample_bicubic2d>(
      "aten::upsample_bicubic2d(Tensor self, SymInt[2] output_size, bool align_corners, float? "
      "scales_h=None, float? scales_w=None) -> Tensor"));
  r.add(overload<aten_upsample_bicubic2d_vec>(
      "aten::upsample_bicubic2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, "
      "float[]? scale_factors) -> Tensor"));
  r.add(overload<aten_upsample_bilinear2d_aa>(
      "aten::_upsample_bilinear2d_aa(Tensor self, SymInt[2] output_size, bool align_corners, "
      "float? scales_h=None, float? scales_w=None) -> Tensor"));
  r.add(overload<aten_upsample_bilinear2d_aa_vec>(
      "aten::_upsample_bilinear2d_aa.vec(Tensor input, SymInt[]? output_size, bool "
      "align_corners, float[]? scale_factors) -> Tensor"));
  r.add(overload<aten_upsample_bicubic2d_aa>(
      "aten::_upsample_bicubic2d_aa(Tensor self, SymInt[2] output_size, bool align_corners, "
      "float? scales_h=None, float? scales_w=None) -> Tensor"));
  r.add(overload<aten_upsample_bicubic2d_aa_vec>(
      "aten::_upsample_bicubic2d_aa.vec(Tensor input, SymInt[]? output_size, bool "
      "align_corners, float[]? scale_factors) -> Tensor"));
}

}  // namespace onnxscript::torch_lib
