// Col2Im (18): the inverse of im2col. input is [N, C * prod(block_shape), L]:
// column c * prod(block_shape) + k holds block element k (row-major over
// block_shape) of channel c, for each of the L sliding-block positions
// (row-major over the positions of every spatial axis). The output is
// [N, C, image_shape...]; each block element is added at
// position * stride - pad_begin + k * dilation on each axis, overlaps summed,
// outside the image dropped. With image length I, pads (b, e), block B,
// dilation D and stride S, an axis has (I + b + e - D * (B - 1) - 1) / S + 1
// positions, and L must be their product.
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void col2im(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const std::vector<int64_t> image = tensor_to_int64s(ctx, ctx.input_tensor(1), "image_shape");
  const std::vector<int64_t> block = tensor_to_int64s(ctx, ctx.input_tensor(2), "block_shape");
  const size_t r = image.size();
  if (r == 0 || block.size() != r)
    ctx.fail(fmt::format("image_shape and block_shape must have one non-zero length, not {} and {}",
                         r, block.size()));
  const std::vector<int64_t> dilations = ctx.attr_ints("dilations", std::vector<int64_t>(r, 1));
  const std::vector<int64_t> strides = ctx.attr_ints("strides", std::vector<int64_t>(r, 1));
  const std::vector<int64_t> pads = ctx.attr_ints("pads", std::vector<int64_t>(2 * r, 0));
  if (dilations.size() != r || strides.size() != r || pads.size() != 2 * r)
    ctx.fail(fmt::format("dilations and strides need {} entries and pads {}", r, 2 * r));
  if (x.rank() != 3)
    ctx.fail(fmt::format("input must be [N, C * prod(block_shape), L], not {}",
                         shape_string(x.shape())));
  int64_t block_size = 1, positions = 1;
  std::vector<int64_t> counts(r);
  for (size_t d = 0; d < r; ++d) {
    if (block[d] < 1 || dilations[d] < 1 || strides[d] < 1 || image[d] < 0)
      ctx.fail("block_shape, dilations and strides must be positive and image_shape not negative");
    block_size *= block[d];
    const int64_t span = image[d] + pads[d] + pads[d + r] - dilations[d] * (block[d] - 1) - 1;
    counts[d] = span < 0 ? 0 : span / strides[d] + 1;
    positions *= counts[d];
  }
  if (x.shape()[1] % block_size != 0)
    ctx.fail(fmt::format("input has {} columns, not a multiple of prod(block_shape) = {}",
                         x.shape()[1], block_size));
  if (x.shape()[2] != positions)
    ctx.fail(fmt::format("input has {} block positions but the image holds {}", x.shape()[2],
                         positions));
  const int64_t batch = x.shape()[0], channels = x.shape()[1] / block_size;
  std::vector<int64_t> out_shape{batch, channels};
  out_shape.insert(out_shape.end(), image.begin(), image.end());
  Tensor y(x.dtype(), out_shape);
  const std::vector<int64_t> out_strides = contiguous_strides(image);
  const int64_t plane = shape_product(image, 0, r);
  dispatch<kNumericTypes>(x.dtype(), ctx, [&]<typename T>() {
    using C = compute_t<T>;
    std::vector<C> acc(static_cast<size_t>(y.numel()), C{});
    const T* src = x.data<T>();
    std::vector<int64_t> k(r), p(r);
    for (int64_t n = 0; n < batch; ++n)
      for (int64_t c = 0; c < channels; ++c) {
        C* out = acc.data() + (n * channels + c) * plane;
        std::fill(k.begin(), k.end(), 0);
        for (int64_t kb = 0; kb < block_size; ++kb) {
          const T* col = src + ((n * channels + c) * block_size + kb) * positions;
          std::fill(p.begin(), p.end(), 0);
          for (int64_t l = 0; l < positions; ++l) {
            int64_t off = 0;
            bool inside = true;
            for (size_t d = 0; d < r && inside; ++d) {
              const int64_t i = p[d] * strides[d] - pads[d] + k[d] * dilations[d];
              inside = i >= 0 && i < image[d];
              off += i * out_strides[d];
            }
            if (inside) out[off] += static_cast<C>(col[l]);
            for (size_t d = r; d-- > 0;) {
              if (++p[d] < counts[d]) break;
              p[d] = 0;
            }
          }
          for (size_t d = r; d-- > 0;) {
            if (++k[d] < block[d]) break;
            k[d] = 0;
          }
        }
      }
    T* dst = y.data<T>();
    for (size_t i = 0; i < acc.size(); ++i) dst[i] = static_cast<T>(acc[i]);
  });
  ctx.set_output(0, y);
}

}  // namespace

void register_nn_col2im(KernelRegistry& registry) { registry.add("", "Col2Im", 18, col2im); }

}  // namespace onnxscript::eval
