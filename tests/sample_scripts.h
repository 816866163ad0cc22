#pragma once
// Script functions that tests in more than one binary build on.

#include <cstdint>
#include <vector>

#include "onnxscript/onnxscript.h"

namespace onnxscript::testing {

/// Scaled(X; alpha = 0.5, axes, keepdims = 1) = ReduceMax(LeakyRelu(X, alpha)
/// * alpha, axes, keepdims): attribute defaults, an attribute without one,
/// an attribute used as a value, and attributes passed on to operators.
inline const Function& scaled_function() {
  static const Function scaled = script(
      "Scaled", {"X", {"alpha", 0.5}, "axes", {"keepdims", 1}},
      [](Value X, Attr<float> alpha, Attr<std::vector<int64_t>> axes, Attr<int64_t> keepdims) {
        Value leaky = opset17::LeakyRelu(X, {.alpha = alpha});
        Value scaled = leaky * alpha;  // an attribute used as a value
        return opset17::ReduceMax(scaled, {.axes = axes, .keepdims = keepdims});
      });
  return scaled;
}

/// A model that calls scaled_function with every attribute given, so that
/// the function stays a model-local function with attribute references.
inline Function scaled_caller() {
  return script(
      "caller", {"X"}, [](FLOAT<"N", "M"> X) -> FLOAT<"N", 1> {
        return scaled_function()(X, 0.25f, std::vector<int64_t>{1}, int64_t{1});
      });
}

/// A model at opset 18, written as the opset's changes ask: Split by
/// `num_outputs`, and ReduceMax and ReduceMean with `axes` as an input (an
/// attribute until opset 17). Inference knows no rule past opset 17 yet, so
/// the lambda declares its results' types.
inline Function opset18_model() {
  namespace op = opset18;
  return script("split_and_reduce", {"X"}, [](FLOAT<2, 6> X) -> std::tuple<FLOAT<2, 1>, FLOAT<2>> {
    std::vector<Value> halves = op::Split(X, {.axis = 1, .num_outputs = 2});
    const Tensor axis = Tensor::from<int64_t>({1});
    Value peak = op::ReduceMax(halves[0], axis, {.keepdims = 1});
    Value mean = op::ReduceMean(halves[1], axis, {.keepdims = 0});
    return std::tuple{peak, mean};
  });
}

}  // namespace onnxscript::testing
