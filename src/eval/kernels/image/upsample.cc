// Upsample: enlarges a tensor by a scale per axis, output length
// floor(L * scale). Output index o reads input coordinate o / scale
// (Resize's "asymmetric" transform): nearest takes floor of it, linear blends
// the two neighbours with the coordinate clamped to [0, L - 1] (N-linear over
// every scaled axis). Scales must be >= 1.
// Versions: 1 is 4-D only with height_scale/width_scale attributes and modes
// nearest/bilinear; 7 takes a `scales` attribute for every axis and modes
// nearest/linear; 9 moves scales to an input. 10 deprecates the operator in
// favour of Resize; it is registered anyway, with 9's semantics, so that old
// models importing opset 10 still load. Shares Resize's engine (resize.cc).
#include <fmt/format.h>

#include "image_util.h"

namespace onnxscript::eval {
namespace {

void upsample(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const std::string mode_name = ctx.attr_string("mode", "nearest");
  ResizeSpec spec;
  spec.transform = CoordinateTransform::kAsymmetric;
  spec.nearest = NearestRounding::kLegacy;
  if (mode_name == "nearest")
    spec.mode = ResizeMode::kNearest;
  else if (mode_name == (ctx.version() < 7 ? "bilinear" : "linear"))
    spec.mode = ResizeMode::kLinear;
  else
    ctx.fail(fmt::format("unknown mode '{}' (expected nearest or {})", mode_name,
                         ctx.version() < 7 ? "bilinear" : "linear"));

  std::vector<float> scales;
  if (ctx.version() < 7) {
    if (x.rank() != 4) ctx.fail(fmt::format("X must be 4-D [N, C, H, W], not rank {}", x.rank()));
    scales = {1.0f, 1.0f, ctx.required_attribute("height_scale").as_float(),
              ctx.required_attribute("width_scale").as_float()};
  } else if (ctx.version() < 9) {
    scales = ctx.required_attribute("scales").as_floats();
  } else {
    const Tensor& s = ctx.input_tensor(1);
    if (s.dtype() != DataType::kFloat)
      ctx.fail(fmt::format("scales must be float, not {}", ir::data_type_name(s.dtype())));
    scales.assign(s.data<float>(), s.data<float>() + s.numel());
  }
  if (static_cast<int64_t>(scales.size()) != x.rank())
    ctx.fail(fmt::format("scales has {} elements but X has rank {}", scales.size(), x.rank()));
  for (float s : scales)
    if (!(s >= 1.0f) || !std::isfinite(s))
      ctx.fail(fmt::format("scales must be finite and >= 1, got {}", s));
  for (int64_t d = 0; d < x.rank(); ++d) {
    spec.out_shape.push_back(scaled_length(ctx, x.shape()[d], scales[d]));
    spec.scales.push_back(scales[d]);
    spec.resized_lengths.push_back(static_cast<double>(x.shape()[d]) * scales[d]);
  }
  ctx.set_output(0, resize_tensor(ctx, x, spec));
}

}  // namespace

void register_image_upsample(KernelRegistry& registry) {
  for (int64_t v : {1, 7, 9, 10}) registry.add("", "Upsample", v, upsample);
}

}  // namespace onnxscript::eval
