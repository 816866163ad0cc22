// CausalConvWithState (v27): a depthwise causal 1-D convolution that carries
// its left context between calls. Per batch b and channel c, the sequence
// past_state[b, c, :] ++ input[b, c, :] (zeros in place of an absent
// past_state) of length (k - 1) + L is convolved with weight[c, 0, :]:
//   output[b, c, t] = act(bias[c] + sum_i weight[c, 0, i] * seq[t + i])
// and present_state[b, c, :] is the last k - 1 values of that sequence, the
// past of the next call. act is none, or silu / swish (x * sigmoid(x)).
// float16 and bfloat16 compute in double and round once.
#include <cmath>

#include <fmt/format.h>

#include "nn_util.h"

namespace onnxscript::eval {
namespace {

void causal_conv_with_state(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const Tensor& w = ctx.input_tensor(1);
  if (x.rank() != 3)
    ctx.fail(
        fmt::format("input {} must be 3-D (batch, channels, length)", shape_string(x.shape())));
  const int64_t batch = x.shape()[0], channels = x.shape()[1], length = x.shape()[2];
  if (w.rank() != 3 || w.shape()[0] != channels || w.shape()[1] != 1 || w.shape()[2] < 1)
    ctx.fail(fmt::format("weight {} must be (channels, 1, k) with channels {} and k >= 1",
                         shape_string(w.shape()), channels));
  if (w.dtype() != x.dtype()) ctx.fail("weight must have the element type of input");
  const int64_t k = w.shape()[2], carry = k - 1;

  const std::string activation = ctx.attr_string("activation", "none");
  const bool silu = activation == "silu" || activation == "swish";
  if (!silu && activation != "none")
    ctx.fail(fmt::format("activation '{}' is not one of 'none', 'silu' and 'swish'", activation));

  std::vector<double> bias;
  if (ctx.num_inputs() > 2 && ctx.has_input(2)) {
    const Tensor& b = ctx.input_tensor(2);
    if (b.rank() != 1 || b.shape()[0] != channels)
      ctx.fail(fmt::format("bias {} must be ({})", shape_string(b.shape()), channels));
    if (b.dtype() != x.dtype()) ctx.fail("bias must have the element type of input");
    bias = float_values(ctx, b);
  }
  std::vector<double> past;
  if (ctx.num_inputs() > 3 && ctx.has_input(3)) {
    const Tensor& p = ctx.input_tensor(3);
    const std::vector<int64_t> want{batch, channels, carry};
    if (p.shape() != want)
      ctx.fail(fmt::format("past_state {} must be (batch, channels, k - 1) = {}",
                           shape_string(p.shape()), shape_string(want)));
    if (p.dtype() != x.dtype()) ctx.fail("past_state must have the element type of input");
    past = float_values(ctx, p);
  }

  const std::vector<double> xv = float_values(ctx, x);
  const std::vector<double> wv = float_values(ctx, w);
  std::vector<double> out(xv.size());
  std::vector<double> state(static_cast<size_t>(batch * channels * carry));
  std::vector<double> seq(static_cast<size_t>(carry + length));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t c = 0; c < channels; ++c) {
      const int64_t row = b * channels + c;
      for (int64_t i = 0; i < carry; ++i) seq[i] = past.empty() ? 0.0 : past[row * carry + i];
      std::copy_n(xv.data() + row * length, length, seq.data() + carry);
      const double* wc = wv.data() + c * k;
      for (int64_t t = 0; t < length; ++t) {
        double acc = bias.empty() ? 0.0 : bias[c];
        for (int64_t i = 0; i < k; ++i) acc += wc[i] * seq[t + i];
        if (silu) acc = acc / (1.0 + std::exp(-acc));
        out[row * length + t] = acc;
      }
      std::copy_n(seq.data() + length, carry, state.data() + row * carry);
    }
  }
  ctx.set_output(0, float_tensor(ctx, x.dtype(), x.shape(), out));
  if (ctx.num_outputs() > 1)
    ctx.set_output(1, float_tensor(ctx, x.dtype(), {batch, channels, carry}, state));
}

}  // namespace

void register_nn_causal_conv_with_state(KernelRegistry& registry) {
  // 27: the operator's first version.
  registry.add("", "CausalConvWithState", 27, causal_conv_with_state);
}

}  // namespace onnxscript::eval
