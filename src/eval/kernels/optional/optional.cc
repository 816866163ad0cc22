// Optional: wraps its input in an optional, or makes an empty optional of
// the `type` attribute when there is no input.
#include <fmt/format.h>

#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval {
namespace {

void optional_kernel(KernelContext& ctx) {
  if (ctx.has_input(0)) {
    const RuntimeValue& v = ctx.input(0);
    ir::Type elem = v.type();
    if (elem.is_tensor()) elem.shape.reset();
    ctx.set_output(0, RuntimeValue::optional(std::move(elem), v));
    return;
  }
  const ir::Attribute* type = ctx.attribute("type");
  if (!type) ctx.fail("an Optional without an input needs the 'type' attribute");
  const ir::Type* t = std::get_if<ir::Type>(&type->value);
  if (!t) ctx.fail("attribute 'type' must hold a type");
  ctx.set_output(0, RuntimeValue::optional(*t, std::nullopt));
}

}  // namespace

void register_optional_optional(KernelRegistry& registry) {
  registry.add("", "Optional", 15, optional_kernel);
}

}  // namespace onnxscript::eval
