// Losses: mse_loss, nll_loss (and nll_loss_forward, with its total weight),
// cross_entropy_loss. PyTorch's reduction is an int: 0 none, 1 mean, 2 sum.

#include <fmt/format.h>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"

namespace onnxscript::torch_lib {

namespace {

// PyTorch's reduction code as the name ONNX's loss operators take.
std::string reduction_name(int64_t reduction, std::string_view aten_op) {
  switch (reduction) {
    case 0:
      return "none";
    case 1:
      return "mean";
    case 2:
      return "sum";
    default:
      throw TypeError(fmt::format("{}: reduction must be 0 (none), 1 (mean) or 2 (sum), got {}",
                                  aten_op, reduction));
  }
}

}  // namespace

Value aten_mse_loss(Value self, Value target, int64_t reduction) {
  const std::string how = reduction_name(reduction, "aten::mse_loss");
  const Value d = op::Sub(self, target);
  const Value squares = op::Mul(d, d);
  if (how == "none") return squares;
  if (how == "sum") return op::ReduceSum(squares, {.keepdims = 0});
  return op::ReduceMean(squares, {.keepdims = 0});
}

namespace {

// The per-item terms of the NLL loss over log-probabilities `log_p` ([N, C,
// d...], or [C] for one item, which is taken as [1, C]): `losses` is
// -weight[t] * log_p[i, t, ...] and `weights` the weight[t] counted (1
// without a weight), both 0 where the target is ignore_index.
struct NllTerms {
  Value losses;
  Value weights;
  Value ignored;  ///< Where the target is ignore_index (bool, target's shape).
  Value target;   ///< The target as int64, ignored entries replaced by 0.
};

NllTerms nll_terms(const Value& log_p, const Value& target, const std::optional<Value>& weight,
                   int64_t ignore_index) {
  // Written out rather than as NegativeLogLikelihoodLoss, which not every
  // runtime implements.
  const Value t = op::Cast(target, {.to = DataType::kInt64});
  const Value ignored = op::Equal(t, ignore_index);
  const Value safe_t = op::Where(ignored, Value(Tensor::scalar<int64_t>(0)), t);
  const Value picked = op::Squeeze(
      op::GatherElements(log_p, op::Unsqueeze(safe_t, int64s({1})), {.axis = 1}), int64s({1}));
  const Value zero = op::CastLike(Value(Tensor::scalar<float>(0)), log_p);
  const Value one = op::CastLike(Value(Tensor::scalar<float>(1)), log_p);
  const Value w = op::Where(ignored, zero, weight ? op::Gather(*weight, safe_t, {.axis = 0}) : one);
  return {op::Neg(op::Mul(picked, w)), op::Expand(w, op::Shape(t)), ignored, safe_t};
}

// A single item ([C] input, 0-D target) as a batch of one, which PyTorch
// accepts: `unbatched` tells the caller to drop the batch dimension again.
std::pair<Value, Value> as_batch(const Value& self, const Value& target, bool& unbatched,
                                 std::string_view aten_op) {
  unbatched = require_rank(self, aten_op) == 1;
  if (!unbatched) return {self, target};
  return {op::Unsqueeze(self, int64s({0})), op::Unsqueeze(target, int64s({0}))};
}

// Per-item losses reduced as PyTorch's `how`: the mean divides by
// `divisor` (the weights counted, or the number of items).
Value reduce_losses(const Value& losses, const std::string& how, const Value& divisor,
                    bool unbatched) {
  if (how == "none") return unbatched ? op::Squeeze(losses, int64s({0})) : losses;
  const Value total = op::ReduceSum(losses, {.keepdims = 0});
  if (how == "sum") return total;
  return op::Div(total, divisor);
}

}  // namespace

Value aten_nll_loss(Value self, Value target, std::optional<Value> weight, int64_t reduction,
                    int64_t ignore_index) {
  const std::string how = reduction_name(reduction, "aten::nll_loss");
  bool unbatched = false;
  auto [log_p, t] = as_batch(self, target, unbatched, "aten::nll_loss");
  const NllTerms terms = nll_terms(log_p, t, weight, ignore_index);
  // The mean divides by the weights counted (0/0, NaN, when all are ignored).
  return reduce_losses(terms.losses, how, op::ReduceSum(terms.weights, {.keepdims = 0}), unbatched);
}

std::vector<Value> aten_nll_loss_forward(Value self, Value target, std::optional<Value> weight,
                                         int64_t reduction, int64_t ignore_index) {
  constexpr const char* kOp = "aten::nll_loss_forward";
  const std::string how = reduction_name(reduction, kOp);
  bool unbatched = false;
  auto [log_p, t] = as_batch(self, target, unbatched, kOp);
  const NllTerms terms = nll_terms(log_p, t, weight, ignore_index);
  // The weights counted; LibTorch leaves the total 0 without a reduction.
  const Value total = how == "none" ? op::CastLike(Value(Tensor::scalar<float>(0)), log_p)
                                    : op::ReduceSum(terms.weights, {.keepdims = 0});
  return {reduce_losses(terms.losses, how, total, unbatched), total};
}

Value aten_cross_entropy_loss(Value self, Value target, std::optional<Value> weight,
                              int64_t reduction, int64_t ignore_index, double label_smoothing) {
  const std::string how = reduction_name(reduction, "aten::cross_entropy_loss");
  if (label_smoothing < 0 || label_smoothing > 1) {
    throw TypeError(fmt::format(
        "aten::cross_entropy_loss: label_smoothing must be in [0, 1], got {}", label_smoothing));
  }
  bool unbatched = false;
  auto [x, t] = as_batch(self, target, unbatched, "aten::cross_entropy_loss");
  const int64_t rank = *x.rank();
  const Value log_p = op::LogSoftmax(x, {.axis = 1});
  // The class weights shaped [C, 1, ...] to meet log_p's class dimension.
  std::optional<Value> class_weight;
  if (weight) {
    std::vector<int64_t> shape(static_cast<size_t>(rank - 1), 1);
    shape[0] = -1;
    class_weight = op::Reshape(*weight, int64s(shape));
  }
  const Value num_classes = op::CastLike(
      op::Gather(op::Shape(log_p), Value(Tensor::scalar<int64_t>(1)), {.axis = 0}), log_p);
  if (t.dtype() && t.dtype() == x.dtype()) {
    // Class probabilities, smoothed toward the uniform distribution:
    // -sum_c weight[c] * target[c] * log_p[c]; the mean divides by the items.
    Value probabilities = t;
    if (label_smoothing != 0) {
      probabilities = op::Add(op::Mul(t, 1.0 - label_smoothing),
                              op::Div(op::CastLike(Value(label_smoothing), log_p), num_classes));
    }
    Value terms = op::Mul(probabilities, log_p);
    if (class_weight) terms = op::Mul(terms, *class_weight);
    const Value per_item = op::Neg(op::ReduceSum(terms, int64s({1}), {.keepdims = 0}));
    const Value items = op::CastLike(op::Size(per_item), per_item);
    return reduce_losses(per_item, how, items, unbatched);
  }
  // Class indices: the NLL loss of the log-softmax over dimension 1.
  const NllTerms nll = nll_terms(log_p, t, weight, ignore_index);
  const Value counted = op::ReduceSum(nll.weights, {.keepdims = 0});
  const Value loss = reduce_losses(nll.losses, how, counted, unbatched);
  if (label_smoothing == 0) return loss;
  // Label smoothing adds, with weight label_smoothing / C, the loss against
  // the uniform distribution: -sum_c weight[c] * log_p[c] per item (0 where
  // ignored), reduced like the NLL loss (the mean by the same weights).
  const Value weighted = class_weight ? op::Mul(log_p, *class_weight) : log_p;
  const Value zero = op::CastLike(Value(Tensor::scalar<float>(0)), log_p);
  const Value smooth =
      op::Where(nll.ignored, zero, op::Neg(op::ReduceSum(weighted, int64s({1}), {.keepdims = 0})));
  const Value smooth_loss = reduce_losses(smooth, how, counted, unbatched);
  return op::Add(
      op::Mul(loss, 1.0 - label_smoothing),
      op::Mul(smooth_loss, op::Div(op::CastLike(Value(label_smoothing), log_p), num_classes)));
}

void register_losses(Registry& r) {
  using detail::overload;
  r.add(overload<aten_mse_loss>(
      "aten::mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor"));
  r.add(overload<aten_nll_loss>(
      "aten::nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int "
      "ignore_index=-100) -> Tensor"));
  r.add(overload<aten_nll_loss_forward>(
      "aten::nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, int "
      "ignore_index) -> (Tensor output, Tensor total_weight)"));
  r.add(overload<aten_cross_entropy_loss>(
      "aten::cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int "
      "reduction=1, int ignore_index=-100, float label_smoothing=0.) -> Tensor"));
}

}  // namespace onnxscript::torch_lib
