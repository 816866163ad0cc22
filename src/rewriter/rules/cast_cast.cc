// "cast-cast": Cast(Cast(x, to=A), to=B) -> Cast(x, to=B) when the inner cast
// is exact for every value of x's type, so the outer cast alone decides.

#include "onnxscript/opsets/opset18.h"
#include "onnxscript/rewriter/rules.h"
#include "rewriter/rules/rule_util.h"

namespace onnxscript::rewriter {

namespace op = onnxscript::opset18;

Rule cast_cast_rule() {
  return Rule(
      "cast-cast", {"x"},
      [](Value x) {
        return op::Cast(op::Cast(x, {.to = IntVar("inner")}).named("inner_cast"),
                        {.to = IntVar("outer")})
            .named("outer_cast");
      },
      [](const Match& m, Value x) { return op::Cast(x, {.to = m.attribute("outer")->as_int()}); },
      [](const Match& m) {
        // Cast-19's saturate (float8 targets) and anything else beyond `to`:
        // not this rule's business.
        if (m.node("inner_cast")->attributes().size() != 1 ||
            m.node("outer_cast")->attributes().size() != 1)
          return m.reject("a Cast has attributes besides 'to'");
        const std::optional<ir::Type> t = m.type("x");
        if (!t || !t->is_tensor() || t->elem_type == ir::DataType::kUndefined)
          return m.reject("x's element type is unknown");
        const ir::Attribute* inner = m.attribute("inner");
        if (!inner || !m.attribute("outer")) return m.reject("a Cast has no 'to'");
        const auto mid = static_cast<ir::DataType>(inner->as_int());
        if (!rules::exactly_representable(t->elem_type, mid))
          return m.reject("the inner cast may change values");
        return true;
      });
}

}  // namespace onnxscript::rewriter
