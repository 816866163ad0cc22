// "matmul-add-gemm" (opt-in): Add(MatMul(a, b), c) -> Gemm(a, b, c) for rank
// 2 floating-point operands, c broadcasting to the product's [M, N] in one
// direction as Gemm requires.

#include "onnxscript/opsets/opset18.h"
#include "onnxscript/rewriter/rules.h"
#include "rewriter/rules/rule_util.h"

namespace onnxscript::rewriter {

namespace op = onnxscript::opset18;

Rule matmul_add_gemm_rule() {
  return Rule(
      "matmul-add-gemm", {"a", "b", "c"},
      [](Value a, Value b, Value c) { return op::Add(op::MatMul(a, b), c); },
      [](const Match&, Value a, Value b, Value c) { return op::Gemm(a, b, c); },
      [](const Match& m) {
        const std::optional<ir::Type> a = m.type("a"), b = m.type("b"), c = m.type("c");
        if (!a || !b || !c || !a->shape || !b->shape || !c->shape)
          return m.reject("an operand's type or rank is unknown");
        if (a->shape->size() != 2 || b->shape->size() != 2)
          return m.reject("MatMul's operands are not of rank 2");
        if (!rules::is_floating(a->elem_type) || a->elem_type != b->elem_type ||
            c->elem_type != a->elem_type)
          return m.reject("the operands are not of one floating-point type");
        const ir::Shape& cs = *c->shape;
        if (cs.size() < 1 || cs.size() > 2) return m.reject("c is not of rank 1 or 2");
        // Each dimension of c is 1 or the product's own (M for rows, N for columns).
        const ir::Dim& n = (*b->shape)[1];
        const ir::Dim& mdim = (*a->shape)[0];
        auto fits = [](const ir::Dim& d, const ir::Dim& want) {
          return (d.is_static() && d.value() == 1) ||
                 (d == want && (d.is_static() || d.is_symbolic()));
        };
        if (!fits(cs[cs.size() - 1], n)) return m.reject("c's last dimension is neither 1 nor N");
        if (cs.size() == 2 && !fits(cs[0], mdim))
          return m.reject("c's first dimension is neither 1 nor M");
        return true;
      });
}

}  // namespace onnxscript::rewriter
