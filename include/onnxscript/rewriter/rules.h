#pragma once
/// \file
/// The default rule set. Each rule lives in its own file under
/// src/rewriter/rules/; docs/optimizer.md ("Rewriter") states what each one
/// requires.

#include <vector>

#include "onnxscript/rewriter/rule.h"

namespace onnxscript::rewriter {

/// "cast-cast": Cast(Cast(x, to=A), to=B) -> Cast(x, to=B) when every value
/// of x's element type is exact in A (the inner cast loses nothing, so the
/// outer cast alone decides the result).
Rule cast_cast_rule();

/// "transpose-transpose": Transpose(Transpose(x, p1), p2) -> Transpose(x, p)
/// with p[i] = p1[p2[i]], or x itself when p is the identity. Both
/// permutations must be given.
Rule transpose_transpose_rule();

/// "reshape-reshape": Reshape(Reshape(x, s1), s2) -> Reshape(x, s2) when s2
/// is a constant without 0 entries (a 0 copies a dimension of its input,
/// which the inner Reshape changed), unless the outer Reshape has
/// allowzero=1 (then 0 is a size, as it is for x). -1 is kept: the element
/// count is the same for x as for the inner result.
Rule reshape_reshape_rule();

/// "squeeze-unsqueeze": Squeeze(Unsqueeze(x, a1), a2) -> x when a1 and a2
/// are constant axes naming the same dimensions (negative axes resolved
/// against the unsqueezed rank). Opset 13+ form (axes as an input).
Rule squeeze_unsqueeze_rule();

/// "unsqueeze-squeeze": Unsqueeze(Squeeze(x, a1), a2) -> x when a1 and a2
/// are constant axes naming the same dimensions of x and x's declared shape
/// has a static 1 at each. Opset 13+ form.
Rule unsqueeze_squeeze_rule();

/// "conv-bn" and "conv-bias-bn": BatchNormalization(Conv(x, W[, B]), scale,
/// bias, mean, var) in inference mode -> Conv(x, W', B') with
/// f = scale / sqrt(var + epsilon), W' = W * f (per output channel),
/// B' = (B - mean) * f + bias, when W, B and the four statistics are float
/// or double constants. W' and B' become initializers (Constant nodes in
/// functions and subgraphs).
Rule conv_bn_rule();
/// As conv_bn_rule, for a Conv with a bias input.
Rule conv_bias_bn_rule();

/// "min-max-clip": Min(Max(x, lo), hi) -> Clip(x, lo, hi), and
/// "max-min-clip": Max(Min(x, hi), lo) -> Clip(x, lo, hi), when lo and hi are
/// constant one-element tensors of x's element type with lo <= hi whose
/// broadcast does not change x's shape.
Rule min_max_clip_rule();
/// See min_max_clip_rule().
Rule max_min_clip_rule();
/// "max-clip": Max(x, lo) -> Clip(x, lo), and "min-clip": Min(x, hi) ->
/// Clip(x, , hi), under the same conditions on the constant.
Rule max_clip_rule();
/// See max_clip_rule().
Rule min_clip_rule();

/// "matmul-add-gemm" (opt-in, not in default_rules()): Add(MatMul(a, b), c)
/// -> Gemm(a, b, c) when a and b are rank 2 floating-point tensors and c is
/// of rank 1 or 2 and broadcasts to [M, N] (dimensions 1 or equal).
Rule matmul_add_gemm_rule();

/// Every rule above but the opt-in ones, in the order the rewriter tries them.
std::vector<Rule> default_rules();

}  // namespace onnxscript::rewriter
