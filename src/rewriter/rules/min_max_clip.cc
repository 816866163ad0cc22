// "min-max-clip" and "max-min-clip": a Max and a Min with constant scalar
// bounds are a Clip.

#include "onnxscript/opsets/opset18.h"
#include "onnxscript/rewriter/rules.h"
#include "rewriter/rules/clip_bounds.h"

namespace onnxscript::rewriter {

namespace op = onnxscript::opset18;

Rule min_max_clip_rule() {
  return Rule(
      "min-max-clip", {"x", "lo", "hi"},
      [](Value x, Value lo, Value hi) {
        return op::Min({op::Max({x, lo}), hi});
      },
      [](const Match& m, Value x, Value, Value) {
        return op::Clip(x, rules::scalar_bound(m, "lo"), rules::scalar_bound(m, "hi"));
      },
      [](const Match& m) { return rules::clip_bounds_ok(m, "lo", "hi"); });
}

Rule max_min_clip_rule() {
  return Rule(
      "max-min-clip", {"x", "lo", "hi"},
      [](Value x, Value lo, Value hi) {
        return op::Max({op::Min({x, hi}), lo});
      },
      [](const Match& m, Value x, Value, Value) {
        return op::Clip(x, rules::scalar_bound(m, "lo"), rules::scalar_bound(m, "hi"));
      },
      [](const Match& m) { return rules::clip_bounds_ok(m, "lo", "hi"); });
}

}  // namespace onnxscript::rewriter
