#include "eval/util/stacking.h"

#include <cstring>
#include <string>

#include <fmt/format.h>

namespace onnxscript::eval {
namespace {

// Bytes one element occupies in storage (std::string objects for strings).
size_t element_size(DataType dtype, std::string_view op) {
  if (dtype == DataType::kString) return sizeof(std::string);
  const int bits = ir::bit_width(dtype);
  if (bits == 0 || bits % 8 != 0)
    throw KernelError(
        fmt::format("{}: element type {} cannot be sliced", op, ir::data_type_name(dtype)));
  return static_cast<size_t>(bits / 8);
}

// Copies `count` elements; strings by assignment, everything else by bytes.
void copy_elements(Tensor& dst, int64_t dst_index, const Tensor& src, int64_t src_index,
                   int64_t count, size_t width) {
  if (count <= 0) return;
  if (src.dtype() == DataType::kString) {
    const std::string* s = src.data<std::string>() + src_index;
    std::string* d = dst.data<std::string>() + dst_index;
    for (int64_t i = 0; i < count; ++i) d[i] = s[i];
    return;
  }
  std::memcpy(
      static_cast<std::byte*>(dst.raw_data()) + static_cast<size_t>(dst_index) * width,
      static_cast<const std::byte*>(src.raw_data()) + static_cast<size_t>(src_index) * width,
      static_cast<size_t>(count) * width);
}

int64_t product(std::span<const int64_t> shape, size_t begin, size_t end) {
  int64_t n = 1;
  for (size_t i = begin; i < end; ++i) n *= shape[i];
  return n;
}

void check_axis(const Tensor& t, int64_t axis, std::string_view op) {
  if (axis < 0 || axis >= t.rank())
    throw KernelError(fmt::format("{}: axis {} is out of range for rank {}", op, axis, t.rank()));
}

}  // namespace

Tensor take_slice(const Tensor& t, int64_t axis, int64_t index) {
  check_axis(t, axis, "slice");
  const auto& shape = t.shape();
  if (index < 0 || index >= shape[axis])
    throw KernelError(fmt::format("slice {} is out of range for dimension {} of size {}", index,
                                  axis, shape[axis]));
  const size_t width = element_size(t.dtype(), "slice");
  std::vector<int64_t> out_shape = shape.to_vector();
  out_shape.erase(out_shape.begin() + axis);
  Tensor out(t.dtype(), out_shape);
  const int64_t outer = product(shape, 0, static_cast<size_t>(axis));
  const int64_t inner = product(shape, static_cast<size_t>(axis) + 1, shape.size());
  for (int64_t o = 0; o < outer; ++o)
    copy_elements(out, o * inner, t, (o * shape[axis] + index) * inner, inner, width);
  return out;
}

Tensor narrow(const Tensor& t, int64_t axis, int64_t start, int64_t length) {
  check_axis(t, axis, "narrow");
  const auto& shape = t.shape();
  if (start < 0 || length < 0 || start + length > shape[axis])
    throw KernelError(fmt::format("slices [{}, {}) are out of range for dimension {} of size {}",
                                  start, start + length, axis, shape[axis]));
  const size_t width = element_size(t.dtype(), "narrow");
  std::vector<int64_t> out_shape = shape.to_vector();
  out_shape[axis] = length;
  Tensor out(t.dtype(), out_shape);
  const int64_t outer = product(shape, 0, static_cast<size_t>(axis));
  const int64_t inner = product(shape, static_cast<size_t>(axis) + 1, shape.size());
  for (int64_t o = 0; o < outer; ++o)
    copy_elements(out, o * length * inner, t, (o * shape[axis] + start) * inner, length * inner,
                  width);
  return out;
}

Tensor stack(std::span<const Tensor> parts, int64_t axis, std::string_view op) {
  if (parts.empty()) throw KernelError(fmt::format("{}: nothing to stack", op));
  const Tensor& first = parts.front();
  for (const Tensor& p : parts) {
    if (p.dtype() != first.dtype() || p.shape() != first.shape())
      throw KernelError(fmt::format(
          "{}: cannot stack {}[{}] with {}[{}]", op, ir::data_type_name(first.dtype()),
          fmt::join(first.shape(), ","), ir::data_type_name(p.dtype()), fmt::join(p.shape(), ",")));
  }
  if (axis < 0 || axis > first.rank())
    throw KernelError(
        fmt::format("{}: stacking axis {} is out of range for rank {}", op, axis, first.rank()));
  const size_t width = element_size(first.dtype(), op);
  std::vector<int64_t> out_shape = first.shape().to_vector();
  const int64_t k = static_cast<int64_t>(parts.size());
  out_shape.insert(out_shape.begin() + axis, k);
  Tensor out(first.dtype(), out_shape);
  const int64_t outer = product(first.shape(), 0, static_cast<size_t>(axis));
  const int64_t inner = product(first.shape(), static_cast<size_t>(axis), first.shape().size());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < k; ++j)
      copy_elements(out, (o * k + j) * inner, parts[j], o * inner, inner, width);
  return out;
}

Tensor concatenate(std::span<const Tensor> parts, int64_t axis, std::string_view op) {
  if (parts.empty()) throw KernelError(fmt::format("{}: nothing to concatenate", op));
  const Tensor& first = parts.front();
  if (axis < 0 || axis >= first.rank())
    throw KernelError(
        fmt::format("{}: axis {} is out of range for rank {}", op, axis, first.rank()));
  std::vector<int64_t> out_shape = first.shape().to_vector();
  int64_t total = 0;
  for (const Tensor& p : parts) {
    bool ok = p.dtype() == first.dtype() && p.rank() == first.rank();
    for (int64_t d = 0; ok && d < first.rank(); ++d)
      ok = d == axis || p.shape()[d] == first.shape()[d];
    if (!ok)
      throw KernelError(fmt::format("{}: cannot concatenate {}[{}] with {}[{}] along axis {}", op,
                                    ir::data_type_name(first.dtype()),
                                    fmt::join(first.shape(), ","), ir::data_type_name(p.dtype()),
                                    fmt::join(p.shape(), ","), axis));
    total += p.shape()[axis];
  }
  out_shape[axis] = total;
  const size_t width = element_size(first.dtype(), op);
  Tensor out(first.dtype(), out_shape);
  const int64_t outer = product(out_shape, 0, static_cast<size_t>(axis));
  const int64_t inner = product(out_shape, static_cast<size_t>(axis) + 1, out_shape.size());
  int64_t offset = 0;
  for (const Tensor& p : parts) {
    const int64_t n = p.shape()[axis] * inner;
    for (int64_t o = 0; o < outer; ++o)
      copy_elements(out, o * total * inner + offset, p, o * n, n, width);
    offset += n;
  }
  return out;
}

Tensor densify(const ir::SparseTensor& sparse) {
  const Tensor& values = sparse.values;
  const size_t width = element_size(values.dtype(), "sparse tensor");
  Tensor dense(values.dtype(), sparse.dims);
  const Tensor& idx = sparse.indices;
  const int64_t nnz = values.numel();
  const int64_t rank = static_cast<int64_t>(sparse.dims.size());
  const bool linear = idx.rank() == 1;
  if (idx.dtype() != DataType::kInt64 || (linear && idx.numel() != nnz) ||
      (!linear && (idx.rank() != 2 || idx.shape()[0] != nnz || idx.shape()[1] != rank)))
    throw ValidationError("sparse tensor: the indices do not match the values");
  const int64_t* ix = idx.data<int64_t>();
  for (int64_t k = 0; k < nnz; ++k) {
    int64_t offset = 0;
    if (linear) {
      offset = ix[k];
    } else {
      for (int64_t d = 0; d < rank && offset >= 0; ++d) {
        const int64_t i = ix[k * rank + d];
        offset = (i < 0 || i >= sparse.dims[d]) ? -1 : offset * sparse.dims[d] + i;
      }
    }
    if (offset < 0 || offset >= dense.numel())
      throw ValidationError("sparse tensor: an index is out of range");
    copy_elements(dense, offset, values, k, 1, width);
  }
  return dense;
}

}  // namespace onnxscript::eval
