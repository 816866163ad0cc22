// Counting: histc, bincount and unique_consecutive. Their output sizes
// depend on the values (bincount's length, unique_consecutive's groups), so
// they are computed at run time: a one-hot comparison against the bin
// numbers summed over the elements (histc, bincount), and a mask of the
// positions where a new run starts (unique_consecutive).

#include <fmt/format.h>

#include <limits>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"
#include "lib/torch_lib/promotion.h"

namespace onnxscript::torch_lib {

namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

// A Scalar argument's value while exporting, or a TypeError naming the
// operator and the parameter.
double known_scalar(const Value& v, std::string_view aten_op, std::string_view param) {
  if (!v.is_literal())
    throw TypeError(
        fmt::format("{}: {} must be known while exporting, got {}", aten_op, param, v.describe()));
  return v.literal_as_double();
}

// True when `v`'s shape is known and holds no element.
bool known_empty(const Value& v) {
  const std::optional<ir::Shape> shape = v.shape();
  if (!shape) return false;
  for (size_t d = 0; d < shape->size(); ++d)
    if ((*shape)[d].is_static() && (*shape)[d].value() == 0) return true;
  return false;
}

// The positions of `mark` (1-D bool) that hold true, as a 1-D int64 tensor.
Value true_positions(const Value& mark) { return op::Squeeze(op::NonZero(mark), int64s({0})); }

}  // namespace

Value aten_histc(Value self, int64_t bins, Value min, Value max) {
  constexpr const char* kOp = "aten::histc";
  if (bins <= 0) throw TypeError(fmt::format("{}: bins must be > 0, got {}", kOp, bins));
  const std::optional<DataType> type = self.dtype();
  // LibTorch 1.13 has float and double kernels only (no integer
  // "histogram_cpu", no float16 "aminmax_cpu").
  if (!type || (*type != DataType::kFloat && *type != DataType::kDouble))
    throw TypeError(
        fmt::format("{}: takes a float or double tensor, got {}", kOp, self.describe()));
  const double lo = known_scalar(min, kOp, "min"), hi = known_scalar(max, kOp, "max");
  if (lo > hi)
    throw TypeError(
        fmt::format("{}: max must be larger than min, got min {} and max {}", kOp, lo, hi));
  if (known_empty(self)) {
    return op::ConstantOfShape(int64s({bins}),
                               {.value = scalar_of(*type, 0).tensor().reshaped({1})});
  }
  const Value x = op::Reshape(self, int64s({-1}));
  // The range: min and max as given, or the data's own range when they are
  // equal, widened by one on each side when that is a single value too.
  Value left = scalar_of(*type, lo), right = scalar_of(*type, hi);
  if (lo == hi) {
    const Value data_lo = op::ReduceMin(x, Value(), {.keepdims = 0});
    const Value data_hi = op::ReduceMax(x, Value(), {.keepdims = 0});
    const Value same = op::Equal(data_lo, data_hi);
    left = op::Where(same, op::Sub(data_lo, scalar_of(*type, 1)), data_lo);
    right = op::Where(same, op::Add(data_hi, scalar_of(*type, 1)), data_hi);
  }
  // LibTorch's bin: (x - left) * bins / (right - left) in the element type,
  // truncated; the right edge belongs to the last bin. Elements outside the
  // range (and NaN) count nowhere: their bin is -1.
  const Value scaled = op::Div(
      op::Mul(op::Sub(x, left), scalar_of(*type, static_cast<double>(bins))), op::Sub(right, left));
  const Value bin = op::Min({op::Cast(scaled, {.to = DataType::kInt64}), int64s({bins - 1})});
  const Value inside = op::And(op::GreaterOrEqual(x, left), op::LessOrEqual(x, right));
  const Value counted = op::Where(inside, bin, int64s({-1}));
  std::vector<int64_t> numbers;
  for (int64_t b = 0; b < bins; ++b) numbers.push_back(b);
  const Value bin_numbers = int64s(numbers);
  const Value hits = op::Equal(op::Unsqueeze(counted, int64s({1})), bin_numbers);
  return op::ReduceSum(op::Cast(hits, {.to = *type}), int64s({0}), {.keepdims = 0});
}

Value aten_bincount(Value self, std::optional<Value> weights, int64_t minlength) {
  constexpr const char* kOp = "aten::bincount";
  if (minlength < 0)
    throw TypeError(fmt::format("{}: minlength must be >= 0, got {}", kOp, minlength));
  const std::optional<DataType> type = self.dtype();
  if (type && (is_floating(*type) || *type == DataType::kBool))
    throw TypeError(fmt::format("{}: takes a tensor of integers, got {}", kOp, self.describe()));
  if (const std::optional<int64_t> rank = self.rank(); rank && *rank != 1)
    throw TypeError(fmt::format("{}: takes a 1-D tensor, got {}", kOp, self.describe()));
  // Negative values, which LibTorch rejects, are counted nowhere.
  const Value x = op::Cast(self, {.to = DataType::kInt64});
  // max(self) + 1 bins, at least minlength: the largest of the values and
  // minlength - 1 (which also serves an empty self).
  const Value last = op::ReduceMax(op::Concat({x, int64s({minlength - 1})}, {.axis = 0}), Value(),
                                   {.keepdims = 0});
  const Value bin_numbers =
      op::Range(scalar_of(DataType::kInt64, 0), op::Add(last, scalar_of(DataType::kInt64, 1)),
                scalar_of(DataType::kInt64, 1));
  const Value hits = op::Equal(op::Unsqueeze(x, int64s({1})), bin_numbers);  // [N, bins]
  if (!weights)
    return op::ReduceSum(op::Cast(hits, {.to = DataType::kInt64}), int64s({0}), {.keepdims = 0});
  // Weighted: float32 weights sum as float32, any other type as double.
  const std::optional<DataType> wtype = weights->dtype();
  const DataType out = wtype == DataType::kFloat ? DataType::kFloat : DataType::kDouble;
  const Value w = op::Unsqueeze(op::Cast(*weights, {.to = out}), int64s({1}));
  return op::ReduceSum(op::Where(hits, w, scalar_of(out, 0)), int64s({0}), {.keepdims = 0});
}

std::vector<Value> aten_unique_consecutive(Value self, bool return_inverse, bool return_counts,
                                           std::optional<int64_t> dim) {
  constexpr const char* kOp = "aten::unique_consecutive";
  const Value none = int64s({});
  if (!dim) {
    // The flattened tensor: a run starts where an element differs from the
    // one before it (NaN differs from everything, as in LibTorch).
    const Value flat = op::Reshape(self, int64s({-1}));
    const Value n = op::Shape(flat);
    const Value differs = op::Not(op::Equal(op::Slice(flat, int64s({1}), int64s({kInt64Max})),
                                            op::Slice(flat, int64s({0}), int64s({-1}))));
    const Value starts = op::Slice(
        op::Concat({Value(Tensor::from<bool>({true}, {1})), differs}, {.axis = 0}), int64s({0}), n);
    const Value values = op::Compress(flat, starts, {.axis = 0});
    // LibTorch returns empty tensors for the outputs not asked for.
    Value inverse = none, counts = none;
    if (return_inverse) {
      const Value group =
          op::Sub(op::CumSum(op::Cast(starts, {.to = DataType::kInt64}), int64s({0})), int64s({1}));
      inverse = op::Reshape(group, op::Shape(self), {.allowzero = 1});
    }
    if (return_counts) {
      const Value first = true_positions(starts);
      const Value next =
          op::Concat({op::Slice(first, int64s({1}), int64s({kInt64Max})), n}, {.axis = 0});
      counts = op::Sub(next, first);
    }
    return {values, inverse, counts};
  }
  // Along dim: a run starts where a slice differs anywhere from the one
  // before it. LibTorch returns the inverse and the counts whatever
  // return_inverse and return_counts say.
  const int64_t rank = require_rank(self, kOp);
  if (rank == 0) throw TypeError(fmt::format("{}: dim needs a tensor of rank 1 or more", kOp));
  const int64_t axis = wrap_dim(*dim, rank, kOp);
  std::vector<int64_t> perm{axis};
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis) perm.push_back(d);
  const Value rows = op::Flatten(op::Transpose(self, {.perm = perm}), {.axis = 1});  // [n, M]
  const Value n = op::Slice(op::Shape(rows), int64s({0}), int64s({1}));
  const Value differs_elementwise =
      op::Not(op::Equal(op::Slice(rows, int64s({1}), int64s({kInt64Max})),
                        op::Slice(rows, int64s({0}), int64s({-1}))));
  const Value differs =
      op::Greater(op::ReduceSum(op::Cast(differs_elementwise, {.to = DataType::kInt64}),
                                int64s({1}), {.keepdims = 0}),
                  int64s({0}));
  const Value starts = op::Slice(
      op::Concat({Value(Tensor::from<bool>({true}, {1})), differs}, {.axis = 0}), int64s({0}), n);
  const Value values = op::Compress(self, starts, {.axis = axis});
  const Value inverse =
      op::Sub(op::CumSum(op::Cast(starts, {.to = DataType::kInt64}), int64s({0})), int64s({1}));
  const Value first = true_positions(starts);
  const Value next =
      op::Concat({op::Slice(first, int64s({1}), int64s({kInt64Max})), n}, {.axis = 0});
  return {values, inverse, op::Sub(next, first)};
}

void register_counting(Registry& r) {
  using detail::overload;
  r.add(overload<aten_histc>(
      "aten::histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor"));
  r.add(overload<aten_bincount>(
      "aten::bincount(Tensor self, Tensor? weights=None, int minlength=0) -> Tensor"));
  r.add(overload<aten_unique_consecutive>(
      "aten::unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, "
      "int? dim=None) -> (Tensor, Tensor, Tensor)"));
}

}  // namespace onnxscript::torch_lib
