#include "eval/util/shape_util.h"

#include <fmt/format.h>

namespace onnxscript::eval {

int64_t normalize_axis(const KernelContext& ctx, int64_t axis, int64_t rank, const char* what) {
  if (axis < -rank || axis >= rank)
    ctx.fail(fmt::format("{} {} is out of range for rank {}", what, axis, rank));
  return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> contiguous_strides(std::span<const int64_t> shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s *= shape[i];
  }
  return strides;
}

int64_t shape_product(std::span<const int64_t> shape, size_t begin, size_t end) {
  int64_t p = 1;
  for (size_t i = begin; i < end && i < shape.size(); ++i) p *= shape[i];
  return p;
}

std::string shape_string(std::span<const int64_t> shape) {
  return fmt::format("[{}]", fmt::join(shape, ","));
}

std::vector<int64_t> broadcast_shapes(const KernelContext& ctx, std::span<const int64_t> a,
                                      std::span<const int64_t> b) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      ctx.fail(
          fmt::format("shapes {} and {} cannot be broadcast", shape_string(a), shape_string(b)));
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::vector<int64_t> broadcast_strides(std::span<const int64_t> shape,
                                       std::span<const int64_t> out_shape) {
  std::vector<int64_t> strides(out_shape.size(), 0);
  const std::vector<int64_t> own = contiguous_strides(shape);
  const size_t shift = out_shape.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i) strides[i + shift] = shape[i] == 1 ? 0 : own[i];
  return strides;
}

int64_t elements_axis(const KernelContext& ctx, const Tensor& data, const Tensor& indices) {
  const int64_t rank = data.rank();
  if (rank == 0) ctx.fail("data must have rank >= 1");
  if (indices.rank() != rank)
    ctx.fail(fmt::format("indices has rank {} but data has rank {}", indices.rank(), rank));
  const int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", 0), rank);
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && indices.shape()[d] > data.shape()[d])
      ctx.fail(fmt::format("indices shape {} exceeds data shape {} on axis {}",
                           shape_string(indices.shape()), shape_string(data.shape()), d));
  return axis;
}

std::vector<int64_t> tensor_to_int64s(const KernelContext& ctx, const Tensor& t, const char* what) {
  std::vector<int64_t> out(static_cast<size_t>(t.numel()));
  if (!ir::is_integer(t.dtype()) || ir::is_sub_byte(t.dtype()))
    ctx.fail(
        fmt::format("{} must be an integer tensor, not {}", what, ir::data_type_name(t.dtype())));
  dispatch<kIntTypes>(t.dtype(), ctx, [&]<typename T>() {
    const T* p = t.data<T>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<int64_t>(p[i]);
  });
  return out;
}

int64_t tensor_to_int64(const KernelContext& ctx, const Tensor& t, const char* what) {
  if (t.numel() != 1) ctx.fail(fmt::format("{} must have one element, not {}", what, t.numel()));
  return tensor_to_int64s(ctx, t, what)[0];
}

namespace {

// Fills `out` (contiguous, of `out_shape`) from `in`, where a step along
// output dimension d moves `strides[d]` elements in `in`. Transposing permutes
// the input's strides; broadcasting gives a repeated dimension stride 0.
template <typename U>
void gather_strided(const U* in, U* out, std::span<const int64_t> out_shape,
                    std::span<const int64_t> strides, int64_t numel) {
  if (numel == 0) return;
  const size_t rank = out_shape.size();
  if (rank == 0) {
    out[0] = in[0];
    return;
  }
  // Walk the output in order; the inner dimension is a strided read.
  const int64_t inner = out_shape[rank - 1];
  const int64_t inner_stride = strides[rank - 1];
  std::vector<int64_t> outer_shape(out_shape.begin(), out_shape.end() - 1);
  std::vector<int64_t> outer_strides(strides.begin(), strides.end() - 1);
  std::vector<int64_t> index(outer_shape.size(), 0);
  int64_t src = 0;
  U* dst = out;
  do {
    const U* s = in + src;
    for (int64_t i = 0; i < inner; ++i) dst[i] = s[i * inner_stride];
    dst += inner;
  } while (next_index(index, outer_shape, outer_strides, src));
}

// Size-only dispatch without a KernelContext: callers validated the type.
template <typename F>
void by_size(DataType dtype, F&& f) {
  visit_by_size(dtype, std::forward<F>(f), [&] {
    throw KernelError(
        fmt::format("element type {} cannot be copied element-wise", ir::data_type_name(dtype)));
  });
}

}  // namespace

Tensor transpose_tensor(const Tensor& src, std::span<const int64_t> perm) {
  const size_t rank = src.shape().size();
  std::vector<int64_t> out_shape(rank), permuted(rank);
  const std::vector<int64_t> strides = contiguous_strides(src.shape());
  for (size_t i = 0; i < rank; ++i) {
    out_shape[i] = src.shape()[perm[i]];
    permuted[i] = strides[perm[i]];
  }
  Tensor out = Tensor::uninitialized(src.dtype(), out_shape);  // gather_strided writes all
  by_size(src.dtype(), [&]<typename U>() {
    gather_strided<U>(src.data<U>(), out.data<U>(), out_shape, permuted, out.numel());
  });
  return out;
}

Tensor broadcast_to(const Tensor& src, const std::vector<int64_t>& out_shape) {
  Tensor out = Tensor::uninitialized(src.dtype(), out_shape);  // gather_strided writes all
  const std::vector<int64_t> strides = broadcast_strides(src.shape(), out_shape);
  by_size(src.dtype(), [&]<typename U>() {
    gather_strided<U>(src.data<U>(), out.data<U>(), out_shape, strides, out.numel());
  });
  return out;
}

}  // namespace onnxscript::eval
