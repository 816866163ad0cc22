// OptionalGetElement: the value inside an optional (an error when empty).
// From opset 18 a plain tensor or sequence input passes through.
#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval {
namespace {

void optional_get_element(KernelContext& ctx) {
  const RuntimeValue& v = ctx.input(0);
  if (v.is_optional()) {
    if (!v.optional().value) ctx.fail("the optional is empty");
    ctx.set_output(0, *v.optional().value);
  } else if (ctx.version() >= 18 && (v.is_tensor() || v.is_sequence())) {
    ctx.set_output(0, v);
  } else {
    ctx.fail("input must be a non-empty optional, got " + v.describe());
  }
}

}  // namespace

void register_optional_optional_get_element(KernelRegistry& registry) {
  for (int64_t v : {15, 18}) registry.add("", "OptionalGetElement", v, optional_get_element);
}

}  // namespace onnxscript::eval
