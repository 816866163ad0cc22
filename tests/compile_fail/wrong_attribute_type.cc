// expect-error: argument 3 from .*to .*Gather_13_Attributes
// An attribute given a value of the wrong type: Gather's axis is an int.
#include "onnxscript/opsets/opset17.h"

namespace op = onnxscript::opset17;
using onnxscript::Value;

Value use(Value x, Value i) { return op::Gather(x, i, {.axis = "x"}); }
