// MaxRoiPool (1): max pooling over regions of interest (Fast R-CNN's RoI
// pooling). rois[r] = [batch_id, x1, y1, x2, y2] in input-image coordinates;
// Y [num_rois, C, pooled_h, pooled_w].
//   - The region snaps to feature-map pixels: x_start = round(x1 *
//     spatial_scale), x_end = round(x2 * spatial_scale) (round half away from
//     zero), likewise y; it spans width = max(x_end - x_start + 1, 1) pixels
//     (both ends included), likewise height.
//   - Bin (ph, pw) covers rows [floor(ph * height / pooled_h), ceil((ph + 1) *
//     height / pooled_h)) offset by y_start and clipped to [0, H], likewise
//     columns; Y is the maximum over the bin, or 0 when the bin is empty.
// The bins of neighbouring outputs may overlap. These are Caffe's RoI pooling
// rules, which ONNX Runtime follows; the ONNX specification gives no formula.
#include <fmt/format.h>

#include "image_util.h"

namespace onnxscript::eval {
namespace {

void max_roi_pool(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const Tensor& rois_t = ctx.input_tensor(1);
  require_type(kFloatTypes{}, x.dtype(), ctx);
  if (x.rank() != 4) ctx.fail(fmt::format("X must be 4-D [N, C, H, W], not rank {}", x.rank()));
  if (rois_t.dtype() != x.dtype()) ctx.fail("rois must have the element type of X");
  if (rois_t.rank() != 2 || rois_t.shape()[1] != 5)
    ctx.fail(fmt::format("rois must be [num_rois, 5], not {}", shape_string(rois_t.shape())));
  const std::vector<int64_t> pooled = ctx.required_attribute("pooled_shape").as_ints();
  if (pooled.size() != 2 || pooled[0] <= 0 || pooled[1] <= 0)
    ctx.fail(
        fmt::format("pooled_shape must be two positive integers, not {}", shape_string(pooled)));
  const double spatial_scale = ctx.attr_float("spatial_scale", 1.0f);
  const int64_t n_batch = x.shape()[0], channels = x.shape()[1];
  const int64_t height = x.shape()[2], width = x.shape()[3];
  const int64_t pooled_h = pooled[0], pooled_w = pooled[1];
  const int64_t num_rois = rois_t.shape()[0];
  const std::vector<double> rois = float_values(ctx, rois_t);
  const std::vector<double> xv = float_values(ctx, x);
  std::vector<double> out(static_cast<size_t>(num_rois * channels * pooled_h * pooled_w), 0.0);
  // A snapped coordinate, bounded so that the integer arithmetic stays defined.
  auto snap = [&](double v) {
    const double r = std::round(std::clamp(v * spatial_scale, -1e15, 1e15));
    return std::isnan(r) ? int64_t{0} : static_cast<int64_t>(r);
  };
  for (int64_t r = 0; r < num_rois; ++r) {
    const double* roi = &rois[r * 5];
    if (!(roi[0] >= 0.0 && roi[0] < static_cast<double>(n_batch)))
      ctx.fail(fmt::format("rois[{}] has batch_id {}, out of [0, {})", r, roi[0], n_batch));
    const int64_t b = static_cast<int64_t>(roi[0]);
    const int64_t x_start = snap(roi[1]), y_start = snap(roi[2]);
    const int64_t x_end = snap(roi[3]), y_end = snap(roi[4]);
    const int64_t roi_w = std::max<int64_t>(x_end - x_start + 1, 1);
    const int64_t roi_h = std::max<int64_t>(y_end - y_start + 1, 1);
    const double bin_h = static_cast<double>(roi_h) / static_cast<double>(pooled_h);
    const double bin_w = static_cast<double>(roi_w) / static_cast<double>(pooled_w);
    for (int64_t ph = 0; ph < pooled_h; ++ph)
      for (int64_t pw = 0; pw < pooled_w; ++pw) {
        auto bound = [](double v, int64_t origin, int64_t limit) {
          return std::clamp<int64_t>(static_cast<int64_t>(v) + origin, 0, limit);
        };
        const int64_t h0 = bound(std::floor(static_cast<double>(ph) * bin_h), y_start, height);
        const int64_t h1 = bound(std::ceil(static_cast<double>(ph + 1) * bin_h), y_start, height);
        const int64_t w0 = bound(std::floor(static_cast<double>(pw) * bin_w), x_start, width);
        const int64_t w1 = bound(std::ceil(static_cast<double>(pw + 1) * bin_w), x_start, width);
        for (int64_t c = 0; c < channels; ++c) {
          const double* plane = xv.data() + (b * channels + c) * height * width;
          double m = 0.0;
          if (h1 > h0 && w1 > w0) {
            m = -std::numeric_limits<double>::infinity();
            for (int64_t h = h0; h < h1; ++h)
              for (int64_t w = w0; w < w1; ++w) m = std::max(m, plane[h * width + w]);
          }
          out[((r * channels + c) * pooled_h + ph) * pooled_w + pw] = m;
        }
      }
  }
  ctx.set_output(0, float_tensor(ctx, x.dtype(), {num_rois, channels, pooled_h, pooled_w}, out));
}

}  // namespace

void register_image_max_roi_pool(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 22}) registry.add("", "MaxRoiPool", v, max_roi_pool);
}

}  // namespace onnxscript::eval
