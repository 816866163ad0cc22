#pragma once
// The rules for operator versions beyond libonnx 1.12 (ai.onnx 18 to 28,
// ai.onnx.ml 4 and 5, ai.onnx.preview 1): one table, in
// rules_beyond_libonnx.cc, with one entry per (domain, operator,
// since_version). An entry either reuses a rule of libonnx (the operator's
// newest version there, or another operator's) where what matters to types
// and shapes did not change, or names a rule of the project's own
// (src/infer/rules/). A node at an opset beyond libonnx whose operator has no
// version beyond libonnx at that opset is typed by libonnx's newest version
// of it, which is then the version in force.

#include <cstdint>
#include <span>
#include <string_view>

#include "infer/rule_context.h"

namespace onnxscript::infer {

// How one operator version beyond libonnx is typed.
struct BeyondRule {
  std::string_view domain;  // "" for ai.onnx
  std::string_view op_type;
  int64_t since_version;
  // Reuse: libonnx's rule of `libonnx_op` (empty: the same operator) at
  // `libonnx_version` (0: libonnx's newest version of it).
  std::string_view libonnx_op;
  int64_t libonnx_version = 0;
  // The project's own rule; null when the entry reuses libonnx's or the node
  // is typed from its subgraphs (`from_bodies`).
  OwnRule own = nullptr;
  // If, Loop and Scan: typed from their bodies (type_from_subgraphs).
  bool from_bodies = false;
};

// Every entry, sorted by (domain, op_type, since_version).
std::span<const BeyondRule> rules_beyond_libonnx();

// The operator versions beyond libonnx that have no rule because they are
// deprecated (no signature in the vendored operator table).
struct DeprecatedVersion {
  std::string_view domain;
  std::string_view op_type;
  int64_t since_version;
};
std::span<const DeprecatedVersion> deprecated_beyond_libonnx();

// True when `op_type` of `domain` is deprecated at `opset_version` (one of
// the versions above is in force): such a node is left untyped rather than
// typed by an older version's rule.
bool deprecated_at(std::string_view domain, std::string_view op_type, int64_t opset_version);

// The entry in force for `op_type` of `domain` at `opset_version`: the one
// with the newest since_version not after it. Null when the operator has no
// version beyond libonnx up to that opset (libonnx's rule then applies).
const BeyondRule* find_rule_beyond_libonnx(std::string_view domain, std::string_view op_type,
                                           int64_t opset_version);

// The newest version libonnx 1.12 knows of `domain` ("" or "ai.onnx",
// "ai.onnx.ml", "ai.onnx.preview.training"); 0 for other domains.
int64_t libonnx_max_version(std::string_view domain);

// Own rules, by family (src/infer/rules/*.cc).
namespace rules {
// elementwise.cc
void cast(RuleContext& ctx);
void bit_cast(RuleContext& ctx);
void same_as_first(RuleContext& ctx);
void broadcast_same_type(RuleContext& ctx);
void swiglu(RuleContext& ctx);
void regex_full_match(RuleContext& ctx);
void string_split(RuleContext& ctx);
// tensor.cc
void pad(RuleContext& ctx);
void split(RuleContext& ctx);
void center_crop_pad(RuleContext& ctx);
void optional_get_element(RuleContext& ctx);
void optional_has_element(RuleContext& ctx);
void quantize_linear(RuleContext& ctx);
void dequantize_linear(RuleContext& ctx);
// image.cc
void resize(RuleContext& ctx);
void grid_sample(RuleContext& ctx);
void affine_grid(RuleContext& ctx);
void col2im(RuleContext& ctx);
void deform_conv(RuleContext& ctx);
void image_decoder(RuleContext& ctx);
void dft(RuleContext& ctx);
void dft17(RuleContext& ctx);
void pool(RuleContext& ctx);
void causal_conv_with_state(RuleContext& ctx);
// attention.cc
void group_normalization(RuleContext& ctx);
void rms_normalization(RuleContext& ctx);
void rotary_embedding(RuleContext& ctx);
void attention(RuleContext& ctx);
void linear_attention(RuleContext& ctx);
void flex_attention(RuleContext& ctx);
void tensor_scatter(RuleContext& ctx);
// ml.cc
void label_encoder(RuleContext& ctx);
void tree_ensemble(RuleContext& ctx);
}  // namespace rules

}  // namespace onnxscript::infer
