// The table of rules for operator versions beyond libonnx 1.12. A reused
// rule is one whose reading of the node (attributes, inputs, output types)
// covers the version's changes; most versions only widen the allowed element
// types, and the comments say why the others hold, or why an own rule was
// needed.

#include "infer/rules_beyond_libonnx.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <tuple>

namespace onnxscript::infer {

namespace {

// Entry builders: the same operator's newest rule in libonnx, another
// operator's rule, an own rule, or the bodies.
constexpr BeyondRule same(std::string_view op, int64_t since) { return {"", op, since, {}, 0}; }
constexpr BeyondRule as(std::string_view op, int64_t since, std::string_view other,
                        int64_t version) {
  return {"", op, since, other, version};
}
constexpr BeyondRule own(std::string_view domain, std::string_view op, int64_t since, OwnRule f) {
  return {domain, op, since, {}, 0, f};
}
constexpr BeyondRule own(std::string_view op, int64_t since, OwnRule f) {
  return own("", op, since, f);
}
constexpr BeyondRule bodies(std::string_view op, int64_t since) {
  return {"", op, since, {}, 0, nullptr, true};
}

using namespace rules;

// Version 22 of many operators only added bfloat16 (and float16) to their
// types; 19, 21, 23, 24 and 25 of the "any tensor" operators only added the
// float8, int4, float4, float8e8m0 and int2 types. Those reuse the previous
// version's rule, which reads no element type (it copies it).
constexpr auto kRules = std::to_array<BeyondRule>({
    same("Acos", 22),
    same("Acosh", 22),
    own("AffineGrid", 20, affine_grid),
    same("Asin", 22),
    same("Asinh", 22),
    same("Atan", 22),
    same("Atanh", 22),
    own("Attention", 23, attention),
    own("Attention", 24, attention),  // + nonpad_kv_seqlen, which changes no shape
    own("Attention", 25, attention),  // + window attributes, likewise
    // Pooling: libonnx's rule keeps, in ceil mode, a last window that
    // starts in the end padding (ONNX drops it since 1.16), and LpPool-11's
    // reads no dilations. AveragePool-11 is in force at opset 18.
    own("AveragePool", 11, pool),
    own("AveragePool", 19, pool),  // + dilations
    own("AveragePool", 22, pool),
    same("Bernoulli", 22),
    own("BitCast", 26, bit_cast),
    own("BitwiseAnd", 18, broadcast_same_type),
    own("BitwiseNot", 18, same_as_first),
    own("BitwiseOr", 18, broadcast_same_type),
    own("BitwiseXor", 18, broadcast_same_type),
    // libonnx rejects a 'to' it does not know (float8, int4, ...).
    own("Cast", 19, cast),
    own("Cast", 21, cast),
    own("Cast", 23, cast),
    own("Cast", 24, cast),
    own("Cast", 25, cast),
    same("CastLike", 19),
    same("CastLike", 21),
    same("CastLike", 23),
    same("CastLike", 24),
    same("CastLike", 25),
    own("CausalConvWithState", 27, causal_conv_with_state),
    same("Celu", 28),
    own("CenterCropPad", 18, center_crop_pad),
    own("Col2Im", 18, col2im),
    same("Constant", 19),
    same("Constant", 21),
    same("Constant", 23),
    same("Constant", 24),
    same("Constant", 25),
    same("ConstantOfShape", 20),
    same("ConstantOfShape", 21),
    same("ConstantOfShape", 23),
    same("ConstantOfShape", 24),
    same("ConstantOfShape", 25),
    same("Conv", 22),
    same("ConvTranspose", 22),
    same("Cos", 22),
    same("Cosh", 22),
    own("CumProd", 26, same_as_first),
    // DFT-17 at opsets 18 and 19: libonnx rejects inverse with onesided.
    own("DFT", 17, dft17),
    own("DFT", 20, dft),
    own("DeformConv", 19, deform_conv),
    own("DeformConv", 22, deform_conv),
    own("DequantizeLinear", 19, dequantize_linear),
    own("DequantizeLinear", 21, dequantize_linear),
    own("DequantizeLinear", 23, dequantize_linear),
    own("DequantizeLinear", 24, dequantize_linear),
    own("DequantizeLinear", 25, dequantize_linear),
    same("Det", 22),
    same("Dropout", 22),
    same("Elu", 22),
    same("Equal", 19),
    same("EyeLike", 22),
    same("Flatten", 21),
    same("Flatten", 23),
    same("Flatten", 24),
    same("Flatten", 25),
    same("GRU", 22),
    own("Gelu", 20, same_as_first),
    same("GlobalAveragePool", 22),
    same("GlobalLpPool", 22),
    same("GlobalMaxPool", 22),
    own("GridSample", 20, grid_sample),
    own("GridSample", 22, grid_sample),
    own("GroupNormalization", 21, group_normalization),
    same("HardSigmoid", 22),
    same("HardSwish", 22),
    same("Identity", 19),
    same("Identity", 21),
    same("Identity", 23),
    same("Identity", 24),
    same("Identity", 25),
    bodies("If", 19),
    bodies("If", 21),
    bodies("If", 23),
    bodies("If", 24),
    bodies("If", 25),
    own("ImageDecoder", 20, image_decoder),
    same("InstanceNormalization", 22),
    same("IsInf", 20),
    same("IsNaN", 20),
    same("LSTM", 22),
    own("LinearAttention", 27, linear_attention),
    bodies("Loop", 19),
    bodies("Loop", 21),
    bodies("Loop", 23),
    bodies("Loop", 24),
    bodies("Loop", 25),
    same("LpNormalization", 22),
    own("LpPool", 18, pool),  // + ceil_mode and dilations
    own("LpPool", 22, pool),
    own("MaxPool", 12, pool),  // in force at opsets 18 to 21
    own("MaxPool", 22, pool),
    same("MaxRoiPool", 22),
    same("MaxUnpool", 22),
    own("Mish", 18, same_as_first),
    own("Mish", 22, same_as_first),
    same("Multinomial", 22),
    same("NegativeLogLikelihoodLoss", 22),
    // 18 accepts a plain tensor or sequence too.
    own("OptionalGetElement", 18, optional_get_element),
    own("OptionalHasElement", 18, optional_has_element),
    // The axes input at 18: pads covers only the given axes.
    own("Pad", 18, pad),
    own("Pad", 19, pad),
    own("Pad", 21, pad),
    own("Pad", 23, pad),
    own("Pad", 24, pad),
    own("Pad", 25, pad),
    same("QLinearMatMul", 21),
    // output_dtype, float8 and int4 outputs, blocked scales.
    own("QuantizeLinear", 19, quantize_linear),
    own("QuantizeLinear", 21, quantize_linear),
    own("QuantizeLinear", 23, quantize_linear),
    own("QuantizeLinear", 24, quantize_linear),
    own("QuantizeLinear", 25, quantize_linear),
    own("RMSNormalization", 23, rms_normalization),
    same("RNN", 22),
    same("RandomNormal", 22),
    same("RandomNormalLike", 22),
    same("RandomUniform", 22),
    same("RandomUniformLike", 22),
    same("Range", 27),
    // Axes became an input at 18, as ReduceSum's did at 13: its rule reads
    // them from the second input (and noop_with_empty_axes).
    as("ReduceL1", 18, "ReduceSum", 13),
    as("ReduceL2", 18, "ReduceSum", 13),
    as("ReduceLogSum", 18, "ReduceSum", 13),
    as("ReduceLogSumExp", 18, "ReduceSum", 13),
    as("ReduceMax", 18, "ReduceSum", 13),
    as("ReduceMax", 20, "ReduceSum", 13),  // + bool
    as("ReduceMean", 18, "ReduceSum", 13),
    as("ReduceMin", 18, "ReduceSum", 13),
    as("ReduceMin", 20, "ReduceSum", 13),  // + bool
    as("ReduceProd", 18, "ReduceSum", 13),
    as("ReduceSumSquare", 18, "ReduceSum", 13),
    own("RegexFullMatch", 20, regex_full_match),
    same("Reshape", 19),
    same("Reshape", 21),
    same("Reshape", 23),
    same("Reshape", 24),
    same("Reshape", 25),
    // axes and keep_aspect_ratio_policy at 18.
    own("Resize", 18, resize),
    own("Resize", 19, resize),
    same("RoiAlign", 22),
    own("RotaryEmbedding", 23, rotary_embedding),
    same("Round", 22),
    bodies("Scan", 19),
    bodies("Scan", 21),
    bodies("Scan", 23),
    bodies("Scan", 24),
    bodies("Scan", 25),
    same("ScatterElements", 18),  // + reduction max and min
    same("ScatterND", 18),        // likewise
    same("Selu", 22),
    same("Shape", 19),
    same("Shape", 21),
    same("Shape", 23),
    same("Shape", 24),
    same("Shape", 25),
    same("Sin", 22),
    same("Sinh", 22),
    same("Size", 19),
    same("Size", 21),
    same("Size", 23),
    same("Size", 24),
    same("Size", 25),
    same("Softplus", 22),
    same("Softsign", 22),
    // num_outputs at 18, with a smaller last chunk.
    own("Split", 18, split),
    same("SplitToSequence", 24),
    same("Squeeze", 21),
    same("Squeeze", 23),
    same("Squeeze", 24),
    same("Squeeze", 25),
    own("StringConcat", 20, broadcast_same_type),
    own("StringSplit", 20, string_split),
    own("SwiGLU", 28, swiglu),
    own("Swish", 24, same_as_first),
    same("Tan", 22),
    own("TensorScatter", 24, tensor_scatter),
    same("ThresholdedRelu", 22),
    same("TopK", 24),
    same("Transpose", 21),
    same("Transpose", 23),
    same("Transpose", 24),
    same("Transpose", 25),
    same("Unsqueeze", 21),
    same("Unsqueeze", 23),
    same("Unsqueeze", 24),
    same("Unsqueeze", 25),
    // Keys and values as tensors at 4, and more key and value types.
    own("ai.onnx.ml", "LabelEncoder", 4, label_encoder),
    own("ai.onnx.ml", "TreeEnsemble", 5, tree_ensemble),
    own("ai.onnx.preview", "FlexAttention", 1, flex_attention),
});

constexpr auto kDeprecated = std::to_array<DeprecatedVersion>({
    {"", "GroupNormalization", 18},
    {"ai.onnx.ml", "TreeEnsembleClassifier", 5},
    {"ai.onnx.ml", "TreeEnsembleRegressor", 5},
});

constexpr bool entry_less(const BeyondRule& a, const BeyondRule& b) {
  return std::tie(a.domain, a.op_type, a.since_version) <
         std::tie(b.domain, b.op_type, b.since_version);
}
// The lookup below searches the table by halves.
static_assert(std::is_sorted(kRules.begin(), kRules.end(), entry_less),
              "kRules must be sorted by (domain, op_type, since_version)");

std::string_view canonical_domain(std::string_view domain) {
  return domain == "ai.onnx" ? std::string_view() : domain;
}

}  // namespace

std::span<const BeyondRule> rules_beyond_libonnx() { return kRules; }

std::span<const DeprecatedVersion> deprecated_beyond_libonnx() { return kDeprecated; }

bool deprecated_at(std::string_view domain, std::string_view op_type, int64_t opset_version) {
  domain = canonical_domain(domain);
  for (const DeprecatedVersion& d : kDeprecated) {
    if (d.domain != domain || d.op_type != op_type || d.since_version > opset_version) continue;
    // In force unless a later rule entry took over.
    const BeyondRule* r = find_rule_beyond_libonnx(domain, op_type, opset_version);
    if (!r || r->since_version < d.since_version) return true;
  }
  return false;
}

int64_t libonnx_max_version(std::string_view domain) {
  if (domain.empty() || domain == "ai.onnx") return 17;
  if (domain == "ai.onnx.ml") return 3;
  if (domain == "ai.onnx.preview.training") return 1;
  return 0;
}

const BeyondRule* find_rule_beyond_libonnx(std::string_view domain, std::string_view op_type,
                                           int64_t opset_version) {
  domain = canonical_domain(domain);
  // The sorted table: the first entry of this operator past the opset, then
  // one back.
  BeyondRule probe{domain, op_type, opset_version};
  auto it = std::upper_bound(kRules.begin(), kRules.end(), probe, entry_less);
  if (it == kRules.begin()) return nullptr;
  const BeyondRule& r = *std::prev(it);
  if (r.domain != domain || r.op_type != op_type) return nullptr;
  return &r;
}

}  // namespace onnxscript::infer
