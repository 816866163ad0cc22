// "reshape-reshape": Reshape(Reshape(x, s1), s2) -> Reshape(x, s2).

#include <algorithm>

#include "onnxscript/opsets/opset18.h"
#include "onnxscript/rewriter/rules.h"
#include "rewriter/rules/rule_util.h"

namespace onnxscript::rewriter {

namespace op = onnxscript::opset18;

Rule reshape_reshape_rule() {
  return Rule(
      "reshape-reshape", {"x", "s1", "s2"},
      [](Value x, Value s1, Value s2) {
        return op::Reshape(op::Reshape(x, s1, {.allowzero = IntVar("z1")}), s2,
                           {.allowzero = IntVar("z2")});
      },
      [](const Match& m, Value x, Value, Value s2) {
        const ir::Attribute* z2 = m.attribute("z2");
        if (z2 && z2->as_int() != 0) return op::Reshape(x, s2, {.allowzero = 1});
        return op::Reshape(x, s2);
      },
      [](const Match& m) {
        const std::optional<std::vector<int64_t>> s2 = rules::int_values(m.constant("s2"));
        if (!s2) return m.reject("the outer shape is not an integer constant");
        const ir::Attribute* z2 = m.attribute("z2");
        const bool zero_is_size = z2 && z2->as_int() != 0;
        // 0 copies the dimension of the Reshape's input: the inner result's,
        // which x need not share.
        if (!zero_is_size && std::count(s2->begin(), s2->end(), int64_t{0}) > 0)
          return m.reject("the outer shape copies a dimension (0)");
        // A 0 (with allowzero) in the inner shape makes an empty tensor that
        // x might not be: the inner Reshape would have failed.
        const ir::Attribute* z1 = m.attribute("z1");
        if (z1 && z1->as_int() != 0) {
          const std::optional<std::vector<int64_t>> s1 = rules::int_values(m.constant("s1"));
          if (!s1 || std::count(s1->begin(), s1->end(), int64_t{0}) > 0)
            return m.reject("the inner Reshape may make an empty tensor (allowzero)");
        }
        return true;
      });
}

}  // namespace onnxscript::rewriter
