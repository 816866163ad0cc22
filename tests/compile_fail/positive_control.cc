// expect: compiles
// The positive control: correct uses of the same API, compiled by the same
// command as the failing cases, so that their failures mean what they say.
#include "onnxscript/opsets/opset17.h"

namespace op = onnxscript::opset17;
using onnxscript::FLOAT;
using onnxscript::Value;

Value use(Value x, Value i, FLOAT<3> f) {
  Value g = op::Gather(x, i, {.axis = 0});
  Value c = op::Cast(g, {.to = onnxscript::DataType::kInt64});
  return op::Add(op::Erf(f), c);
}
