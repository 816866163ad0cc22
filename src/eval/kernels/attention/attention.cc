// Attention (v23, v24, v25): scaled dot-product attention over 3-D inputs
// (batch, sequence, heads * head_size; q_num_heads and kv_num_heads split the
// last axis) or 4-D inputs (batch, heads, sequence, head_size), with grouped
// heads (query head h reads key/value head h / (q_num_heads / kv_num_heads)),
// a key/value cache (present = past ++ current along the sequence axis), and
// the bias built from attn_mask (bool: false masks; otherwise added; a last
// axis shorter than the total sequence is padded with -inf), is_causal
// (column j is masked for row i when j > i + past_sequence_length), from
// v24 nonpad_kv_seqlen (columns at or past batch b's count are masked) and,
// from v25, a sliding window: row i, at position p = i + past_sequence_length
// (aligned as is_causal aligns it), keeps only the keys j with
// p - left_window_size <= j <= p + right_window_size, a side whose size is
// negative (the default -1) being unbounded. A window of (-1, 0) is the
// causal mask.
//
// Per batch and head, as the operator's function body computes it:
//   S = scale * Q K^T                 qk_matmul_output_mode 0
//   S = softcap * tanh(S / softcap)   mode 1 (when softcap > 0)
//   S = S + bias                      mode 2
//   P = softmax(S) along the keys     mode 3
//   Y = P V
// The products go through BLAS in double; softmax_precision only names the
// precision the softmax must at least have, and double exceeds them all.
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "attention_common.h"
#include "eval/kernels/linalg/gemm_util.h"
#include "eval/util/broadcast.h"

namespace onnxscript::eval {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// The elements of a numeric or bool tensor as doubles.
std::vector<double> numeric_values(const KernelContext& ctx, const Tensor& t) {
  std::vector<double> out(static_cast<size_t>(t.numel()));
  if (t.dtype() == DataType::kBool) {
    const bool* p = t.data<bool>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = p[i] ? 1.0 : 0.0;
    return out;
  }
  dispatch<kNumericTypes>(t.dtype(), ctx, [&]<typename T>() {
    const T* p = t.data<T>();
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = static_cast<double>(static_cast<compute_t<T>>(p[i]));
  });
  return out;
}

// past ++ current along the sequence axis of (batch, heads, seq, size) buffers.
std::vector<double> concat_seq(const std::vector<double>& past, int64_t past_len,
                               const std::vector<double>& cur, int64_t cur_len, int64_t bh,
                               int64_t size) {
  const int64_t total = past_len + cur_len;
  std::vector<double> out(static_cast<size_t>(bh * total * size));
  for (int64_t i = 0; i < bh; ++i) {
    std::copy_n(past.data() + i * past_len * size, past_len * size, out.data() + i * total * size);
    std::copy_n(cur.data() + i * cur_len * size, cur_len * size,
                out.data() + (i * total + past_len) * size);
  }
  return out;
}

void attention(KernelContext& ctx) {
  const Tensor& q = ctx.input_tensor(0);
  const Tensor& k = ctx.input_tensor(1);
  const Tensor& v = ctx.input_tensor(2);
  const int64_t rank = q.rank();
  if ((rank != 3 && rank != 4) || k.rank() != rank || v.rank() != rank)
    ctx.fail(fmt::format("Q, K and V must all be 3-D or all 4-D, got {}, {} and {}",
                         shape_string(q.shape()), shape_string(k.shape()),
                         shape_string(v.shape())));
  const int64_t batch = q.shape()[0];
  int64_t qh, kvh, sq, skv, hs, khs, vhs;
  if (rank == 3) {
    qh = ctx.attr_int("q_num_heads", 0);
    kvh = ctx.attr_int("kv_num_heads", 0);
    if (qh <= 0 || kvh <= 0)
      ctx.fail("3-D inputs need positive q_num_heads and kv_num_heads attributes");
    if (q.shape()[2] % qh != 0 || k.shape()[2] % kvh != 0 || v.shape()[2] % kvh != 0)
      ctx.fail("the hidden sizes of Q, K and V must divide by their numbers of heads");
    sq = q.shape()[1];
    skv = k.shape()[1];
    hs = q.shape()[2] / qh;
    khs = k.shape()[2] / kvh;
    vhs = v.shape()[2] / kvh;
    if (v.shape()[1] != skv) ctx.fail("K and V must have the same sequence length");
  } else {
    qh = q.shape()[1];
    kvh = k.shape()[1];
    sq = q.shape()[2];
    skv = k.shape()[2];
    hs = q.shape()[3];
    khs = k.shape()[3];
    vhs = v.shape()[3];
    if (v.shape()[1] != kvh || v.shape()[2] != skv)
      ctx.fail("K and V must have the same number of heads and sequence length");
  }
  if (k.shape()[0] != batch || v.shape()[0] != batch)
    ctx.fail("Q, K and V must have the same batch size");
  if (khs != hs) ctx.fail(fmt::format("Q's head size {} differs from K's {}", hs, khs));
  const int64_t group = attention_group_size(ctx, qh, kvh);

  std::vector<double> qv = attention_heads_first(ctx, q, qh, sq, hs);
  std::vector<double> kv = attention_heads_first(ctx, k, kvh, skv, hs);
  std::vector<double> vv = attention_heads_first(ctx, v, kvh, skv, vhs);
  int64_t past = 0;
  const bool has_past_key = ctx.num_inputs() > 4 && ctx.has_input(4);
  const bool has_past_value = ctx.num_inputs() > 5 && ctx.has_input(5);
  if (has_past_key != has_past_value) ctx.fail("past_key and past_value go together");
  if (has_past_key) {
    const Tensor& pk = ctx.input_tensor(4);
    const Tensor& pv = ctx.input_tensor(5);
    past = pk.rank() == 4 ? pk.shape()[2] : -1;
    if (pk.rank() != 4 || pk.shape()[0] != batch || pk.shape()[1] != kvh || pk.shape()[3] != hs)
      ctx.fail(fmt::format("past_key {} is not (batch, kv_num_heads, past_sequence, head_size)",
                           shape_string(pk.shape())));
    if (pv.rank() != 4 || pv.shape()[0] != batch || pv.shape()[1] != kvh || pv.shape()[2] != past ||
        pv.shape()[3] != vhs)
      ctx.fail(
          fmt::format("past_value {} does not match past_key and V", shape_string(pv.shape())));
    kv = concat_seq(float_values(ctx, pk), past, kv, skv, batch * kvh, hs);
    vv = concat_seq(float_values(ctx, pv), past, vv, skv, batch * kvh, vhs);
  }
  const int64_t total = past + skv;

  // The additive mask, broadcast to (batch, q_heads, sq, mask_len).
  std::vector<double> mask;
  int64_t mask_len = 0;
  if (ctx.num_inputs() > 3 && ctx.has_input(3)) {
    const Tensor& m = ctx.input_tensor(3);
    if (m.rank() < 1 || m.rank() > 4)
      ctx.fail(fmt::format("attn_mask {} must have rank 1 to 4", shape_string(m.shape())));
    mask_len = m.shape()[m.rank() - 1];
    if (mask_len > total)
      ctx.fail(fmt::format("attn_mask's last axis {} exceeds the total sequence length {}",
                           mask_len, total));
    const std::vector<int64_t> target{batch, qh, sq, mask_len};
    if (!broadcasts_to(m.shape(), target))
      ctx.fail(fmt::format("attn_mask {} does not broadcast to {}", shape_string(m.shape()),
                           shape_string(target)));
    mask = numeric_values(ctx, broadcast_to(m, target));
    if (m.dtype() == DataType::kBool)
      for (double& x : mask) x = x != 0.0 ? 0.0 : kNegInf;
  }
  const bool causal = ctx.attr_int("is_causal", 0) != 0;
  std::vector<int64_t> nonpad;
  if (ctx.num_inputs() > 6 && ctx.has_input(6)) {
    nonpad = tensor_to_int64s(ctx, ctx.input_tensor(6), "nonpad_kv_seqlen");
    if (static_cast<int64_t>(nonpad.size()) != batch)
      ctx.fail(
          fmt::format("nonpad_kv_seqlen has {} elements for a batch of {}", nonpad.size(), batch));
  }

  // The sliding window (v25); attributes of older versions are not read.
  const int64_t left = ctx.version() >= 25 ? ctx.attr_int("left_window_size", -1) : -1;
  const int64_t right = ctx.version() >= 25 ? ctx.attr_int("right_window_size", -1) : -1;

  const double scale = attention_scale(ctx, hs);
  const double softcap = ctx.attr_float("softcap", 0.0f);
  const int64_t mode = ctx.attr_int("qk_matmul_output_mode", 0);
  if (mode < 0 || mode > 3)
    ctx.fail(fmt::format("qk_matmul_output_mode {} is not 0, 1, 2 or 3", mode));
  const bool want_qk = ctx.num_outputs() > 3;

  const int64_t block = sq * total;
  std::vector<double> y(static_cast<size_t>(batch * qh * sq * vhs));
  std::vector<double> qk_out(want_qk ? static_cast<size_t>(batch * qh * block) : 0);
  std::vector<double> s(static_cast<size_t>(block));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t h = 0; h < qh; ++h) {
      const int64_t bh = b * qh + h, bkv = b * kvh + h / group;
      gemm<double>(false, true, sq, total, hs, scale, qv.data() + bh * sq * hs,
                   kv.data() + bkv * total * hs, 0.0, s.data());
      double* qk = want_qk ? qk_out.data() + bh * block : nullptr;
      if (qk && mode == 0) std::copy(s.begin(), s.end(), qk);
      if (softcap > 0)
        for (double& x : s) x = softcap * std::tanh(x / softcap);
      if (qk && mode == 1) std::copy(s.begin(), s.end(), qk);
      for (int64_t i = 0; i < sq; ++i) {
        double* row = s.data() + i * total;
        for (int64_t j = 0; j < total; ++j) {
          if (!mask.empty()) row[j] += j < mask_len ? mask[(bh * sq + i) * mask_len + j] : kNegInf;
          if (causal && j > i + past) row[j] += kNegInf;
          if (!nonpad.empty() && j >= nonpad[b]) row[j] += kNegInf;
          if (left >= 0 && j < i + past - left) row[j] += kNegInf;
          if (right >= 0 && j > i + past + right) row[j] += kNegInf;
        }
      }
      if (qk && mode == 2) std::copy(s.begin(), s.end(), qk);
      attention_softmax_rows(s.data(), sq, total);
      if (qk && mode == 3) std::copy(s.begin(), s.end(), qk);
      gemm<double>(false, false, sq, vhs, total, 1.0, s.data(), vv.data() + bkv * total * vhs, 0.0,
                   y.data() + bh * sq * vhs);
    }
  }

  if (rank == 3) {
    ctx.set_output(0, float_tensor(ctx, q.dtype(), {batch, sq, qh * vhs},
                                   attention_heads_last(y, batch, qh, sq, vhs)));
  } else {
    ctx.set_output(0, float_tensor(ctx, q.dtype(), {batch, qh, sq, vhs}, y));
  }
  if (ctx.num_outputs() > 1)
    ctx.set_output(1, float_tensor(ctx, k.dtype(), {batch, kvh, total, hs}, kv));
  if (ctx.num_outputs() > 2)
    ctx.set_output(2, float_tensor(ctx, v.dtype(), {batch, kvh, total, vhs}, vv));
  if (want_qk) ctx.set_output(3, float_tensor(ctx, q.dtype(), {batch, qh, sq, total}, qk_out));
}

}  // namespace

void register_attention_attention(KernelRegistry& registry) {
  // 23: the operator's first version.
  registry.add("", "Attention", 23, attention);
  // 24: adds the nonpad_kv_seqlen input (per-batch count of valid keys).
  registry.add("", "Attention", 24, attention);
  // 25: adds left_window_size and right_window_size (a sliding window).
  registry.add("", "Attention", 25, attention);
}

}  // namespace onnxscript::eval
