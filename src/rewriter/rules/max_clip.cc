// "max-clip": Max(x, lo) with a constant scalar lo is Clip(x, lo).

#include "onnxscript/opsets/opset18.h"
#include "onnxscript/rewriter/rules.h"
#include "rewriter/rules/clip_bounds.h"

namespace onnxscript::rewriter {

namespace op = onnxscript::opset18;

Rule max_clip_rule() {
  return Rule(
      "max-clip", {"x", "lo"},
      [](Value x, Value lo) {
        return op::Max({x, lo});
      },
      [](const Match& m, Value x, Value) { return op::Clip(x, rules::scalar_bound(m, "lo")); },
      [](const Match& m) { return rules::clip_bounds_ok(m, "lo", ""); });
}

}  // namespace onnxscript::rewriter
