// RoiAlign: pools each region of interest rois[r] = [x1, y1, x2, y2] of image
// X[batch_indices[r]] (4-D [N, C, H, W]) into an output_height x
// output_width grid, Y [num_rois, C, output_height, output_width], without
// quantising coordinates (Mask R-CNN).
//   - The region in feature-map pixels is [x1, x2] * spatial_scale, shifted
//     by -0.5 with coordinate_transformation_mode half_pixel (the opset 16
//     default). With output_half_pixel (opset 16) and always in opset 10 it is
//     not shifted, and its width and height are raised to at least 1.
//   - Each bin holds sampling_ratio x sampling_ratio points (0: adaptive,
//     ceil(region height / output_height) by ceil(region width / output_width)),
//     evenly spaced at the centres of equal sub-cells.
//   - A point is read by bilinear interpolation: outside [-1, H] x [-1, W] it
//     reads 0; otherwise coordinates below 0 become 0 and the upper neighbour
//     is clamped to the last row/column.
//   - avg: the mean over the bin's points. max: the largest, over the bin's
//     points, of the four weighted neighbour terms w_i * v_i of each point
//     (not of the interpolated values). That is what the ONNX reference
//     implementation and ONNX Runtime compute, so models agree across
//     runtimes; it is smaller than a max of interpolated values.
#include <fmt/format.h>

#include "image_util.h"

namespace onnxscript::eval {
namespace {

// The four neighbours of a sample point and their bilinear weights.
struct BilinearTap {
  int64_t offset[4] = {0, 0, 0, 0};
  double weight[4] = {0, 0, 0, 0};
};

BilinearTap bilinear_tap(double y, double x, int64_t height, int64_t width) {
  BilinearTap tap;
  if (!(y >= -1.0 && y <= static_cast<double>(height) && x >= -1.0 &&
        x <= static_cast<double>(width)))
    return tap;  // all weights 0: the point (or a NaN one) reads 0
  y = std::max(y, 0.0);
  x = std::max(x, 0.0);
  int64_t y_low = static_cast<int64_t>(y), x_low = static_cast<int64_t>(x);
  int64_t y_high = y_low + 1, x_high = x_low + 1;
  if (y_low >= height - 1) {
    y_low = y_high = height - 1;
    y = static_cast<double>(y_low);
  }
  if (x_low >= width - 1) {
    x_low = x_high = width - 1;
    x = static_cast<double>(x_low);
  }
  const double ly = y - static_cast<double>(y_low), lx = x - static_cast<double>(x_low);
  const double hy = 1.0 - ly, hx = 1.0 - lx;
  tap.offset[0] = y_low * width + x_low;
  tap.offset[1] = y_low * width + x_high;
  tap.offset[2] = y_high * width + x_low;
  tap.offset[3] = y_high * width + x_high;
  tap.weight[0] = hy * hx;
  tap.weight[1] = hy * lx;
  tap.weight[2] = ly * hx;
  tap.weight[3] = ly * lx;
  return tap;
}

void roi_align(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const Tensor& rois_t = ctx.input_tensor(1);
  const Tensor& batch_t = ctx.input_tensor(2);
  require_type(kFloatTypes{}, x.dtype(), ctx);
  if (x.rank() != 4) ctx.fail(fmt::format("X must be 4-D [N, C, H, W], not rank {}", x.rank()));
  if (rois_t.dtype() != x.dtype()) ctx.fail("rois must have the element type of X");
  if (rois_t.rank() != 2 || rois_t.shape()[1] != 4)
    ctx.fail(fmt::format("rois must be [num_rois, 4], not {}", shape_string(rois_t.shape())));
  const int64_t num_rois = rois_t.shape()[0];
  if (batch_t.dtype() != DataType::kInt64 || batch_t.rank() != 1 || batch_t.numel() != num_rois)
    ctx.fail(fmt::format("batch_indices must be int64 [{}], not {} {}", num_rois,
                         ir::data_type_name(batch_t.dtype()), shape_string(batch_t.shape())));
  const std::string mode = ctx.attr_string("mode", "avg");
  if (mode != "avg" && mode != "max")
    ctx.fail(fmt::format("unknown mode '{}' (expected avg or max)", mode));
  const bool is_max = mode == "max";
  const int64_t out_h = ctx.attr_int("output_height", 1), out_w = ctx.attr_int("output_width", 1);
  if (out_h <= 0 || out_w <= 0)
    ctx.fail(fmt::format("output_height and output_width must be positive, not {} and {}", out_h,
                         out_w));
  const int64_t sampling_ratio = ctx.attr_int("sampling_ratio", 0);
  if (sampling_ratio < 0)
    ctx.fail(fmt::format("sampling_ratio must not be negative, not {}", sampling_ratio));
  const double spatial_scale = ctx.attr_float("spatial_scale", 1.0f);
  bool half_pixel = false;
  if (ctx.version() >= 16) {
    const std::string transform = ctx.attr_string("coordinate_transformation_mode", "half_pixel");
    if (transform != "half_pixel" && transform != "output_half_pixel")
      ctx.fail(fmt::format(
          "unknown coordinate_transformation_mode '{}' (expected half_pixel or output_half_pixel)",
          transform));
    half_pixel = transform == "half_pixel";
  }

  const int64_t n_batch = x.shape()[0], channels = x.shape()[1];
  const int64_t height = x.shape()[2], width = x.shape()[3];
  const std::vector<double> rois = float_values(ctx, rois_t);
  const int64_t* batch = batch_t.data<int64_t>();
  for (int64_t r = 0; r < num_rois; ++r)
    if (batch[r] < 0 || batch[r] >= n_batch)
      ctx.fail(fmt::format("batch_indices[{}] = {} is out of [0, {})", r, batch[r], n_batch));
  std::vector<double> out(static_cast<size_t>(num_rois * channels * out_h * out_w), 0.0);
  if (!out.empty() && (height == 0 || width == 0))
    ctx.fail("X has an empty spatial axis to sample from");
  const std::vector<double> xv = out.empty() ? std::vector<double>{} : float_values(ctx, x);
  const double offset = half_pixel ? 0.5 : 0.0;
  std::vector<BilinearTap> taps;
  for (int64_t r = 0; r < num_rois && !out.empty(); ++r) {
    const double* roi = &rois[r * 4];
    const double start_w = roi[0] * spatial_scale - offset,
                 start_h = roi[1] * spatial_scale - offset;
    double roi_w = roi[2] * spatial_scale - offset - start_w;
    double roi_h = roi[3] * spatial_scale - offset - start_h;
    if (!half_pixel) {
      roi_w = std::max(roi_w, 1.0);
      roi_h = std::max(roi_h, 1.0);
    }
    const double bin_h = roi_h / static_cast<double>(out_h),
                 bin_w = roi_w / static_cast<double>(out_w);
    // Adaptive sampling: ceil of the bin size (an empty, negative or NaN
    // region gets no points and pools to 0).
    auto adaptive = [](double bin) {
      return bin > 0.0 ? static_cast<int64_t>(std::ceil(std::min(bin, 1e6))) : int64_t{0};
    };
    const int64_t grid_h = sampling_ratio > 0 ? sampling_ratio : adaptive(bin_h);
    const int64_t grid_w = sampling_ratio > 0 ? sampling_ratio : adaptive(bin_w);
    const double points = static_cast<double>(grid_h) * static_cast<double>(grid_w);
    if (points > 1e8)
      ctx.fail(fmt::format("{} x {} sampling points per bin are too many", grid_h, grid_w));
    const double count = std::max(points, 1.0);
    for (int64_t ph = 0; ph < out_h; ++ph)
      for (int64_t pw = 0; pw < out_w; ++pw) {
        // The bin's sample points, shared by every channel.
        taps.clear();
        for (int64_t iy = 0; iy < grid_h; ++iy) {
          const double y = start_h + static_cast<double>(ph) * bin_h +
                           (static_cast<double>(iy) + 0.5) * bin_h / static_cast<double>(grid_h);
          for (int64_t ix = 0; ix < grid_w; ++ix) {
            const double xx = start_w + static_cast<double>(pw) * bin_w +
                              (static_cast<double>(ix) + 0.5) * bin_w / static_cast<double>(grid_w);
            taps.push_back(bilinear_tap(y, xx, height, width));
          }
        }
        for (int64_t c = 0; c < channels; ++c) {
          const double* plane = xv.data() + (batch[r] * channels + c) * height * width;
          double result = 0.0;
          for (size_t t = 0; t < taps.size(); ++t) {
            const BilinearTap& tap = taps[t];
            if (is_max) {
              double m = tap.weight[0] * plane[tap.offset[0]];
              for (int k = 1; k < 4; ++k) m = std::max(m, tap.weight[k] * plane[tap.offset[k]]);
              result = t == 0 ? m : std::max(result, m);
            } else {
              for (int k = 0; k < 4; ++k) result += tap.weight[k] * plane[tap.offset[k]];
            }
          }
          if (!is_max) result /= count;
          out[((r * channels + c) * out_h + ph) * out_w + pw] = result;
        }
      }
  }
  ctx.set_output(0, float_tensor(ctx, x.dtype(), {num_rois, channels, out_h, out_w}, out));
}

}  // namespace

void register_image_roi_align(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {10, 16, 22}) registry.add("", "RoiAlign", v, roi_align);
}

}  // namespace onnxscript::eval
