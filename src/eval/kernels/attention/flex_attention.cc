// FlexAttention (ai.onnx.preview, v1): scaled dot-product attention over 4-D
// inputs, Q (B, q_heads, L, E), K (B, kv_heads, S, E) and V (B, kv_heads, S,
// Ev), whose scores and probabilities pass through optional subgraphs:
//   scores = scale * Q K^T          (scale: the attribute, or 1 / sqrt(E))
//   scores = score_mod(scores)      when the attribute is given
//   probs  = softmax(scores) along the keys
//   probs  = prob_mod(probs)        when the attribute is given
//   Y      = probs V
// Query head h reads key/value head h / (q_heads / kv_heads). Each modifier
// takes and returns one (B, q_heads, L, S) tensor of the softmax precision's
// type (softmax_precision; without it, double for double inputs and float
// otherwise): the scores are rounded to that type on the way in, and what the
// subgraph returns is read back exactly. The rest is computed in double and
// rounded once to Q's type. The subgraphs run through the context's graph
// runner, as If's branches do (a Session, or eager mode).
#include <fmt/format.h>

#include "attention_common.h"
#include "eval/kernels/linalg/gemm_util.h"
#include "onnxscript/ir/graph.h"

namespace onnxscript::eval {
namespace {

// Runs the modifier subgraph attribute `name`, if the node has it, on
// `values` (a (B, q_heads, L, S) buffer) as a tensor of `type`, and replaces
// `values` with its output.
void flex_attention_modify(KernelContext& ctx, const char* name, DataType type,
                           const ir::Dims& shape, std::vector<double>& values) {
  const ir::Attribute* attr = ctx.attribute(name);
  if (!attr) return;
  if (attr->type != ir::AttributeType::kGraph)
    ctx.fail(fmt::format("{} must be a graph attribute", name));
  const auto& graph = attr->as_graph();
  if (!graph) ctx.fail(fmt::format("{} is empty", name));
  const RuntimeValue in(float_tensor(ctx, type, shape, values));
  std::vector<RuntimeValue> out = ctx.run_graph(*graph, std::span<const RuntimeValue>(&in, 1));
  if (out.size() != 1)
    ctx.fail(fmt::format("{} must return one tensor, it returned {} values", name, out.size()));
  if (!out[0].is_tensor()) ctx.fail(fmt::format("{} must return a tensor", name));
  const Tensor& result = out[0].tensor();
  if (result.shape() != shape)
    ctx.fail(fmt::format("{} returned a tensor of shape {}, not the {} it was given", name,
                         shape_string(result.shape()), shape_string(shape)));
  const DataType rt = result.dtype();
  if (rt != DataType::kFloat && rt != DataType::kDouble && rt != DataType::kFloat16 &&
      rt != DataType::kBfloat16)
    ctx.fail(fmt::format("{} returned {} elements, not a floating type", name,
                         ir::data_type_name(result.dtype())));
  values = float_values(ctx, result);
}

void flex_attention(KernelContext& ctx) {
  const Tensor& q = ctx.input_tensor(0);
  const Tensor& k = ctx.input_tensor(1);
  const Tensor& v = ctx.input_tensor(2);
  if (q.rank() != 4 || k.rank() != 4 || v.rank() != 4)
    ctx.fail(fmt::format("Q, K and V must be 4-D, got {}, {} and {}", shape_string(q.shape()),
                         shape_string(k.shape()), shape_string(v.shape())));
  const int64_t batch = q.shape()[0], qh = q.shape()[1], sq = q.shape()[2], hs = q.shape()[3];
  const int64_t kvh = k.shape()[1], skv = k.shape()[2], vhs = v.shape()[3];
  if (k.shape()[0] != batch || v.shape()[0] != batch)
    ctx.fail("Q, K and V must have the same batch size");
  if (k.shape()[3] != hs)
    ctx.fail(fmt::format("Q's head size {} differs from K's {}", hs, k.shape()[3]));
  if (v.shape()[1] != kvh || v.shape()[2] != skv)
    ctx.fail("K and V must have the same number of heads and sequence length");
  if (k.dtype() != q.dtype() || v.dtype() != q.dtype())
    ctx.fail("Q, K and V must have one element type");
  const int64_t group = attention_group_size(ctx, qh, kvh);
  const DataType precision = attention_softmax_type(ctx, q.dtype());
  const double scale = attention_scale(ctx, hs);

  const std::vector<double> qv = float_values(ctx, q);
  const std::vector<double> kv = float_values(ctx, k);
  const std::vector<double> vv = float_values(ctx, v);
  const int64_t block = sq * skv;
  const ir::Dims score_shape{batch, qh, sq, skv};
  std::vector<double> s(static_cast<size_t>(batch * qh * block));
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < qh; ++h) {
      const int64_t bh = b * qh + h, bkv = b * kvh + h / group;
      gemm<double>(false, true, sq, skv, hs, scale, qv.data() + bh * sq * hs,
                   kv.data() + bkv * skv * hs, 0.0, s.data() + bh * block);
    }
  flex_attention_modify(ctx, "score_mod", precision, score_shape, s);
  attention_softmax_rows(s.data(), batch * qh * sq, skv);
  flex_attention_modify(ctx, "prob_mod", precision, score_shape, s);

  std::vector<double> y(static_cast<size_t>(batch * qh * sq * vhs));
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < qh; ++h) {
      const int64_t bh = b * qh + h, bkv = b * kvh + h / group;
      gemm<double>(false, false, sq, vhs, skv, 1.0, s.data() + bh * block,
                   vv.data() + bkv * skv * vhs, 0.0, y.data() + bh * sq * vhs);
    }
  ctx.set_output(0, float_tensor(ctx, q.dtype(), {batch, qh, sq, vhs}, y));
}

}  // namespace

void register_attention_flex_attention(KernelRegistry& registry) {
  // 1: the operator's only version (ai.onnx.preview keeps no versions).
  registry.add("ai.onnx.preview", "FlexAttention", 1, flex_attention);
}

}  // namespace onnxscript::eval
