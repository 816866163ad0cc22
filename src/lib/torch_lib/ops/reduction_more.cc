// More reductions: sum, prod, amax, amin, max / min (everything, or along a
// dimension with indices), argmax, argmin, var, std, logsumexp, all, any,
// cumsum, norm. PyTorch sums and multiplies integers and booleans as int64
// unless a dtype is given; the functions do the same.

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"
#include "lib/torch_lib/promotion.h"

namespace onnxscript::torch_lib {

namespace {

// self cast to `dtype` when given, otherwise integers and booleans to int64
// (PyTorch's accumulation type for sum, prod and cumsum).
Value accumulation_input(Value self, std::optional<int64_t> dtype) {
  if (dtype) return op::Cast(self, {.to = onnx_dtype(*dtype)});
  if (has_integral_dtype(self) && self.dtype() != DataType::kInt64)
    return op::Cast(self, {.to = DataType::kInt64});
  return self;
}

// Dimensions as ONNX axes; an empty list (or none) reduces everything.
std::optional<Value> axes_of(const std::optional<std::vector<int64_t>>& dim) {
  if (!dim || dim->empty()) return std::nullopt;
  return int64s(*dim);
}

// A reduction operator of opset 18 over `axes` (all when none).
template <typename Reduce>
Value reduce(Reduce reduce_op, const Value& x, const std::optional<Value>& axes, bool keepdim) {
  // A 0-D tensor reduced over its dimension 0 (or -1) is itself; ONNX's
  // reductions take no axis of a 0-D tensor.
  if (axes && x.rank() == 0) return op::Identity(x);
  if (!axes) return reduce_op(x, {.keepdims = keepdim ? 1 : 0});
  return reduce_op(x, *axes, {.keepdims = keepdim ? 1 : 0});
}

// Throws for integer and bool tensors, which PyTorch's statistics refuse.
void require_floating(const Value& self, std::string_view aten_op) {
  if (has_integral_dtype(self)) {
    throw TypeError(
        fmt::format("{}: needs a floating point tensor, got {}", aten_op, self.describe()));
  }
}

// The number of elements over `axes` (all when none), as a 0-D tensor of
// self's type: what var and std divide by.
Value count_over(const Value& self, const std::optional<Value>& axes) {
  const Value shape = op::Shape(self);
  const Value sizes = axes ? op::Gather(shape, *axes, {.axis = 0}) : shape;
  return op::CastLike(op::ReduceProd(sizes, {.keepdims = 0}), self);
}

}  // namespace

Value aten_sum(Value self, std::optional<int64_t> dtype) {
  return op::ReduceSum(accumulation_input(self, dtype), {.keepdims = 0});
}

Value aten_sum_dim(Value self, std::optional<std::vector<int64_t>> dim, bool keepdim,
                   std::optional<int64_t> dtype) {
  return reduce(op::ReduceSum, accumulation_input(self, dtype), axes_of(dim), keepdim);
}

Value aten_prod(Value self, std::optional<int64_t> dtype) {
  return op::ReduceProd(accumulation_input(self, dtype), {.keepdims = 0});
}

Value aten_prod_dim(Value self, int64_t dim, bool keepdim, std::optional<int64_t> dtype) {
  return reduce(op::ReduceProd, accumulation_input(self, dtype), int64s({dim}), keepdim);
}

namespace {

// amax / amin: ReduceMax and ReduceMin take no bool, so a bool tensor is
// reduced as uint8 (true the larger) and turned back.
template <typename Reduce>
Value extremum(Reduce reduce_op, const Value& self, const std::vector<int64_t>& dim, bool keepdim) {
  if (self.dtype() == DataType::kBool) {
    const Value y =
        reduce(reduce_op, op::Cast(self, {.to = DataType::kUint8}), axes_of(dim), keepdim);
    return op::Cast(y, {.to = DataType::kBool});
  }
  return reduce(reduce_op, self, axes_of(dim), keepdim);
}

}  // namespace

Value aten_amax(Value self, std::vector<int64_t> dim, bool keepdim) {
  return extremum(op::ReduceMax, self, dim, keepdim);
}

Value aten_amin(Value self, std::vector<int64_t> dim, bool keepdim) {
  return extremum(op::ReduceMin, self, dim, keepdim);
}

namespace {

// Booleans as int32 for ReduceMax / ReduceMin / ArgMax / ArgMin, which take
// no bool in opset 18; `back` casts a reduced value to the input's type.
Value orderable(const Value& self) {
  return has_bool_dtype(self) ? op::Cast(self, {.to = DataType::kInt32}) : self;
}
Value back(const Value& reduced, const Value& self) {
  return has_bool_dtype(self) ? op::Cast(reduced, {.to = DataType::kBool}) : reduced;
}

// PyTorch's max, min, argmax and argmin propagate NaN (a NaN is the
// extreme, at the first NaN's index); ReduceMax and ArgMax leave it
// unspecified and skip it in practice. Only floating tensors hold NaN.
bool may_hold_nan(const Value& self) { return self.dtype() && is_floating(*self.dtype()); }

// `reduced`, the max or min of `self` over `axes` (all when none), made NaN
// where a reduced element is NaN.
Value propagate_nan(const Value& reduced, const Value& self, const std::optional<Value>& axes,
                    bool keepdim) {
  if (!may_hold_nan(self)) return reduced;
  const Value flags = op::Cast(op::IsNaN(self), {.to = DataType::kInt32});
  const Value any = op::Cast(reduce(op::ReduceMax, flags, axes, keepdim), {.to = DataType::kBool});
  const Value nan =
      op::CastLike(Value(Tensor::scalar<float>(std::numeric_limits<float>::quiet_NaN())), self);
  return op::Where(any, nan, reduced);
}

// `index`, an ArgMax / ArgMin of `self` along `axis`, replaced by the first
// NaN's index where the reduced elements hold one.
Value propagate_nan_index(const Value& index, const Value& self, int64_t axis, int64_t keepdims) {
  if (!may_hold_nan(self)) return index;
  const Value flags = op::Cast(op::IsNaN(self), {.to = DataType::kInt32});
  const Value first = op::ArgMax(flags, {.axis = axis, .keepdims = keepdims});
  const Value any = op::Cast(op::ReduceMax(flags, int64s({axis}), {.keepdims = keepdims}),
                             {.to = DataType::kBool});
  return op::Where(any, first, index);
}

// A 0-D tensor reduced along its only dimension (0 or -1): itself, at index 0.
bool reduces_a_scalar(const Value& self, int64_t dim, std::string_view aten_op) {
  if (self.rank() != 0) return false;
  wrap_dim(dim, 0, aten_op);
  return true;
}

// max.dim / min.dim: the extreme values along `dim` and their first indices.
template <typename Reduce, typename Arg>
std::vector<Value> extreme_along(Reduce reduce_op, Arg arg_op, const Value& self, int64_t dim,
                                 bool keepdim, std::string_view aten_op) {
  if (reduces_a_scalar(self, dim, aten_op))
    return {op::Identity(self), Value(Tensor::scalar<int64_t>(0))};
  const int64_t k = keepdim ? 1 : 0;
  const Value x = orderable(self);
  const Value values = back(reduce_op(x, int64s({dim}), {.keepdims = k}), self);
  return {propagate_nan(values, self, int64s({dim}), keepdim),
          propagate_nan_index(arg_op(x, {.axis = dim, .keepdims = k}), self, dim, k)};
}

}  // namespace

Value aten_max(Value self) {
  const Value m = back(op::ReduceMax(orderable(self), {.keepdims = 0}), self);
  return propagate_nan(m, self, std::nullopt, false);
}
Value aten_min(Value self) {
  const Value m = back(op::ReduceMin(orderable(self), {.keepdims = 0}), self);
  return propagate_nan(m, self, std::nullopt, false);
}

std::vector<Value> aten_max_dim(Value self, int64_t dim, bool keepdim) {
  return extreme_along(op::ReduceMax, op::ArgMax, self, dim, keepdim, "aten::max.dim");
}

std::vector<Value> aten_min_dim(Value self, int64_t dim, bool keepdim) {
  return extreme_along(op::ReduceMin, op::ArgMin, self, dim, keepdim, "aten::min.dim");
}

namespace {

// argmax / argmin: with no dim, over the flattened tensor (kept dimensions
// are all 1).
template <typename Arg>
Value arg_reduce(Arg arg_op, const Value& self, std::optional<int64_t> dim, bool keepdim,
                 std::string_view aten_op) {
  const int64_t k = keepdim ? 1 : 0;
  if (dim && reduces_a_scalar(self, *dim, aten_op)) return Value(Tensor::scalar<int64_t>(0));
  if (dim) return propagate_nan_index(arg_op(self, {.axis = *dim, .keepdims = k}), self, *dim, k);
  const Value flat = op::Reshape(self, int64s({-1}));
  const Value index = propagate_nan_index(arg_op(flat, {.axis = 0, .keepdims = 0}), flat, 0, 0);
  if (!keepdim) return index;
  const int64_t rank = require_rank(self, aten_op);
  return op::Reshape(index, int64s(std::vector<int64_t>(static_cast<size_t>(rank), 1)));
}

}  // namespace

Value aten_argmax(Value self, std::optional<int64_t> dim, bool keepdim) {
  return arg_reduce(op::ArgMax, self, dim, keepdim, "aten::argmax");
}

Value aten_argmin(Value self, std::optional<int64_t> dim, bool keepdim) {
  return arg_reduce(op::ArgMin, self, dim, keepdim, "aten::argmin");
}

Value aten_var_correction(Value self, std::optional<std::vector<int64_t>> dim,
                          std::optional<int64_t> correction, bool keepdim) {
  require_floating(self, "aten::var");
  const std::optional<Value> axes = axes_of(dim);
  // sum((x - mean)^2) / (N - correction); the default correction is 1.
  const Value mean = reduce(op::ReduceMean, self, axes, true);
  const Value centered = op::Sub(self, mean);
  const Value squares = reduce(op::ReduceSum, op::Mul(centered, centered), axes, keepdim);
  const double c = static_cast<double>(correction.value_or(1));
  const Value n = count_over(self, axes);
  return op::Div(squares, c == 0 ? n : op::Sub(n, c));
}

Value aten_var_dim(Value self, std::optional<std::vector<int64_t>> dim, bool unbiased,
                   bool keepdim) {
  return aten_var_correction(self, std::move(dim), unbiased ? 1 : 0, keepdim);
}

Value aten_var(Value self, bool unbiased) {
  return aten_var_correction(self, std::nullopt, unbiased ? 1 : 0, false);
}

Value aten_std_correction(Value self, std::optional<std::vector<int64_t>> dim,
                          std::optional<int64_t> correction, bool keepdim) {
  require_floating(self, "aten::std");
  return op::Sqrt(aten_var_correction(self, std::move(dim), correction, keepdim));
}

Value aten_std_dim(Value self, std::optional<std::vector<int64_t>> dim, bool unbiased,
                   bool keepdim) {
  return aten_std_correction(self, std::move(dim), unbiased ? 1 : 0, keepdim);
}

Value aten_std(Value self, bool unbiased) {
  return aten_std_correction(self, std::nullopt, unbiased ? 1 : 0, false);
}

Value aten_logsumexp(Value self, std::vector<int64_t> dim, bool keepdim) {
  const Value x = floating_or_float32(self);
  const std::optional<Value> axes = axes_of(dim);
  // m + log(sum(exp(x - m))) with m the maximum, which does not overflow;
  // an infinite maximum is replaced by 0 so that inf - inf makes no NaN.
  const Value m = reduce(op::ReduceMax, x, axes, true);
  const Value zero = op::CastLike(Value(Tensor::scalar<float>(0)), x);
  const Value safe_m = op::Where(op::IsInf(m), zero, m);
  const Value sum = reduce(op::ReduceSum, op::Exp(op::Sub(x, safe_m)), axes, keepdim);
  const Value shift = keepdim ? safe_m : reduce(op::ReduceMax, safe_m, axes, false);
  return op::Add(op::Log(sum), shift);
}

namespace {

// all / any as counts of (non-)zero elements: ReduceSum counts an empty
// reduction as 0, which gives all() true and any() false, as PyTorch does.
Value count_true(const Value& self, const std::optional<Value>& axes, bool negate, bool keepdim) {
  Value b = op::Cast(self, {.to = DataType::kBool});
  if (negate) b = op::Not(b);
  return reduce(op::ReduceSum, op::Cast(b, {.to = DataType::kInt64}), axes, keepdim);
}

}  // namespace

Value aten_all(Value self) { return op::Equal(count_true(self, std::nullopt, true, false), 0); }
Value aten_all_dim(Value self, int64_t dim, bool keepdim) {
  if (reduces_a_scalar(self, dim, "aten::all.dim")) return op::Cast(self, {.to = DataType::kBool});
  return op::Equal(count_true(self, int64s({dim}), true, keepdim), 0);
}
Value aten_any(Value self) { return op::Greater(count_true(self, std::nullopt, false, false), 0); }
Value aten_any_dim(Value self, int64_t dim, bool keepdim) {
  if (reduces_a_scalar(self, dim, "aten::any.dim")) return op::Cast(self, {.to = DataType::kBool});
  return op::Greater(count_true(self, int64s({dim}), false, keepdim), 0);
}

Value aten_cumsum(Value self, int64_t dim, std::optional<int64_t> dtype) {
  const Value x = accumulation_input(self, dtype);
  if (self.rank() == 0) return op::Identity(x);  // CumSum needs rank >= 1
  return op::CumSum(x, Value(Tensor::scalar<int64_t>(dim)));
}

Value aten_norm_dim(Value self, std::optional<Value> p, std::vector<int64_t> dim, bool keepdim) {
  require_floating(self, "aten::norm");
  double order = 2;
  if (p) {
    if (!p->is_literal())
      throw TypeError("aten::norm: the order p must be a number known while exporting");
    order = p->literal_as_double();
  }
  const std::optional<Value> axes = axes_of(dim);
  const Value a = op::Abs(self);
  if (order == 2) return reduce(op::ReduceL2, self, axes, keepdim);
  if (order == 1) return reduce(op::ReduceL1, self, axes, keepdim);
  if (std::isinf(order))
    return order > 0 ? reduce(op::ReduceMax, a, axes, keepdim)
                     : reduce(op::ReduceMin, a, axes, keepdim);
  if (order == 0) {
    // The number of non-zero elements.
    return reduce(op::ReduceSum, op::CastLike(op::Not(op::Equal(self, 0.0)), self), axes, keepdim);
  }
  // (sum |x|^p)^(1/p).
  // The exponents as tensors of self's type: a number exponent would be a
  // float32 constant, which costs a double input its precision.
  auto exponent = [&](double e) { return op::CastLike(scalar_of(DataType::kDouble, e), self); };
  return op::Pow(reduce(op::ReduceSum, op::Pow(a, exponent(order)), axes, keepdim),
                 exponent(1.0 / order));
}

Value aten_norm(Value self, Value p) { return aten_norm_dim(self, p, {}, false); }

Value aten_norm_dtype(Value self, std::optional<Value> p, int64_t dtype) {
  return aten_norm_dim(op::Cast(self, {.to = onnx_dtype(dtype)}), std::move(p), {}, false);
}

Value aten_norm_dim_dtype(Value self, std::optional<Value> p, std::vector<int64_t> dim,
                          bool keepdim, int64_t dtype) {
  return aten_norm_dim(op::Cast(self, {.to = onnx_dtype(dtype)}), std::move(p), std::move(dim),
                       keepdim);
}

Value aten_logcumsumexp(Value self, int64_t dim) {
  const Value x = floating_or_float32(self);
  const int64_t rank = require_rank(x, "aten::logcumsumexp");
  if (rank == 0) return op::Identity(x);
  const int64_t axis = wrap_dim(dim, rank, "aten::logcumsumexp");
  // Each prefix's logsumexp, which stays stable where one shift for the
  // whole dimension would not (a prefix far below the maximum underflows):
  // with dim last, row i of an [L, L] matrix keeps x_j for j <= i and -inf
  // beyond, and the stable logsumexp reduces the rows. O(L^2) memory.
  std::vector<int64_t> perm(static_cast<size_t>(rank));
  for (int64_t d = 0; d < rank; ++d) perm[static_cast<size_t>(d)] = d;
  std::swap(perm[static_cast<size_t>(axis)], perm.back());
  const bool moved = axis != rank - 1;
  const Value last = moved ? op::Transpose(x, {.perm = perm}) : x;
  const Value length =
      op::Slice(op::Shape(last), int64s({-1}), int64s({std::numeric_limits<int64_t>::max()}));
  const Value square = op::Concat(std::vector<Value>{length, length}, {.axis = 0});
  const Value lower = op::Trilu(
      op::ConstantOfShape(square, {.value = Tensor::from<bool>({true}, {1})}), {.upper = 0});
  const Value zero = op::CastLike(Value(Tensor::scalar<float>(0)), x);
  const Value minus_inf =
      op::CastLike(Value(Tensor::scalar<float>(-std::numeric_limits<float>::infinity())), x);
  const Value masked =
      op::Add(op::Unsqueeze(last, int64s({-2})), op::Where(lower, zero, minus_inf));
  const Value result = aten_logsumexp(masked, {-1}, false);
  return moved ? op::Transpose(result, {.perm = perm}) : result;
}

Value aten_linalg_vector_norm(Value self, Value ord, std::optional<std::vector<int64_t>> dim,
                              bool keepdim, std::optional<int64_t> dtype) {
  if (dtype) self = op::Cast(self, {.to = onnx_dtype(*dtype)});
  return aten_norm_dim(self, ord, dim.value_or(std::vector<int64_t>{}), keepdim);
}

void register_more_reductions(Registry& r) {
  using detail::overload;
  r.add(overload<aten_sum>("aten::sum(Tensor self, *, ScalarType? dtype=None) -> Tensor"));
  r.add(overload<aten_sum_dim>(
      "aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? "
      "dtype=None) -> Tensor"));
  r.add(overload<aten_prod>("aten::prod(Tensor self, *, ScalarType? dtype=None) -> Tensor"));
  r.add(overload<aten_prod_dim>(
      "aten::prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> "
      "Tensor"));
  r.add(
      overload<aten_amax>("aten::amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor"));
  r.add(
      overload<aten_amin>("aten::amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor"));
  r.add(overload<aten_max>("aten::max(Tensor self) -> Tensor"));
  r.add(overload<aten_min>("aten::min(Tensor self) -> Tensor"));
  r.add(overload<aten_max_dim>(
      "aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor "
      "indices)"));
  r.add(overload<aten_min_dim>(
      "aten::min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor "
      "indices)"));
  r.add(overload<aten_argmax>(
      "aten::argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor"));
  r.add(overload<aten_argmin>(
      "aten::argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor"));
  r.add(overload<aten_var>("aten::var(Tensor self, bool unbiased=True) -> Tensor"));
  r.add(overload<aten_var_dim>(
      "aten::var.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> "
      "Tensor"));
  r.add(overload<aten_var_correction>(
      "aten::var.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> "
      "Tensor"));
  r.add(overload<aten_std>("aten::std(Tensor self, bool unbiased=True) -> Tensor"));
  r.add(overload<aten_std_dim>(
      "aten::std.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> "
      "Tensor"));
  r.add(overload<aten_std_correction>(
      "aten::std.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> "
      "Tensor"));
  r.add(overload<aten_logsumexp>(
      "aten::logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor"));
  r.add(overload<aten_all>("aten::all(Tensor self) -> Tensor"));
  r.add(
      overload<aten_all_dim>("aten::all.dim(Tensor self, int dim, bool keepdim=False) -> Tensor"));
  r.add(overload<aten_any>("aten::any(Tensor self) -> Tensor"));
  r.add(
      overload<aten_any_dim>("aten::any.dim(Tensor self, int dim, bool keepdim=False) -> Tensor"));
  r.add(overload<aten_cumsum>(
      "aten::cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor"));
  r.add(overload<aten_logcumsumexp>("aten::logcumsumexp(Tensor self, int dim) -> Tensor"));
  r.add(overload<aten_linalg_vector_norm>(
      "aten::linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, "
      "*, ScalarType? dtype=None) -> Tensor"));
  r.add(overload<aten_norm>("aten::norm.Scalar(Tensor self, Scalar p=2) -> Tensor"));
  r.add(overload<aten_norm_dim>(
      "aten::norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> "
      "Tensor"));
  r.add(overload<aten_norm_dtype>(
      "aten::norm.ScalarOpt_dtype(Tensor self, Scalar? p, *, ScalarType dtype) -> Tensor"));
  r.add(overload<aten_norm_dim_dtype>(
      "aten::norm.ScalarOpt_dim_dtype(Tensor self, Scalar? p, int[1] dim, bool keepdim, *, "
      "ScalarType dtype) -> Tensor"));
}

}  // namespace onnxscript::torch_lib
