// OptionalHasElement: whether an optional holds a value. From opset 18 the
// input may also be a plain tensor or sequence (true) or omitted (false).
#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval {
namespace {

void optional_has_element(KernelContext& ctx) {
  const RuntimeValue& v = ctx.input(0);
  bool has = false;
  if (v.is_optional())
    has = v.optional().value != nullptr;
  else if (v.is_none())
    has = false;
  else if (ctx.version() >= 18)
    has = true;
  else
    ctx.fail("input must be an optional, got " + v.describe());
  ctx.set_output(0, Tensor::scalar<bool>(has));
}

}  // namespace

void register_optional_optional_has_element(KernelRegistry& registry) {
  for (int64_t v : {15, 18}) registry.add("", "OptionalHasElement", v, optional_has_element);
}

}  // namespace onnxscript::eval
