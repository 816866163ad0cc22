// Own rules for normalization and attention operators beyond libonnx:
// GroupNormalization-21, RMSNormalization, RotaryEmbedding, Attention,
// LinearAttention, FlexAttention and TensorScatter (the KV-cache update).

#include <fmt/format.h>

#include "infer/rules_beyond_libonnx.h"

namespace onnxscript::infer::rules {

namespace {

// One of Attention's Q, K or V seen as [batch, heads, sequence, head size]:
// given so (rank 4), or packed as [batch, sequence, heads * head size]
// (rank 3) with the number of heads from an attribute.
struct Heads {
  bool known = false;  // false when the rank is unknown
  bool packed = false;
  ir::Dim batch, heads, seq, size;
};

Heads split_heads(RuleContext& ctx, size_t i, std::string_view name, std::string_view heads_attr) {
  Heads h;
  const ir::Shape* s = ctx.input_shape(i);
  if (!s) return h;
  h.known = true;
  if (s->size() == 4) {
    h.batch = (*s)[0];
    h.heads = (*s)[1];
    h.seq = (*s)[2];
    h.size = (*s)[3];
  } else if (s->size() == 3) {
    h.packed = true;
    h.batch = (*s)[0];
    h.seq = (*s)[1];
    const int64_t n = ctx.attr_int(heads_attr, 0);
    if (n <= 0) ctx.fail(fmt::format("{} of rank 3 needs the attribute {}", name, heads_attr));
    h.heads = n;
    h.size = dim_div(ctx, (*s)[2], n, fmt::format("{}'s hidden size by {}", name, heads_attr));
  } else {
    ctx.fail(fmt::format("{} must have rank 3 or 4, not {}", name, s->size()));
  }
  return h;
}

ir::Dim first_known(const ir::Dim& a, const ir::Dim& b) { return a.is_unknown() ? b : a; }

}  // namespace

// GroupNormalization-21: Y is X's type; scale and bias hold one value per
// channel.
void group_normalization(RuleContext& ctx) {
  const ir::Shape* x = ctx.input_shape(0);
  if (x && x->size() < 2) ctx.fail(fmt::format("X must have rank 2 or more, not {}", x->size()));
  for (size_t i : {1, 2}) {
    const ir::Shape* s = ctx.input_shape(i);
    if (!s) continue;
    if (s->size() != 1)
      ctx.fail(fmt::format("{} must be one-dimensional", i == 1 ? "scale" : "bias"));
    if (x) unify_dim(ctx, (*x)[1], (*s)[0], "X's channels and the per-channel parameters");
  }
  ctx.copy_input_type(0, 0);
}

// RMSNormalization-23: X's shape, the scale's element type.
void rms_normalization(RuleContext& ctx) {
  const ir::Type* x = ctx.tensor_input(0);
  const ir::Type* scale = ctx.tensor_input(1);
  if (x && x->shape)
    normalize_axis(ctx, ctx.attr_int("axis", -1), static_cast<int64_t>(x->shape->size()), "axis");
  if (scale) ctx.set_output(0, ir::Type::tensor(scale->elem_type, x ? x->shape : std::nullopt));
}

// RotaryEmbedding-23: X's type.
void rotary_embedding(RuleContext& ctx) {
  const ir::Shape* x = ctx.input_shape(0);
  if (x && x->size() != 3 && x->size() != 4)
    ctx.fail(fmt::format("X must have rank 3 or 4, not {}", x->size()));
  if (x && x->size() == 3 && ctx.attr_int("num_heads", 0) <= 0 &&
      ctx.attr_int("rotary_embedding_dim", 0) != 0)
    ctx.fail("X of rank 3 with rotary_embedding_dim needs num_heads");
  ctx.copy_input_type(0, 0);
}

// Attention-23/24/25: Y [B, Hq, Lq, Ev] (or packed [B, Lq, Hq * Ev] as Q
// is), present_key and present_value [B, Hkv, Lpast + Lkv, E or Ev], and
// qk_matmul_output [B, Hq, Lq, Lpast + Lkv].
void attention(RuleContext& ctx) {
  const ir::Type* q_type = ctx.tensor_input(0);
  const ir::Type* k_type = ctx.tensor_input(1);
  const ir::Type* v_type = ctx.tensor_input(2);
  const Heads q = split_heads(ctx, 0, "Q", "q_num_heads");
  const Heads k = split_heads(ctx, 1, "K", "kv_num_heads");
  const Heads v = split_heads(ctx, 2, "V", "kv_num_heads");
  if (q_type && k_type && q_type->elem_type != k_type->elem_type)
    ctx.fail("Q and K must have the same element type");
  if (q.known && k.known) {
    unify_dim(ctx, q.size, k.size, "Q's and K's head sizes");
    unify_dim(ctx, q.batch, k.batch, "Q's and K's batch");
    if (q.heads.is_static() && k.heads.is_static() && k.heads.value() > 0 &&
        q.heads.value() % k.heads.value() != 0)
      ctx.fail(fmt::format("Q's {} heads are not a multiple of K's {}", q.heads.value(),
                           k.heads.value()));
  }
  if (k.known && v.known) {
    unify_dim(ctx, k.seq, v.seq, "K's and V's sequence lengths");
    unify_dim(ctx, k.heads, v.heads, "K's and V's heads");
  }
  const ir::Dim batch = first_known(q.batch, first_known(k.batch, v.batch));
  const ir::Dim kv_heads = first_known(k.heads, v.heads);
  // The total sequence: the past one (from past_key) plus K's.
  ir::Dim total = k.seq;
  if (ctx.has_input(4)) {
    const ir::Shape* past = ctx.input_shape(4);
    if (past && past->size() != 4)
      ctx.fail(fmt::format("past_key must have rank 4, not {}", past->size()));
    total = past ? dim_add((*past)[2], k.seq) : ir::Dim();
  }
  if (q_type && v_type && q.known) {
    std::vector<ir::Dim> dims;
    if (q.packed)
      dims = {batch, q.seq, dim_mul(q.heads, v.size)};
    else
      dims = {batch, q.heads, q.seq, v.size};
    ctx.set_output(0, ir::Type::tensor(q_type->elem_type, ir::Shape(dims)));
  } else if (q_type) {
    ctx.set_output(0, ir::Type::tensor(q_type->elem_type));
  }
  if (k_type)
    ctx.set_output(1, ir::Type::tensor(k_type->elem_type, ir::Shape{batch, kv_heads, total,
                                                                    first_known(k.size, q.size)}));
  if (v_type)
    ctx.set_output(2,
                   ir::Type::tensor(v_type->elem_type, ir::Shape{batch, kv_heads, total, v.size}));
  if (q_type)
    ctx.set_output(3, ir::Type::tensor(q_type->elem_type, ir::Shape{batch, q.heads, q.seq, total}));
}

// LinearAttention-27: query [B, T, Hq * dk], key [B, T, Hkv * dk], value
// [B, T, Hkv * dv] give output [B, T, Hq * dv] and present_state
// [B, Hkv, dk, dv] (past_state's type, else the query's element type).
void linear_attention(RuleContext& ctx) {
  const ir::Type* q_type = ctx.tensor_input(0);
  if (!q_type) return;
  for (size_t i = 0; i < 3; ++i)
    require_rank(ctx, i, 3, i == 0 ? "query" : i == 1 ? "key" : "value");
  require_rank(ctx, 3, 4, "past_state");
  const int64_t hq = ctx.attr_int("q_num_heads", 0);
  const int64_t hkv = ctx.attr_int("kv_num_heads", 0);
  if (hq <= 0 || hkv <= 0) ctx.fail("q_num_heads and kv_num_heads are required and positive");
  if (hq % hkv != 0)
    ctx.fail(fmt::format("q_num_heads {} is not a multiple of kv_num_heads {}", hq, hkv));
  const ir::Shape* qs = ctx.input_shape(0);
  const ir::Shape* ks = ctx.input_shape(1);
  const ir::Shape* vs = ctx.input_shape(2);
  const ir::Dim batch = qs ? (*qs)[0] : ir::Dim();
  const ir::Dim dk =
      qs ? dim_div(ctx, (*qs)[2], hq, "query's hidden size by q_num_heads") : ir::Dim();
  if (ks) unify_dim(ctx, (*ks)[0], batch, "key's and query's batch");
  const ir::Dim dv =
      vs ? dim_div(ctx, (*vs)[2], hkv, "value's hidden size by kv_num_heads") : ir::Dim();
  ctx.set_output(0, ir::Type::tensor(q_type->elem_type, qs ? std::optional<ir::Shape>(ir::Shape{
                                                                 batch, (*qs)[1], dim_mul(dv, hq)})
                                                           : std::nullopt));
  const ir::Type* past = ctx.tensor_input(3);
  ctx.set_output(1, ir::Type::tensor(past ? past->elem_type : q_type->elem_type,
                                     ir::Shape{batch, hkv, dk, dv}));
}

// FlexAttention (ai.onnx.preview 1): Q [B, Hq, L, E], K [B, Hkv, S, E] and
// V [B, Hkv, S, Ev] give Y [B, Hq, L, Ev].
void flex_attention(RuleContext& ctx) {
  const ir::Type* q_type = ctx.tensor_input(0);
  if (!q_type) return;
  require_rank(ctx, 0, 4, "Q");
  require_rank(ctx, 1, 4, "K");
  require_rank(ctx, 2, 4, "V");
  const ir::Shape* qs = ctx.input_shape(0);
  const ir::Shape* ks = ctx.input_shape(1);
  const ir::Shape* vs = ctx.input_shape(2);
  if (qs && ks) unify_dim(ctx, (*qs)[3], (*ks)[3], "Q's and K's head sizes");
  if (ks && vs) unify_dim(ctx, (*ks)[2], (*vs)[2], "K's and V's sequence lengths");
  ir::Shape shape{qs ? (*qs)[0] : ir::Dim(), qs ? (*qs)[1] : ir::Dim(), qs ? (*qs)[2] : ir::Dim(),
                  vs ? (*vs)[3] : ir::Dim()};
  ctx.set_output(0, ir::Type::tensor(q_type->elem_type, shape));
}

// TensorScatter-24: present_cache is past_cache's type; update has its rank.
void tensor_scatter(RuleContext& ctx) {
  const ir::Shape* past = ctx.input_shape(0);
  const ir::Shape* update = ctx.input_shape(1);
  if (past && update && past->size() != update->size())
    ctx.fail(fmt::format("update has rank {}, past_cache {}", update->size(), past->size()));
  if (past)
    normalize_axis(ctx, ctx.attr_int("axis", -2), static_cast<int64_t>(past->size()), "axis");
  ctx.copy_input_type(0, 0);
}

}  // namespace onnxscript::infer::rules
