// GRU: a one-layer gated recurrent unit. Gates are stacked z, r, h in W, R
// and B. Per direction and step (f = Sigmoid, g = Tanh by default):
//   z_t = f(clip(X_t Wz^T + H_{t-1} Rz^T + Wbz + Rbz))
//   r_t = f(clip(X_t Wr^T + H_{t-1} Rr^T + Wbr + Rbr))
//   h_t = g(clip(X_t Wh^T + (r_t . H_{t-1}) Rh^T + Rbh + Wbh))    linear_before_reset = 0
//   h_t = g(clip(X_t Wh^T + r_t . (H_{t-1} Rh^T + Rbh) + Wbh))    linear_before_reset != 0
//   H_t = (1 - z_t) . h_t + z_t . H_{t-1}
// `activations` lists f, g per direction. v1 has no linear_before_reset
// (it is 0) and an `output_sequence` attribute that changes nothing here;
// v3 adds linear_before_reset, v14 `layout`. See rnn_common.h for
// directions, layout, sequence_lens and clip.
#include "rnn_common.h"

namespace onnxscript::eval {
namespace {

template <typename T, typename C>
void run_gru(KernelContext& ctx, const rnn::RecurrentConfig& cfg,
             const std::vector<rnn::Activation>& acts, bool linear_before_reset) {
  const int64_t nb = cfg.batch, hs = cfg.hidden, rows = cfg.gate_rows();
  auto [x, w, r, b, h] = rnn::load_operands<T, C>(ctx, cfg);
  std::vector<C> y(static_cast<size_t>(cfg.seq_length * cfg.num_directions * nb * hs), C(0));
  // Recurrent products: [batch, 3H] with linear_before_reset, else [batch, 2H]
  // for z and r plus [batch, H] for (r . H) Rh^T.
  std::vector<C> recurrent(static_cast<size_t>(nb * rows));
  std::vector<C> reset_state(static_cast<size_t>(nb * hs));
  std::vector<C> reset_product(static_cast<size_t>(nb * hs));
  std::vector<C> update(static_cast<size_t>(hs));
  for (int64_t d = 0; d < cfg.num_directions; ++d) {
    const C* rd = r.data() + d * rows * hs;
    const C* rh = rd + 2 * hs * hs;  // Rh [H, H]
    const C* rb = b.data() + d * 2 * rows + rows;
    const rnn::Activation& f = acts[2 * d];
    const rnn::Activation& g = acts[2 * d + 1];
    auto step = [&](C* gates, C* state, const std::vector<uint8_t>& active) {
      const int64_t zr_cols = linear_before_reset ? rows : 2 * hs;
      gemm<C>(false, true, nb, zr_cols, hs, 1.0, state, rd, 0.0, recurrent.data());
      // z and r for every active row; r is then folded into what Rh multiplies.
      for (int64_t row = 0; row < nb; ++row) {
        if (!active[row]) continue;
        C* gz = gates + row * rows;
        const C* rec = recurrent.data() + row * zr_cols;
        for (int64_t j = 0; j < 2 * hs; ++j)
          gz[j] = f(rnn::clipped(gz[j] + rec[j] + rb[j], cfg.clip));
        if (!linear_before_reset)
          for (int64_t j = 0; j < hs; ++j)
            reset_state[row * hs + j] = gz[hs + j] * state[row * hs + j];
      }
      if (!linear_before_reset)
        gemm<C>(false, true, nb, hs, hs, 1.0, reset_state.data(), rh, 0.0, reset_product.data());
      for (int64_t row = 0; row < nb; ++row) {
        if (!active[row]) continue;
        const C* gz = gates + row * rows;
        const C* reset = gz + hs;
        const C* gh = gz + 2 * hs;
        C* hrow = state + row * hs;
        for (int64_t j = 0; j < hs; ++j) {
          C pre;
          if (linear_before_reset)
            pre = gh[j] + reset[j] * (recurrent[row * rows + 2 * hs + j] + rb[2 * hs + j]);
          else
            pre = gh[j] + reset_product[row * hs + j] + rb[2 * hs + j];
          update[j] = g(rnn::clipped(pre, cfg.clip));
        }
        for (int64_t j = 0; j < hs; ++j) hrow[j] = (C(1) - gz[j]) * update[j] + gz[j] * hrow[j];
      }
    };
    rnn::run_direction<C>(cfg, d, x, w.data() + d * rows * cfg.input_size, b.data() + d * 2 * rows,
                          h.data() + d * nb * hs, y, step);
  }
  rnn::set_outputs<T, C>(ctx, cfg, y, h);
}

void gru(KernelContext& ctx) {
  const rnn::RecurrentConfig cfg = rnn::read_config(ctx, 3);
  const std::vector<rnn::Activation> acts = rnn::parse_activations(
      ctx, rnn::activation_names(ctx, {"Sigmoid", "Tanh"}, cfg.num_directions), 2,
      cfg.num_directions);
  const bool linear_before_reset = ctx.version() >= 3 && ctx.attr_int("linear_before_reset", 0);
  dispatch<rnn::RecurrentTypes>(ctx.input_tensor(0).dtype(), ctx, [&]<typename T>() {
    using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
    run_gru<T, C>(ctx, cfg, acts, linear_before_reset);
  });
}

}  // namespace

void register_rnn_gru(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 3, 7, 14, 22}) registry.add("", "GRU", v, gru);
}

}  // namespace onnxscript::eval
