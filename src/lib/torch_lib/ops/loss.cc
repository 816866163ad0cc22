// Losses: mse_loss, nll_loss, cross_entropy_loss. PyTorch's reduction is
// an int: 0 none, 1 mean, 2 sum.

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

Value aten_nll_loss(Value self, Value target, std::optional<Value> weight, int64_t reduction,
                    int64_t ignore_index) {
  const std::string how = reduction_name(reduction, "aten::nll_loss");
  // Written out rather than as NegativeLogLikelihoodLoss, which not every
  // runtime implements: -weight[t] * self[i, t, ...] per item, 0 where the
  // target is ignore_index; the mean divides by the weights counted.
  const Value t = op::Cast(target, {.to = DataType::kInt64});
  const Value ignored = op::Equal(t, ignore_index);
  const Value safe_t = op::Where(ignored, Value(Tensor::scalar<int64_t>(0)), t);
  const Value picked = op::Squeeze(
      op::GatherElements(self, op::Unsqueeze(safe_t, int64s({1})), {.axis = 1}), int64s({1}));
  const Value zero = op::CastLike(Value(Tensor::scalar<float>(0)), self);
  const Value one = op::CastLike(Value(Tensor::scalar<float>(1)), self);
  const Value w = op::Where(ignored, zero, weight ? op::Gather(*weight, safe_t, {.axis = 0}) : one);
  const Value losses = op::Neg(op::Mul(picked, w));
  if (how == "none") return losses;
  const Value total = op::ReduceSum(losses, {.keepdims = 0});
  if (how == "sum") return total;
  const Value counted = op::ReduceSum(op::Expand(w, op::Shape(t)), {.keepdims = 0});
  return op::Div(total, counted);
}

Value aten_cross_entropy_loss(Value self, Value target, std::optional<Value> weight,
                              int64_t reduction, int64_t ignore_index, double label_smoothing) {
  const std::string how = reduction_name(reduction, "aten::cross_entropy_loss");
  if (label_smoothing != 0) {
    throw TypeError(
        "aten::cross_entropy_loss: label_smoothing has no ONNX SoftmaxCrossEntropyLoss "
        "equivalent; export with label_smoothing=0");
  }
  if (target.dtype() && target.dtype() == self.dtype()) {
    // Class probabilities: -sum(target * log_softmax(self)) over the classes.
    if (weight) {
      throw TypeError(
          "aten::cross_entropy_loss: class probabilities with a weight are not supported");
    }
    const Value per_item = op::Neg(op::ReduceSum(op::Mul(target, op::LogSoftmax(self, {.axis = 1})),
                                                 int64s({1}), {.keepdims = 0}));
    if (how == "none") return per_item;
    if (how == "sum") return op::ReduceSum(per_item, {.keepdims = 0});
    return op::ReduceMean(per_item, {.keepdims = 0});
  }
  // Class indices: the log-softmax over dimension 1, then the NLL loss.
  return aten_nll_loss(op::LogSoftmax(self, {.axis = 1}), target, weight, reduction, ignore_index);
}

void register_losses(Registry& r) {
  using detail::overload;
  r.add(overload<aten_mse_loss>(
      "aten::mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor"));
  r.add(overload<aten_nll_loss>(
      "aten::nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int "
      "ignore_index=-100) -> Tensor"));
  r.add(overload<aten_cross_entropy_loss>(
      "aten::cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int "
      "reduction=1, int ignore_index=-100, float label_smoothing=0.) -> Tensor"));
}

}  // namespace onnxscript::torch_lib
