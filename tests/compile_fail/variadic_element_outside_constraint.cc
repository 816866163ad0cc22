// expect-error: no match for call to .*Mean_13
// One element of a braced variadic list outside the constraint: Mean takes
// floating point tensors, so a string tensor in the list must not compile.
#include "onnxscript/opsets/opset17.h"

namespace op = onnxscript::opset17;
using onnxscript::FLOAT;
using onnxscript::STRING;
using onnxscript::Value;

Value use(FLOAT<3> f, STRING<3> s) { return op::Mean({f, s}); }
