// LSTM: a one-layer long short-term memory network. Gates are stacked
// i, o, f, c in W, R and B; peepholes P are stacked i, o, f. Per direction
// and step (f = Sigmoid, g = h = Tanh by default):
//   i_t = f(clip(X_t Wi^T + H_{t-1} Ri^T + Pi . C_{t-1} + Wbi + Rbi))
//   f_t = f(clip(X_t Wf^T + H_{t-1} Rf^T + Pf . C_{t-1} + Wbf + Rbf))
//         or 1 - i_t when input_forget = 1 (coupled gates)
//   c_t = g(clip(X_t Wc^T + H_{t-1} Rc^T + Wbc + Rbc))
//   C_t = f_t . C_{t-1} + i_t . c_t
//   o_t = f(clip(X_t Wo^T + H_{t-1} Ro^T + Po . C_t + Wbo + Rbo))
//   H_t = o_t . h(C_t)
// `activations` lists f, g, h per direction. Outputs Y, Y_h and Y_c (the
// last valid step's cell state). v1 has an `output_sequence` attribute that
// changes nothing here; v14 adds `layout`. See rnn_common.h for directions,
// layout, sequence_lens and clip (which bounds the gates' pre-activations,
// not C_t).
#include "rnn_common.h"

namespace onnxscript::eval {
namespace {

template <typename T, typename C>
void run_lstm(KernelContext& ctx, const rnn::RecurrentConfig& cfg,
              const std::vector<rnn::Activation>& acts, bool input_forget) {
  const int64_t nb = cfg.batch, hs = cfg.hidden, rows = cfg.gate_rows();
  auto [x, w, r, b, h] = rnn::load_operands<T, C>(ctx, cfg);
  std::vector<C> cell = rnn::initial_state<T, C>(ctx, cfg, 6);
  const std::vector<C> p =
      ctx.has_input(7) ? rnn::to_compute<T, C>(ctx.input_tensor(7))
                       : std::vector<C>(static_cast<size_t>(cfg.num_directions * 3 * hs), C(0));
  std::vector<C> y(static_cast<size_t>(cfg.seq_length * cfg.num_directions * nb * hs), C(0));
  for (int64_t d = 0; d < cfg.num_directions; ++d) {
    const C* rd = r.data() + d * rows * hs;
    const C* rb = b.data() + d * 2 * rows + rows;
    const C* pi = p.data() + d * 3 * hs;
    const C* po = pi + hs;
    const C* pf = pi + 2 * hs;
    C* cd = cell.data() + d * nb * hs;
    const rnn::Activation& f = acts[3 * d];
    const rnn::Activation& g = acts[3 * d + 1];
    const rnn::Activation& hact = acts[3 * d + 2];
    auto step = [&](C* gates, C* state, const std::vector<uint8_t>& active) {
      gemm<C>(false, true, nb, rows, hs, 1.0, state, rd, 1.0, gates);
      for (int64_t row = 0; row < nb; ++row) {
        if (!active[row]) continue;
        C* gi = gates + row * rows;
        C* go = gi + hs;
        C* gf = gi + 2 * hs;
        C* gc = gi + 3 * hs;
        C* c = cd + row * hs;
        C* hrow = state + row * hs;
        for (int64_t j = 0; j < hs; ++j) {
          const C in = f(rnn::clipped(gi[j] + rb[j] + pi[j] * c[j], cfg.clip));
          const C forget = input_forget
                               ? C(1) - in
                               : f(rnn::clipped(gf[j] + rb[2 * hs + j] + pf[j] * c[j], cfg.clip));
          const C candidate = g(rnn::clipped(gc[j] + rb[3 * hs + j], cfg.clip));
          c[j] = forget * c[j] + in * candidate;
          const C out = f(rnn::clipped(go[j] + rb[hs + j] + po[j] * c[j], cfg.clip));
          hrow[j] = out * hact(c[j]);
        }
      }
    };
    rnn::run_direction<C>(cfg, d, x, w.data() + d * rows * cfg.input_size, b.data() + d * 2 * rows,
                          h.data() + d * nb * hs, y, step);
  }
  rnn::set_outputs<T, C>(ctx, cfg, y, h);
  if (ctx.num_outputs() > 2) ctx.set_output(2, rnn::state_output<T, C>(cfg, cell));
}

void lstm(KernelContext& ctx) {
  const rnn::RecurrentConfig cfg = rnn::read_config(ctx, 4);
  const DataType dtype = ctx.input_tensor(0).dtype();
  rnn::optional_input(ctx, 6, "initial_c", dtype, rnn::state_shape(cfg));
  rnn::optional_input(ctx, 7, "P", dtype, {cfg.num_directions, 3 * cfg.hidden});
  const std::vector<rnn::Activation> acts = rnn::parse_activations(
      ctx, rnn::activation_names(ctx, {"Sigmoid", "Tanh", "Tanh"}, cfg.num_directions), 3,
      cfg.num_directions);
  const int64_t input_forget = ctx.attr_int("input_forget", 0);
  if (input_forget != 0 && input_forget != 1)
    ctx.fail(fmt::format("input_forget {} is not 0 or 1", input_forget));
  dispatch<rnn::RecurrentTypes>(dtype, ctx, [&]<typename T>() {
    using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
    run_lstm<T, C>(ctx, cfg, acts, input_forget == 1);
  });
}

}  // namespace

void register_rnn_lstm(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 7, 14, 22}) registry.add("", "LSTM", v, lstm);
}

}  // namespace onnxscript::eval
