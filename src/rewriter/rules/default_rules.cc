// The default rule set, in the order the rewriter tries them at a node: the
// two-node Clip patterns before the one-node ones, so that Min(Max(x)) is one
// Clip rather than two.

#include "onnxscript/rewriter/rules.h"

namespace onnxscript::rewriter {

std::vector<Rule> default_rules() {
  return {cast_cast_rule(),         transpose_transpose_rule(),
          reshape_reshape_rule(),   squeeze_unsqueeze_rule(),
          unsqueeze_squeeze_rule(), conv_bn_rule(),
          conv_bias_bn_rule(),      min_max_clip_rule(),
          max_min_clip_rule(),      max_clip_rule(),
          min_clip_rule()};
}

}  // namespace onnxscript::rewriter
