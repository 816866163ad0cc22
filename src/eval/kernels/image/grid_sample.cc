// GridSample (16): Y[n, c, h, w] samples X[n, c] (4-D, [N, C, H, W]) at the
// point grid[n, h, w] = (x, y), normalised so that -1 and 1 are the input's
// extremes (torch.nn.functional.grid_sample). The pixel coordinate along an
// axis of length L is
//   align_corners=1: (g + 1) / 2 * (L - 1)   (extremes at the corner pixels' centres)
//   align_corners=0: ((g + 1) * L - 1) / 2   (extremes at their outer edges)
// Modes: bilinear blends the 2x2 neighbours, nearest rounds half to even,
// bicubic blends the 4x4 neighbours with Keys' kernel, a = -0.75.
// padding_mode says what lies outside: zeros reads 0; border clamps the
// coordinate to [0, L - 1]; reflection mirrors it about the extremes (the
// pixel centres with align_corners=1, the edges with 0) until it falls
// inside, then clamps. bilinear and nearest pad the sampling coordinate;
// bicubic pads each of its 16 neighbour indices instead.
// The schema lets X and grid take any type, but Y must be float16, float or
// double and has X's type, so X must be one of those; grid may be any float type.
#include <fmt/format.h>

#include "image_util.h"

namespace onnxscript::eval {
namespace {

enum class Padding { kZeros, kBorder, kReflection };
enum class Interpolation { kBilinear, kNearest, kBicubic };

struct Sampler {
  int64_t height = 0, width = 0;
  Padding padding = Padding::kZeros;
  bool align_corners = false;

  double unnormalize(double g, int64_t length) const {
    return align_corners ? (g + 1.0) / 2.0 * static_cast<double>(length - 1)
                         : ((g + 1.0) * static_cast<double>(length) - 1.0) / 2.0;
  }

  // Mirrors x into [low, high] (bounces off both ends as often as needed).
  static double reflect(double x, double low, double high) {
    if (low == high) return low;
    const double span = high - low;
    double d = std::abs(x - low);
    const double extra = std::fmod(d, span);
    const int64_t flips = static_cast<int64_t>(std::floor(d / span));
    return flips % 2 == 0 ? low + extra : high - extra;
  }

  // Applies the padding mode to a pixel coordinate (not for zeros).
  double pad(double x, int64_t length) const {
    const double last = static_cast<double>(length - 1);
    if (padding == Padding::kBorder) return std::clamp(x, 0.0, last);
    if (padding == Padding::kReflection) {
      x = align_corners ? reflect(x, 0.0, last) : reflect(x, -0.5, last + 0.5);
      return std::clamp(x, 0.0, last);
    }
    return x;
  }
};

template <typename T>
void grid_sample_typed(const Tensor& x, const std::vector<double>& grid, Interpolation mode,
                       const Sampler& s, Tensor& y) {
  const int64_t n_batch = x.shape()[0], channels = x.shape()[1];
  const int64_t out_h = y.shape()[2], out_w = y.shape()[3];
  const int64_t plane = s.height * s.width, out_plane = out_h * out_w;
  const T* src = x.data<T>();
  T* dst = y.data<T>();
  // The pixel at integer (row, col) of one channel plane, or 0 outside.
  auto pixel = [&](const T* p, int64_t row, int64_t col) -> double {
    if (row < 0 || row >= s.height || col < 0 || col >= s.width) return 0.0;
    return static_cast<double>(static_cast<compute_t<T>>(p[row * s.width + col]));
  };
  for (int64_t n = 0; n < n_batch; ++n)
    for (int64_t o = 0; o < out_plane; ++o) {
      const double gx = grid[(n * out_plane + o) * 2], gy = grid[(n * out_plane + o) * 2 + 1];
      // Coordinates far outside all read padding; bounding them keeps the
      // integer conversions below defined (infinities included).
      const double px = std::clamp(s.unnormalize(gx, s.width), -1e12, 1e12);
      const double py = std::clamp(s.unnormalize(gy, s.height), -1e12, 1e12);
      for (int64_t c = 0; c < channels; ++c) {
        const T* p = src + (n * channels + c) * plane;
        double value = 0.0;
        if (std::isnan(px) || std::isnan(py)) {
          value = 0.0;
        } else if (mode == Interpolation::kBicubic) {
          const int64_t x0 = static_cast<int64_t>(std::floor(px)),
                        y0 = static_cast<int64_t>(std::floor(py));
          const double tx = px - static_cast<double>(x0), ty = py - static_cast<double>(y0);
          for (int j = 0; j < 4; ++j) {
            const double wy = [&] {
              const double d = std::abs(ty - static_cast<double>(j - 1));
              return d <= 1.0 ? ((1.25 * d) - 2.25) * d * d + 1.0
                              : ((-0.75 * d + 3.75) * d - 6.0) * d + 3.0;
            }();
            for (int i = 0; i < 4; ++i) {
              const double d = std::abs(tx - static_cast<double>(i - 1));
              const double wx = d <= 1.0 ? ((1.25 * d) - 2.25) * d * d + 1.0
                                         : ((-0.75 * d + 3.75) * d - 6.0) * d + 3.0;
              double cx = static_cast<double>(x0 - 1 + i), cy = static_cast<double>(y0 - 1 + j);
              if (s.padding != Padding::kZeros) {
                cx = s.pad(cx, s.width);
                cy = s.pad(cy, s.height);
              }
              value += wx * wy * pixel(p, static_cast<int64_t>(cy), static_cast<int64_t>(cx));
            }
          }
        } else {
          const double qx = s.pad(px, s.width), qy = s.pad(py, s.height);
          if (mode == Interpolation::kNearest) {
            value = pixel(p, static_cast<int64_t>(std::nearbyint(qy)),
                          static_cast<int64_t>(std::nearbyint(qx)));
          } else {
            const double fx = std::floor(qx), fy = std::floor(qy);
            const int64_t x0 = static_cast<int64_t>(fx), y0 = static_cast<int64_t>(fy);
            const double lx = qx - fx, ly = qy - fy;
            value = (1 - ly) * ((1 - lx) * pixel(p, y0, x0) + lx * pixel(p, y0, x0 + 1)) +
                    ly * ((1 - lx) * pixel(p, y0 + 1, x0) + lx * pixel(p, y0 + 1, x0 + 1));
          }
        }
        dst[(n * channels + c) * out_plane + o] = static_cast<T>(static_cast<compute_t<T>>(value));
      }
    }
}

void grid_sample(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const Tensor& grid_t = ctx.input_tensor(1);
  if (x.dtype() != DataType::kFloat && x.dtype() != DataType::kDouble &&
      x.dtype() != DataType::kFloat16)
    ctx.fail(fmt::format("X must be float16, float or double (the type of Y), not {}",
                         ir::data_type_name(x.dtype())));
  if (x.rank() != 4) ctx.fail(fmt::format("X must be 4-D [N, C, H, W], not rank {}", x.rank()));
  if (grid_t.rank() != 4 || grid_t.shape()[3] != 2 || grid_t.shape()[0] != x.shape()[0])
    ctx.fail(fmt::format("grid must be [N, H_out, W_out, 2] with N = {}, not {}", x.shape()[0],
                         shape_string(grid_t.shape())));
  const std::string mode_name = ctx.attr_string("mode", "bilinear");
  Interpolation mode;
  if (mode_name == "bilinear")
    mode = Interpolation::kBilinear;
  else if (mode_name == "nearest")
    mode = Interpolation::kNearest;
  else if (mode_name == "bicubic")
    mode = Interpolation::kBicubic;
  else
    ctx.fail(fmt::format("unknown mode '{}' (expected bilinear, nearest or bicubic)", mode_name));
  Sampler s;
  const std::string padding = ctx.attr_string("padding_mode", "zeros");
  if (padding == "zeros")
    s.padding = Padding::kZeros;
  else if (padding == "border")
    s.padding = Padding::kBorder;
  else if (padding == "reflection")
    s.padding = Padding::kReflection;
  else
    ctx.fail(
        fmt::format("unknown padding_mode '{}' (expected zeros, border or reflection)", padding));
  const int64_t align = ctx.attr_int("align_corners", 0);
  if (align != 0 && align != 1)
    ctx.fail(fmt::format("align_corners must be 0 or 1, not {}", align));
  s.align_corners = align == 1;
  s.height = x.shape()[2];
  s.width = x.shape()[3];
  Tensor y(x.dtype(), {x.shape()[0], x.shape()[1], grid_t.shape()[1], grid_t.shape()[2]});
  if (y.numel() == 0) return ctx.set_output(0, y);
  if (s.height == 0 || s.width == 0) ctx.fail("X has an empty spatial axis to sample from");
  const std::vector<double> grid = float_input(ctx, grid_t, "grid");
  dispatch<kFloatTypes>(x.dtype(), ctx,
                        [&]<typename T>() { grid_sample_typed<T>(x, grid, mode, s, y); });
  ctx.set_output(0, y);
}

}  // namespace

void register_image_grid_sample(KernelRegistry& registry) {
  registry.add("", "GridSample", 16, grid_sample);
}

}  // namespace onnxscript::eval
