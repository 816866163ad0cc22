// "transpose-transpose": two Transposes become one, or none.

#include <numeric>

#include "onnxscript/opsets/opset18.h"
#include "onnxscript/rewriter/rules.h"

namespace onnxscript::rewriter {

namespace op = onnxscript::opset18;

Rule transpose_transpose_rule() {
  return Rule(
      "transpose-transpose", {"x"},
      [](Value x) {
        return op::Transpose(op::Transpose(x, {.perm = IntsVar("p1")}), {.perm = IntsVar("p2")});
      },
      [](const Match& m, Value x) -> Value {
        // y = Transpose(x, p1) has y.dim[i] = x.dim[p1[i]]; z = Transpose(y,
        // p2) has z.dim[i] = y.dim[p2[i]] = x.dim[p1[p2[i]]].
        const std::vector<int64_t>& p1 = m.attribute("p1")->as_ints();
        const std::vector<int64_t>& p2 = m.attribute("p2")->as_ints();
        std::vector<int64_t> p(p2.size());
        for (size_t i = 0; i < p2.size(); ++i) p[i] = p1[static_cast<size_t>(p2[i])];
        std::vector<int64_t> identity(p.size());
        std::iota(identity.begin(), identity.end(), int64_t{0});
        if (p == identity) return x;
        return op::Transpose(x, {.perm = p});
      },
      [](const Match& m) {
        const ir::Attribute* p1 = m.attribute("p1");
        const ir::Attribute* p2 = m.attribute("p2");
        // Without perm a Transpose reverses the axes, which needs the rank.
        if (!p1 || !p2) return m.reject("a Transpose has no perm");
        const std::vector<int64_t>& a = p1->as_ints();
        const std::vector<int64_t>& b = p2->as_ints();
        if (a.size() != b.size()) return m.reject("the permutations differ in length");
        for (int64_t i : b)
          if (i < 0 || static_cast<size_t>(i) >= a.size()) return m.reject("perm out of range");
        return true;
      });
}

}  // namespace onnxscript::rewriter
