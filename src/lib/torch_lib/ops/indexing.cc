// Scatters and advanced indexing: scatter (src, value, reduce), scatter_add,
// scatter_reduce, select_scatter, slice_scatter, index.Tensor and index_put
// (one index tensor, or several adjacent ones from the first dimension, or a
// boolean mask).

#include <fmt/format.h>

#include <limits>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"

namespace onnxscript::torch_lib {

namespace {

// PyTorch's reduce names as ScatterElements' reduction.
std::string scatter_reduction(const std::string& reduce, std::string_view aten_op) {
  if (reduce == "sum" || reduce == "add") return "add";
  if (reduce == "prod" || reduce == "multiply") return "mul";
  if (reduce == "amax") return "max";
  if (reduce == "amin") return "min";
  throw TypeError(fmt::format(
      "{}: reduce must be 'sum', 'prod', 'amax' or 'amin' (or 'add' / 'multiply'), got '{}'",
      aten_op, reduce));
}

// The permutation that brings `axis` to the front, for a tensor of `rank`
// (it is its own inverse only for rank <= 2, so callers invert it).
std::vector<int64_t> axis_first(int64_t axis, int64_t rank) {
  std::vector<int64_t> perm{axis};
  for (int64_t i = 0; i < rank; ++i)
    if (i != axis) perm.push_back(i);
  return perm;
}

std::vector<int64_t> inverse(const std::vector<int64_t>& perm) {
  std::vector<int64_t> inv(perm.size());
  for (size_t i = 0; i < perm.size(); ++i)
    inv[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
  return inv;
}

// self with the entries along `axis` listed in `positions` (1-D int64, run
// time) replaced by `src`'s slices, in order: ScatterND on the tensors with
// `axis` moved to the front.
Value scatter_along(const Value& self, const Value& src, const Value& positions, int64_t axis,
                    int64_t rank) {
  const std::vector<int64_t> perm = axis_first(axis, rank);
  const bool moved = axis != 0;
  const Value data = moved ? op::Transpose(self, {.perm = perm}) : self;
  const Value updates = moved ? op::Transpose(src, {.perm = perm}) : src;
  const Value indices = op::Unsqueeze(positions, int64s({1}));
  const Value scattered = op::ScatterND(data, indices, op::CastLike(updates, self));
  return moved ? op::Transpose(scattered, {.perm = inverse(perm)}) : scattered;
}

// The part of `src` that `index` covers: PyTorch reads src only where index
// has entries, so src may be larger in any dimension; ScatterElements needs
// updates of index's shape. Cast to self's type.
Value updates_for(const Value& self, const Value& index, const Value& src) {
  const Value shape = op::Shape(index);
  return op::CastLike(op::Slice(src, op::Mul(shape, int64_t{0}), shape), self);
}

// ScatterElements with `reduction`; float16 reductions run in float, which
// ONNX Runtime's CPU kernels need (it has no float16 "add" or "mul").
Value scatter_elements(const Value& self, const Value& index, const Value& updates, int64_t axis,
                       const std::string& reduction) {
  if (reduction != "none" && self.dtype() == DataType::kFloat16) {
    const Value y = op::ScatterElements(op::Cast(self, {.to = DataType::kFloat}), index,
                                        op::Cast(updates, {.to = DataType::kFloat}),
                                        {.axis = axis, .reduction = reduction});
    return op::Cast(y, {.to = DataType::kFloat16});
  }
  return op::ScatterElements(self, index, updates, {.axis = axis, .reduction = reduction});
}

// A 0-D tensor of self's type holding its largest value (`highest`) or its
// lowest: infinities for floating types, the limits for integers.
Value extreme(const Value& self, bool highest) {
  const DataType type = self.dtype().value_or(DataType::kFloat);
  auto pick = [&](auto limits) {
    using T = decltype(limits);
    return Value(Tensor::scalar<T>(highest ? std::numeric_limits<T>::max()
                                           : std::numeric_limits<T>::lowest()));
  };
  switch (type) {
    case DataType::kInt64:
      return pick(int64_t{});
    case DataType::kInt32:
      return pick(int32_t{});
    case DataType::kInt16:
      return pick(int16_t{});
    case DataType::kInt8:
      return pick(int8_t{});
    case DataType::kUint8:
      return pick(uint8_t{});
    default: {
      const double inf = std::numeric_limits<double>::infinity();
      return op::CastLike(Value(Tensor::scalar<double>(highest ? inf : -inf)), self);
    }
  }
}

// The size of `self` along `axis` as a 0-D int64 tensor (known at run time).
Value size_along(const Value& self, int64_t axis) {
  return op::Gather(op::Shape(self), Value(Tensor::scalar<int64_t>(axis)), {.axis = 0});
}

}  // namespace

Value aten_scatter_src(Value self, int64_t dim, Value index, Value src) {
  return op::ScatterElements(self, index, updates_for(self, index, src), {.axis = dim});
}

Value aten_scatter_value(Value self, int64_t dim, Value index, Value value) {
  // The value at every indexed position: an updates tensor of index's shape.
  const Value v = value.is_literal()
                      ? op::CastLike(Value(Tensor::scalar<double>(value.literal_as_double())), self)
                      : op::CastLike(value, self);
  return op::ScatterElements(self, index, op::Expand(v, op::Shape(index)), {.axis = dim});
}

Value aten_scatter_reduce_src(Value self, int64_t dim, Value index, Value src, std::string reduce) {
  return scatter_elements(self, index, updates_for(self, index, src), dim,
                          scatter_reduction(reduce, "aten::scatter.reduce"));
}

Value aten_scatter_value_reduce(Value self, int64_t dim, Value index, Value value,
                                std::string reduce) {
  const Value v = value.is_literal()
                      ? op::CastLike(Value(Tensor::scalar<double>(value.literal_as_double())), self)
                      : op::CastLike(value, self);
  return scatter_elements(self, index, op::Expand(v, op::Shape(index)), dim,
                          scatter_reduction(reduce, "aten::scatter.value_reduce"));
}

Value aten_scatter_add(Value self, int64_t dim, Value index, Value src) {
  return scatter_elements(self, index, updates_for(self, index, src), dim, "add");
}

Value aten_scatter_reduce_two(Value self, int64_t dim, Value index, Value src, std::string reduce,
                              bool include_self) {
  const Value updates = updates_for(self, index, src);
  const std::string reduction =
      scatter_reduction(reduce == "mean" ? "sum" : reduce, "aten::scatter_reduce");
  // Without self, the indexed positions start from the reduction's identity
  // (every write the same value, so repeated indices agree).
  Value start = self;
  if (!include_self) {
    Value fill = op::CastLike(Value(Tensor::scalar<double>(reduction == "mul" ? 1.0 : 0.0)), self);
    if (reduction == "max" || reduction == "min") fill = extreme(self, reduction == "min");
    start = op::ScatterElements(self, index, op::Expand(fill, op::Shape(index)), {.axis = dim});
  }
  const Value reduced = scatter_elements(start, index, updates, dim, reduction);
  if (reduce != "mean") return reduced;
  // The mean: the sum over the count of terms (self's counted once when it
  // is included); positions nothing was scattered to keep self. Integers
  // divide rounding down, as PyTorch's do.
  const Value one = op::CastLike(Value(Tensor::scalar<double>(1.0)), self);
  const Value zero = op::CastLike(Value(Tensor::scalar<double>(0.0)), self);
  const Value base = op::Expand(include_self ? one : zero, op::Shape(self));
  const Value count = scatter_elements(base, index, op::Expand(one, op::Shape(index)), dim, "add");
  const Value divisor = op::Max(std::vector<Value>{count, one});
  Value mean;
  if (is_floating(self.dtype().value_or(DataType::kFloat))) {
    mean = op::Div(reduced, divisor);
  } else {
    mean = op::Div(op::Sub(reduced, op::Mod(reduced, divisor, {.fmod = 0})), divisor);
  }
  return op::Where(op::Equal(count, zero), self, mean);
}

Value aten_select_scatter(Value self, Value src, int64_t dim, int64_t index) {
  const int64_t rank = require_rank(self, "aten::select_scatter");
  const int64_t axis = wrap_dim(dim, rank, "aten::select_scatter");
  // A negative index counts from the end (the size may be known only at run time).
  Value position = Value(Tensor::scalar<int64_t>(index));
  if (index < 0) position = op::Add(size_along(self, axis), position);
  return scatter_along(self, op::Unsqueeze(src, int64s({axis})), op::Reshape(position, int64s({1})),
                       axis, rank);
}

Value aten_slice_scatter(Value self, Value src, int64_t dim, std::optional<Value> start,
                         std::optional<Value> end, Value step) {
  const int64_t rank = require_rank(self, "aten::slice_scatter");
  const int64_t axis = wrap_dim(dim, rank, "aten::slice_scatter");
  // The positions the slice covers: the same bounds Slice would use,
  // clamped into [0, size] after wrapping negatives.
  const Value size = size_along(self, axis);
  auto bound = [&](const std::optional<Value>& v, bool is_end) -> Value {
    if (!v) return is_end ? size : Value(Tensor::scalar<int64_t>(0));
    Value b = v->is_literal() ? Value(Tensor::scalar<int64_t>(v->literal_as_int()))
                              : op::Reshape(op::Cast(*v, {.to = DataType::kInt64}), int64s({}));
    b = op::Where(op::Less(b, int64_t{0}), op::Add(b, size), b);
    return op::Min(std::vector<Value>{
        op::Max(std::vector<Value>{b, Value(Tensor::scalar<int64_t>(0))}), size});
  };
  const Value s = step.is_literal()
                      ? Value(Tensor::scalar<int64_t>(step.literal_as_int()))
                      : op::Reshape(op::Cast(step, {.to = DataType::kInt64}), int64s({}));
  const Value positions = op::Range(bound(start, false), bound(end, true), s);
  return scatter_along(self, src, positions, axis, rank);
}

namespace {

// The index tensors of index.Tensor / index_put: the non-None ones must be
// adjacent and start at dimension 0, or be a single one anywhere; returns
// (first dimension, the tensors).
std::pair<int64_t, std::vector<Value>> index_tensors(const std::vector<Value>& indices,
                                                     std::string_view aten_op) {
  int64_t first = -1;
  std::vector<Value> tensors;
  for (size_t i = 0; i < indices.size(); ++i) {
    if (indices[i].is_none()) continue;
    if (first < 0) first = static_cast<int64_t>(i);
    if (static_cast<int64_t>(i) != first + static_cast<int64_t>(tensors.size())) {
      throw TypeError(
          fmt::format("{}: index tensors separated by None are not supported", aten_op));
    }
    tensors.push_back(indices[i]);
  }
  if (tensors.empty()) throw TypeError(fmt::format("{}: needs at least one index tensor", aten_op));
  if (tensors.size() > 1 && first != 0) {
    throw TypeError(
        fmt::format("{}: several index tensors must start at the first dimension", aten_op));
  }
  return {first, tensors};
}

// Several index tensors broadcast together and stacked on a last axis: the
// indices of GatherND / ScatterND.
Value stacked_indices(const std::vector<Value>& tensors) {
  std::vector<Value> shapes;
  for (const Value& t : tensors) shapes.push_back(op::Shape(t));
  // The broadcast shape: Expand of each onto the others' shapes.
  Value shape = shapes[0];
  for (size_t i = 1; i < shapes.size(); ++i)
    shape = op::Shape(op::Expand(op::ConstantOfShape(shape), shapes[i]));
  std::vector<Value> parts;
  for (const Value& t : tensors)
    parts.push_back(
        op::Unsqueeze(op::Expand(op::Cast(t, {.to = DataType::kInt64}), shape), int64s({-1})));
  return op::Concat(parts, {.axis = -1});
}

}  // namespace

Value aten_index(Value self, std::vector<Value> indices) {
  auto [first, tensors] = index_tensors(indices, "aten::index.Tensor");
  if (tensors.size() == 1) {
    const Value& index = tensors[0];
    if (index.dtype() == DataType::kBool) {
      if (first != 0)
        throw TypeError("aten::index.Tensor: a boolean mask must index from dimension 0");
      // The positions where the mask is true, as rows of GatherND's indices.
      return op::GatherND(self,
                          op::Transpose(op::NonZero(index), {.perm = std::vector<int64_t>{1, 0}}));
    }
    return op::Gather(self, index, {.axis = first});
  }
  for (const Value& t : tensors) {
    if (t.dtype() == DataType::kBool)
      throw TypeError("aten::index.Tensor: a boolean mask must be the only index");
  }
  return op::GatherND(self, stacked_indices(tensors));
}

Value aten_index_put(Value self, std::vector<Value> indices, Value values, bool accumulate) {
  auto [first, tensors] = index_tensors(indices, "aten::index_put");
  const std::string reduction = accumulate ? "add" : "none";
  const int64_t rank = require_rank(self, "aten::index_put");
  Value idx;
  if (tensors.size() == 1 && tensors[0].dtype() == DataType::kBool) {
    if (first != 0) throw TypeError("aten::index_put: a boolean mask must index from dimension 0");
    idx = op::Transpose(op::NonZero(tensors[0]), {.perm = std::vector<int64_t>{1, 0}});
  } else if (tensors.size() == 1) {
    // One index along `first`: with that dimension moved to the front it is
    // ScatterND's [k, 1] indices.
    const Value positions =
        op::Reshape(op::Cast(tensors[0], {.to = DataType::kInt64}), int64s({-1}));
    const std::vector<int64_t> perm = axis_first(first, rank);
    const Value data = first != 0 ? op::Transpose(self, {.perm = perm}) : self;
    // The updates: values broadcast to the shape self[..., positions, ...]
    // has, then laid out like data.
    const Value target = op::Shape(op::Gather(self, positions, {.axis = first}));
    const Value expanded = op::Expand(op::CastLike(values, self), target);
    const Value updates = first != 0 ? op::Transpose(expanded, {.perm = perm}) : expanded;
    const Value scattered = op::ScatterND(data, op::Unsqueeze(positions, int64s({1})), updates,
                                          {.reduction = reduction});
    return first != 0 ? op::Transpose(scattered, {.perm = inverse(perm)}) : scattered;
  } else {
    idx = stacked_indices(tensors);
  }
  const Value target = op::Shape(op::GatherND(self, idx));
  const Value updates = op::Expand(op::CastLike(values, self), target);
  return op::ScatterND(self, idx, updates, {.reduction = reduction});
}

Value aten_masked_scatter(Value self, Value mask, Value source) {
  // The positions where the (broadcast) mask is true, in order, take
  // source's leading elements.
  const Value m = op::Expand(op::Cast(mask, {.to = DataType::kBool}), op::Shape(self));
  const Value idx = op::Transpose(op::NonZero(m), {.perm = std::vector<int64_t>{1, 0}});
  const Value count = op::Slice(op::Shape(idx), int64s({0}), int64s({1}));
  const Value updates = op::Slice(op::Reshape(source, int64s({-1})), int64s({0}), count);
  return op::ScatterND(self, idx, op::CastLike(updates, self));
}

namespace {

// The indices repeat_interleave takes: i repeated repeats[i] times. Output
// position t belongs to the number of cumulative counts <= t.
Value repeated_positions(const Value& repeats) {
  const Value r = op::Reshape(op::Cast(repeats, {.to = DataType::kInt64}), int64s({-1}));
  const Value ends = op::CumSum(r, Value(Tensor::scalar<int64_t>(0)));
  const Value total = op::ReduceSum(r, {.keepdims = 0});
  const Value t =
      op::Range(Value(Tensor::scalar<int64_t>(0)), total, Value(Tensor::scalar<int64_t>(1)));
  const Value passed =
      op::LessOrEqual(op::Unsqueeze(ends, int64s({0})), op::Unsqueeze(t, int64s({1})));
  return op::ReduceSum(op::Cast(passed, {.to = DataType::kInt64}), int64s({1}), {.keepdims = 0});
}

}  // namespace

Value aten_repeat_interleave_tensor(Value repeats, std::optional<int64_t> /*output_size*/) {
  return repeated_positions(repeats);
}

Value aten_repeat_interleave_self_tensor(Value self, Value repeats, std::optional<int64_t> dim,
                                         std::optional<int64_t> /*output_size*/) {
  Value x = self;
  int64_t axis = 0;
  if (!dim) {
    x = op::Reshape(self, int64s({-1}));  // no dim: the flattened tensor
  } else {
    axis = wrap_dim(*dim, require_rank(self, "aten::repeat_interleave"), "aten::repeat_interleave");
  }
  // One repeat count for every slice, or one per slice.
  const Value size = op::Slice(op::Shape(x), int64s({axis}), int64s({axis + 1}));
  const Value counts = op::Expand(op::Reshape(repeats, int64s({-1})), size);
  return op::Gather(x, repeated_positions(counts), {.axis = axis});
}

void register_indexing(Registry& r) {
  using detail::overload;
  r.add(overload<aten_scatter_src>(
      "aten::scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor"));
  r.add(overload<aten_scatter_value>(
      "aten::scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor"));
  r.add(overload<aten_scatter_reduce_src>(
      "aten::scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> "
      "Tensor"));
  r.add(overload<aten_scatter_value_reduce>(
      "aten::scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str "
      "reduce) -> Tensor"));
  r.add(overload<aten_scatter_add>(
      "aten::scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor"));
  r.add(overload<aten_scatter_reduce_two>(
      "aten::scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, "
      "bool include_self=True) -> Tensor"));
  r.add(overload<aten_select_scatter>(
      "aten::select_scatter(Tensor self, Tensor src, int dim, int index) -> Tensor"));
  r.add(overload<aten_slice_scatter>(
      "aten::slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? "
      "end=None, SymInt step=1) -> Tensor"));
  r.add(overload<aten_masked_scatter>(
      "aten::masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor"));
  r.add(overload<aten_repeat_interleave_tensor>(
      "aten::repeat_interleave.Tensor(Tensor repeats, *, int? output_size=None) -> Tensor"));
  r.add(overload<aten_repeat_interleave_self_tensor>(
      "aten::repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None, *, int? "
      "output_size=None) -> Tensor"));
  r.add(overload<aten_index>("aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor"));
  r.add(overload<aten_index>(
      "aten::index.Tensor_hacked_twin(Tensor self, Tensor[] indices) -> Tensor"));
  r.add(overload<aten_index_put>(
      "aten::index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> "
      "Tensor"));
  r.add(overload<aten_index_put>(
      "aten::index_put.hacked_twin(Tensor self, Tensor[] indices, Tensor values, bool "
      "accumulate=False) -> Tensor"));
}

}  // namespace onnxscript::torch_lib
