// expect-error: no match for call to .*Erf_13.*STRING
// A statically typed input outside the operator's type constraint: Erf takes
// numeric tensors, not strings.
#include "onnxscript/opsets/opset17.h"

namespace op = onnxscript::opset17;
using onnxscript::STRING;
using onnxscript::Value;

Value use(STRING<3> s) { return op::Erf(s); }
