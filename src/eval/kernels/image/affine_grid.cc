// AffineGrid (20): the sampling grid of GridSample for a batch of affine
// maps. theta is [N, 2, 3] (2-D) or [N, 3, 4] (3-D); size is the output size
// [N, C, H, W] or [N, C, D, H, W]. The grid is [N, H, W, 2] or
// [N, D, H, W, 3]: grid[n, (d,) h, w] = theta[n] * (x_w, y_h, (z_d,) 1), where
// the normalised base coordinate of index i on an axis of length L is
//   align_corners=0: (2 i + 1) / L - 1   (pixel centres, edges at -1 and 1)
//   align_corners=1: 2 i / (L - 1) - 1   (corner pixels' centres at -1 and 1)
// and 0 on an axis of length 1, as torch.nn.functional.affine_grid does.
#include <fmt/format.h>

#include "image_util.h"

namespace onnxscript::eval {
namespace {

void affine_grid(KernelContext& ctx) {
  const Tensor& theta = ctx.input_tensor(0);
  const std::vector<int64_t> size = tensor_to_int64s(ctx, ctx.input_tensor(1), "size");
  if (size.size() != 4 && size.size() != 5)
    ctx.fail(
        fmt::format("size must be [N, C, H, W] or [N, C, D, H, W], not {} entries", size.size()));
  const int64_t r = static_cast<int64_t>(size.size()) - 2;  // spatial axes
  const int64_t batch = size[0];
  if (theta.rank() != 3 || theta.shape()[0] != batch || theta.shape()[1] != r ||
      theta.shape()[2] != r + 1)
    ctx.fail(fmt::format("theta must be [{}, {}, {}] for size {}, not {}", batch, r, r + 1,
                         shape_string(size), shape_string(theta.shape())));
  for (int64_t s : size)
    if (s < 0) ctx.fail(fmt::format("size {} has a negative entry", shape_string(size)));
  const bool align = ctx.attr_int("align_corners", 0) != 0;
  // Spatial lengths in (D,) H, W order; the grid's components run x, y, z.
  const std::vector<int64_t> dims(size.begin() + 2, size.end());
  std::vector<int64_t> out_shape{batch};
  out_shape.insert(out_shape.end(), dims.begin(), dims.end());
  out_shape.push_back(r);
  auto base = [&](int64_t i, int64_t len) -> double {
    if (len <= 1) return 0.0;
    const double di = static_cast<double>(i), dl = static_cast<double>(len);
    return align ? 2.0 * di / (dl - 1.0) - 1.0 : (2.0 * di + 1.0) / dl - 1.0;
  };
  Tensor grid(theta.dtype(), out_shape);
  const std::vector<double> th = float_input(ctx, theta, "theta");
  const int64_t points = shape_product(dims, 0, dims.size());
  dispatch<kFloatTypes>(theta.dtype(), ctx, [&]<typename T>() {
    T* dst = grid.data<T>();
    std::vector<int64_t> index(r, 0);
    std::vector<double> v(r + 1, 1.0);
    for (int64_t n = 0; n < batch; ++n) {
      const double* m = th.data() + n * r * (r + 1);
      std::fill(index.begin(), index.end(), 0);
      for (int64_t p = 0; p < points; ++p) {
        for (int64_t k = 0; k < r; ++k)  // component k (x, y, z) is axis r - 1 - k
          v[k] = base(index[r - 1 - k], dims[r - 1 - k]);
        for (int64_t row = 0; row < r; ++row) {
          double s = 0.0;
          for (int64_t col = 0; col <= r; ++col) s += m[row * (r + 1) + col] * v[col];
          *dst++ = static_cast<T>(static_cast<compute_t<T>>(s));
        }
        for (int64_t d = r - 1; d >= 0; --d) {
          if (++index[d] < dims[d]) break;
          index[d] = 0;
        }
      }
    }
  });
  ctx.set_output(0, grid);
}

}  // namespace

void register_image_affine_grid(KernelRegistry& registry) {
  registry.add("", "AffineGrid", 20, affine_grid);
}

}  // namespace onnxscript::eval
