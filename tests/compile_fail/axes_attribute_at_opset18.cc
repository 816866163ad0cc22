// expect-error: no match for call to .*ops::ReduceMax_18
// From opset 18 the Reduce operators take `axes` as an input: passing it as an
// attribute, as opset 17 does, must not compile.
#include "onnxscript/opsets/opset18.h"

namespace op = onnxscript::opset18;
using onnxscript::Value;

Value use(Value x) { return op::ReduceMax(x, {.axes = {1}}); }
