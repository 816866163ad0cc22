// Slice: takes [start, end) with a step along chosen axes. v1 reads starts,
// ends and axes from attributes (step 1); v10+ reads them from inputs and
// adds steps (negative steps walk backwards). Out-of-range bounds are clamped
// as numpy does.
#include <algorithm>

#include <fmt/format.h>

#include "eval/util/parallel.h"
#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void slice(KernelContext& ctx) {
  const Tensor& data = ctx.input_tensor(0);
  const int64_t rank = data.rank();
  std::vector<int64_t> starts, ends, axes, steps;
  if (ctx.version() < 10) {
    starts = ctx.attr_ints("starts");
    ends = ctx.attr_ints("ends");
    axes = ctx.attr_ints("axes");
  } else {
    starts = tensor_to_int64s(ctx, ctx.input_tensor(1), "starts");
    ends = tensor_to_int64s(ctx, ctx.input_tensor(2), "ends");
    if (ctx.has_input(3)) axes = tensor_to_int64s(ctx, ctx.input_tensor(3), "axes");
    if (ctx.has_input(4)) steps = tensor_to_int64s(ctx, ctx.input_tensor(4), "steps");
  }
  if (starts.size() != ends.size())
    ctx.fail(fmt::format("starts has {} entries but ends has {}", starts.size(), ends.size()));
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (axes.size() != starts.size() || steps.size() != starts.size())
    ctx.fail("starts, ends, axes and steps must have the same length");

  std::vector<int64_t> first(rank, 0), step(rank, 1), out_shape = data.shape().to_vector();
  std::vector<bool> seen(rank, false);
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t a = normalize_axis(ctx, axes[i], rank);
    if (seen[a]) ctx.fail(fmt::format("axis {} appears twice", a));
    seen[a] = true;
    const int64_t dim = data.shape()[a];
    const int64_t s = steps[i];
    if (s == 0) ctx.fail("steps must not be 0");
    int64_t b = starts[i], e = ends[i];
    if (b < 0) b += dim;
    if (e < 0) e += dim;
    if (s > 0) {
      b = std::clamp<int64_t>(b, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      out_shape[a] = e > b ? (e - b + s - 1) / s : 0;
    } else {
      b = std::clamp<int64_t>(b, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      out_shape[a] = b > e ? (b - e + (-s) - 1) / (-s) : 0;
    }
    first[a] = b;
    step[a] = s;
  }
  Tensor out = Tensor::uninitialized(data.dtype(), out_shape);  // every element is copied
  if (out.numel() == 0) return ctx.set_output(0, out);
  const std::vector<int64_t> in_strides = contiguous_strides(data.shape());
  std::vector<int64_t> strides(rank);
  int64_t base = 0;
  for (int64_t d = 0; d < rank; ++d) {
    strides[d] = in_strides[d] * step[d];
    base += first[d] * in_strides[d];
  }
  dispatch_by_size(data.dtype(), ctx, [&]<typename U>() {
    const U* src = data.data<U>() + base;
    U* dst = out.data<U>();
    if (rank == 0) {
      dst[0] = src[0];
      return;
    }
    const int64_t inner = out_shape[rank - 1], inner_stride = strides[rank - 1];
    std::vector<int64_t> oshape(out_shape.begin(), out_shape.end() - 1);
    std::vector<int64_t> ostrides(strides.begin(), strides.end() - 1);
    // Copies output rows [first, last): a step of 1 on the last axis (a
    // QKV split, a class token) copies whole rows as they are.
    auto copy_rows = [&](int64_t first, int64_t last) {
      std::vector<int64_t> index(oshape.size(), 0);
      int64_t off = 0;
      for (size_t d = oshape.size(), rest = static_cast<size_t>(first); d-- > 0;) {
        index[d] = static_cast<int64_t>(rest % static_cast<size_t>(oshape[d]));
        rest /= static_cast<size_t>(oshape[d]);
        off += index[d] * ostrides[d];
      }
      U* row_out = dst + first * inner;
      for (int64_t row = first; row < last; ++row) {
        if (inner_stride == 1)
          std::copy_n(src + off, inner, row_out);
        else
          for (int64_t i = 0; i < inner; ++i) row_out[i] = src[off + i * inner_stride];
        row_out += inner;
        next_index(index, oshape, ostrides, off);
      }
    };
    const int64_t rows = out.numel() / inner;
    // Split over the intra-op threads when there is enough to copy (64K
    // elements) for a hand-off to pay.
    if (out.numel() < (int64_t{1} << 16) || intra_op_threads() == 1 || rows < 2)
      copy_rows(0, rows);
    else
      parallel_for(rows, std::max<int64_t>(1, (int64_t{1} << 14) / inner), copy_rows);
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_tensor_slice(KernelRegistry& registry) {
  for (int64_t v : {1, 10, 11, 13}) registry.add("", "Slice", v, slice);
}

}  // namespace onnxscript::eval
