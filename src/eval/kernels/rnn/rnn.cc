// RNN: a one-layer simple recurrent network. Per direction and step
//   H_t = f(clip(X_t * Wi^T + H_{t-1} * Ri^T + Wbi + Rbi))
// with f = Tanh unless `activations` says otherwise (one per direction).
// Outputs Y (every step's H) and Y_h (the last valid step's H); see
// rnn_common.h for directions, layout, sequence_lens and clip. v1 adds an
// `output_sequence` attribute that changes nothing here (Y is produced when
// the node asks for it); v14 adds `layout`.
#include "rnn_common.h"

namespace onnxscript::eval {
namespace {

template <typename T, typename C>
void run_rnn(KernelContext& ctx, const rnn::RecurrentConfig& cfg,
             const std::vector<rnn::Activation>& acts) {
  const int64_t nb = cfg.batch, hs = cfg.hidden;
  auto [x, w, r, b, h] = rnn::load_operands<T, C>(ctx, cfg);
  std::vector<C> y(static_cast<size_t>(cfg.seq_length * cfg.num_directions * nb * hs), C(0));
  for (int64_t d = 0; d < cfg.num_directions; ++d) {
    const C* rd = r.data() + d * hs * hs;
    const C* rb = b.data() + d * 2 * hs + hs;
    const rnn::Activation& f = acts[d];
    auto step = [&](C* gates, C* state, const std::vector<uint8_t>& active) {
      // gates += H_{t-1} * R^T, for every row at once.
      gemm<C>(false, true, nb, hs, hs, 1.0, state, rd, 1.0, gates);
      for (int64_t row = 0; row < nb; ++row) {
        if (!active[row]) continue;
        for (int64_t j = 0; j < hs; ++j)
          state[row * hs + j] = f(rnn::clipped(gates[row * hs + j] + rb[j], cfg.clip));
      }
    };
    rnn::run_direction<C>(cfg, d, x, w.data() + d * hs * cfg.input_size, b.data() + d * 2 * hs,
                          h.data() + d * nb * hs, y, step);
  }
  rnn::set_outputs<T, C>(ctx, cfg, y, h);
}

void rnn_kernel(KernelContext& ctx) {
  const rnn::RecurrentConfig cfg = rnn::read_config(ctx, 1);
  std::vector<std::string> names = rnn::activation_names(ctx, {"Tanh"}, cfg.num_directions);
  // The schema's own default lists two names ("Tanh", "Tanh") whatever the
  // direction; a single-direction node that spells it out uses the first.
  if (cfg.num_directions == 1 && names.size() == 2) names.resize(1);
  const std::vector<rnn::Activation> acts =
      rnn::parse_activations(ctx, names, 1, cfg.num_directions);
  dispatch<rnn::RecurrentTypes>(ctx.input_tensor(0).dtype(), ctx, [&]<typename T>() {
    using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
    run_rnn<T, C>(ctx, cfg, acts);
  });
}

}  // namespace

void register_rnn_rnn(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 7, 14, 22}) registry.add("", "RNN", v, rnn_kernel);
}

}  // namespace onnxscript::eval
