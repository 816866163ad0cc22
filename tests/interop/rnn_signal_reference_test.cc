// Hand-checked reference cases for the recurrent operators, covering what
// the ONNX backend suite misses: a bidirectional LSTM with sequence_lens,
// peepholes and initial states (upstream has no bidirectional case and no
// sequence_lens shorter than the sequence for LSTM), and GRU with
// linear_before_reset 0 and 1 and a recurrent hidden bias, where the two
// differ; how activation_alpha is shared out among activations; and a
// DFT variant upstream lacks (real input, onesided, zero-padded by
// dft_length). Each runs in our Session and in ONNX Runtime against values
// derived from the operator equations. Hidden and input sizes are 1, so
// every step is scalar arithmetic, written out below (s = logistic
// sigmoid; 9 decimals).
#include <gtest/gtest.h>

#include "interop/reference_case.h"

namespace onnxscript::testing {
namespace {

using eval::RuntimeValue;
using ir::Attribute;
using ir::DataType;
using ir::Tensor;
using ir::Type;

Type float_type(const std::vector<int64_t>& dims) { return tensor_type(DataType::kFloat, dims); }

// LSTM, bidirectional, seq_length 2, batch 2, sequence_lens [2, 1]
// (X[1, 1] = 4 lies past entry 1's length and is never read).
// Gates i, o, f, c; peepholes i, o, f:
//   i = s(Wi x + Ri H + Wbi + Rbi + Pi C),  f = s(Wf x + Rf H + Wbf + Rbf + Pf C)
//   c~ = tanh(Wc x + Rc H + Wbc + Rbc),     C' = f C + i c~
//   o = s(Wo x + Ro H + Wbo + Rbo + Po C'), H' = o tanh(C')
// forward: W = [0.4, -0.3, 0.2, 0.8], R = [0.3, 0.1, -0.2, 0.5],
//          Wb = [0.1, 0, 0.2, -0.1], Rb = [0, 0.1, 0, 0.05], P = [0.5, -0.4, 0.3]
// reverse: W = [-0.5, 0.7, 0.1, -0.6], R = [0.2, -0.3, 0.4, 0.1],
//          Wb = [0, 0.2, 0, 0], Rb = [0.1, 0, -0.1, 0], P = [-0.2, 0.6, 0.1]
// initial_h: forward [0.1, -0.2], reverse [0.3, 0]; initial_c: forward
// [0.5, 1.0], reverse [-0.4, 0.2].
//
// forward, entry 0 (x = 0.5 then 2), H = 0.1, C = 0.5:
//   t0: i = s(0.2 + 0.03 + 0.1 + 0.25) = s(0.58) = 0.641067406
//       f = s(0.1 - 0.02 + 0.2 + 0.15) = s(0.43) = 0.605873668
//       c~ = tanh(0.4 + 0.05 - 0.05) = tanh(0.4) = 0.379948962
//       C = 0.605873668*0.5 + 0.641067406*0.379948962 = 0.546509730
//       o = s(-0.15 + 0.01 + 0.1 - 0.4*0.546509730) = 0.435706933
//       H = 0.435706933 * tanh(0.546509730) = 0.216938377
//   t1: i = s(0.8 + 0.3 H + 0.1 + 0.5 C) = 0.775274304, f = s(0.4 - 0.2 H +
//       0.2 + 0.3 C) = 0.672731475, c~ = tanh(1.6 + 0.5 H - 0.05) =
//       0.930010695, C = 1.088667691, o = s(-0.6 + 0.1 H + 0.1 - 0.4 C) =
//       0.286228337, H = 0.227949773
// forward, entry 1 (x = -1.5), H = -0.2, C = 1.0:
//   i = s(-0.6 - 0.06 + 0.1 + 0.5) = s(-0.06) = 0.485004498
//   f = s(-0.3 + 0.04 + 0.2 + 0.3) = s(0.24) = 0.559713649
//   c~ = tanh(-1.2 - 0.1 - 0.05) = tanh(-1.35) = -0.874053288
//   C = 0.559713649 - 0.485004498*0.874053288 = 0.135793873
//   o = s(0.45 - 0.02 + 0.1 - 0.4*0.135793873) = 0.616727831, H = 0.083236860
// reverse, entry 0 (x = 2 at t1, then 0.5 at t0), H = 0.3, C = -0.4:
//   t1: i = s(-1 + 0.06 + 0.1 + 0.08) = s(-0.76) = 0.318646266
//       f = s(0.2 + 0.12 - 0.1 - 0.04) = s(0.18) = 0.544878892
//       c~ = tanh(-1.2 + 0.03) = tanh(-1.17) = -0.824272170
//       C = 0.544878892*(-0.4) + 0.318646266*(-0.824272170) = -0.480602806
//       o = s(1.4 - 0.09 + 0.2 + 0.6*(-0.480602806)) = 0.772351734
//       H = -0.345029792
//   t0: i = s(-0.25 + 0.2 H + 0.1 - 0.2 C) = 0.469317252, f = s(0.05 + 0.4 H
//       - 0.1 + 0.1 C) = 0.441254522, c~ = tanh(-0.3 + 0.1 H) = -0.322561082,
//       C = -0.363451642, o = s(0.35 - 0.3 H + 0.2 + 0.6 C) = 0.607171451,
//       H = -0.211447885
// reverse, entry 1 (x = -1.5 at t0), H = 0, C = 0.2:
//   i = s(0.75 + 0.1 - 0.04) = s(0.81) = 0.692109504
//   f = s(-0.15 - 0.1 + 0.02) = s(-0.23) = 0.442752145
//   c~ = tanh(0.9) = 0.716297870, C = 0.0885504290 + 0.495756564 = 0.584306993
//   o = s(-1.05 + 0.2 + 0.6*0.584306993) = 0.377677967, H = 0.198578842
TEST(RnnSignalReference, BidirectionalLstmWithSequenceLensAndPeepholes) {
  ReferenceCase c;
  c.name = "LSTM bidirectional, sequence_lens, peepholes";
  c.model = single_node_model("", "LSTM", 14,
                              {{"X", float_type({2, 2, 1})},
                               {"W", float_type({2, 4, 1})},
                               {"R", float_type({2, 4, 1})},
                               {"B", float_type({2, 8})},
                               {"sequence_lens", tensor_type(DataType::kInt32, {2})},
                               {"initial_h", float_type({2, 2, 1})},
                               {"initial_c", float_type({2, 2, 1})},
                               {"P", float_type({2, 3})}},
                              {{"Y", float_type({2, 2, 2, 1})},
                               {"Y_h", float_type({2, 2, 1})},
                               {"Y_c", float_type({2, 2, 1})}},
                              {Attribute::make_string("direction", "bidirectional"),
                               Attribute::make_int("hidden_size", 1)});
  c.inputs = {
      Tensor::from<float>({0.5f, -1.5f, 2.0f, 4.0f}, {2, 2, 1}),
      Tensor::from<float>({0.4f, -0.3f, 0.2f, 0.8f, -0.5f, 0.7f, 0.1f, -0.6f}, {2, 4, 1}),
      Tensor::from<float>({0.3f, 0.1f, -0.2f, 0.5f, 0.2f, -0.3f, 0.4f, 0.1f}, {2, 4, 1}),
      Tensor::from<float>({0.1f, 0, 0.2f, -0.1f, 0, 0.1f, 0, 0.05f,  //
                           0, 0.2f, 0, 0, 0.1f, 0, -0.1f, 0},
                          {2, 8}),
      Tensor::from<int32_t>({2, 1}),
      Tensor::from<float>({0.1f, -0.2f, 0.3f, 0}, {2, 2, 1}),
      Tensor::from<float>({0.5f, 1.0f, -0.4f, 0.2f}, {2, 2, 1}),
      Tensor::from<float>({0.5f, -0.4f, 0.3f, -0.2f, 0.6f, 0.1f}, {2, 3}),
  };
  // Y[t, dir, entry]; entry 1 has no step 1, so those are 0.
  c.expected = {
      Tensor::from<float>({0.216938377f, 0.083236860f, -0.211447885f, 0.198578842f,  //
                           0.227949773f, 0.0f, -0.345029792f, 0.0f},
                          {2, 2, 2, 1}),
      Tensor::from<float>({0.227949773f, 0.083236860f, -0.211447885f, 0.198578842f}, {2, 2, 1}),
      Tensor::from<float>({1.088667691f, 0.135793873f, -0.363451642f, 0.584306993f}, {2, 2, 1}),
  };
  expect_reference_case(c);
}

// GRU, forward, seq_length 2, batch 1, x = [1, -2], H0 = 0.25, gates z, r, h:
//   W = [0.6, -0.4, 0.9], R = [0.3, 0.5, -0.7], Wb = [0.1, -0.1, 0.2],
//   Rb = [-0.2, 0.3, 0.4].
//   z = s(Wz x + Rz H + Wbz + Rbz), r = s(Wr x + Rr H + Wbr + Rbr),
//   H' = (1 - z) h~ + z H, with
//   h~ = tanh(Wh x + (r H) Rh + Rbh + Wbh)      linear_before_reset = 0
//   h~ = tanh(Wh x + r (H Rh + Rbh) + Wbh)      linear_before_reset = 1
// t0 (x = 1, H = 0.25): z = s(0.6 + 0.075 - 0.1) = s(0.575) = 0.639916097,
//   r = s(-0.4 + 0.125 + 0.2) = s(-0.075) = 0.481258784
//   lbr 0: h~ = tanh(0.9 - 0.7*0.120314696 + 0.6) = tanh(1.415779713)
//          = 0.888715202, H = 0.360083903*0.888715202 + 0.159979024 = 0.479991063
//   lbr 1: h~ = tanh(0.9 + 0.481258784*(-0.175 + 0.4) + 0.2) = tanh(1.208283226)
//          = 0.836163773, H = 0.461068139
// t1 (x = -2):
//   lbr 0 (H = 0.479991063): z = s(-1.2 + 0.3 H - 0.1) = 0.239394377,
//          r = s(0.8 + 0.5 H + 0.2) = 0.775563236,
//          h~ = tanh(-1.8 - 0.7 r H + 0.6) = -0.897766040, H = -0.567938736
//   lbr 1 (H = 0.461068139): z = s(-1.3 + 0.3 H) = 0.238362235,
//          r = s(1.0 + 0.5 H) = 0.773912035,
//          h~ = tanh(-1.8 + r (-0.7 H + 0.4) + 0.2) = -0.912156240,
//          H = -0.584831408
ReferenceCase gru_case(int64_t linear_before_reset, std::vector<float> y) {
  ReferenceCase c;
  c.name = "GRU linear_before_reset=" + std::to_string(linear_before_reset);
  c.model = single_node_model("", "GRU", 14,
                              {{"X", float_type({2, 1, 1})},
                               {"W", float_type({1, 3, 1})},
                               {"R", float_type({1, 3, 1})},
                               {"B", float_type({1, 6})},
                               {"", Type()},
                               {"initial_h", float_type({1, 1, 1})}},
                              {{"Y", float_type({2, 1, 1, 1})}, {"Y_h", float_type({1, 1, 1})}},
                              {Attribute::make_int("hidden_size", 1),
                               Attribute::make_int("linear_before_reset", linear_before_reset)});
  c.inputs = {Tensor::from<float>({1.0f, -2.0f}, {2, 1, 1}),
              Tensor::from<float>({0.6f, -0.4f, 0.9f}, {1, 3, 1}),
              Tensor::from<float>({0.3f, 0.5f, -0.7f}, {1, 3, 1}),
              Tensor::from<float>({0.1f, -0.1f, 0.2f, -0.2f, 0.3f, 0.4f}, {1, 6}),
              Tensor::from<float>({0.25f}, {1, 1, 1})};
  c.expected = {Tensor::from<float>({y[0], y[1]}, {2, 1, 1, 1}),
                Tensor::from<float>({y[1]}, {1, 1, 1})};
  return c;
}

TEST(RnnSignalReference, GruLinearBeforeReset0) {
  expect_reference_case(gru_case(0, {0.479991063f, -0.567938736f}));
}

TEST(RnnSignalReference, GruLinearBeforeReset1) {
  expect_reference_case(gru_case(1, {0.461068139f, -0.584831408f}));
}

// activation_alpha is consumed in order by the activations that take an
// alpha, not indexed by activation position: with activations [Tanh,
// LeakyRelu] and activation_alpha [0.5, 0.2], LeakyRelu gets 0.5 (Tanh takes
// none). Bidirectional RNN, x = -1, W = 1, R = 0, no bias: forward
// Tanh(-1) = -0.761594156, reverse LeakyRelu(-1) = 0.5 * -1 = -0.5.
TEST(RnnSignalReference, ActivationAlphaIsConsumedInOrder) {
  ReferenceCase c;
  c.name = "RNN activation_alpha order";
  c.model = single_node_model(
      "", "RNN", 14,
      {{"X", float_type({1, 1, 1})}, {"W", float_type({2, 1, 1})}, {"R", float_type({2, 1, 1})}},
      {{"Y", float_type({1, 2, 1, 1})}},
      {Attribute::make_string("direction", "bidirectional"), Attribute::make_int("hidden_size", 1),
       Attribute::make_strings("activations", {"Tanh", "LeakyRelu"}),
       Attribute::make_floats("activation_alpha", {0.5f, 0.2f})});
  c.inputs = {Tensor::from<float>({-1}, {1, 1, 1}), Tensor::from<float>({1, 1}, {2, 1, 1}),
              Tensor::from<float>({0, 0}, {2, 1, 1})};
  c.expected = {Tensor::from<float>({-0.761594156f, -0.5f}, {1, 2, 1, 1})};
  expect_reference_case(c);
}

// DFT of the real signal [1, 2, 3, 4, 5] zero-padded to dft_length 8,
// onesided (bins 0..4). With w = e^{-i pi/4} = (1 - i)/sqrt(2), X[k] =
// sum_j (j+1) w^{jk}:
//   X0 = 15;  X4 = 1 - 2 + 3 - 4 + 5 = 3;  X2 = 1 - 2i - 3 + 4i + 5 = 3 + 2i
//   X1 = 1 + 2w - 3i + 4w^3 - 5 (w^3 = (-1 - i)/sqrt(2))
//      = -4 - sqrt(2) - (3 + 3 sqrt(2)) i = -5.414213562 - 7.242640687i
//   X3 = 1 + 2w^3 + 3i + 4w - 5 = -4 + sqrt(2) + (3 - 3 sqrt(2)) i
//      = -2.585786438 - 1.242640687i
TEST(RnnSignalReference, DftRealOnesidedZeroPadded) {
  ReferenceCase c;
  c.name = "DFT onesided, dft_length 8";
  c.model = single_node_model(
      "", "DFT", 17,
      {{"input", float_type({1, 5, 1})}, {"dft_length", tensor_type(DataType::kInt64, {})}},
      {{"output", float_type({1, 5, 2})}}, {Attribute::make_int("onesided", 1)});
  c.inputs = {Tensor::from<float>({1, 2, 3, 4, 5}, {1, 5, 1}), Tensor::scalar<int64_t>(8)};
  c.expected = {Tensor::from<float>(
      {15, 0, -5.414213562f, -7.242640687f, 3, 2, -2.585786438f, -1.242640687f, 3, 0}, {1, 5, 2})};
  expect_reference_case(c);
}

}  // namespace
}  // namespace onnxscript::testing
