#pragma once
// The chain that bench/build_chain.cc times and tests/alloc checks for heap
// allocations: Add, Mul, Relu, Tanh repeating, with `weight` on each Add and
// Mul. The weights are graph initializers (initializer()), as onnx.helper
// builds them; with `constants`, the tensor goes straight to the operator
// instead, which records a Constant node per weight (what ONNX Script does
// with a captured tensor).

#include <cstdint>

#include "onnxscript/onnxscript.h"

namespace onnxscript::bench {

/// A script of `nodes` operator nodes on one FLOAT[16] input. It traces when
/// first asked for its IR.
inline Function chain_function(const Tensor& weight, int64_t nodes, bool constants = false) {
  namespace op = opset17;
  return script("chain", {"X"}, [=](FLOAT<16> X) -> FLOAT<16> {
    const auto next_weight = [&]() -> Value {
      return constants ? Value(weight) : initializer(weight);
    };
    Value y = X;
    for (int64_t i = 0; i < nodes; ++i) {
      switch (i % 4) {
        case 0:
          y = op::Add(y, next_weight());
          break;
        case 1:
          y = op::Mul(y, next_weight());
          break;
        case 2:
          y = op::Relu(y);
          break;
        default:
          y = op::Tanh(y);
          break;
      }
    }
    return y;
  });
}

}  // namespace onnxscript::bench
