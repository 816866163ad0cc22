// Recurrent layers: aten::lstm.input (torch.nn.LSTM) and aten::gru.input
// (torch.nn.GRU), as one ONNX LSTM or GRU node per layer.
//
// PyTorch keeps, per layer and direction, w_ih [4H, I], w_hh [4H, H] and
// (with biases) b_ih, b_hh [4H], its gates stacked in the order input,
// forget, cell, output. ONNX's LSTM takes W [dirs, 4H, I], R [dirs, 4H, H]
// and B [dirs, 8H] with the gates in the order input, output, forget, cell,
// and its Y is [seq, dirs, batch, H], which the next layer reads as
// [seq, batch, dirs * H].
//
// A GRU's weights are [3H, ...] with the gates in PyTorch's order reset,
// update, new, and ONNX's order update, reset, hidden; PyTorch applies the
// reset gate after the hidden state's matrix product (r * (W_hn h + b_hn)),
// which is ONNX's linear_before_reset=1.

#include <fmt/format.h>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"

namespace onnxscript::torch_lib {

namespace {

// PyTorch's gate blocks (i, f, g, o) of a [4H, ...] weight or [4H] bias
// reordered as ONNX's (i, o, f, c).
Value onnx_gate_order(const Value& w, int64_t hidden) {
  const std::vector<Value> gates =
      op::Split(w, int64s({hidden, hidden, hidden, hidden}), {.axis = 0});
  return op::Concat({gates[0], gates[3], gates[1], gates[2]}, {.axis = 0});
}

// PyTorch's GRU gate blocks (r, z, n) of a [3H, ...] weight or [3H] bias
// reordered as ONNX's (z, r, h).
Value onnx_gru_gate_order(const Value& w, int64_t hidden) {
  const std::vector<Value> gates = op::Split(w, int64s({hidden, hidden, hidden}), {.axis = 0});
  return op::Concat({gates[1], gates[0], gates[2]}, {.axis = 0});
}

// One value per direction stacked on a new leading axis.
Value stack_directions(const std::vector<Value>& per_direction) {
  std::vector<Value> unsqueezed;
  for (const Value& v : per_direction) unsqueezed.push_back(op::Unsqueeze(v, int64s({0})));
  return unsqueezed.size() == 1 ? unsqueezed[0] : op::Concat(unsqueezed, {.axis = 0});
}

// What an RNN's flat parameter list holds, checked against its arguments.
struct RnnLayout {
  int64_t dirs;           // 1, or 2 when bidirectional
  int64_t per_direction;  // w_ih, w_hh and, with biases, b_ih, b_hh
  int64_t hidden;         // H, from w_hh's [gates * H, H]
};

RnnLayout rnn_layout(const char* op_name, const std::vector<Value>& params, bool has_biases,
                     int64_t num_layers, bool bidirectional) {
  const int64_t dirs = bidirectional ? 2 : 1;
  const int64_t per_direction = has_biases ? 4 : 2;
  if (num_layers <= 0 || static_cast<int64_t>(params.size()) != num_layers * dirs * per_direction)
    throw TypeError(fmt::format("{}: {} parameters for {} layers and {} directions", op_name,
                                params.size(), num_layers, dirs));
  const std::optional<ir::Shape> w_hh_shape = params[1].shape();
  if (!w_hh_shape || w_hh_shape->size() != 2 || !(*w_hh_shape)[1].is_static())
    throw TypeError(fmt::format("{}: the hidden size must be known while exporting", op_name));
  return {dirs, per_direction, (*w_hh_shape)[1].value()};
}

// One layer's ONNX W, R and B, each stacked over directions, from PyTorch's
// per-direction weights with their gate blocks put in ONNX's order by
// `reorder`. Without biases B is zeros of 2 * gates * H.
struct LayerWeights {
  Value w, r, b;
};

LayerWeights layer_weights(const std::vector<Value>& params, const RnnLayout& layout, int64_t layer,
                           bool has_biases, int64_t gates,
                           Value (*reorder)(const Value&, int64_t)) {
  std::vector<Value> w, r, b;
  const int64_t hidden = layout.hidden;
  for (int64_t d = 0; d < layout.dirs; ++d) {
    const size_t base = static_cast<size_t>((layer * layout.dirs + d) * layout.per_direction);
    w.push_back(reorder(params[base], hidden));
    r.push_back(reorder(params[base + 1], hidden));
    if (has_biases) {
      b.push_back(op::Concat({reorder(params[base + 2], hidden), reorder(params[base + 3], hidden)},
                             {.axis = 0}));
    } else {
      b.push_back(op::CastLike(op::ConstantOfShape(int64s({2 * gates * hidden})), params[base]));
    }
  }
  return {stack_directions(w), stack_directions(r), stack_directions(b)};
}

// ONNX's Y [seq, dirs, batch, H] as the next layer reads it: [seq, batch, dirs * H].
Value merge_directions(const Value& y) {
  return op::Reshape(op::Transpose(y, {.perm = {0, 2, 1, 3}}), int64s({0, 0, -1}));
}

// Values of several layers (or one) concatenated on the leading axis.
Value concat_layers(const std::vector<Value>& v) {
  return v.size() == 1 ? v[0] : op::Concat(v, {.axis = 0});
}

}  // namespace

std::vector<Value> aten_lstm(Value input, std::vector<Value> hx, std::vector<Value> params,
                             bool has_biases, int64_t num_layers, double /*dropout*/, bool train,
                             bool bidirectional, bool batch_first) {
  constexpr const char* kOp = "aten::lstm.input";
  if (train) throw NotImplementedError(fmt::format("{}: training mode is not exported", kOp));
  const RnnLayout layout = rnn_layout(kOp, params, has_biases, num_layers, bidirectional);
  if (hx.size() != 2) throw TypeError(fmt::format("{}: hx must hold h0 and c0", kOp));

  // [seq, batch, features] from here on.
  Value x = batch_first ? op::Transpose(input, {.perm = {1, 0, 2}}) : input;
  std::vector<Value> h_n, c_n;
  for (int64_t layer = 0; layer < num_layers; ++layer) {
    const LayerWeights lw = layer_weights(params, layout, layer, has_biases, 4, onnx_gate_order);
    const Value first = int64s({layer * layout.dirs}), last = int64s({(layer + 1) * layout.dirs});
    const Value h0 = op::Slice(hx[0], first, last, int64s({0}));
    const Value c0 = op::Slice(hx[1], first, last, int64s({0}));
    auto [y, y_h, y_c] = op::LSTM.all_outputs(
        x, lw.w, lw.r, lw.b, Value(), h0, c0,
        {.direction = bidirectional ? "bidirectional" : "forward", .hidden_size = layout.hidden});
    x = merge_directions(y);
    h_n.push_back(y_h);
    c_n.push_back(y_c);
  }
  const Value output = batch_first ? op::Transpose(x, {.perm = {1, 0, 2}}) : x;
  return {output, concat_layers(h_n), concat_layers(c_n)};
}

std::vector<Value> aten_gru(Value input, Value hx, std::vector<Value> params, bool has_biases,
                            int64_t num_layers, double /*dropout*/, bool train, bool bidirectional,
                            bool batch_first) {
  constexpr const char* kOp = "aten::gru.input";
  if (train) throw NotImplementedError(fmt::format("{}: training mode is not exported", kOp));
  const RnnLayout layout = rnn_layout(kOp, params, has_biases, num_layers, bidirectional);

  // [seq, batch, features] from here on.
  Value x = batch_first ? op::Transpose(input, {.perm = {1, 0, 2}}) : input;
  std::vector<Value> h_n;
  for (int64_t layer = 0; layer < num_layers; ++layer) {
    const LayerWeights lw =
        layer_weights(params, layout, layer, has_biases, 3, onnx_gru_gate_order);
    const Value h0 = op::Slice(hx, int64s({layer * layout.dirs}),
                               int64s({(layer + 1) * layout.dirs}), int64s({0}));
    auto [y, y_h] = op::GRU.all_outputs(x, lw.w, lw.r, lw.b, Value(), h0,
                                        {.direction = bidirectional ? "bidirectional" : "forward",
                                         .hidden_size = layout.hidden,
                                         .linear_before_reset = 1});
    x = merge_directions(y);
    h_n.push_back(y_h);
  }
  const Value output = batch_first ? op::Transpose(x, {.perm = {1, 0, 2}}) : x;
  return {output, concat_layers(h_n)};
}

void register_rnn(Registry& r) {
  using detail::overload;
  r.add(overload<aten_lstm>(
      "aten::lstm.input(Tensor input, Tensor[] hx, Tensor[] params, bool has_biases, int "
      "num_layers, float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, "
      "Tensor, Tensor)"));
  r.add(overload<aten_gru>(
      "aten::gru.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, "
      "float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)"));
}

}  // namespace onnxscript::torch_lib
