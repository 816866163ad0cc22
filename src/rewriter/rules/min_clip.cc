// "min-clip": Min(x, hi) with a constant scalar hi is Clip(x, , hi).

#include "onnxscript/opsets/opset18.h"
#include "onnxscript/rewriter/rules.h"
#include "rewriter/rules/clip_bounds.h"

namespace onnxscript::rewriter {

namespace op = onnxscript::opset18;

Rule min_clip_rule() {
  return Rule(
      "min-clip", {"x", "hi"},
      [](Value x, Value hi) {
        return op::Min({x, hi});
      },
      [](const Match& m, Value x, Value) {
        return op::Clip(x, Value(), rules::scalar_bound(m, "hi"));
      },
      [](const Match& m) { return rules::clip_bounds_ok(m, "", "hi"); });
}

}  // namespace onnxscript::rewriter
