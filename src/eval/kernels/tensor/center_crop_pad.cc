// CenterCropPad (18): crops or pads each axis named by `axes` (default: all)
// to the length in `shape` (one entry per named axis), keeping the centre.
// Cropping a length L to n starts at floor((L - n) / 2); padding puts
// floor((n - L) / 2) zeros (empty strings, false) before the input and the
// rest after it.
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void center_crop_pad(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const int64_t rank = x.rank();
  const std::vector<int64_t> lengths = tensor_to_int64s(ctx, ctx.input_tensor(1), "shape");
  std::vector<int64_t> axes;
  if (ctx.attribute("axes") != nullptr) {
    std::vector<uint8_t> seen(rank, 0);
    for (int64_t a : ctx.attr_ints("axes")) {
      const int64_t d = normalize_axis(ctx, a, rank, "axes");
      if (seen[d]++) ctx.fail(fmt::format("axis {} is repeated in axes", a));
      axes.push_back(d);
    }
  } else {
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
  }
  if (lengths.size() != axes.size())
    ctx.fail(fmt::format("shape has {} entries for {} axes", lengths.size(), axes.size()));
  std::vector<int64_t> out_shape = x.shape().to_vector();
  // Per axis: output index o reads input index o + shift (when inside).
  std::vector<int64_t> shift(rank, 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t d = axes[i], len = x.shape()[d], n = lengths[i];
    if (n < 0) ctx.fail(fmt::format("shape entry {} is negative", n));
    shift[d] = n <= len ? (len - n) / 2 : -((n - len) / 2);
    out_shape[d] = n;
  }
  Tensor out(x.dtype(), out_shape);
  if (out.numel() == 0 || x.numel() == 0) return ctx.set_output(0, out);
  const std::vector<int64_t> in_strides = contiguous_strides(x.shape());
  dispatch_by_size(x.dtype(), ctx, [&]<typename U>() {
    const U* src = x.data<U>();
    U* dst = out.data<U>();
    std::vector<int64_t> index(rank, 0);
    for (int64_t flat = 0; flat < out.numel(); ++flat) {
      int64_t off = 0;
      bool inside = true;
      for (int64_t d = 0; d < rank && inside; ++d) {
        const int64_t s = index[d] + shift[d];
        inside = s >= 0 && s < x.shape()[d];
        off += s * in_strides[d];
      }
      if (inside) dst[flat] = src[off];
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (++index[d] < out_shape[d]) break;
        index[d] = 0;
      }
    }
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_tensor_center_crop_pad(KernelRegistry& registry) {
  registry.add("", "CenterCropPad", 18, center_crop_pad);
}

}  // namespace onnxscript::eval
