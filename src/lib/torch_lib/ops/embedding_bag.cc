// embedding_renorm (the max_norm of torch.nn.Embedding) and embedding_bag
// (torch.nn.EmbeddingBag): the rows of `weight` picked by 1-D
// `indices`, reduced per bag (the runs that `offsets` start) by sum, mean or
// max; with its spellings embedding_bag.padding_idx, _embedding_bag and
// _embedding_bag_forward_only.
//
// Bag membership is a [bags, indices] mask computed at run time (position p
// belongs to the last bag whose offset is <= p), so the sum and the mean are
// a MatMul of the mask (times per_sample_weights) with the picked rows, and
// the max a ReduceMax over the masked rows ([bags, indices, D] in memory).
//
// The three other outputs are LibTorch 1.13's bookkeeping, reproduced as it
// returns them: offset2bag (each index's bag; empty on LibTorch's fast path,
// a sum over float / float16 / bfloat16 weights without padding_idx),
// bag_size (each bag's count of indices other than padding_idx, zeros in sum
// mode, one per offset) and max_indices (the weight row of each maximum in
// max mode; bag_size otherwise), all of the indices' integer type.

#include <fmt/format.h>

#include <limits>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"
#include "lib/torch_lib/promotion.h"

namespace onnxscript::torch_lib {

namespace {

constexpr int64_t kSum = 0, kMean = 1, kMax = 2;

// embedding_bag with `padding_idx` already resolved (nullopt: none).
std::vector<Value> embedding_bag(const Value& weight, const Value& indices, const Value& offsets,
                                 int64_t mode, const std::optional<Value>& per_sample_weights,
                                 bool include_last_offset, std::optional<int64_t> padding_idx,
                                 std::string_view aten_op) {
  if (mode != kSum && mode != kMean && mode != kMax) {
    throw TypeError(
        fmt::format("{}: mode must be 0 (sum), 1 (mean) or 2 (max), got {}", aten_op, mode));
  }
  if (per_sample_weights && mode != kSum) {
    throw TypeError(fmt::format(
        "{}: per_sample_weights are taken in sum mode (0) only, got mode {}", aten_op, mode));
  }
  if (require_rank(indices, aten_op) != 1 || require_rank(offsets, aten_op) != 1) {
    throw TypeError(fmt::format(
        "{}: takes 1-D indices and offsets (torch.nn.functional.embedding_bag flattens 2-D "
        "indices first), got {} and {}",
        aten_op, indices.describe(), offsets.describe()));
  }
  const std::optional<DataType> wtype = weight.dtype();
  if (!wtype || !is_floating(*wtype)) {
    throw TypeError(fmt::format("{}: takes a floating weight, got {}", aten_op, weight.describe()));
  }
  const DataType itype = indices.dtype().value_or(DataType::kInt64);

  const Value idx = op::Cast(indices, {.to = DataType::kInt64});
  const Value offs = op::Cast(offsets, {.to = DataType::kInt64});
  const Value starts =
      include_last_offset ? op::Slice(offs, int64s({0}), int64s({-1})) : offs;  // [B]
  const Value positions =
      op::Range(scalar_of(DataType::kInt64, 0), op::Squeeze(op::Shape(idx), int64s({0})),
                scalar_of(DataType::kInt64, 1));  // [N]
  // Position p's bag: the number of bag starts at or before p, minus one.
  const Value bag =
      op::Sub(op::ReduceSum(op::Cast(op::LessOrEqual(op::Unsqueeze(starts, int64s({0})),
                                                     op::Unsqueeze(positions, int64s({1}))),
                                     {.to = DataType::kInt64}),
                            int64s({1}), {.keepdims = 0}),
              int64s({1}));
  const Value bag_numbers =
      op::Range(scalar_of(DataType::kInt64, 0), op::Squeeze(op::Shape(starts), int64s({0})),
                scalar_of(DataType::kInt64, 1));  // [B]
  Value member = op::Equal(op::Unsqueeze(bag, int64s({0})),
                           op::Unsqueeze(bag_numbers, int64s({1})));  // [B, N]
  if (padding_idx) {
    member = op::And(member,
                     op::Unsqueeze(op::Not(op::Equal(idx, int64s({*padding_idx}))), int64s({0})));
  }
  const Value count =
      op::ReduceSum(op::Cast(member, {.to = DataType::kInt64}), int64s({1}), {.keepdims = 0});
  const Value rows = op::Gather(weight, idx, {.axis = 0});  // [N, D]

  Value output, max_indices;
  if (mode == kMax) {
    const Value masked =
        op::Where(op::Unsqueeze(member, int64s({2})), op::Unsqueeze(rows, int64s({0})),
                  scalar_of(*wtype, -std::numeric_limits<double>::infinity()));
    const Value nonempty = op::Unsqueeze(op::Greater(count, int64s({0})), int64s({1}));  // [B, 1]
    output = op::Where(nonempty, op::ReduceMax(masked, int64s({1}), {.keepdims = 0}),
                       scalar_of(*wtype, 0));
    // The first maximum's position, as its weight row.
    const Value at = op::ArgMax(masked, {.axis = 1, .keepdims = 0});  // [B, D]
    max_indices =
        op::Cast(op::Where(nonempty, op::Gather(idx, at, {.axis = 0}), int64s({0})), {.to = itype});
  } else {
    Value coefficients = op::Cast(member, {.to = *wtype});
    if (per_sample_weights) {
      coefficients = op::Mul(coefficients,
                             op::Unsqueeze(op::CastLike(*per_sample_weights, weight), int64s({0})));
    }
    output = op::MatMul(coefficients, rows);
    if (mode == kMean) {
      output = op::Div(
          output,
          op::Unsqueeze(op::Cast(op::Max({count, int64s({1})}), {.to = *wtype}), int64s({1})));
    }
  }

  const bool fast_path =
      mode == kSum && !padding_idx &&
      (*wtype == DataType::kFloat || *wtype == DataType::kFloat16 || *wtype == DataType::kBfloat16);
  const Value offset2bag =
      fast_path ? op::Cast(int64s({}), {.to = itype}) : op::Cast(bag, {.to = itype});
  const Value bag_size = mode == kSum
                             ? op::Cast(op::ConstantOfShape(op::Shape(offs)), {.to = itype})
                             : op::Cast(count, {.to = itype});
  if (mode != kMax) max_indices = bag_size;
  return {output, offset2bag, bag_size, max_indices};
}

}  // namespace

std::vector<Value> aten_embedding_bag(Value weight, Value indices, Value offsets,
                                      bool /*scale_grad_by_freq*/, int64_t mode, bool /*sparse*/,
                                      std::optional<Value> per_sample_weights,
                                      bool include_last_offset) {
  return embedding_bag(weight, indices, offsets, mode, per_sample_weights, include_last_offset,
                       std::nullopt, "aten::embedding_bag");
}

std::vector<Value> aten_embedding_bag_padding_idx(Value weight, Value indices, Value offsets,
                                                  bool /*scale_grad_by_freq*/, int64_t mode,
                                                  bool /*sparse*/,
                                                  std::optional<Value> per_sample_weights,
                                                  bool include_last_offset,
                                                  std::optional<int64_t> padding_idx) {
  constexpr const char* kOp = "aten::embedding_bag.padding_idx";
  std::optional<int64_t> padding = padding_idx;
  if (padding && *padding < 0) {
    // A negative padding_idx counts from the end of weight's rows.
    const std::optional<ir::Shape> shape = weight.shape();
    if (!shape || shape->empty() || !(*shape)[0].is_static()) {
      throw TypeError(fmt::format(
          "{}: a negative padding_idx needs weight's number of rows while exporting", kOp));
    }
    padding = wrap_dim(*padding, (*shape)[0].value(), kOp);
  }
  return embedding_bag(weight, indices, offsets, mode, per_sample_weights, include_last_offset,
                       padding, kOp);
}

namespace {

// The internal spellings, which take -1 (any negative) for no padding_idx.
std::vector<Value> internal_embedding_bag(const Value& weight, const Value& indices,
                                          const Value& offsets, int64_t mode,
                                          const std::optional<Value>& per_sample_weights,
                                          bool include_last_offset, int64_t padding_idx,
                                          const char* aten_op) {
  return embedding_bag(weight, indices, offsets, mode, per_sample_weights, include_last_offset,
                       padding_idx >= 0 ? std::optional(padding_idx) : std::nullopt, aten_op);
}

}  // namespace

std::vector<Value> aten_embedding_bag_internal(Value weight, Value indices, Value offsets,
                                               bool /*scale_grad_by_freq*/, int64_t mode,
                                               bool /*sparse*/,
                                               std::optional<Value> per_sample_weights,
                                               bool include_last_offset, int64_t padding_idx) {
  return internal_embedding_bag(weight, indices, offsets, mode, per_sample_weights,
                                include_last_offset, padding_idx, "aten::_embedding_bag");
}

std::vector<Value> aten_embedding_bag_forward_only(Value weight, Value indices, Value offsets,
                                                   bool /*scale_grad_by_freq*/, int64_t mode,
                                                   bool /*sparse*/,
                                                   std::optional<Value> per_sample_weights,
                                                   bool include_last_offset, int64_t padding_idx) {
  return internal_embedding_bag(weight, indices, offsets, mode, per_sample_weights,
                                include_last_offset, padding_idx,
                                "aten::_embedding_bag_forward_only");
}

Value aten_embedding_renorm(Value self, Value indices, double max_norm, double norm_type) {
  constexpr const char* kOp = "aten::embedding_renorm";
  const int64_t rank = require_rank(self, kOp);
  if (rank != 2)
    throw TypeError(fmt::format("{}: takes a 2-D weight, got {}", kOp, self.describe()));
  // The rows some index names ([rows] bool).
  const Value rows =
      op::Range(scalar_of(DataType::kInt64, 0),
                op::Squeeze(op::Slice(op::Shape(self), int64s({0}), int64s({1})), int64s({0})),
                scalar_of(DataType::kInt64, 1));
  const Value flat = op::Reshape(op::Cast(indices, {.to = DataType::kInt64}), int64s({-1}));
  const Value named = op::Greater(
      op::ReduceSum(
          op::Cast(op::Equal(op::Unsqueeze(flat, int64s({1})), op::Unsqueeze(rows, int64s({0}))),
                   {.to = DataType::kInt64}),
          int64s({0}), {.keepdims = 0}),
      int64s({0}));
  // Each named row's norm_type-norm; above max_norm, the row scales by
  // max_norm / (norm + 1e-7), as LibTorch does.
  const std::optional<DataType> type = self.dtype();
  if (!type || !is_floating(*type))
    throw TypeError(fmt::format("{}: takes a floating weight, got {}", kOp, self.describe()));
  // Constants in self's type (a literal would pass through float32 first).
  const Value p = scalar_of(*type, norm_type);
  const Value norm = op::Pow(op::ReduceSum(op::Pow(op::Abs(self), p), int64s({1}), {.keepdims = 0}),
                             op::Div(scalar_of(*type, 1), p));
  const Value limit = scalar_of(*type, max_norm);
  const Value scale =
      op::Where(op::And(named, op::Greater(norm, limit)),
                op::Div(limit, op::Add(norm, scalar_of(*type, 1e-7))), scalar_of(*type, 1));
  return op::Mul(self, op::Unsqueeze(scale, int64s({1})));
}

void register_embedding_bag(Registry& r) {
  using detail::overload;
  r.add(overload<aten_embedding_renorm>(
      "aten::embedding_renorm(Tensor self, Tensor indices, float max_norm, float norm_type) -> "
      "Tensor"));
  r.add(overload<aten_embedding_bag>(
      "aten::embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool "
      "scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, "
      "bool include_last_offset=False) -> (Tensor, Tensor, Tensor, Tensor)"));
  r.add(overload<aten_embedding_bag_padding_idx>(
      "aten::embedding_bag.padding_idx(Tensor weight, Tensor indices, Tensor offsets, bool "
      "scale_grad_by_freq, int mode, bool sparse, Tensor? per_sample_weights, bool "
      "include_last_offset, int? padding_idx) -> (Tensor, Tensor, Tensor, Tensor)"));
  r.add(overload<aten_embedding_bag_internal>(
      "aten::_embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool "
      "scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, "
      "bool include_last_offset=False, int padding_idx=-1) -> (Tensor, Tensor, Tensor, Tensor)"));
  r.add(overload<aten_embedding_bag_forward_only>(
      "aten::_embedding_bag_forward_only(Tensor weight, Tensor indices, Tensor offsets, bool "
      "scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, "
      "bool include_last_offset=False, int padding_idx=-1) -> (Tensor, Tensor, Tensor, Tensor)"));
}

}  // namespace onnxscript::torch_lib
