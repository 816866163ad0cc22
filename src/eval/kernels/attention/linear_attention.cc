// LinearAttention (v27): attention with a recurrent (d_k, d_v) state per
// batch and key/value head instead of a softmax over all keys. query is
// (B, T, q_num_heads * d_k), key (B, T, kv_num_heads * d_k), value
// (B, T, kv_num_heads * d_v); past_state and present_state are
// (B, kv_num_heads, d_k, d_v). Step by step along T, with the key/value head's
// state S (zeros without past_state):
//   linear:      S = S + k v^T
//   gated:       S = exp(g) * S + k v^T
//   delta:       S = S + k (beta * (v - S^T k))^T
//   gated_delta: S' = exp(g) * S;  S = S' + k (beta * (v - S'^T k))^T
// and every query head h of the group sharing that key/value head (query head
// h reads key/value head h / (q_num_heads / kv_num_heads)) outputs
// scale * q_h^T S, from the state after the step. decay holds g in log space,
// one per key/value head (B, T, kv_num_heads), which scales the whole state,
// or one per key dimension (B, T, kv_num_heads * d_k), which scales the rows
// of S; beta is (B, T, kv_num_heads). scale 0 (the default) means
// 1 / sqrt(d_k). chunk_size only tiles the work of a blocked implementation:
// the result is the recurrence's whatever the chunk, so this kernel runs the
// recurrence step by step. Everything is computed in double and rounded once.
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "attention_common.h"

namespace onnxscript::eval {
namespace {

enum class LinearAttentionRule { kLinear, kGated, kDelta, kGatedDelta };

LinearAttentionRule linear_attention_rule(const KernelContext& ctx) {
  const std::string rule = ctx.attr_string("update_rule", "gated_delta");
  if (rule == "linear") return LinearAttentionRule::kLinear;
  if (rule == "gated") return LinearAttentionRule::kGated;
  if (rule == "delta") return LinearAttentionRule::kDelta;
  if (rule == "gated_delta") return LinearAttentionRule::kGatedDelta;
  ctx.fail(
      fmt::format("update_rule '{}' is not one of 'linear', 'gated', 'delta' and "
                  "'gated_delta'",
                  rule));
}

// The last axis of a (B, T, n) input `name` split by `heads`; fails unless the
// input is 3-D over the same batch and sequence and the split is exact.
int64_t linear_attention_head_size(const KernelContext& ctx, const Tensor& t, const char* name,
                                   int64_t batch, int64_t seq, int64_t heads) {
  if (t.rank() != 3 || t.shape()[0] != batch || t.shape()[1] != seq)
    ctx.fail(fmt::format("{} {} must be 3-D ({}, {}, heads * size)", name, shape_string(t.shape()),
                         batch, seq));
  if (t.shape()[2] % heads != 0 || t.shape()[2] == 0)
    ctx.fail(
        fmt::format("{}'s last axis {} does not split into {} heads", name, t.shape()[2], heads));
  return t.shape()[2] / heads;
}

void linear_attention(KernelContext& ctx) {
  const Tensor& q = ctx.input_tensor(0);
  const Tensor& k = ctx.input_tensor(1);
  const Tensor& v = ctx.input_tensor(2);
  ctx.required_attribute("q_num_heads");
  ctx.required_attribute("kv_num_heads");
  const int64_t qh = ctx.attr_int("q_num_heads", 0);
  const int64_t kvh = ctx.attr_int("kv_num_heads", 0);
  const int64_t group = attention_group_size(ctx, qh, kvh);
  if (q.rank() != 3)
    ctx.fail(fmt::format("query {} must be 3-D (batch, sequence, q_num_heads * d_k)",
                         shape_string(q.shape())));
  const int64_t batch = q.shape()[0], seq = q.shape()[1];
  const int64_t dk = linear_attention_head_size(ctx, q, "query", batch, seq, qh);
  if (linear_attention_head_size(ctx, k, "key", batch, seq, kvh) != dk)
    ctx.fail(fmt::format("key's head size {} differs from query's {}", k.shape()[2] / kvh, dk));
  const int64_t dv = linear_attention_head_size(ctx, v, "value", batch, seq, kvh);
  for (const Tensor* t : {&k, &v})
    if (t->dtype() != q.dtype()) ctx.fail("query, key and value must have one element type");

  const LinearAttentionRule rule = linear_attention_rule(ctx);
  const bool gated =
      rule == LinearAttentionRule::kGated || rule == LinearAttentionRule::kGatedDelta;
  const bool delta =
      rule == LinearAttentionRule::kDelta || rule == LinearAttentionRule::kGatedDelta;
  if (ctx.attr_int("chunk_size", 64) <= 0)
    ctx.fail(fmt::format("chunk_size {} must be positive", ctx.attr_int("chunk_size", 64)));
  const double scale_attr = ctx.attr_float("scale", 0.0f);
  const double scale = scale_attr != 0.0 ? scale_attr : 1.0 / std::sqrt(static_cast<double>(dk));

  const size_t state_size = static_cast<size_t>(batch * kvh * dk * dv);
  std::vector<double> state(state_size, 0.0);
  DataType state_type = q.dtype();
  if (ctx.num_inputs() > 3 && ctx.has_input(3)) {
    const Tensor& p = ctx.input_tensor(3);
    const std::vector<int64_t> want{batch, kvh, dk, dv};
    if (p.shape() != want)
      ctx.fail(fmt::format("past_state {} must be (batch, kv_num_heads, d_k, d_v) = {}",
                           shape_string(p.shape()), shape_string(want)));
    state = float_values(ctx, p);
    state_type = p.dtype();
  }
  // g per (b, t, head, key dimension): `decay_width` is d_k, or 1 per head.
  std::vector<double> decay;
  int64_t decay_width = 0;
  if (gated) {
    if (ctx.num_inputs() <= 4 || !ctx.has_input(4))
      ctx.fail(fmt::format("update_rule '{}' needs the decay input",
                           ctx.attr_string("update_rule", "gated_delta")));
    const Tensor& d = ctx.input_tensor(4);
    if (d.rank() != 3 || d.shape()[0] != batch || d.shape()[1] != seq ||
        (d.shape()[2] != kvh && d.shape()[2] != kvh * dk))
      ctx.fail(
          fmt::format("decay {} must be ({}, {}, kv_num_heads) or ({}, {}, kv_num_heads * "
                      "d_k) = ({}, {}, {})",
                      shape_string(d.shape()), batch, seq, batch, seq, batch, seq, kvh * dk));
    if (d.dtype() != q.dtype()) ctx.fail("decay must have the element type of query");
    decay = float_values(ctx, d);
    decay_width = d.shape()[2] / kvh;
  }
  std::vector<double> beta;
  if (delta) {
    if (ctx.num_inputs() <= 5 || !ctx.has_input(5))
      ctx.fail(fmt::format("update_rule '{}' needs the beta input",
                           ctx.attr_string("update_rule", "gated_delta")));
    const Tensor& bt = ctx.input_tensor(5);
    const std::vector<int64_t> want{batch, seq, kvh};
    if (bt.shape() != want)
      ctx.fail(fmt::format("beta {} must be (batch, sequence, kv_num_heads) = {}",
                           shape_string(bt.shape()), shape_string(want)));
    if (bt.dtype() != q.dtype()) ctx.fail("beta must have the element type of query");
    beta = float_values(ctx, bt);
  }

  // Heads first: (B, H, T, size).
  const std::vector<double> qv = attention_heads_first(ctx, q, qh, seq, dk);
  const std::vector<double> kv = attention_heads_first(ctx, k, kvh, seq, dk);
  const std::vector<double> vv = attention_heads_first(ctx, v, kvh, seq, dv);
  std::vector<double> y(static_cast<size_t>(batch * qh * seq * dv));
  std::vector<double> write(static_cast<size_t>(dv));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t g = 0; g < kvh; ++g) {
      double* s = state.data() + (b * kvh + g) * dk * dv;
      for (int64_t t = 0; t < seq; ++t) {
        const double* kt = kv.data() + ((b * kvh + g) * seq + t) * dk;
        const double* vt = vv.data() + ((b * kvh + g) * seq + t) * dv;
        if (gated) {
          const double* gt = decay.data() + ((b * seq + t) * kvh + g) * decay_width;
          for (int64_t i = 0; i < dk; ++i) {
            const double f = std::exp(gt[decay_width == 1 ? 0 : i]);
            for (int64_t j = 0; j < dv; ++j) s[i * dv + j] *= f;
          }
        }
        // What is written along k: v itself, or beta times what the state
        // does not yet recall for k (delta rules).
        for (int64_t j = 0; j < dv; ++j) write[j] = vt[j];
        if (delta) {
          const double bt = beta[(b * seq + t) * kvh + g];
          for (int64_t j = 0; j < dv; ++j) {
            double recalled = 0;
            for (int64_t i = 0; i < dk; ++i) recalled += s[i * dv + j] * kt[i];
            write[j] = bt * (vt[j] - recalled);
          }
        }
        for (int64_t i = 0; i < dk; ++i)
          for (int64_t j = 0; j < dv; ++j) s[i * dv + j] += kt[i] * write[j];
        for (int64_t h = g * group; h < (g + 1) * group; ++h) {
          const double* qt = qv.data() + ((b * qh + h) * seq + t) * dk;
          double* out = y.data() + ((b * qh + h) * seq + t) * dv;
          for (int64_t j = 0; j < dv; ++j) {
            double acc = 0;
            for (int64_t i = 0; i < dk; ++i) acc += qt[i] * s[i * dv + j];
            out[j] = scale * acc;
          }
        }
      }
    }
  }
  ctx.set_output(0, float_tensor(ctx, q.dtype(), {batch, seq, qh * dv},
                                 attention_heads_last(y, batch, qh, seq, dv)));
  if (ctx.num_outputs() > 1)
    ctx.set_output(1, float_tensor(ctx, state_type, {batch, kvh, dk, dv}, state));
}

}  // namespace

void register_attention_linear_attention(KernelRegistry& registry) {
  // 27: the operator's first version.
  registry.add("", "LinearAttention", 27, linear_attention);
}

}  // namespace onnxscript::eval
