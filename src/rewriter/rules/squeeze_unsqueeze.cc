// "squeeze-unsqueeze": Squeeze(Unsqueeze(x, a1), a2) -> x when both name the
// same axes of the unsqueezed tensor: the Squeeze removes exactly the
// dimensions of size 1 the Unsqueeze inserted.

#include "onnxscript/opsets/opset18.h"
#include "onnxscript/rewriter/rules.h"
#include "rewriter/rules/rule_util.h"

namespace onnxscript::rewriter {

namespace op = onnxscript::opset18;

Rule squeeze_unsqueeze_rule() {
  return Rule(
      "squeeze-unsqueeze", {"x", "a1", "a2"},
      [](Value x, Value a1, Value a2) { return op::Squeeze(op::Unsqueeze(x, a1), a2); },
      [](const Match&, Value x, Value, Value) { return x; },
      [](const Match& m) {
        const std::optional<std::vector<int64_t>> a1 = rules::int_values(m.constant("a1"));
        const std::optional<std::vector<int64_t>> a2 = rules::int_values(m.constant("a2"));
        if (!a1 || !a2) return m.reject("the axes are not integer constants");
        bool negative = false;
        for (int64_t a : *a1) negative = negative || a < 0;
        for (int64_t a : *a2) negative = negative || a < 0;
        // Both lists index the unsqueezed tensor, of rank rank(x) + |a1|;
        // without negative axes the rank does not matter.
        int64_t rank = 0;
        if (negative) {
          const std::optional<int64_t> r = m.rank("x");
          if (!r) return m.reject("negative axes and x's rank is unknown");
          rank = *r + static_cast<int64_t>(a1->size());
        } else {
          for (int64_t a : *a1) rank = std::max(rank, a + 1);
          for (int64_t a : *a2) rank = std::max(rank, a + 1);
        }
        const auto n1 = rules::normalized_axes(*a1, rank);
        const auto n2 = rules::normalized_axes(*a2, rank);
        if (!n1 || !n2 || *n1 != *n2) return m.reject("the axes differ");
        return true;
      });
}

}  // namespace onnxscript::rewriter
