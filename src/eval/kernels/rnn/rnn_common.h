#pragma once
// Shared machinery of the recurrent operators RNN, GRU and LSTM.
//
// All three take X, W [dirs, G*H, I], R [dirs, G*H, H], B [dirs, 2*G*H]
// (Wb then Rb), sequence_lens [batch] and initial_h, where G is the number
// of gates (RNN 1, GRU 3, LSTM 4) and H the hidden size. They produce Y
// [seq, dirs, batch, H] and Y_h [dirs, batch, H]; with layout=1 (opset 14)
// X, Y, the initial and the final states are batch-major instead
// ([batch, seq, I], [batch, seq, dirs, H], [batch, dirs, H]). This header
// reads and checks those, converts between the two layouts, parses the
// activation lists, and runs the time loop of one direction; each operator
// supplies the cell update.
//
// Semantics chosen where the specification is loose (as ONNX Runtime does):
// - activation_alpha / activation_beta are consumed in order by the
//   activations that take an alpha (resp. beta); missing values take the
//   defaults of the corresponding ONNX operators (LeakyRelu 0.01,
//   HardSigmoid 0.2/0.5, ThresholdedRelu, Elu, ScaledTanh and Affine 1).
//   Names match case-insensitively.
// - `clip` bounds the pre-activation of every gate, not the cell state.
// - Past a batch entry's sequence length the outputs in Y are zero; Y_h is
//   the state after its last valid step (the initial state for length 0).
//   The reverse direction of an entry of length L starts at step L-1.
//
// Arithmetic runs in double for double tensors and in float otherwise
// (float16 is widened); the gate products go through gemm_util.h's BLAS.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "eval/kernels/linalg/gemm_util.h"
#include "eval/util/shape_util.h"

namespace onnxscript::eval::rnn {

/// The element types the recurrent operators accept.
using RecurrentTypes = TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16>;

// ---- activations ----

/// The activation functions the recurrent operators name in `activations`.
enum class ActivationKind {
  kRelu,
  kTanh,
  kSigmoid,
  kAffine,
  kLeakyRelu,
  kThresholdedRelu,
  kScaledTanh,
  kHardSigmoid,
  kElu,
  kSoftsign,
  kSoftplus,
};

/// One activation with its alpha and beta resolved.
struct Activation {
  ActivationKind kind = ActivationKind::kTanh;
  double alpha = 0.0;
  double beta = 0.0;

  template <typename C>
  C operator()(C x) const {
    const C a = static_cast<C>(alpha), b = static_cast<C>(beta);
    switch (kind) {
      case ActivationKind::kRelu:
        return x > C(0) ? x : C(0);
      case ActivationKind::kTanh:
        return std::tanh(x);
      case ActivationKind::kSigmoid:
        // Split by sign so exp never overflows.
        if (x >= C(0)) return C(1) / (C(1) + std::exp(-x));
        return std::exp(x) / (C(1) + std::exp(x));
      case ActivationKind::kAffine:
        return a * x + b;
      case ActivationKind::kLeakyRelu:
        return x >= C(0) ? x : a * x;
      case ActivationKind::kThresholdedRelu:
        return x >= a ? x : C(0);
      case ActivationKind::kScaledTanh:
        return a * std::tanh(b * x);
      case ActivationKind::kHardSigmoid:
        return std::min(std::max(a * x + b, C(0)), C(1));
      case ActivationKind::kElu:
        return x >= C(0) ? x : a * std::expm1(x);
      case ActivationKind::kSoftsign:
        return x / (C(1) + std::abs(x));
      case ActivationKind::kSoftplus:
        // log(1 + e^x) without overflow for large x.
        return x > C(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
    }
    return x;
  }
};

/// The `activations` attribute, or `defaults` repeated once per direction
/// when it is absent.
inline std::vector<std::string> activation_names(const KernelContext& ctx,
                                                 const std::vector<std::string>& defaults,
                                                 int64_t num_directions) {
  if (const ir::Attribute* a = ctx.attribute("activations")) return a->as_strings();
  std::vector<std::string> names;
  for (int64_t d = 0; d < num_directions; ++d)
    names.insert(names.end(), defaults.begin(), defaults.end());
  return names;
}

/// Resolves `names` (exactly `per_direction * num_directions` of them) with
/// activation_alpha / activation_beta; fails on unknown names or a wrong count.
inline std::vector<Activation> parse_activations(const KernelContext& ctx,
                                                 const std::vector<std::string>& names,
                                                 int64_t per_direction, int64_t num_directions) {
  const size_t expected = static_cast<size_t>(per_direction * num_directions);
  if (names.size() != expected)
    ctx.fail(
        fmt::format("activations has {} entries but {} direction(s) need {} ({} per direction)",
                    names.size(), num_directions, expected, per_direction));
  struct Known {
    const char* name;
    ActivationKind kind;
    bool uses_alpha, uses_beta;
    double default_alpha, default_beta;
  };
  static constexpr Known kKnown[] = {
      {"relu", ActivationKind::kRelu, false, false, 0, 0},
      {"tanh", ActivationKind::kTanh, false, false, 0, 0},
      {"sigmoid", ActivationKind::kSigmoid, false, false, 0, 0},
      {"affine", ActivationKind::kAffine, true, true, 1.0, 0.0},
      {"leakyrelu", ActivationKind::kLeakyRelu, true, false, 0.01, 0},
      {"thresholdedrelu", ActivationKind::kThresholdedRelu, true, false, 1.0, 0},
      {"scaledtanh", ActivationKind::kScaledTanh, true, true, 1.0, 1.0},
      {"hardsigmoid", ActivationKind::kHardSigmoid, true, true, 0.2, 0.5},
      {"elu", ActivationKind::kElu, true, false, 1.0, 0},
      {"softsign", ActivationKind::kSoftsign, false, false, 0, 0},
      {"softplus", ActivationKind::kSoftplus, false, false, 0, 0},
  };
  const std::vector<float> alphas = ctx.attr_floats("activation_alpha");
  const std::vector<float> betas = ctx.attr_floats("activation_beta");
  size_t next_alpha = 0, next_beta = 0;
  std::vector<Activation> out;
  for (const std::string& name : names) {
    std::string lower(name);
    for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const Known* known = nullptr;
    for (const Known& k : kKnown)
      if (lower == k.name) known = &k;
    if (!known) ctx.fail(fmt::format("unknown activation function '{}'", name));
    Activation act{known->kind, known->default_alpha, known->default_beta};
    if (known->uses_alpha && next_alpha < alphas.size()) act.alpha = alphas[next_alpha++];
    if (known->uses_beta && next_beta < betas.size()) act.beta = betas[next_beta++];
    out.push_back(act);
  }
  return out;
}

// ---- shapes and attributes ----

/// What every recurrent operator reads from its attributes and input shapes.
struct RecurrentConfig {
  int64_t num_gates = 1;                                  ///< G: rows of W per direction are G*H.
  int64_t seq_length = 0;                                 ///< Time steps in X.
  int64_t batch = 0;                                      ///< Batch size.
  int64_t input_size = 0;                                 ///< I.
  int64_t hidden = 0;                                     ///< H.
  int64_t num_directions = 1;                             ///< 2 when bidirectional.
  bool reverse_only = false;                              ///< direction = "reverse".
  bool batch_major = false;                               ///< layout = 1.
  double clip = std::numeric_limits<double>::infinity();  ///< Gate pre-activation bound.
  std::vector<int64_t> seq_lens;                          ///< Per batch entry, in [0, seq_length].

  /// True when pass `d` (0 or 1) runs from the last step to the first.
  bool reverse_pass(int64_t d) const { return reverse_only || d == 1; }
  /// Number of gate rows per direction.
  int64_t gate_rows() const { return num_gates * hidden; }
};

/// Checks that input `index`, when present, is a tensor of `dtype` with `shape`.
inline const Tensor* optional_input(const KernelContext& ctx, size_t index, const char* name,
                                    DataType dtype, const std::vector<int64_t>& shape) {
  if (!ctx.has_input(index)) return nullptr;
  const Tensor& t = ctx.input_tensor(index);
  if (t.dtype() != dtype) ctx.fail(fmt::format("{} must have the element type of X", name));
  if (t.shape() != shape)
    ctx.fail(fmt::format("{} has shape {} but {} is expected", name, shape_string(t.shape()),
                         shape_string(shape)));
  return &t;
}

/// The shape of an initial or final state ([dirs, batch, H], or batch-major).
inline std::vector<int64_t> state_shape(const RecurrentConfig& cfg) {
  return cfg.batch_major ? std::vector<int64_t>{cfg.batch, cfg.num_directions, cfg.hidden}
                         : std::vector<int64_t>{cfg.num_directions, cfg.batch, cfg.hidden};
}

/// Reads direction, layout, hidden_size and clip, and checks X, W, R, B,
/// sequence_lens and initial_h (inputs 0-5) against each other.
inline RecurrentConfig read_config(const KernelContext& ctx, int64_t num_gates) {
  RecurrentConfig cfg;
  cfg.num_gates = num_gates;
  const std::string direction = ctx.attr_string("direction", "forward");
  // GRU-1's schema spells its default "foward"; a model may carry it verbatim.
  if (direction == "forward" || direction == "foward") {
    cfg.num_directions = 1;
  } else if (direction == "reverse") {
    cfg.num_directions = 1;
    cfg.reverse_only = true;
  } else if (direction == "bidirectional") {
    cfg.num_directions = 2;
  } else {
    ctx.fail(fmt::format("direction '{}' is not forward, reverse or bidirectional", direction));
  }
  if (ctx.version() >= 14) {
    const int64_t layout = ctx.attr_int("layout", 0);
    if (layout != 0 && layout != 1) ctx.fail(fmt::format("layout {} is not 0 or 1", layout));
    cfg.batch_major = layout == 1;
  }
  if (const ir::Attribute* clip = ctx.attribute("clip")) {
    cfg.clip = clip->as_float();
    if (!(cfg.clip > 0)) ctx.fail(fmt::format("clip {} must be positive", cfg.clip));
  }

  const Tensor& x = ctx.input_tensor(0);
  const Tensor& w = ctx.input_tensor(1);
  const Tensor& r = ctx.input_tensor(2);
  if (x.rank() != 3) ctx.fail(fmt::format("X must be 3-D, got {}", shape_string(x.shape())));
  if (w.rank() != 3 || r.rank() != 3)
    ctx.fail(
        fmt::format("W {} and R {} must be 3-D", shape_string(w.shape()), shape_string(r.shape())));
  if (w.dtype() != x.dtype() || r.dtype() != x.dtype())
    ctx.fail("W and R must have the element type of X");
  cfg.seq_length = x.shape()[cfg.batch_major ? 1 : 0];
  cfg.batch = x.shape()[cfg.batch_major ? 0 : 1];
  cfg.input_size = x.shape()[2];
  cfg.hidden = r.shape()[2];
  if (const ir::Attribute* hs = ctx.attribute("hidden_size")) {
    if (hs->as_int() != cfg.hidden)
      ctx.fail(fmt::format("hidden_size {} does not match R {} (last dimension is the hidden size)",
                           hs->as_int(), shape_string(r.shape())));
  }
  if (cfg.hidden <= 0) ctx.fail(fmt::format("hidden size {} must be positive", cfg.hidden));
  const std::vector<int64_t> w_shape{cfg.num_directions, cfg.gate_rows(), cfg.input_size};
  const std::vector<int64_t> r_shape{cfg.num_directions, cfg.gate_rows(), cfg.hidden};
  if (w.shape() != w_shape)
    ctx.fail(
        fmt::format("W has shape {} but {} is expected (directions, {} gates x hidden {}, "
                    "input size)",
                    shape_string(w.shape()), shape_string(w_shape), num_gates, cfg.hidden));
  if (r.shape() != r_shape)
    ctx.fail(fmt::format("R has shape {} but {} is expected", shape_string(r.shape()),
                         shape_string(r_shape)));
  optional_input(ctx, 3, "B", x.dtype(), {cfg.num_directions, 2 * cfg.gate_rows()});
  cfg.seq_lens.assign(static_cast<size_t>(cfg.batch), cfg.seq_length);
  if (ctx.has_input(4)) {
    const Tensor& lens = ctx.input_tensor(4);
    if (lens.shape() != std::vector<int64_t>{cfg.batch})
      ctx.fail(fmt::format("sequence_lens has shape {} but [{}] is expected",
                           shape_string(lens.shape()), cfg.batch));
    cfg.seq_lens = tensor_to_int64s(ctx, lens, "sequence_lens");
    for (int64_t len : cfg.seq_lens)
      if (len < 0 || len > cfg.seq_length)
        ctx.fail(fmt::format("sequence_lens value {} is outside [0, {}]", len, cfg.seq_length));
  }
  optional_input(ctx, 5, "initial_h", x.dtype(), state_shape(cfg));
  return cfg;
}

// ---- conversion between tensors and the compute layout ----

/// The elements of `t` (of C++ type T) widened to C.
template <typename T, typename C>
std::vector<C> to_compute(const Tensor& t) {
  std::vector<C> out(static_cast<size_t>(t.numel()));
  const T* p = t.data<T>();
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<C>(static_cast<compute_t<T>>(p[i]));
  return out;
}

/// X as [seq, batch, I] whatever the layout.
template <typename T, typename C>
std::vector<C> time_major_input(const RecurrentConfig& cfg, const Tensor& x) {
  std::vector<C> out = to_compute<T, C>(x);
  if (!cfg.batch_major) return out;
  std::vector<C> tm(out.size());
  const int64_t n = cfg.input_size;
  for (int64_t b = 0; b < cfg.batch; ++b)
    for (int64_t t = 0; t < cfg.seq_length; ++t)
      std::copy_n(out.begin() + (b * cfg.seq_length + t) * n, n,
                  tm.begin() + (t * cfg.batch + b) * n);
  return tm;
}

/// A state input (initial_h, initial_c) as [dirs, batch, H]; zeros when omitted.
template <typename T, typename C>
std::vector<C> initial_state(const KernelContext& ctx, const RecurrentConfig& cfg, size_t index) {
  const size_t size = static_cast<size_t>(cfg.num_directions * cfg.batch * cfg.hidden);
  if (!ctx.has_input(index)) return std::vector<C>(size, C(0));
  std::vector<C> v = to_compute<T, C>(ctx.input_tensor(index));
  if (!cfg.batch_major) return v;
  std::vector<C> out(size);
  for (int64_t b = 0; b < cfg.batch; ++b)
    for (int64_t d = 0; d < cfg.num_directions; ++d)
      std::copy_n(v.begin() + (b * cfg.num_directions + d) * cfg.hidden, cfg.hidden,
                  out.begin() + (d * cfg.batch + b) * cfg.hidden);
  return out;
}

/// Y from [seq, dirs, batch, H] to a tensor of type T in the configured layout.
template <typename T, typename C>
Tensor sequence_output(const RecurrentConfig& cfg, const std::vector<C>& y) {
  const int64_t s = cfg.seq_length, nd = cfg.num_directions, nb = cfg.batch, h = cfg.hidden;
  Tensor out(data_type_of<T>(), cfg.batch_major ? std::vector<int64_t>{nb, s, nd, h}
                                                : std::vector<int64_t>{s, nd, nb, h});
  T* dst = out.data<T>();
  for (int64_t t = 0; t < s; ++t)
    for (int64_t d = 0; d < nd; ++d)
      for (int64_t b = 0; b < nb; ++b) {
        const C* src = y.data() + ((t * nd + d) * nb + b) * h;
        T* row = dst + (cfg.batch_major ? ((b * s + t) * nd + d) : ((t * nd + d) * nb + b)) * h;
        for (int64_t j = 0; j < h; ++j) row[j] = static_cast<T>(src[j]);
      }
  return out;
}

/// A final state from [dirs, batch, H] to a tensor of type T in the configured layout.
template <typename T, typename C>
Tensor state_output(const RecurrentConfig& cfg, const std::vector<C>& state) {
  Tensor out(data_type_of<T>(), state_shape(cfg));
  T* dst = out.data<T>();
  for (int64_t d = 0; d < cfg.num_directions; ++d)
    for (int64_t b = 0; b < cfg.batch; ++b) {
      const C* src = state.data() + (d * cfg.batch + b) * cfg.hidden;
      T* row =
          dst + (cfg.batch_major ? (b * cfg.num_directions + d) : (d * cfg.batch + b)) * cfg.hidden;
      for (int64_t j = 0; j < cfg.hidden; ++j) row[j] = static_cast<T>(src[j]);
    }
  return out;
}

/// Sets Y and Y_h (outputs 0 and 1) when the node has them.
template <typename T, typename C>
void set_outputs(KernelContext& ctx, const RecurrentConfig& cfg, const std::vector<C>& y,
                 const std::vector<C>& final_h) {
  if (ctx.num_outputs() > 0) ctx.set_output(0, sequence_output<T, C>(cfg, y));
  if (ctx.num_outputs() > 1) ctx.set_output(1, state_output<T, C>(cfg, final_h));
}

/// B as [dirs, 2*G*H] (Wb then Rb per direction); zeros when omitted.
template <typename T, typename C>
std::vector<C> biases(const KernelContext& ctx, const RecurrentConfig& cfg) {
  if (ctx.has_input(3)) return to_compute<T, C>(ctx.input_tensor(3));
  return std::vector<C>(static_cast<size_t>(cfg.num_directions * 2 * cfg.gate_rows()), C(0));
}

/// The operands every recurrent kernel reads, in the compute type C: the
/// input sequence (time-major), the input and recurrence weights, the biases
/// (zeros when absent) and the initial hidden state.
template <typename C>
struct Operands {
  std::vector<C> x, w, r, b, h;
};

template <typename T, typename C>
Operands<C> load_operands(const KernelContext& ctx, const RecurrentConfig& cfg) {
  return {time_major_input<T, C>(cfg, ctx.input_tensor(0)), to_compute<T, C>(ctx.input_tensor(1)),
          to_compute<T, C>(ctx.input_tensor(2)), biases<T, C>(ctx, cfg),
          initial_state<T, C>(ctx, cfg, 5)};
}

/// `v` bounded to [-clip, clip] (no-op for the default infinite clip).
template <typename C>
inline C clipped(C v, double clip) {
  const C c = static_cast<C>(clip);
  return v < -c ? -c : (v > c ? c : v);
}

// ---- the time loop ----

/// Runs direction `d` over the sequence. Before the loop it computes the
/// input projection X_t * W^T + Wb of every step with one GEMM. At each step
/// it gathers, for every batch entry, the projection of the time step that
/// entry is at (entries run out at different steps, and in reverse each
/// starts at its own last step) into `gates` [batch, G*H], then calls
/// `step(gates, h, active)`: the cell must add the recurrent terms and update
/// the rows of `h` [batch, H] (and of any state of its own) whose `active`
/// flag is set, leaving the others alone. The loop then copies the active
/// rows of `h` into `y` [seq, dirs, batch, H] at their time steps.
///
/// `w` is this direction's W [G*H, I], `wb` its Wb [G*H]; `h` holds the
/// initial state on entry and the final state on return.
template <typename C, typename Step>
void run_direction(const RecurrentConfig& cfg, int64_t d, const std::vector<C>& x, const C* w,
                   const C* wb, C* h, std::vector<C>& y, Step&& step) {
  const int64_t rows = cfg.gate_rows(), nb = cfg.batch, hs = cfg.hidden;
  const int64_t steps = cfg.seq_length * nb;
  std::vector<C> projected(static_cast<size_t>(steps * rows));
  gemm<C>(false, true, steps, rows, cfg.input_size, 1.0, x.data(), w, 0.0, projected.data());
  for (int64_t i = 0; i < steps; ++i)
    for (int64_t j = 0; j < rows; ++j) projected[i * rows + j] += wb[j];

  const int64_t max_len =
      cfg.seq_lens.empty() ? 0 : *std::max_element(cfg.seq_lens.begin(), cfg.seq_lens.end());
  const bool reverse = cfg.reverse_pass(d);
  std::vector<C> gates(static_cast<size_t>(nb * rows));
  std::vector<uint8_t> active(static_cast<size_t>(nb));
  std::vector<int64_t> time(static_cast<size_t>(nb));
  for (int64_t s = 0; s < max_len; ++s) {
    for (int64_t b = 0; b < nb; ++b) {
      const int64_t len = cfg.seq_lens[b];
      active[b] = s < len;
      if (!active[b]) continue;
      time[b] = reverse ? len - 1 - s : s;
      std::copy_n(projected.begin() + (time[b] * nb + b) * rows, rows, gates.begin() + b * rows);
    }
    step(gates.data(), h, active);
    for (int64_t b = 0; b < nb; ++b)
      if (active[b])
        std::copy_n(h + b * hs, hs, y.begin() + ((time[b] * cfg.num_directions + d) * nb + b) * hs);
  }
}

}  // namespace onnxscript::eval::rnn
