// "unsqueeze-squeeze": Unsqueeze(Squeeze(x, a1), a2) -> x when both name the
// same axes of x and x has a static 1 at each (so the Squeeze cannot fail and
// the Unsqueeze puts back what it removed).

#include "onnxscript/opsets/opset18.h"
#include "onnxscript/rewriter/rules.h"
#include "rewriter/rules/rule_util.h"

namespace onnxscript::rewriter {

namespace op = onnxscript::opset18;

Rule unsqueeze_squeeze_rule() {
  return Rule(
      "unsqueeze-squeeze", {"x", "a1", "a2"},
      [](Value x, Value a1, Value a2) { return op::Unsqueeze(op::Squeeze(x, a1), a2); },
      [](const Match&, Value x, Value, Value) { return x; },
      [](const Match& m) {
        const std::optional<std::vector<int64_t>> a1 = rules::int_values(m.constant("a1"));
        const std::optional<std::vector<int64_t>> a2 = rules::int_values(m.constant("a2"));
        if (!a1 || !a2) return m.reject("the axes are not integer constants");
        const std::optional<ir::Type> t = m.type("x");
        if (!t || !t->is_tensor() || !t->shape) return m.reject("x's shape is unknown");
        const ir::Shape& shape = *t->shape;
        const auto rank = static_cast<int64_t>(shape.size());
        // Squeeze's axes index x; Unsqueeze's index its output, of x's rank again.
        const auto n1 = rules::normalized_axes(*a1, rank);
        const auto n2 = rules::normalized_axes(*a2, rank);
        if (!n1 || !n2 || *n1 != *n2) return m.reject("the axes differ");
        for (int64_t a : *n1) {
          const ir::Dim& d = shape[static_cast<size_t>(a)];
          if (!d.is_static() || d.value() != 1)
            return m.reject("a squeezed dimension may not be 1");
        }
        return true;
      });
}

}  // namespace onnxscript::rewriter
