// expect-error: Required<.*"to"
// A required attribute left out: Cast needs `to`.
#include "onnxscript/opsets/opset17.h"

namespace op = onnxscript::opset17;
using onnxscript::Value;

Value use(Value x) { return op::Cast(x, {}); }
