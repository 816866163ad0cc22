// Shapes and indexing: cat, chunk, contiguous, expand, flatten, permute,
// reshape/view, select, slice, size, transpose, Int, embedding, zeros.

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"

namespace onnxscript::torch_lib {

Value aten_cat(std::vector<Value> tensors, int64_t dim) {
  if (tensors.empty()) throw TypeError("aten::cat: needs at least one tensor");
  return op::Concat(tensors, {.axis = dim});
}

std::vector<Value> aten_chunk(Value self, int64_t chunks, int64_t dim) {
  if (chunks <= 0)
    throw TypeError(fmt::format("aten::chunk: chunks must be positive, got {}", chunks));
  const std::optional<ir::Shape> shape = self.shape();
  const int64_t rank = require_rank(self, "aten::chunk");
  const int64_t axis = wrap_dim(dim, rank, "aten::chunk");
  if (!shape || !(*shape)[axis].is_static()) {
    throw TypeError(
        fmt::format("aten::chunk: the size of {} along dimension {} must be known "
                    "while exporting",
                    self.describe(), dim));
  }
  const int64_t size = (*shape)[axis].value();
  const int64_t step = (size + chunks - 1) / chunks;
  std::vector<int64_t> sizes;
  for (int64_t start = 0; start < size; start += step)
    sizes.push_back(std::min(step, size - start));
  if (sizes.size() <= 1) return {op::Identity(self)};
  return op::Split(self, int64s(sizes), {.axis = axis});
}

Value aten_contiguous(Value self, std::string /*memory_format*/) { return op::Identity(self); }

Value aten_expand(Value self, Value size, bool /*implicit*/) {
  // -1 keeps a dimension: its absolute value 1 broadcasts to the existing size.
  return op::Expand(self, op::Abs(size));
}

Value aten_flatten(Value self, int64_t start_dim, int64_t end_dim) {
  const int64_t rank = require_rank(self, "aten::flatten");
  if (rank == 0) return op::Reshape(self, int64s({1}));
  const int64_t start = wrap_dim(start_dim, rank, "aten::flatten");
  const int64_t end = wrap_dim(end_dim, rank, "aten::flatten");
  if (start > end) throw TypeError("aten::flatten: start_dim comes after end_dim");
  if (start == end) return op::Identity(self);
  // ONNX's Flatten makes two dimensions, split at `axis`: the same thing
  // when the flattened range is everything from dimension 1 on.
  if (start == 1 && end == rank - 1) return op::Flatten(self, {.axis = 1});
  // Otherwise: the leading sizes, -1, the trailing sizes.
  const Value shape = op::Shape(self);
  std::vector<Value> parts;
  if (start > 0) parts.push_back(op::Slice(shape, int64s({0}), int64s({start})));
  parts.push_back(int64s({-1}));
  if (end < rank - 1) parts.push_back(op::Slice(shape, int64s({end + 1}), int64s({rank})));
  return op::Reshape(self, parts.size() == 1 ? parts[0] : op::Concat(parts, {.axis = 0}));
}

Value aten_permute(Value self, std::vector<int64_t> dims) {
  const int64_t rank = static_cast<int64_t>(dims.size());
  for (int64_t& d : dims) d = wrap_dim(d, rank, "aten::permute");
  return op::Transpose(self, {.perm = dims});
}

Value aten_reshape(Value self, Value shape) {
  // A 0 in PyTorch's size is an empty dimension, never "keep this one".
  return op::Reshape(self, shape, {.allowzero = 1});
}

Value aten_select(Value self, int64_t dim, Value index) {
  // A 0-D index makes Gather drop the dimension.
  if (index.is_literal()) index = Value(Tensor::scalar<int64_t>(index.literal_as_int()));
  return op::Gather(self, index, {.axis = dim});
}

Value aten_slice(Value self, int64_t dim, std::optional<Value> start, std::optional<Value> end,
                 Value step) {
  // Each bound as a one-element int64 tensor; None means the whole range.
  auto bound = [](const std::optional<Value>& v, int64_t otherwise) {
    if (!v) return int64s({otherwise});
    if (v->is_literal()) return int64s({v->literal_as_int()});
    return op::Reshape(op::Cast(*v, {.to = DataType::kInt64}), int64s({1}));
  };
  return op::Slice(self, bound(start, 0), bound(end, std::numeric_limits<int64_t>::max()),
                   int64s({dim}), bound(step, 1));
}

Value aten_size(Value self) {
  // All sizes known while exporting: a constant, as aten_size_dim's.
  if (const std::optional<ir::Shape> shape = self.shape()) {
    std::vector<int64_t> sizes;
    for (const ir::Dim& d : *shape)
      if (d.is_static()) sizes.push_back(d.value());
    if (sizes.size() == shape->size())
      return Value(Tensor::from_span<int64_t>(sizes, {static_cast<int64_t>(sizes.size())}));
  }
  return op::Shape(self);
}

Value aten_size_dim(Value self, int64_t dim) {
  // A size known while exporting is a constant, so that the shapes built
  // from it (view's, reshape's) stay known to inference; a symbolic one
  // (a dynamic dimension) is read from the shape at run time.
  if (const std::optional<ir::Shape> shape = self.shape()) {
    const int64_t axis = wrap_dim(dim, static_cast<int64_t>(shape->size()), "aten::size");
    if ((*shape)[axis].is_static()) return Value(Tensor::scalar<int64_t>((*shape)[axis].value()));
  }
  return op::Gather(op::Shape(self), Value(Tensor::scalar<int64_t>(dim)), {.axis = 0});
}

Value aten_transpose(Value self, int64_t dim0, int64_t dim1) {
  const int64_t rank = require_rank(self, "aten::transpose");
  if (rank < 2) return op::Identity(self);
  std::vector<int64_t> perm(rank);
  for (int64_t i = 0; i < rank; ++i) perm[i] = i;
  std::swap(perm[wrap_dim(dim0, rank, "aten::transpose")],
            perm[wrap_dim(dim1, rank, "aten::transpose")]);
  return op::Transpose(self, {.perm = perm});
}

namespace {

// A one-element tensor as a Python number of `type`: a 0-D tensor.
Value as_number(const Value& a, DataType type) {
  Value v = a.rank() && *a.rank() > 0 ? op::Reshape(a, Value(Tensor(DataType::kInt64, {0}))) : a;
  return v.dtype() == type ? v : op::Cast(v, {.to = type});
}

}  // namespace

Value aten_int(Value a) { return as_number(a, DataType::kInt64); }

Value aten_dim(Value self) {
  if (const std::optional<int64_t> rank = self.rank()) return Value(Tensor::scalar<int64_t>(*rank));
  return op::Size(op::Shape(self));
}

Value aten_bool(Value a) { return as_number(a, DataType::kBool); }

// PyTorch's float is a double. Where it meets a tensor again, as a 0-D
// operand it takes that tensor's element type (promotion.h).
Value aten_float(Value a) { return as_number(a, DataType::kDouble); }

Value aten_embedding(Value weight, Value indices, int64_t /*padding_idx*/,
                     bool /*scale_grad_by_freq*/, bool /*sparse*/) {
  // padding_idx, scale_grad_by_freq and sparse only change gradients.
  return op::Gather(weight, indices, {.axis = 0});
}

Value aten_zeros(Value size, std::optional<int64_t> dtype, std::optional<int64_t> /*layout*/,
                 std::optional<std::string> /*device*/, std::optional<bool> /*pin_memory*/) {
  const DataType type = dtype ? onnx_dtype(*dtype) : DataType::kFloat;
  Tensor zero(type, {1});  // zero-filled
  return op::ConstantOfShape(op::Cast(size, {.to = DataType::kInt64}), {.value = zero});
}

void register_shapes(Registry& r) {
  using detail::overload;
  r.add(overload<aten_cat>("aten::cat(Tensor[] tensors, int dim=0) -> Tensor"));
  r.add(overload<aten_chunk>(
      "aten::chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]"));
  r.add(overload<aten_contiguous>(
      "aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> "
      "Tensor(a)"));
  r.add(overload<aten_expand>(
      "aten::expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)"));
  r.add(overload<aten_flatten>(
      "aten::flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)"));
  r.add(overload<aten_permute>("aten::permute(Tensor(a) self, int[] dims) -> Tensor(a)"));
  r.add(overload<aten_reshape>("aten::reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)"));
  r.add(overload<aten_reshape>("aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)"));
  r.add(overload<aten_select>(
      "aten::select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)"));
  r.add(overload<aten_slice>(
      "aten::slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, "
      "SymInt step=1) -> Tensor(a)"));
  r.add(overload<aten_size_dim>("aten::size.int(Tensor self, int dim) -> int"));
  r.add(overload<aten_transpose>(
      "aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)"));
  r.add(overload<aten_int>("aten::Int.Tensor(Tensor a) -> int"));
  r.add(overload<aten_size>("aten::size(Tensor self) -> int[]"));
  r.add(overload<aten_dim>("aten::dim(Tensor self) -> int"));
  r.add(overload<aten_bool>("aten::Bool.Tensor(Tensor a) -> bool"));
  r.add(overload<aten_float>("aten::Float.Tensor(Tensor a) -> float"));
  r.add(overload<aten_embedding>(
      "aten::embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool "
      "scale_grad_by_freq=False, bool sparse=False) -> Tensor"));
  r.add(overload<aten_zeros>(
      "aten::zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None) -> Tensor"));
}

}  // namespace onnxscript::torch_lib
