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

// A shape copied into a vector when asked for, and viewed as a span without one.
size_t dims_of(const onnxscript::ir::Tensor& t) {
  const std::vector<int64_t> copied(t.shape());
  const std::vector<int64_t> also_copied = t.shape().to_vector();
  const std::span<const int64_t> viewed = t.shape();
  return copied.size() + also_copied.size() + viewed.size();
}
