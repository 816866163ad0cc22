// More shapes, indexing and conversions: squeeze, unsqueeze, stack, split,
// unbind, repeat, tile, flip, roll, narrow, index_select, gather, the *_as
// forms, t, numel, atleast_Nd, constant_pad_nd, pixel_shuffle, topk, sort,
// nonzero, tril, triu, one_hot; the casts (to, type_as, _to_copy) and the
// identities (clone, detach, alias, ...). The tensor factories are in
// factories.cc.

#include <fmt/format.h>

#include <functional>
#include <limits>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"
#include "lib/torch_lib/promotion.h"

namespace onnxscript::torch_lib {

namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();

}  // namespace

Value aten_squeeze(Value self) { return op::Squeeze(self); }

Value aten_squeeze_dim(Value self, int64_t dim) {
  const int64_t rank = require_rank(self, "aten::squeeze");
  if (rank == 0) return op::Identity(self);
  const int64_t axis = wrap_dim(dim, rank, "aten::squeeze");
  // A dimension of size other than 1 stays (ONNX's Squeeze would fail).
  if (const std::optional<ir::Shape> shape = self.shape(); shape && (*shape)[axis].is_static()) {
    if ((*shape)[axis].value() != 1) return op::Identity(self);
    return op::Squeeze(self, int64s({axis}));
  }
  // Unknown size: drop the entry of the shape that is `axis` and 1.
  const Value shape = op::Shape(self);
  const Value is_axis =
      op::Equal(op::Range(Value(Tensor::scalar<int64_t>(0)), Value(Tensor::scalar<int64_t>(rank)),
                          Value(Tensor::scalar<int64_t>(1))),
                axis);
  const Value keep = op::Not(op::And(is_axis, op::Equal(shape, int64_t{1})));
  return op::Reshape(self, op::Compress(shape, keep, {.axis = 0}));
}

Value aten_unsqueeze(Value self, int64_t dim) {
  const int64_t rank = require_rank(self, "aten::unsqueeze");
  return op::Unsqueeze(self, int64s({wrap_dim(dim, rank + 1, "aten::unsqueeze")}));
}

Value aten_stack(std::vector<Value> tensors, int64_t dim) {
  if (tensors.empty()) throw TypeError("aten::stack: needs at least one tensor");
  const int64_t rank = require_rank(tensors[0], "aten::stack");
  const int64_t axis = wrap_dim(dim, rank + 1, "aten::stack");
  for (Value& t : tensors) t = op::Unsqueeze(t, int64s({axis}));
  return op::Concat(tensors, {.axis = axis});
}

std::vector<Value> aten_split(Value self, int64_t split_size, int64_t dim) {
  if (split_size <= 0)
    throw TypeError(fmt::format("aten::split: split_size must be positive, got {}", split_size));
  const int64_t rank = require_rank(self, "aten::split");
  const int64_t axis = wrap_dim(dim, rank, "aten::split");
  const int64_t size = require_size(self, axis, "aten::split");
  std::vector<int64_t> sizes;
  for (int64_t start = 0; start < size; start += split_size)
    sizes.push_back(std::min(split_size, size - start));
  if (sizes.size() <= 1) return {op::Identity(self)};
  return op::Split(self, int64s(sizes), {.axis = axis});
}

std::vector<Value> aten_split_with_sizes(Value self, std::vector<int64_t> split_sizes,
                                         int64_t dim) {
  if (split_sizes.empty()) throw TypeError("aten::split_with_sizes: needs at least one size");
  if (split_sizes.size() == 1) return {op::Identity(self)};
  return op::Split(self, int64s(split_sizes), {.axis = dim});
}

std::vector<Value> aten_unbind(Value self, int64_t dim) {
  const int64_t rank = require_rank(self, "aten::unbind");
  const int64_t axis = wrap_dim(dim, rank, "aten::unbind");
  const int64_t size = require_size(self, axis, "aten::unbind");
  std::vector<Value> parts;
  // A 0-D index makes Gather drop the dimension.
  for (int64_t i = 0; i < size; ++i)
    parts.push_back(op::Gather(self, Value(Tensor::scalar<int64_t>(i)), {.axis = axis}));
  return parts;
}

Value aten_repeat(Value self, std::vector<int64_t> repeats) {
  const int64_t rank = require_rank(self, "aten::repeat");
  const int64_t n = static_cast<int64_t>(repeats.size());
  if (n < rank) {
    throw TypeError(fmt::format(
        "aten::repeat: {} repeats given for a tensor of rank {} (needs at least as many)", n,
        rank));
  }
  // More repeats than dimensions: leading dimensions of size 1 come first.
  Value x = self;
  if (n > rank) {
    std::vector<int64_t> leading;
    for (int64_t i = 0; i < n - rank; ++i) leading.push_back(i);
    x = op::Unsqueeze(x, int64s(leading));
  }
  return op::Tile(x, int64s(repeats));
}

Value aten_tile(Value self, std::vector<int64_t> dims) {
  const int64_t rank = require_rank(self, "aten::tile");
  // Fewer dims than dimensions: the leading ones are 1.
  while (static_cast<int64_t>(dims.size()) < rank) dims.insert(dims.begin(), 1);
  return aten_repeat(self, std::move(dims));
}

Value aten_flip(Value self, std::vector<int64_t> dims) {
  if (dims.empty()) return op::Identity(self);
  const std::vector<int64_t> starts(dims.size(), -1), ends(dims.size(), kInt64Min),
      steps(dims.size(), -1);
  return op::Slice(self, int64s(starts), int64s(ends), int64s(dims), int64s(steps));
}

Value aten_roll(Value self, std::vector<int64_t> shifts, std::vector<int64_t> dims) {
  if (dims.empty()) {
    // Roll the flattened tensor, then restore the shape.
    if (shifts.size() != 1) throw TypeError("aten::roll: without dims, give exactly one shift");
    const Value flat = aten_roll(op::Reshape(self, int64s({-1})), shifts, {0});
    return op::Reshape(flat, op::Shape(self));
  }
  if (shifts.size() != dims.size()) {
    throw TypeError(fmt::format("aten::roll: {} shifts for {} dims", shifts.size(), dims.size()));
  }
  Value x = self;
  for (size_t i = 0; i < dims.size(); ++i) {
    // x[size - k:] then x[:size - k], with k = shift mod size (the size may
    // be known only at run time).
    const Value size = op::Slice(op::Shape(x), int64s({dims[i]}),
                                 int64s({dims[i] == -1 ? kInt64Max : dims[i] + 1}));
    const Value k = op::Mod(int64s({shifts[i]}), size, {.fmod = 0});
    const Value cut = op::Sub(size, k);
    const Value tail = op::Slice(x, cut, int64s({kInt64Max}), int64s({dims[i]}));
    const Value head = op::Slice(x, int64s({0}), cut, int64s({dims[i]}));
    x = op::Concat(std::vector<Value>{tail, head}, {.axis = dims[i]});
  }
  return x;
}

Value aten_narrow(Value self, int64_t dim, int64_t start, int64_t length) {
  if (length < 0) throw TypeError(fmt::format("aten::narrow: length must be >= 0, got {}", length));
  // A negative start counts from the end; its end is then the end of the
  // dimension when start + length reaches 0.
  const int64_t end = (start < 0 && start + length >= 0) ? kInt64Max : start + length;
  return op::Slice(self, int64s({start}), int64s({end}), int64s({dim}));
}

Value aten_narrow_tensor(Value self, int64_t dim, Value start, int64_t length) {
  if (start.is_literal()) return aten_narrow(self, dim, start.literal_as_int(), length);
  // A start known at run time (taken as non-negative).
  const Value begin = op::Reshape(op::Cast(start, {.to = DataType::kInt64}), int64s({1}));
  return op::Slice(self, begin, op::Add(begin, length), int64s({dim}));
}

Value aten_index_select(Value self, int64_t dim, Value index) {
  // A 0-D index keeps the dimension, with one entry.
  if (index.rank() == 0) index = op::Reshape(index, int64s({1}));
  return op::Gather(self, index, {.axis = dim});
}

Value aten_gather(Value self, int64_t dim, Value index, bool /*sparse_grad*/) {
  // PyTorch gathers from a 0-D tensor with a 0-D index; GatherElements
  // needs rank 1, so both become one element and the result 0-D again.
  if (self.rank() == 0 && index.rank() == 0) {
    const Value one = int64s({1});
    return op::Reshape(
        op::GatherElements(op::Reshape(self, one), op::Reshape(index, one), {.axis = 0}),
        int64s({}));
  }
  return op::GatherElements(self, index, {.axis = dim});
}

Value aten_expand_as(Value self, Value other) { return op::Expand(self, op::Shape(other)); }

Value aten_reshape_as(Value self, Value other) {
  // other's shape may hold 0s: empty dimensions, not "keep this one".
  return op::Reshape(self, op::Shape(other), {.allowzero = 1});
}

Value aten_broadcast_to(Value self, Value size) {
  // -1 keeps a dimension: its absolute value 1 broadcasts to the existing size.
  return op::Expand(self, op::Abs(op::Cast(size, {.to = DataType::kInt64})));
}

Value aten_t(Value self) {
  const int64_t rank = require_rank(self, "aten::t");
  if (rank > 2) throw TypeError(fmt::format("aten::t: needs rank 2 or less, got {}", rank));
  if (rank < 2) return op::Identity(self);
  return op::Transpose(self, {.perm = std::vector<int64_t>{1, 0}});
}

Value aten_numel(Value self) { return op::Size(self); }

Value aten_atleast_1d(Value self) {
  if (require_rank(self, "aten::atleast_1d") == 0) return op::Reshape(self, int64s({1}));
  return op::Identity(self);
}

Value aten_atleast_2d(Value self) {
  const int64_t rank = require_rank(self, "aten::atleast_2d");
  if (rank == 0) return op::Reshape(self, int64s({1, 1}));
  if (rank == 1) return op::Unsqueeze(self, int64s({0}));
  return op::Identity(self);
}

Value aten_atleast_3d(Value self) {
  const int64_t rank = require_rank(self, "aten::atleast_3d");
  // [] -> [1, 1, 1], [n] -> [1, n, 1], [a, b] -> [a, b, 1].
  if (rank == 0) return op::Reshape(self, int64s({1, 1, 1}));
  if (rank == 1) return op::Unsqueeze(self, int64s({0, 2}));
  if (rank == 2) return op::Unsqueeze(self, int64s({2}));
  return op::Identity(self);
}

std::vector<Value> aten_atleast_1d_sequence(std::vector<Value> tensors) {
  for (Value& t : tensors) t = aten_atleast_1d(t);
  return tensors;
}
std::vector<Value> aten_atleast_2d_sequence(std::vector<Value> tensors) {
  for (Value& t : tensors) t = aten_atleast_2d(t);
  return tensors;
}
std::vector<Value> aten_atleast_3d_sequence(std::vector<Value> tensors) {
  for (Value& t : tensors) t = aten_atleast_3d(t);
  return tensors;
}

Value aten_constant_pad_nd(Value self, std::vector<int64_t> pad, Value value) {
  if (pad.size() % 2 != 0)
    throw TypeError(
        fmt::format("aten::constant_pad_nd: pad needs pairs, got {} entries", pad.size()));
  const int64_t rank = require_rank(self, "aten::constant_pad_nd");
  const int64_t n = static_cast<int64_t>(pad.size()) / 2;
  if (n > rank) {
    throw TypeError(
        fmt::format("aten::constant_pad_nd: {} padded dimensions for rank {}", n, rank));
  }
  // PyTorch pairs (begin, end) from the last dimension backwards; ONNX wants
  // all the begins, then all the ends, from the first dimension.
  std::vector<int64_t> pads(static_cast<size_t>(2 * rank), 0);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t axis = rank - 1 - i;
    pads[axis] = pad[2 * i];
    pads[rank + axis] = pad[2 * i + 1];
  }
  const Value fill =
      value.is_literal()
          ? op::CastLike(scalar_of(DataType::kDouble, value.literal_as_double()), self)
          : op::CastLike(value, self);
  return op::Pad(self, int64s(pads), fill);
}

namespace {

// `layer` (written for [N, C, H, W]) over a tensor of rank 3 or more: the
// dimensions before the last three flattened into one batch dimension, and
// restored on the result.
Value over_batch_dims(const Value& self, std::string_view aten_op,
                      const std::function<Value(const Value&)>& layer) {
  const int64_t rank = require_rank(self, aten_op);
  if (rank < 3) throw TypeError(fmt::format("{}: needs a tensor of rank 3 or more", aten_op));
  if (rank == 4) return layer(self);
  const Value shape = op::Shape(self);
  const Value batch = op::Slice(shape, int64s({0}), int64s({rank - 3}));
  const Value last3 = op::Slice(shape, int64s({rank - 3}), int64s({rank}));
  const Value y =
      layer(op::Reshape(self, op::Concat(std::vector<Value>{int64s({-1}), last3}, {.axis = 0})));
  const Value y_last3 = op::Slice(op::Shape(y), int64s({1}), int64s({4}));
  return op::Reshape(y, op::Concat(std::vector<Value>{batch, y_last3}, {.axis = 0}),
                     {.allowzero = 1});
}

}  // namespace

Value aten_pixel_shuffle(Value self, int64_t upscale_factor) {
  // PyTorch's channel order is DepthToSpace's CRD mode.
  return over_batch_dims(self, "aten::pixel_shuffle", [&](const Value& x) {
    return op::DepthToSpace(x, {.blocksize = upscale_factor, .mode = "CRD"});
  });
}

std::vector<Value> aten_topk(Value self, int64_t k, int64_t dim, bool largest, bool sorted) {
  auto [values, indices] = op::TopK(
      self, int64s({k}), {.axis = dim, .largest = largest ? 1 : 0, .sorted = sorted ? 1 : 0});
  return {values, indices};
}

std::vector<Value> aten_sort(Value self, int64_t dim, bool descending) {
  // TopK of every element; equal elements may come in another order than
  // PyTorch's (neither promises one).
  const Value size =
      op::Slice(op::Shape(self), int64s({dim}), int64s({dim == -1 ? kInt64Max : dim + 1}));
  auto [values, indices] =
      op::TopK(self, size, {.axis = dim, .largest = descending ? 1 : 0, .sorted = 1});
  return {values, indices};
}

Value aten_nonzero(Value self) {
  // A 0-D tensor: [1, 0] when it is non-zero, [0, 0] otherwise (NonZero
  // would count it as one dimension).
  if (self.rank() == 0) {
    const Value rows = op::NonZero(op::Reshape(self, int64s({1})));
    return op::Slice(op::Transpose(rows, {.perm = std::vector<int64_t>{1, 0}}), int64s({0}),
                     int64s({0}), int64s({1}));
  }
  // NonZero gives [rank, n]; PyTorch gives [n, rank].
  return op::Transpose(op::NonZero(self), {.perm = std::vector<int64_t>{1, 0}});
}

Value aten_tril(Value self, int64_t diagonal) {
  return op::Trilu(self, Value(Tensor::scalar<int64_t>(diagonal)), {.upper = 0});
}

Value aten_triu(Value self, int64_t diagonal) {
  return op::Trilu(self, Value(Tensor::scalar<int64_t>(diagonal)), {.upper = 1});
}

Value aten_one_hot(Value self, int64_t num_classes) {
  if (self.dtype() && *self.dtype() != DataType::kInt64)
    throw TypeError("aten::one_hot: needs an int64 tensor of class indices");
  // -1: one more than the largest index.
  const Value depth = num_classes >= 0 ? Value(Tensor::scalar<int64_t>(num_classes))
                                       : op::Add(op::ReduceMax(self, {.keepdims = 0}), int64_t{1});
  // OneHot needs indices of rank 1 or more: a 0-D index goes through [1].
  if (self.rank() == 0) {
    return op::Squeeze(
        op::OneHot(op::Reshape(self, int64s({1})), depth, int64s({0, 1}), {.axis = -1}),
        int64s({0}));
  }
  return op::OneHot(self, depth, int64s({0, 1}), {.axis = -1});
}

Value aten_to_dtype(Value self, int64_t dtype, bool /*non_blocking*/, bool /*copy*/,
                    std::optional<std::string> /*memory_format*/) {
  return op::Cast(self, {.to = onnx_dtype(dtype)});
}

Value aten_to_other(Value self, Value other, bool /*non_blocking*/, bool /*copy*/,
                    std::optional<std::string> /*memory_format*/) {
  return op::CastLike(self, other);
}

Value aten_to_prim_dtype(Value self, std::optional<int64_t> dtype, bool /*non_blocking*/,
                         bool /*copy*/) {
  if (!dtype) return op::Identity(self);
  return op::Cast(self, {.to = onnx_dtype(*dtype)});
}

Value aten_type_as(Value self, Value other) { return op::CastLike(self, other); }

Value aten_to_copy(Value self, std::optional<int64_t> dtype, std::optional<int64_t> /*layout*/,
                   std::optional<std::string> /*device*/, std::optional<bool> /*pin_memory*/,
                   bool /*non_blocking*/, std::optional<std::string> /*memory_format*/) {
  if (!dtype) return op::Identity(self);
  return op::Cast(self, {.to = onnx_dtype(*dtype)});
}

Value aten_clone(Value self, std::optional<std::string> /*memory_format*/) {
  return op::Identity(self);
}

Value aten_identity(Value self) { return op::Identity(self); }

Value aten_unflatten(Value self, int64_t dim, std::vector<int64_t> sizes) {
  const int64_t rank = require_rank(self, "aten::unflatten");
  const int64_t axis = wrap_dim(dim, rank, "aten::unflatten");
  // The leading sizes, the new ones, the trailing sizes.
  const Value shape = op::Shape(self);
  std::vector<Value> parts;
  if (axis > 0) parts.push_back(op::Slice(shape, int64s({0}), int64s({axis})));
  parts.push_back(int64s(sizes));
  if (axis < rank - 1) parts.push_back(op::Slice(shape, int64s({axis + 1}), int64s({rank})));
  return op::Reshape(self, parts.size() == 1 ? parts[0] : op::Concat(parts, {.axis = 0}));
}

Value aten_mT(Value self) {
  const int64_t rank = require_rank(self, "aten::mT");
  if (rank < 2) throw TypeError(fmt::format("aten::mT: needs rank 2 or more, got {}", rank));
  // The last two dimensions swapped (the conjugate too for mH: real tensors).
  return aten_transpose(self, -2, -1);
}

Value aten_copy(Value self, Value src, bool /*non_blocking*/) {
  // src broadcast to self's shape, in self's type.
  return op::Expand(op::CastLike(src, self), op::Shape(self));
}

Value aten_einsum(std::string equation, std::vector<Value> tensors,
                  std::optional<std::vector<int64_t>> /*path*/) {
  if (tensors.empty()) throw TypeError("aten::einsum: needs at least one tensor");
  return op::Einsum(tensors, {.equation = equation});
}

Value aten_linalg_cross(Value self, Value other, int64_t dim) {
  // (a1 b2 - a2 b1, ...): each operand rotated by one and by two along dim.
  const Value next = int64s({1, 2, 0}), after = int64s({2, 0, 1});
  const Value a1 = op::Gather(self, next, {.axis = dim}),
              a2 = op::Gather(self, after, {.axis = dim});
  const Value b1 = op::Gather(other, next, {.axis = dim}),
              b2 = op::Gather(other, after, {.axis = dim});
  return op::Sub(op::Mul(a1, b2), op::Mul(a2, b1));
}

Value aten_cross(Value self, Value other, std::optional<int64_t> dim) {
  if (dim) return aten_linalg_cross(self, other, *dim);
  // No dim: the first dimension of size 3.
  const int64_t rank = require_rank(self, "aten::cross");
  const std::optional<ir::Shape> shape = self.shape();
  for (int64_t d = 0; shape && d < rank; ++d) {
    if ((*shape)[d].is_static() && (*shape)[d].value() == 3)
      return aten_linalg_cross(self, other, d);
  }
  throw TypeError(
      fmt::format("aten::cross: {} has no dimension known to be of size 3", self.describe()));
}

Value aten_repeat_interleave(Value self, int64_t repeats, std::optional<int64_t> dim,
                             std::optional<int64_t> /*output_size*/) {
  if (repeats < 0)
    throw TypeError(fmt::format("aten::repeat_interleave: repeats must be >= 0, got {}", repeats));
  Value x = self;
  int64_t axis = 0;
  if (!dim) {
    x = op::Reshape(self, int64s({-1}));  // no dim: the flattened tensor
  } else {
    axis = wrap_dim(*dim, require_rank(self, "aten::repeat_interleave"), "aten::repeat_interleave");
  }
  const int64_t rank = dim ? *self.rank() : 1;
  // Each element repeated in place: a new axis after `axis`, tiled, merged.
  std::vector<int64_t> tiles(static_cast<size_t>(rank + 1), 1);
  tiles[static_cast<size_t>(axis + 1)] = repeats;
  const Value tiled = op::Tile(op::Unsqueeze(x, int64s({axis + 1})), int64s(tiles));
  const Value shape = op::Shape(x);
  std::vector<Value> parts;
  if (axis > 0) parts.push_back(op::Slice(shape, int64s({0}), int64s({axis})));
  parts.push_back(op::Mul(op::Slice(shape, int64s({axis}), int64s({axis + 1})), repeats));
  if (axis < rank - 1) parts.push_back(op::Slice(shape, int64s({axis + 1}), int64s({rank})));
  // 0 repeats (or an empty dimension) make a 0 in the shape: an empty dimension.
  return op::Reshape(tiled, parts.size() == 1 ? parts[0] : op::Concat(parts, {.axis = 0}),
                     {.allowzero = 1});
}

Value aten_unfold(Value self, int64_t dimension, int64_t size, int64_t step) {
  const int64_t rank = require_rank(self, "aten::unfold");
  if (size < 0 || step <= 0) {
    throw TypeError(
        fmt::format("aten::unfold: size must be >= 0 and step > 0, got {} and {}", size, step));
  }
  if (rank == 0) {
    // A 0-D tensor is one element: a window of size 1 holds it, of size 0 nothing.
    if (size > 1 || (dimension != 0 && dimension != -1)) {
      throw TypeError(
          fmt::format("aten::unfold: a 0-D tensor takes dimension 0 and size 0 or 1, got {} and {}",
                      dimension, size));
    }
    return op::Slice(op::Reshape(self, int64s({1})), int64s({0}), int64s({size}), int64s({0}));
  }
  const int64_t axis = wrap_dim(dimension, rank, "aten::unfold");
  const int64_t length = require_size(self, axis, "aten::unfold");
  if (size > length) {
    throw TypeError(
        fmt::format("aten::unfold: size {} exceeds the dimension's size {}", size, length));
  }
  // Window i holds positions i * step + j: gathered as [n, size] along the
  // axis, then the window's positions moved to the end.
  const int64_t n = (length - size) / step + 1;
  std::vector<int64_t> positions;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < size; ++j) positions.push_back(i * step + j);
  const Value windows =
      op::Gather(self, Value(Tensor::from_span<int64_t>(positions, {n, size})), {.axis = axis});
  std::vector<int64_t> perm;
  for (int64_t d = 0; d <= rank; ++d)
    if (d != axis + 1) perm.push_back(d);
  perm.push_back(axis + 1);
  return op::Transpose(windows, {.perm = perm});
}

namespace {

// pixel_unshuffle of an [N, C, H, W] tensor.
Value pixel_unshuffle4(const Value& self, int64_t downscale_factor) {
  const int64_t r = downscale_factor;
  // [N, C, H r, W r] -> [N, C, H, r, W, r] -> [N, C, r, r, H, W] -> [N, C r r, H, W].
  const Value shape = op::Shape(self);
  auto part = [&](int64_t i) { return op::Slice(shape, int64s({i}), int64s({i + 1})); };
  const Value h = op::Div(part(2), r), w = op::Div(part(3), r);
  const Value six =
      op::Concat(std::vector<Value>{part(0), part(1), h, int64s({r}), w, int64s({r})}, {.axis = 0});
  const Value moved =
      op::Transpose(op::Reshape(self, six), {.perm = std::vector<int64_t>{0, 1, 3, 5, 2, 4}});
  const Value four =
      op::Concat(std::vector<Value>{part(0), op::Mul(part(1), r * r), h, w}, {.axis = 0});
  return op::Reshape(moved, four);
}

}  // namespace

Value aten_pixel_unshuffle(Value self, int64_t downscale_factor) {
  return over_batch_dims(self, "aten::pixel_unshuffle",
                         [&](const Value& x) { return pixel_unshuffle4(x, downscale_factor); });
}

Value aten_diagonal(Value self, int64_t offset, int64_t dim1, int64_t dim2) {
  const int64_t rank = require_rank(self, "aten::diagonal");
  if (rank < 2) throw TypeError("aten::diagonal: needs a tensor of rank 2 or more");
  const int64_t d1 = wrap_dim(dim1, rank, "aten::diagonal"),
                d2 = wrap_dim(dim2, rank, "aten::diagonal");
  if (d1 == d2) throw TypeError("aten::diagonal: dim1 and dim2 must differ");
  const int64_t n1 = require_size(self, d1, "aten::diagonal"),
                n2 = require_size(self, d2, "aten::diagonal");
  // The two dimensions moved to the end and flattened; the diagonal is every
  // (n2 + 1)-th element from its first.
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != d1 && d != d2) perm.push_back(d);
  perm.push_back(d1);
  perm.push_back(d2);
  const Value moved = op::Transpose(self, {.perm = perm});
  const Value shape = op::Shape(moved);
  const Value flat_shape = op::Concat(
      std::vector<Value>{op::Slice(shape, int64s({0}), int64s({rank - 2})), int64s({n1 * n2})},
      {.axis = 0});
  const Value flat = op::Reshape(moved, flat_shape);
  const int64_t row0 = offset >= 0 ? 0 : -offset, col0 = offset >= 0 ? offset : 0;
  const int64_t length = std::max<int64_t>(0, std::min(n1 - row0, n2 - col0));
  std::vector<int64_t> positions;
  for (int64_t i = 0; i < length; ++i) positions.push_back((row0 + i) * n2 + col0 + i);
  return op::Gather(flat, int64s(positions), {.axis = rank - 2});
}

std::vector<Value> aten_unique2(Value self, bool sorted, bool return_inverse, bool return_counts) {
  // Unique of the flattened tensor; the inverse indices take self's shape.
  // Outputs not asked for are empty, as PyTorch returns them.
  auto [values, first, inverse, counts] = op::Unique.all_outputs(self, {.sorted = sorted ? 1 : 0});
  // LibTorch computes the inverse when either it or the counts is asked for.
  const Value empty(Tensor(DataType::kInt64, {0}));
  return {values, return_inverse || return_counts ? op::Reshape(inverse, op::Shape(self)) : empty,
          return_counts ? counts : empty};
}

std::vector<Value> aten_unique(Value self, bool sorted, bool return_inverse) {
  std::vector<Value> all = aten_unique2(self, sorted, return_inverse, false);
  return {all[0], all[1]};
}

std::vector<Value> aten_unique_dim(Value self, int64_t dim, bool sorted, bool /*return_inverse*/,
                                   bool /*return_counts*/) {
  auto [values, first, inverse, counts] =
      op::Unique.all_outputs(self, {.axis = dim, .sorted = sorted ? 1 : 0});
  // LibTorch's unique_dim always returns the inverse and the counts, whatever
  // return_inverse and return_counts say.
  return {values, inverse, counts};
}

void register_more_shapes(Registry& r) {
  using detail::overload;
  r.add(overload<aten_squeeze>("aten::squeeze(Tensor(a) self) -> Tensor(a)"));
  r.add(overload<aten_squeeze_dim>("aten::squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)"));
  r.add(overload<aten_unsqueeze>("aten::unsqueeze(Tensor(a) self, int dim) -> Tensor(a)"));
  r.add(overload<aten_stack>("aten::stack(Tensor[] tensors, int dim=0) -> Tensor"));
  r.add(overload<aten_split>(
      "aten::split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[]"));
  r.add(overload<aten_split>(
      "aten::unsafe_split.Tensor(Tensor self, int split_size, int dim=0) -> Tensor[]"));
  r.add(overload<aten_split_with_sizes>(
      "aten::split.sizes(Tensor(a -> *) self, int[] split_size, int dim=0) -> Tensor(a)[]"));
  r.add(overload<aten_split_with_sizes>(
      "aten::split(Tensor(a -> *) self, int[] split_sizes, int dim=0) -> Tensor(a)[]"));
  r.add(overload<aten_split_with_sizes>(
      "aten::split_with_sizes(Tensor(a -> *) self, int[] split_sizes, int dim=0) -> Tensor(a)[]"));
  r.add(overload<aten_unbind>("aten::unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]"));
  r.add(overload<aten_repeat>("aten::repeat(Tensor self, SymInt[] repeats) -> Tensor"));
  r.add(overload<aten_tile>("aten::tile(Tensor self, int[] dims) -> Tensor"));
  r.add(overload<aten_flip>("aten::flip(Tensor self, int[] dims) -> Tensor"));
  r.add(overload<aten_roll>("aten::roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor"));
  r.add(overload<aten_narrow>(
      "aten::narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a)"));
  r.add(overload<aten_narrow_tensor>(
      "aten::narrow.Tensor(Tensor(a) self, int dim, Tensor start, int length) -> Tensor(a)"));
  r.add(overload<aten_index_select>(
      "aten::index_select(Tensor self, int dim, Tensor index) -> Tensor"));
  r.add(overload<aten_gather>(
      "aten::gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor"));
  r.add(overload<aten_expand_as>("aten::expand_as(Tensor(a) self, Tensor other) -> Tensor(a)"));
  r.add(overload<aten_reshape_as>("aten::view_as(Tensor(a) self, Tensor other) -> Tensor(a)"));
  r.add(overload<aten_reshape_as>("aten::reshape_as(Tensor(a) self, Tensor other) -> Tensor(a)"));
  r.add(overload<aten_broadcast_to>("aten::broadcast_to(Tensor(a) self, int[] size) -> Tensor(a)"));
  r.add(overload<aten_t>("aten::t(Tensor(a) self) -> Tensor(a)"));
  r.add(overload<aten_numel>("aten::numel(Tensor self) -> int"));
  r.add(overload<aten_atleast_1d>("aten::atleast_1d(Tensor self) -> Tensor"));
  r.add(overload<aten_atleast_2d>("aten::atleast_2d(Tensor self) -> Tensor"));
  r.add(overload<aten_atleast_3d>("aten::atleast_3d(Tensor self) -> Tensor"));
  r.add(overload<aten_atleast_1d_sequence>(
      "aten::atleast_1d.Sequence(Tensor[] tensors) -> Tensor[]"));
  r.add(overload<aten_atleast_2d_sequence>(
      "aten::atleast_2d.Sequence(Tensor[] tensors) -> Tensor[]"));
  r.add(overload<aten_atleast_3d_sequence>(
      "aten::atleast_3d.Sequence(Tensor[] tensors) -> Tensor[]"));
  r.add(overload<aten_constant_pad_nd>(
      "aten::constant_pad_nd(Tensor self, int[] pad, Scalar value=0) -> Tensor"));
  r.add(overload<aten_pixel_shuffle>(
      "aten::pixel_shuffle(Tensor self, int upscale_factor) -> Tensor"));
  r.add(overload<aten_topk>(
      "aten::topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> "
      "(Tensor values, Tensor indices)"));
  r.add(overload<aten_sort>(
      "aten::sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor "
      "indices)"));
  r.add(overload<aten_nonzero>("aten::nonzero(Tensor self) -> Tensor"));
  r.add(overload<aten_tril>("aten::tril(Tensor self, int diagonal=0) -> Tensor"));
  r.add(overload<aten_triu>("aten::triu(Tensor self, int diagonal=0) -> Tensor"));
  r.add(overload<aten_one_hot>("aten::one_hot(Tensor self, int num_classes=-1) -> Tensor"));
  r.add(overload<aten_unflatten>(
      "aten::unflatten.int(Tensor(a) self, int dim, int[] sizes) -> Tensor(a)"));

  r.add(overload<aten_to_dtype>(
      "aten::to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool "
      "copy=False, MemoryFormat? memory_format=None) -> Tensor(a)"));
  r.add(overload<aten_to_other>(
      "aten::to.other(Tensor(a) self, Tensor other, bool non_blocking=False, bool copy=False, "
      "MemoryFormat? memory_format=None) -> Tensor(a)"));
  r.add(overload<aten_to_prim_dtype>(
      "aten::to.prim_dtype(Tensor(a) self, int? dtype=None, bool non_blocking=False, bool "
      "copy=False) -> Tensor(b|a)"));
  r.add(overload<aten_type_as>("aten::type_as(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_to_copy>(
      "aten::_to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None, bool non_blocking=False, MemoryFormat? "
      "memory_format=None) -> Tensor"));
  r.add(overload<aten_clone>(
      "aten::clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor"));
  r.add(overload<aten_identity>("aten::detach(Tensor(a) self) -> Tensor(a)"));
  r.add(overload<aten_identity>("aten::alias(Tensor(a) self) -> Tensor(a)"));
  r.add(overload<aten_identity>("aten::lift_fresh_copy(Tensor self) -> Tensor"));
  r.add(overload<aten_identity>("aten::resolve_conj(Tensor(a) self) -> Tensor(a)"));
  r.add(overload<aten_identity>("aten::resolve_neg(Tensor(a) self) -> Tensor(a)"));
  r.add(overload<aten_mT>("aten::mT(Tensor(a) self) -> Tensor(a)"));
  r.add(overload<aten_mT>("aten::mT.a(Tensor(a) self) -> Tensor(a)"));
  r.add(overload<aten_mT>("aten::mH(Tensor(a) self) -> Tensor(a)"));
  r.add(overload<aten_mT>("aten::mH.a(Tensor(a) self) -> Tensor(a)"));
  r.add(overload<aten_copy>(
      "aten::copy(Tensor self, Tensor src, bool non_blocking=False) -> Tensor"));
  r.add(overload<aten_reshape>("aten::_unsafe_view(Tensor self, SymInt[] size) -> Tensor"));
  r.add(overload<aten_reshape>("aten::view_copy(Tensor self, SymInt[] size) -> Tensor"));
  r.add(overload<aten_size_dim>("aten::sym_size.int(Tensor self, int dim) -> SymInt"));
  r.add(overload<aten_softmax>(
      "aten::special_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor"));
  r.add(overload<aten_einsum>(
      "aten::einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor"));
  r.add(overload<aten_cross>("aten::cross(Tensor self, Tensor other, int? dim=None) -> Tensor"));
  r.add(overload<aten_linalg_cross>(
      "aten::linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor"));
  r.add(overload<aten_repeat_interleave>(
      "aten::repeat_interleave.self_int(Tensor self, int repeats, int? dim=None, *, int? "
      "output_size=None) -> Tensor"));
  r.add(overload<aten_unfold>(
      "aten::unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)"));
  r.add(overload<aten_pixel_unshuffle>(
      "aten::pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor"));
  r.add(overload<aten_diagonal>(
      "aten::diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)"));
  r.add(overload<aten_diagonal>(
      "aten::diagonal_copy(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor"));
  r.add(overload<aten_unique>(
      "aten::_unique(Tensor self, bool sorted=True, bool return_inverse=False) -> (Tensor, "
      "Tensor)"));
  r.add(overload<aten_unique2>(
      "aten::_unique2(Tensor self, bool sorted=True, bool return_inverse=False, bool "
      "return_counts=False) -> (Tensor, Tensor, Tensor)"));
  r.add(overload<aten_unique_dim>(
      "aten::unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False, bool "
      "return_counts=False) -> (Tensor, Tensor, Tensor)"));
  r.add(overload<aten_cat>("aten::concat(Tensor[] tensors, int dim=0) -> Tensor"));
  r.add(overload<aten_cat>("aten::concatenate(Tensor[] tensors, int dim=0) -> Tensor"));
}

}  // namespace onnxscript::torch_lib
