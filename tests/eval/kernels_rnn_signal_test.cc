// Tests for the recurrent kernels (RNN, GRU, LSTM: src/eval/kernels/rnn/),
// Det (src/eval/kernels/linalg/det.cc) and the signal kernels (DFT, STFT,
// the windows, MelWeightMatrix: src/eval/kernels/signal/). Expected values
// are derived by hand from the operator formulas; the recurrent cases use
// hidden size 1 and input size 1 so each step is a handful of scalar
// operations, written out next to the numbers (sigma is the logistic
// sigmoid; values to 9 decimals).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>

#include "eval/kernel_test_util.h"
#include "onnxscript/eval/eager.h"

namespace onnxscript::eval {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using A = ir::Attribute;

using test_util::values;

std::vector<double> as_doubles(const RuntimeValue& v) {
  const Tensor& t = v.tensor();
  std::vector<double> out(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < out.size(); ++i) {
    switch (t.dtype()) {
      case DataType::kFloat:
        out[i] = t.data<float>()[i];
        break;
      case DataType::kDouble:
        out[i] = t.data<double>()[i];
        break;
      case DataType::kFloat16:
        out[i] = static_cast<float>(t.data<float16>()[i]);
        break;
      default:
        ADD_FAILURE() << "unexpected element type";
    }
  }
  return out;
}

void expect_near_all(const RuntimeValue& actual, const std::vector<double>& expected,
                     double tolerance, const std::string& what) {
  const std::vector<double> got = as_doubles(actual);
  ASSERT_EQ(got.size(), expected.size()) << what;
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], expected[i], tolerance) << what << " element " << i;
}

template <typename F>
void expect_kernel_error(F&& f, const std::string& substring) {
  try {
    f();
    ADD_FAILURE() << "expected a KernelError containing '" << substring << "'";
  } catch (const KernelError& e) {
    EXPECT_THAT(e.what(), HasSubstr(substring));
  }
}

// ---- GRU ----

// Bidirectional GRU, hidden 1, input 1, seq_length 2, batch 2 with
// sequence_lens [2, 1]: batch entry 1 stops after step 0, so X[1, 1] = 3 is
// never read, its Y at step 1 is 0, and its reverse pass starts at step 0.
// Forward: W = [Wz, Wr, Wh] = [0.5, -0.5, 1.0], R = [0.2, 0.3, -0.4],
//          Wb = [0.1, 0, -0.2], Rb = [0, 0.1, 0.3]. Reverse: W = [-0.3, 0.4,
//          0.8], R = [0.1, -0.2, 0.5], no bias. linear_before_reset = 0:
//   z = s(Wz x + Rz h + Wbz + Rbz), r = s(Wr x + Rr h + Wbr + Rbr),
//   h~ = tanh(Wh x + (r h) Rh + Rbh + Wbh), h' = (1 - z) h~ + z h.
// forward, entry 0 (x = 1, then -1), h0 = 0:
//   t0: z = s(0.6) = 0.645656306, r = s(-0.4) = 0.401312340,
//       h~ = tanh(1 + 0.3 - 0.2) = tanh(1.1) = 0.800499022,
//       h = 0.354343694 * 0.800499022 = 0.283651780
//   t1: z = s(-0.5 + 0.2*0.283651780 + 0.1) = s(-0.343269644) = 0.415015461,
//       r = s(0.5 + 0.3*0.283651780 + 0.1) = 0.664875017,
//       h~ = tanh(-1 - 0.4*(0.664875017*0.283651780) + 0.1) = -0.751083907,
//       h = 0.584984539*(-0.751083907) + 0.415015461*0.283651780 = -0.321652599
// forward, entry 1 (x = 2): z = s(1.1) = 0.750260106, r = s(-0.9) = 0.289050497,
//   h~ = tanh(2.1) = 0.970451937, h = 0.249739894 * 0.970451937 = 0.242360564
// reverse, entry 0 (x = -1 at t1, then 1 at t0):
//   t1: z = s(0.3) = 0.574442517, r = s(-0.4) = 0.401312340, h~ = tanh(-0.8)
//       = -0.664036770, h = 0.425557483 * (-0.664036770) = -0.282585817
//   t0: z = s(-0.3 + 0.1*(-0.282585817)) = 0.418664397,
//       r = s(0.4 - 0.2*(-0.282585817)) = 0.612187626,
//       h~ = tanh(0.8 + 0.5*(0.612187626*(-0.282585817))) = 0.612868294,
//       h = 0.581335603*0.612868294 + 0.418664397*(-0.282585817) = 0.237973538
// reverse, entry 1 (x = 2 at t0): z = s(-0.6) = 0.354343694, r = s(0.8) =
//   0.689974481, h~ = tanh(1.6) = 0.921668554, h = 0.645656306 * 0.921668554
//   = 0.595081114
TEST(Gru, BidirectionalWithShortSequenceLens) {
  Tensor x = Tensor::from<float>({1, 2, -1, 3}, {2, 2, 1});
  Tensor w = Tensor::from<float>({0.5f, -0.5f, 1.0f, -0.3f, 0.4f, 0.8f}, {2, 3, 1});
  Tensor r = Tensor::from<float>({0.2f, 0.3f, -0.4f, 0.1f, -0.2f, 0.5f}, {2, 3, 1});
  Tensor b = Tensor::from<float>({0.1f, 0, -0.2f, 0, 0.1f, 0.3f, 0, 0, 0, 0, 0, 0}, {2, 6});
  Tensor lens = Tensor::from<int32_t>({2, 1});
  auto out =
      run_op("GRU", {x, w, r, b, lens},
             {A::make_string("direction", "bidirectional"), A::make_int("hidden_size", 1)}, 2);
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{2, 2, 2, 1}));
  // Y[t, dir, batch]: t0 (fwd e0, fwd e1, rev e0, rev e1), then t1.
  expect_near_all(out[0],
                  {0.283651780, 0.242360564, 0.237973538, 0.595081114,  //
                   -0.321652599, 0.0, -0.282585817, 0.0},
                  1e-6, "Y");
  expect_near_all(out[1], {-0.321652599, 0.242360564, 0.237973538, 0.595081114}, 1e-6, "Y_h");
}

// The same case in double and float16 (which computes in float).
TEST(Gru, DoubleAndFloat16) {
  auto make = [](DataType dt, std::vector<double> v, std::vector<int64_t> shape) {
    Tensor t(dt, shape);
    for (size_t i = 0; i < v.size(); ++i) {
      if (dt == DataType::kDouble)
        t.data<double>()[i] = v[i];
      else
        t.data<float16>()[i] = float16(static_cast<float>(v[i]));
    }
    return t;
  };
  for (DataType dt : {DataType::kDouble, DataType::kFloat16}) {
    // Forward only, entry 0 of the case above: h = 0.283651780, then -0.321652599.
    auto out = run_op(
        "GRU",
        {make(dt, {1, -1}, {2, 1, 1}), make(dt, {0.5, -0.5, 1.0}, {1, 3, 1}),
         make(dt, {0.2, 0.3, -0.4}, {1, 3, 1}), make(dt, {0.1, 0, -0.2, 0, 0.1, 0.3}, {1, 6})},
        {}, 2);
    const double tol = dt == DataType::kDouble ? 1e-9 : 3e-3;
    expect_near_all(out[0], {0.283651780, -0.321652599}, tol, "Y");
    expect_near_all(out[1], {-0.321652599}, tol, "Y_h");
  }
}

// linear_before_reset moves Rbh inside the reset product: with h0 = 0.5,
// x = 1, W = [0, 0, 1], R = [0, 0, 2], Rb = [0, 0, 1], no other bias:
//   z = s(0) = 0.5, r = s(0) = 0.5
//   lbr = 0: h~ = tanh(1 + (0.5*0.5)*2 + 1) = tanh(2.5) = 0.986614298
//   lbr = 1: h~ = tanh(1 + 0.5*(0.5*2 + 1)) = tanh(2)   = 0.964027580
//   h = 0.5 h~ + 0.5*0.5: 0.743307149 and 0.732013790.
TEST(Gru, LinearBeforeReset) {
  Tensor x = Tensor::from<float>({1}, {1, 1, 1});
  Tensor w = Tensor::from<float>({0, 0, 1}, {1, 3, 1});
  Tensor r = Tensor::from<float>({0, 0, 2}, {1, 3, 1});
  Tensor b = Tensor::from<float>({0, 0, 0, 0, 0, 1}, {1, 6});
  Tensor h0 = Tensor::from<float>({0.5f}, {1, 1, 1});
  auto lbr0 = run_op("GRU", {x, w, r, b, RuntimeValue(), h0}, {}, 2);
  expect_near_all(lbr0[1], {0.743307149}, 1e-6, "lbr=0");
  auto lbr1 =
      run_op("GRU", {x, w, r, b, RuntimeValue(), h0}, {A::make_int("linear_before_reset", 1)}, 2);
  expect_near_all(lbr1[1], {0.732013790}, 1e-6, "lbr=1");
  // Opset 1 has no linear_before_reset: the same node computes lbr = 0.
  auto v1 = run_op("GRU", {x, w, r, b, RuntimeValue(), h0}, {}, 2, 1);
  expect_near_all(v1[1], {0.743307149}, 1e-6, "GRU-1");
}

// ---- LSTM ----

// Bidirectional LSTM, hidden 1, input 1, seq_length 2, batch 2,
// sequence_lens [2, 1], no peepholes, zero initial states. Gates i, o, f, c:
// forward W = [0.5, -0.4, 0.3, 1.0], R = [0.1, 0.2, -0.3, 0.4],
// Wb = [0, 0.1, 0.2, 0], Rb = [0.05, 0, 0, -0.1]; reverse W = [-0.2, 0.6,
// 0.1, -0.7], R = [0.3, -0.1, 0.2, 0.5], no bias.
//   i = s(Wi x + Ri h + bi), f = s(Wf x + Rf h + bf), c~ = tanh(Wc x + Rc h + bc),
//   C = f C + i c~, o = s(Wo x + Ro h + bo), H = o tanh(C)
// forward entry 0: t0 (x=1): i = s(0.55) = 0.634135591, f = s(0.5) =
//   0.622459331, c~ = tanh(0.9) = 0.716297870, C = 0.454229973, o = s(-0.3)
//   = 0.425557483, H = 0.181019316;
//   t1 (x=-1): i = s(-0.45 + 0.1 H) = 0.393673182, f = s(-0.1 - 0.3 H) =
//   0.461499912, c~ = tanh(-1.1 + 0.4 H) = -0.772940882, C = 0.461499912 *
//   0.454229973 + 0.393673182 * (-0.772940882) = -0.094659003, o = s(0.5 +
//   0.2 H) = 0.630928899, H = o tanh(C) = -0.059545358
// forward entry 1 (x=2): i = s(1.05) = 0.740774899, f = s(0.8) =
//   0.689974481, c~ = tanh(1.9) = 0.956237458, C = 0.708356707, o = s(-0.7)
//   = 0.331812228, H = 0.202287776
// reverse entry 0: t1 (x=-1): i = s(0.2) = 0.549833997, f = s(-0.1) =
//   0.475020813, c~ = tanh(0.7) = 0.604367777, C = 0.332301951, o = s(-0.6)
//   = 0.354343694, H = 0.113598217;
//   t0 (x=1): i = s(-0.2 + 0.3 H) = 0.458614766, f = s(0.1 + 0.2 H) =
//   0.530641465, c~ = tanh(-0.7 + 0.5 H) = -0.567075062, C = -0.083735803,
//   o = s(0.6 - 0.1 H) = 0.643053079, H = -0.053721066
// reverse entry 1 (x=2 at t0): i = s(-0.4) = 0.401312340, f = s(0.2) =
//   0.549833997, c~ = tanh(-1.4) = -0.885351648, C = -0.355302542,
//   o = s(1.2) = 0.768524783, H = -0.262120513
struct LstmCase {
  Tensor x = Tensor::from<float>({1, 2, -1, 3}, {2, 2, 1});
  Tensor w = Tensor::from<float>({0.5f, -0.4f, 0.3f, 1.0f, -0.2f, 0.6f, 0.1f, -0.7f}, {2, 4, 1});
  Tensor r = Tensor::from<float>({0.1f, 0.2f, -0.3f, 0.4f, 0.3f, -0.1f, 0.2f, 0.5f}, {2, 4, 1});
  Tensor b =
      Tensor::from<float>({0, 0.1f, 0.2f, 0, 0.05f, 0, 0, -0.1f, 0, 0, 0, 0, 0, 0, 0, 0}, {2, 8});
  Tensor lens = Tensor::from<int32_t>({2, 1});
};

TEST(Lstm, BidirectionalWithShortSequenceLens) {
  LstmCase c;
  auto out =
      run_op("LSTM", {c.x, c.w, c.r, c.b, c.lens},
             {A::make_string("direction", "bidirectional"), A::make_int("hidden_size", 1)}, 3);
  expect_near_all(out[0],
                  {0.181019316, 0.202287776, -0.053721066, -0.262120513,  //
                   -0.059545358, 0.0, 0.113598217, 0.0},
                  1e-6, "Y");
  expect_near_all(out[1], {-0.059545358, 0.202287776, -0.053721066, -0.262120513}, 1e-6, "Y_h");
  expect_near_all(out[2], {-0.094659003, 0.708356707, -0.083735803, -0.355302542}, 1e-6, "Y_c");
}

// layout = 1 takes X [batch, seq, I] and initial states [batch, dirs, H] and
// returns Y [batch, seq, dirs, H] and states [batch, dirs, H]: the same
// numbers as layout = 0, transposed. Hidden 2, input 3, seq 3, batch 2,
// bidirectional with initial states and sequence_lens [3, 2].
TEST(Lstm, BatchMajorLayoutIsTheTransposeOfTimeMajor) {
  const int64_t seq = 3, batch = 2, input = 3, hidden = 2, dirs = 2;
  auto ramp = [](std::vector<int64_t> shape, float scale, float offset) {
    Tensor t(DataType::kFloat, shape);
    for (int64_t i = 0; i < t.numel(); ++i)
      t.data<float>()[i] = scale * static_cast<float>((i * 7) % 11) + offset;
    return t;
  };
  Tensor x_tm = ramp({seq, batch, input}, 0.2f, -1.0f);
  Tensor w = ramp({dirs, 4 * hidden, input}, 0.05f, -0.25f);
  Tensor r = ramp({dirs, 4 * hidden, hidden}, 0.04f, -0.2f);
  Tensor b = ramp({dirs, 8 * hidden}, 0.03f, -0.1f);
  Tensor lens = Tensor::from<int32_t>({3, 2});
  Tensor h0_tm = ramp({dirs, batch, hidden}, 0.1f, -0.3f);
  Tensor c0_tm = ramp({dirs, batch, hidden}, -0.1f, 0.4f);
  Tensor p = ramp({dirs, 3 * hidden}, 0.02f, -0.05f);
  const std::vector<A> attrs{A::make_string("direction", "bidirectional"),
                             A::make_int("hidden_size", hidden)};
  std::vector<RuntimeValue> tm_inputs{x_tm, w, r, b, lens, h0_tm, c0_tm, p};
  auto tm = run_op("LSTM", tm_inputs, attrs, 3);

  auto transpose = [](const Tensor& t, std::vector<int64_t> perm) {
    auto out = run_op("Transpose", {t}, {A::make_ints("perm", perm)});
    return out[0].tensor();
  };
  std::vector<A> bm_attrs = attrs;
  bm_attrs.push_back(A::make_int("layout", 1));
  std::vector<RuntimeValue> bm_inputs{
      transpose(x_tm, {1, 0, 2}),  w, r, b, lens, transpose(h0_tm, {1, 0, 2}),
      transpose(c0_tm, {1, 0, 2}), p};
  auto bm = run_op("LSTM", bm_inputs, bm_attrs, 3);
  ASSERT_EQ(bm[0].tensor().shape(), (std::vector<int64_t>{batch, seq, dirs, hidden}));
  EXPECT_EQ(values<float>(transpose(tm[0].tensor(), {2, 0, 1, 3})), values<float>(bm[0]));
  for (int o : {1, 2}) {
    ASSERT_EQ(bm[o].tensor().shape(), (std::vector<int64_t>{batch, dirs, hidden}));
    EXPECT_EQ(values<float>(transpose(tm[o].tensor(), {1, 0, 2})), values<float>(bm[o]));
  }
  // Entry 1 stops after 2 of 3 steps: Y[t=2] of entry 1 is zero in both directions.
  const std::vector<float> y = values<float>(tm[0]);
  for (int64_t d = 0; d < dirs; ++d)
    for (int64_t j = 0; j < hidden; ++j)
      EXPECT_EQ(y[((2 * dirs + d) * batch + 1) * hidden + j], 0.0f);
}

// input_forget couples the gates: f = 1 - i. One step, x = 1, h0 = 0,
// C0 = 2, W = [i 0, o 0, f 5, c 0] (the forget weight is ignored), no bias:
//   i = s(0) = 0.5, f = 0.5, c~ = 0, C = 0.5 * 2 = 1, o = 0.5,
//   H = 0.5 tanh(1) = 0.380797078.
TEST(Lstm, InputForgetAndOmittedOutputs) {
  Tensor x = Tensor::from<float>({1}, {1, 1, 1});
  Tensor w = Tensor::from<float>({0, 0, 5, 0}, {1, 4, 1});
  Tensor r = Tensor::from<float>({0, 0, 0, 0}, {1, 4, 1});
  Tensor c0 = Tensor::from<float>({2}, {1, 1, 1});
  auto out = run_op("LSTM", {x, w, r, RuntimeValue(), RuntimeValue(), RuntimeValue(), c0},
                    {A::make_int("input_forget", 1)}, 3);
  expect_near_all(out[1], {0.380797078}, 1e-6, "Y_h");
  expect_near_all(out[2], {1.0}, 1e-6, "Y_c");
  // A node with Y only.
  auto y_only = run_op("LSTM", {x, w, r, RuntimeValue(), RuntimeValue(), RuntimeValue(), c0},
                       {A::make_int("input_forget", 1)}, 1);
  expect_near_all(y_only[0], {0.380797078}, 1e-6, "Y");
}

// ---- RNN ----

// A non-default activation: LeakyRelu with alpha 0.1. W = 2, R = 0.5,
// Wb = -1, Rb = 0, x = 1, -1, 2:
//   h1 = LR(2 - 1) = 1; h2 = LR(-2 - 1 + 0.5) = LR(-2.5) = -0.25;
//   h3 = LR(4 - 1 - 0.125) = 2.875.
TEST(Rnn, LeakyReluActivation) {
  Tensor x = Tensor::from<float>({1, -1, 2}, {3, 1, 1});
  Tensor w = Tensor::from<float>({2}, {1, 1, 1});
  Tensor r = Tensor::from<float>({0.5f}, {1, 1, 1});
  Tensor b = Tensor::from<float>({-1, 0}, {1, 2});
  auto out = run_op(
      "RNN", {x, w, r, b},
      {A::make_strings("activations", {"LeakyRelu"}), A::make_floats("activation_alpha", {0.1f})},
      2);
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1.0f, -0.25f, 2.875f));
  EXPECT_THAT(values<float>(out[1]), ElementsAre(2.875f));
  // Without activation_alpha LeakyRelu's default 0.01 applies: h2 = -0.025,
  // h3 = LR(3 - 0.0125) = 2.9875.
  auto dflt = run_op("RNN", {x, w, r, b}, {A::make_strings("activations", {"leakyrelu"})}, 2);
  expect_near_all(dflt[0], {1.0, -0.025, 2.9875}, 1e-6, "default alpha");
}

// Reverse direction with clip: W = 1, R = 0, x = [3, -0.5], clip 1,
// activation Affine(alpha 2, beta 0.5): processing t1 first,
//   t1: Affine(clip(-0.5)) = -0.5; t0: Affine(clip(3) = 1) = 2.5.
// Y keeps time order: [2.5, -0.5]; Y_h is the state after t0: 2.5.
TEST(Rnn, ReverseWithClipAndAffine) {
  Tensor x = Tensor::from<float>({3, -0.5f}, {2, 1, 1});
  Tensor w = Tensor::from<float>({1}, {1, 1, 1});
  Tensor r = Tensor::from<float>({0}, {1, 1, 1});
  auto out = run_op(
      "RNN", {x, w, r},
      {A::make_string("direction", "reverse"), A::make_float("clip", 1.0f),
       A::make_strings("activations", {"Affine"}), A::make_floats("activation_alpha", {2.0f}),
       A::make_floats("activation_beta", {0.5f})},
      2);
  EXPECT_THAT(values<float>(out[0]), ElementsAre(2.5f, -0.5f));
  EXPECT_THAT(values<float>(out[1]), ElementsAre(2.5f));
}

TEST(Recurrent, BadAttributesAndShapesAreKernelErrors) {
  LstmCase c;
  // Bidirectional needs 6 LSTM activations.
  expect_kernel_error(
      [&] {
        run_op("LSTM", {c.x, c.w, c.r},
               {A::make_string("direction", "bidirectional"),
                A::make_strings("activations", {"Sigmoid", "Tanh", "Tanh"})});
      },
      "LSTM: activations has 3 entries but 2 direction(s) need 6");
  expect_kernel_error(
      [&] {
        run_op("LSTM", {c.x, c.w, c.r},
               {A::make_string("direction", "bidirectional"), A::make_int("hidden_size", 2)});
      },
      "LSTM: hidden_size 2 does not match R");
  // W for one direction while the node says bidirectional.
  expect_kernel_error(
      [&] {
        Tensor w1 = Tensor::from<float>({1, 2, 3, 4}, {1, 4, 1});
        run_op("LSTM", {c.x, w1, c.r}, {A::make_string("direction", "bidirectional")});
      },
      "LSTM: W has shape [1,4,1] but [2,4,1] is expected");
  expect_kernel_error(
      [&] {
        run_op("LSTM", {c.x, c.w, c.r}, {A::make_string("direction", "sideways")});
      },
      "direction 'sideways'");
  expect_kernel_error(
      [&] {
        run_op("LSTM", {c.x, c.w, c.r, c.b, Tensor::from<int32_t>({3, 1})},
               {A::make_string("direction", "bidirectional")});
      },
      "sequence_lens value 3 is outside [0, 2]");
  expect_kernel_error(
      [&] {
        run_op("RNN",
               {c.x, Tensor::from<float>({1}, {1, 1, 1}), Tensor::from<float>({1}, {1, 1, 1})},
               {A::make_strings("activations", {"Swish"})});
      },
      "RNN: unknown activation function 'Swish'");
  expect_kernel_error(
      [&] {
        Tensor xi = Tensor::from<int32_t>({1}, {1, 1, 1});
        run_op("RNN", {xi, xi, xi});
      },
      "RNN: element type int32 is not supported");
}

// ---- Det ----

TEST(Det, SingularPermutedAndBatched) {
  // [[1,2],[2,4]]: rows are dependent, det 0.
  auto singular = run_op("Det", {Tensor::from<float>({1, 2, 2, 4}, {2, 2})});
  EXPECT_EQ(singular[0].tensor().rank(), 0);
  EXPECT_THAT(values<float>(singular[0]), ElementsAre(0.0f));
  // [[0,2,0],[0,0,3],[4,0,0]] has a zero first pivot; expanding along the
  // first row: -2 * (0*0 - 3*4) = 24.
  auto cyclic = run_op("Det", {Tensor::from<double>({0, 2, 0, 0, 0, 3, 4, 0, 0}, {3, 3})});
  EXPECT_THAT(values<double>(cyclic[0]), ElementsAre(24.0));
  // A swap of two rows of the identity: det -1. Batched with [[2,1],[1,3]] (det 5).
  auto batched = run_op("Det", {Tensor::from<float>({0, 1, 1, 0, 2, 1, 1, 3}, {2, 2, 2})});
  EXPECT_EQ(batched[0].tensor().shape(), (std::vector<int64_t>{2}));
  const std::vector<float> d = values<float>(batched[0]);
  EXPECT_FLOAT_EQ(d[0], -1.0f);
  EXPECT_FLOAT_EQ(d[1], 5.0f);
  // float16, and the empty matrix (det 1).
  Tensor h(DataType::kFloat16, {2, 2});
  for (int i = 0; i < 4; ++i) h.data<float16>()[i] = float16(static_cast<float>(i + 1));
  EXPECT_EQ(static_cast<float>(run_op("Det", {h})[0].tensor().data<float16>()[0]), -2.0f);
  EXPECT_THAT(values<float>(run_op("Det", {Tensor(DataType::kFloat, {0, 0})})[0]),
              ElementsAre(1.0f));
  expect_kernel_error(
      [] {
        run_op("Det", {Tensor(DataType::kFloat, {2, 3})});
      },
      "Det: X [2,3] is not a batch of square matrices");
  expect_kernel_error(
      [] {
        run_op("Det", {Tensor(DataType::kInt32, {2, 2})});
      },
      "Det: element type int32 is not supported");
}

// ---- DFT ----

// The direct formula X[k] = sum_j x[j] e^{-+2 pi i jk/n}, in long double.
std::vector<std::complex<long double>> direct_dft(const std::vector<std::complex<long double>>& x,
                                                  bool inverse) {
  const size_t n = x.size();
  std::vector<std::complex<long double>> out(n);
  const long double sign = inverse ? 1.0L : -1.0L;
  for (size_t k = 0; k < n; ++k)
    for (size_t j = 0; j < n; ++j) {
      const long double angle =
          sign * 2.0L * std::numbers::pi_v<long double> * static_cast<long double>((j * k) % n) / n;
      out[k] += x[j] * std::complex<long double>(std::cos(angle), std::sin(angle));
    }
  return out;
}

// Lengths 10 (direct sum), 16 (radix 2) and 100 and 97 (Bluestein) against
// the direct formula, on a complex double signal x[j] = (sin(j), cos(3j)/2).
TEST(Dft, AnyLengthMatchesTheDirectFormula) {
  for (int64_t n : {10, 16, 97, 100}) {
    Tensor x(DataType::kDouble, {1, n, 2});
    std::vector<std::complex<long double>> signal(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) {
      signal[j] = {std::sin(static_cast<long double>(j)), std::cos(3.0L * j) / 2};
      x.data<double>()[2 * j] = static_cast<double>(signal[j].real());
      x.data<double>()[2 * j + 1] = static_cast<double>(signal[j].imag());
    }
    const auto expected = direct_dft(signal, false);
    auto out = run_op("DFT", {x});
    ASSERT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{1, n, 2}));
    const std::vector<double> got = values<double>(out[0]);
    for (int64_t k = 0; k < n; ++k) {
      EXPECT_NEAR(got[2 * k], static_cast<double>(expected[k].real()), 1e-10) << n << " " << k;
      EXPECT_NEAR(got[2 * k + 1], static_cast<double>(expected[k].imag()), 1e-10) << n << " " << k;
    }
  }
}

// Real input of length 5: x = [1, 2, 3, 4, 5]. X[0] = 15; with
// w = e^{-2 pi i/5}, X[1] = sum_j (j+1) w^j = -2.5 + 3.440954801i and
// X[2] = -2.5 + 0.812299240i (for x[j] = j + 1, X[k] = -n / (1 - w^k) =
// -2.5 + 2.5i cot(pi k / 5)). onesided keeps k = 0..2.
TEST(Dft, RealOnesidedAndLengthChanges) {
  Tensor x = Tensor::from<float>({1, 2, 3, 4, 5}, {1, 5, 1});
  auto onesided = run_op("DFT", {x}, {A::make_int("onesided", 1)});
  EXPECT_EQ(onesided[0].tensor().shape(), (std::vector<int64_t>{1, 3, 2}));
  expect_near_all(onesided[0], {15, 0, -2.5, 3.440954801, -2.5, 0.812299240}, 1e-5, "onesided");
  // dft_length 2 truncates to [1, 2]: X = [3, -1]. dft_length 8 pads with zeros:
  // X[4] = sum_j (j+1) (-1)^j = 1 - 2 + 3 - 4 + 5 = 3.
  auto truncated = run_op("DFT", {x, Tensor::from<int64_t>({2})});
  expect_near_all(truncated[0], {3, 0, -1, 0}, 1e-6, "truncated");
  auto padded = run_op("DFT", {x, Tensor::scalar<int32_t>(8)}, {A::make_int("onesided", 1)});
  EXPECT_EQ(padded[0].tensor().shape(), (std::vector<int64_t>{1, 5, 2}));
  EXPECT_NEAR(as_doubles(padded[0])[8], 3.0, 1e-5);
  EXPECT_NEAR(as_doubles(padded[0])[9], 0.0, 1e-5);
}

// DFT then inverse DFT (which divides by n) gives the input back, along a
// middle axis of a [2, 6, 3, 2] complex tensor and along axis -2.
TEST(Dft, InverseRoundTrip) {
  Tensor x(DataType::kFloat, {2, 6, 3, 2});
  for (int64_t i = 0; i < x.numel(); ++i)
    x.data<float>()[i] = static_cast<float>((i * 37) % 17) / 4.0f - 2.0f;
  for (int64_t axis : {1, 2, -2}) {
    auto forward = run_op("DFT", {x}, {A::make_int("axis", axis)});
    auto back = run_op("DFT", {forward[0]}, {A::make_int("axis", axis), A::make_int("inverse", 1)});
    const std::vector<float> got = values<float>(back[0]);
    for (int64_t i = 0; i < x.numel(); ++i)
      EXPECT_NEAR(got[i], x.data<float>()[i], 1e-5) << "axis " << axis << " element " << i;
  }
}

TEST(Dft, Errors) {
  Tensor complex_x(DataType::kFloat, {1, 4, 2});
  expect_kernel_error([&] { run_op("DFT", {complex_x}, {A::make_int("onesided", 1)}); },
                      "DFT: onesided output requires real input");
  expect_kernel_error([&] { run_op("DFT", {complex_x}, {A::make_int("axis", 2)}); },
                      "DFT: axis 2 is not a signal axis");
  expect_kernel_error(
      [&] {
        run_op("DFT", {Tensor(DataType::kFloat, {1, 4, 3})});
      },
      "must be 1 (real) or 2 (complex)");
  expect_kernel_error(
      [&] {
        run_op("DFT", {complex_x, Tensor::from<int64_t>({0})});
      },
      "DFT: the transform length 0 must be positive");
}

// ---- STFT ----

// signal x[j] = j for j < 8, frame_length 4, frame_step 2: frames start at
// 0, 2, 4 (3 frames). With the periodic Hann window of 4, w = [0, 0.5, 1,
// 0.5], frame 0 is [0, 0.5, 2, 1.5]: X[0] = 4, X[1] = (0 - 2) + i(-0.5 +
// 1.5) = -2 + 1i, X[2] = 0 - 0.5 + 2 - 1.5 = 0; the general frame below.
TEST(Stft, FramesWindowAndOnesided) {
  Tensor signal = Tensor::from<float>({0, 1, 2, 3, 4, 5, 6, 7}, {1, 8, 1});
  Tensor window = Tensor::from<float>({0, 0.5f, 1, 0.5f});
  auto out = run_op("STFT", {signal, Tensor::scalar<int64_t>(2), window});
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{1, 3, 3, 2}));
  // Frame f: s[j] = (2f + j) w[j]. X[0] = sum = 2f*2 + 4; X[1] = s0 - s2 +
  // i(s3 - s1) = -(2f + 2) + i((2f+3)/2 - (2f+1)/2) = -(2f + 2) + 1i;
  // X[2] = s0 - s1 + s2 - s3 = -(2f+1)/2 + (2f+2) - (2f+3)/2 = 0.
  expect_near_all(out[0], {4, 0, -2, 1, 0, 0, 8, 0, -4, 1, 0, 0, 12, 0, -6, 1, 0, 0}, 1e-5, "STFT");
  // frame_length without a window is a rectangular window; onesided = 0 keeps all 4 bins.
  auto rect = run_op(
      "STFT", {signal, Tensor::scalar<int64_t>(4), RuntimeValue(), Tensor::scalar<int64_t>(4)},
      {A::make_int("onesided", 0)});
  EXPECT_EQ(rect[0].tensor().shape(), (std::vector<int64_t>{1, 2, 4, 2}));
  // Frame 0 = [0,1,2,3]: X = [6, -2+2i, -2, -2-2i].
  const std::vector<double> got = as_doubles(rect[0]);
  const std::vector<double> frame0{6, 0, -2, 2, -2, 0, -2, -2};
  for (size_t i = 0; i < frame0.size(); ++i) EXPECT_NEAR(got[i], frame0[i], 1e-5) << i;
  expect_kernel_error(
      [&] {
        run_op("STFT", {signal, Tensor::scalar<int64_t>(2), window, Tensor::scalar<int64_t>(5)});
      },
      "STFT: frame_length 5 differs from the window length 4");
  expect_kernel_error(
      [&] {
        run_op("STFT", {signal, Tensor::scalar<int64_t>(2)});
      },
      "STFT: either window or frame_length must be given");
}

// ---- windows and MelWeightMatrix ----

TEST(Windows, PeriodicSymmetricAndOutputType) {
  // Periodic Hann of 4: 0.5 - 0.5 cos(2 pi n / 4) = [0, 0.5, 1, 0.5].
  expect_near_all(run_op("HannWindow", {Tensor::scalar<int64_t>(4)})[0], {0, 0.5, 1, 0.5}, 1e-7,
                  "hann");
  // Symmetric Hann of 5 (N = 4): [0, 0.5, 1, 0.5, 0].
  expect_near_all(
      run_op("HannWindow", {Tensor::scalar<int32_t>(5)}, {A::make_int("periodic", 0)})[0],
      {0, 0.5, 1, 0.5, 0}, 1e-7, "symmetric hann");
  // Hamming of 4: 25/46 - 21/46 cos(pi n / 2) = [4/46, 25/46, 1, 25/46], as double.
  auto hamming = run_op("HammingWindow", {Tensor::scalar<int64_t>(4)},
                        {A::make_int("output_datatype", static_cast<int64_t>(DataType::kDouble))});
  expect_near_all(hamming[0], {4.0 / 46, 25.0 / 46, 1.0, 25.0 / 46}, 1e-12, "hamming");
  // Symmetric Blackman of 3 (N = 2): 0.42 - 0.5 cos(pi n) + 0.08 cos(2 pi n) = [0, 1, 0].
  expect_near_all(
      run_op("BlackmanWindow", {Tensor::scalar<int64_t>(3)}, {A::make_int("periodic", 0)})[0],
      {0, 1, 0}, 1e-7, "blackman");
  // Integer output truncates: the Hann window of 4 as int32 is [0, 0, 1, 0].
  auto as_int = run_op("HannWindow", {Tensor::scalar<int64_t>(4)},
                       {A::make_int("output_datatype", static_cast<int64_t>(DataType::kInt32))});
  EXPECT_THAT(values<int32_t>(as_int[0]), ElementsAre(0, 0, 1, 0));
  // A one-point symmetric window is [1].
  expect_near_all(
      run_op("HannWindow", {Tensor::scalar<int64_t>(1)}, {A::make_int("periodic", 0)})[0], {1}, 0,
      "one point");
  expect_kernel_error([] { run_op("HannWindow", {Tensor::scalar<int64_t>(-1)}); },
                      "HannWindow: size -1 must not be negative");
  expect_kernel_error(
      [] {
        run_op("HannWindow", {Tensor::scalar<int64_t>(4)},
               {A::make_int("output_datatype", static_cast<int64_t>(DataType::kString))});
      },
      "element type string is not supported");
}

// num_mel_bins 2, dft_length 8, sample_rate 8000, edges 0..4000 Hz:
// mel(4000) = 2595 log10(1 + 4000/700) = 2146.06, step = 2146.06 / 4 =
// 536.52; edges at mel 0, 536.52, 1073.03, 1609.55 are 0, 426.8, 1113.8,
// 2219.8 Hz (hz = 700 (10^(mel / 2595) - 1)), i.e. bins
// floor(9 hz / 8000) = 0, 0, 1, 2. Band 0 (0, 0, 1): a
// 1 at bin 0, then falling (1 - j)/1 on [0, 1): bin 0 = 1. Band 1 (0, 1, 2):
// rising j/1 on [0, 1] -> bins 0, 1 = 0, 1; falling (2 - j) on [1, 2): bin 1 = 1.
TEST(MelWeightMatrix, SmallCase) {
  auto out = run_op("MelWeightMatrix", {Tensor::scalar<int32_t>(2), Tensor::scalar<int32_t>(8),
                                        Tensor::scalar<int32_t>(8000), Tensor::scalar<float>(0),
                                        Tensor::scalar<float>(4000)});
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{5, 2}));
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1, 0, 0, 1, 0, 0, 0, 0, 0, 0));
  expect_kernel_error(
      [] {
        run_op("MelWeightMatrix", {Tensor::scalar<int32_t>(2), Tensor::scalar<int32_t>(8),
                                   Tensor::scalar<int32_t>(8000), Tensor::scalar<float>(100),
                                   Tensor::scalar<float>(50)});
      },
      "MelWeightMatrix: the edges must satisfy");
}

}  // namespace
}  // namespace onnxscript::eval
