// expect: compiles
// Correct uses of opset 18 and later, compiled by the same command as the
// failing cases: Reduce with `axes` as an input, Split with `num_outputs`, a
// new operator (Gelu-20), and the new element types in a type constraint.
#include "onnxscript/opsets/opset17.h"
#include "onnxscript/opsets/opset18.h"
#include "onnxscript/opsets/opset28.h"

using onnxscript::FLOAT;
using onnxscript::INT64;
using onnxscript::Value;

Value use(FLOAT<4, 6> x, INT64<1> axes) {
  namespace op = onnxscript::opset18;
  Value m = op::ReduceMax(x, axes, {.keepdims = 1});
  std::vector<Value> halves = op::Split(x, {.axis = 1, .num_outputs = 2});
  return onnxscript::opset28::Gelu(op::Add(m, halves[0]), {.approximate = "tanh"});
}
