// GridSample (16): Y[n, c, h, w] samples X[n, c] (4-D, [N, C, H, W]) at the
// point grid[n, h, w] = (x, y), normalised so that -1 and 1 are the input's
// extremes (torch.nn.functional.grid_sample). 20 renames the modes linear and
// cubic and samples any number r of spatial axes: X is [N, C, D1, ..., Dr],
// grid [N, D1_out, ..., Dr_out, r] with (x, y, z, ...) naming Dr, ..., D1;
// linear and cubic blend 2^r and 4^r neighbours. 22 adds bfloat16. The pixel coordinate along an
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

// Keys' cubic kernel with a = -0.75 at distance d >= 0 (d < 2 for the taps).
double cubic_tap(double d) {
  return d <= 1.0 ? ((1.25 * d) - 2.25) * d * d + 1.0 : ((-0.75 * d + 3.75) * d - 6.0) * d + 3.0;
}

// The taps of one sampling point along one spatial axis of length `length`
// at pixel coordinate p: (index, weight) pairs, index -1 reading 0.
void axis_taps(const Sampler& s, Interpolation mode, double p, int64_t length,
               std::vector<std::pair<int64_t, double>>& taps) {
  taps.clear();
  auto inside = [&](double i) {
    return i >= 0.0 && i < static_cast<double>(length) ? static_cast<int64_t>(i) : int64_t{-1};
  };
  if (mode == Interpolation::kBicubic) {
    const double f = std::floor(p), t = p - f;
    for (int k = 0; k < 4; ++k) {
      double c = f - 1.0 + k;
      if (s.padding != Padding::kZeros) c = s.pad(c, length);
      taps.emplace_back(inside(c), cubic_tap(std::abs(t - static_cast<double>(k - 1))));
    }
    return;
  }
  const double q = s.pad(p, length);
  if (mode == Interpolation::kNearest) {
    taps.emplace_back(inside(std::nearbyint(q)), 1.0);
    return;
  }
  const double f = std::floor(q), t = q - f;
  taps.emplace_back(inside(f), 1.0 - t);
  taps.emplace_back(inside(f + 1.0), t);
}

template <typename T>
void grid_sample_typed(const Tensor& x, const std::vector<double>& grid, Interpolation mode,
                       const Sampler& s, Tensor& y) {
  const int64_t r = x.rank() - 2;
  const int64_t n_batch = x.shape()[0], channels = x.shape()[1];
  const std::vector<int64_t> dims(x.shape().begin() + 2, x.shape().end());
  const std::vector<int64_t> strides = contiguous_strides(dims);
  const int64_t plane = shape_product(x.shape(), 2, x.rank());
  const int64_t out_plane = shape_product(y.shape(), 2, y.rank());
  const T* src = x.data<T>();
  T* dst = y.data<T>();
  std::vector<std::vector<std::pair<int64_t, double>>> taps(r);
  std::vector<size_t> pick(r);
  for (int64_t n = 0; n < n_batch; ++n)
    for (int64_t o = 0; o < out_plane; ++o) {
      // grid holds (x, y, z, ...): component k is spatial axis r - 1 - k.
      const double* g = &grid[(n * out_plane + o) * r];
      bool nan = false;
      for (int64_t k = 0; k < r; ++k) {
        const int64_t axis = r - 1 - k;
        // Coordinates far outside all read padding; bounding them keeps the
        // integer conversions defined (infinities included).
        const double p = std::clamp(s.unnormalize(g[k], dims[axis]), -1e12, 1e12);
        nan = nan || std::isnan(p);
        if (!nan) axis_taps(s, mode, p, dims[axis], taps[axis]);
      }
      for (int64_t c = 0; c < channels; ++c) {
        const T* p = src + (n * channels + c) * plane;
        double value = 0.0;
        if (!nan) {
          // Sum over the product of the axes' taps.
          std::fill(pick.begin(), pick.end(), size_t{0});
          while (true) {
            double w = 1.0;
            int64_t offset = 0;
            bool outside = false;
            for (int64_t a = 0; a < r; ++a) {
              const auto& [index, weight] = taps[a][pick[a]];
              w *= weight;
              outside = outside || index < 0;
              offset += index * strides[a];
            }
            if (!outside && w != 0.0)
              value += w * static_cast<double>(static_cast<compute_t<T>>(p[offset]));
            int64_t a = r - 1;
            for (; a >= 0; --a) {
              if (++pick[a] < taps[a].size()) break;
              pick[a] = 0;
            }
            if (a < 0) break;
          }
        }
        dst[(n * channels + c) * out_plane + o] = static_cast<T>(static_cast<compute_t<T>>(value));
      }
    }
}

void grid_sample(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const Tensor& grid_t = ctx.input_tensor(1);
  const bool n_d = ctx.version() >= 20;
  if (x.dtype() != DataType::kFloat && x.dtype() != DataType::kDouble &&
      x.dtype() != DataType::kFloat16 && (x.dtype() != DataType::kBfloat16 || ctx.version() < 22))
    ctx.fail(fmt::format("X must be {}float16, float or double (the type of Y), not {}",
                         ctx.version() >= 22 ? "bfloat16, " : "", ir::data_type_name(x.dtype())));
  if (n_d ? x.rank() < 3 : x.rank() != 4)
    ctx.fail(n_d ? fmt::format("X must be [N, C, D1, ..., Dr] with r >= 1, not rank {}", x.rank())
                 : fmt::format("X must be 4-D [N, C, H, W], not rank {}", x.rank()));
  const int64_t r = x.rank() - 2;
  if (grid_t.rank() != r + 2 || grid_t.shape()[r + 1] != r || grid_t.shape()[0] != x.shape()[0])
    ctx.fail(n_d ? fmt::format("grid must be [N, D1_out, ..., D{}_out, {}] with N = {}, not {}", r,
                               r, x.shape()[0], shape_string(grid_t.shape()))
                 : fmt::format("grid must be [N, H_out, W_out, 2] with N = {}, not {}",
                               x.shape()[0], shape_string(grid_t.shape())));
  // 20 renamed bilinear and bicubic to linear and cubic (N-linear, N-cubic).
  const std::string mode_name = ctx.attr_string("mode", n_d ? "linear" : "bilinear");
  const char* linear_name = n_d ? "linear" : "bilinear";
  const char* cubic_name = n_d ? "cubic" : "bicubic";
  Interpolation mode;
  if (mode_name == linear_name)
    mode = Interpolation::kBilinear;
  else if (mode_name == "nearest")
    mode = Interpolation::kNearest;
  else if (mode_name == cubic_name)
    mode = Interpolation::kBicubic;
  else
    ctx.fail(fmt::format("unknown mode '{}' (expected {}, nearest or {})", mode_name, linear_name,
                         cubic_name));
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
  std::vector<int64_t> y_shape{x.shape()[0], x.shape()[1]};
  for (int64_t d = 1; d <= r; ++d) y_shape.push_back(grid_t.shape()[d]);
  Tensor y(x.dtype(), y_shape);
  if (y.numel() == 0) return ctx.set_output(0, y);
  for (int64_t d = 2; d < x.rank(); ++d)
    if (x.shape()[d] == 0) ctx.fail("X has an empty spatial axis to sample from");
  const std::vector<double> grid = float_input(ctx, grid_t, "grid");
  dispatch<kFloatTypes>(x.dtype(), ctx,
                        [&]<typename T>() { grid_sample_typed<T>(x, grid, mode, s, y); });
  ctx.set_output(0, y);
}

}  // namespace

void register_image_grid_sample(KernelRegistry& registry) {
  registry.add("", "GridSample", 16, grid_sample);
  registry.add("", "GridSample", 20, grid_sample);  // modes linear/cubic, N-D sampling
  registry.add("", "GridSample", 22, grid_sample);  // types only: bfloat16
}

}  // namespace onnxscript::eval
