#pragma once
// What Conv (conv.cc) shares with the internal FusedConv (fused_conv.cc): the
// element-wise activation a convolution may apply to its output, and the
// convolution itself with that activation applied in its output pass.
#include <cmath>
#include <cstdint>

#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval {

/// An activation applied to every output element of a convolution.
struct ConvActivation {
  /// The activations FusedConv knows, by their ONNX operator names.
  enum class Kind { kNone, kRelu, kClip, kLeakyRelu, kSigmoid, kTanh, kHardSigmoid, kHardSwish };
  Kind kind = Kind::kNone;
  float a = 0;  ///< Clip: min; LeakyRelu, HardSigmoid: alpha.
  float b = 0;  ///< Clip: max; HardSigmoid: beta.

  /// The activation of one element, with the semantics of the ONNX operator
  /// of the same name (NaN stays NaN through Relu, Clip and LeakyRelu, as in
  /// those kernels).
  float operator()(float v) const {
    switch (kind) {
      case Kind::kNone:
        return v;
      case Kind::kRelu:
        return v < 0.0f ? 0.0f : v;
      case Kind::kClip:
        v = v < a ? a : v;
        return v > b ? b : v;
      case Kind::kLeakyRelu:
        return v < 0.0f ? v * a : v;
      case Kind::kSigmoid:
        return 1.0f / (1.0f + std::exp(-v));
      case Kind::kTanh:
        return std::tanh(v);
      case Kind::kHardSigmoid:
        return std::fmax(0.0f, std::fmin(1.0f, a * v + b));
      case Kind::kHardSwish:
        return v * std::fmax(0.0f, std::fmin(1.0f, v / 6.0f + 0.5f));
    }
    return v;
  }
  /// The same on a double (Conv on double tensors), computed in double.
  double operator()(double v) const {
    switch (kind) {
      case Kind::kNone:
        return v;
      case Kind::kRelu:
        return v < 0.0 ? 0.0 : v;
      case Kind::kClip:
        v = v < a ? a : v;
        return v > b ? b : v;
      case Kind::kLeakyRelu:
        return v < 0.0 ? v * a : v;
      case Kind::kSigmoid:
        return 1.0 / (1.0 + std::exp(-v));
      case Kind::kTanh:
        return std::tanh(v);
      case Kind::kHardSigmoid:
        return std::fmax(0.0, std::fmin(1.0, a * v + b));
      case Kind::kHardSwish:
        return v * std::fmax(0.0, std::fmin(1.0, v / 6.0 + 0.5));
    }
    return v;
  }
};

/// p[i] = act(p[i] + bias) for i in [0, n). The activation is chosen once,
/// outside the loop, so that Relu, Clip and LeakyRelu loops vectorise.
template <typename T>
void add_bias_and_activate(T* p, int64_t n, T bias, const ConvActivation& act) {
  using Kind = ConvActivation::Kind;
  const T a = static_cast<T>(act.a), b = static_cast<T>(act.b);
  switch (act.kind) {
    case Kind::kNone:
      for (int64_t i = 0; i < n; ++i) p[i] += bias;
      return;
    case Kind::kRelu:
      for (int64_t i = 0; i < n; ++i) {
        const T v = p[i] + bias;
        p[i] = v < T(0) ? T(0) : v;
      }
      return;
    case Kind::kClip:
      for (int64_t i = 0; i < n; ++i) {
        T v = p[i] + bias;
        v = v < a ? a : v;
        p[i] = v > b ? b : v;
      }
      return;
    case Kind::kLeakyRelu:
      for (int64_t i = 0; i < n; ++i) {
        const T v = p[i] + bias;
        p[i] = v < T(0) ? v * a : v;
      }
      return;
    default:
      for (int64_t i = 0; i < n; ++i) p[i] = act(p[i] + bias);
  }
}

/// Reads FusedConv's `activation` (an operator name) and `activation_params`
/// (Clip: min, max; LeakyRelu: alpha; HardSigmoid: alpha, beta; all
/// optional, defaulting as the operators' attributes do); fails naming an
/// unknown activation or a wrong number of parameters.
ConvActivation conv_activation(const KernelContext& ctx);

/// Conv on the node's inputs and attributes, with `act` applied to every
/// element of Y in the pass that writes it. Sets output 0.
void run_conv(KernelContext& ctx, const ConvActivation& act);

}  // namespace onnxscript::eval
