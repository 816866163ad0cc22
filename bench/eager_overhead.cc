// Eager overhead per operator on one-element tensors: Add, Mul, Relu, and a
// chain of 1,000 of them, through eval::run_op_into (the evaluator's eager
// entry point) and through the typed eDSL. bench/eager_overhead.sh compares the figures with numpy.
//
// Prints one line per case: "<case> <nanoseconds per op>".
#include <chrono>
#include <cstdio>
#include <span>
#include <vector>

#include "onnxscript/eval/eager.h"
#include "onnxscript/opsets/opset17.h"
#include "onnxscript/script/trace.h"

using namespace onnxscript;
using Clock = std::chrono::steady_clock;

namespace {

// Best of several repetitions: the machine is noisy, and the minimum is the
// figure least disturbed by other processes.
template <typename F>
double best_ns_per_op(int ops_per_rep, F&& body) {
  double best = 1e300;
  for (int rep = 0; rep < 15; ++rep) {
    const auto start = Clock::now();
    body();
    const double ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
    best = std::min(best, ns / ops_per_rep);
  }
  return best;
}

}  // namespace

int main() {
  const eval::RuntimeValue x = ir::Tensor::from<float>({0.5f});
  const eval::RuntimeValue y = ir::Tensor::from<float>({1.5f});
  constexpr int kOps = 100000;
  double sink = 0;

  // Inputs are pointed to and outputs written in place (eval::run_op_into,
  // the entry point eager eDSL calls use), so the figures are the operator's
  // cost, not the harness's copies; numpy's side likewise reuses its arrays.
  auto run = [](const char* op, std::span<const eval::RuntimeValue* const> inputs,
                eval::RuntimeValue& output) {
    eval::run_op_into(op, inputs, std::span(&output, 1), {}, 17, "");
  };
  for (const char* op : {"Add", "Mul"}) {
    const eval::RuntimeValue* inputs[2] = {&x, &y};
    const double ns = best_ns_per_op(kOps, [&] {
      for (int i = 0; i < kOps; ++i) {
        eval::RuntimeValue out;
        run(op, inputs, out);
        sink += out.tensor().data<float>()[0];
      }
    });
    std::printf("%s %.1f\n", op, ns);
  }
  {
    const eval::RuntimeValue* inputs[1] = {&x};
    const double ns = best_ns_per_op(kOps, [&] {
      for (int i = 0; i < kOps; ++i) {
        eval::RuntimeValue out;
        run("Relu", inputs, out);
        sink += out.tensor().data<float>()[0];
      }
    });
    std::printf("Relu %.1f\n", ns);
  }
  {
    // A chain: each result feeds the next op, 1,000 ops (Add, Mul, Relu repeating).
    constexpr int kChain = 1000;
    const char* ops[3] = {"Add", "Mul", "Relu"};
    const double ns = best_ns_per_op(kChain * 20, [&] {
      for (int rep = 0; rep < 20; ++rep) {
        eval::RuntimeValue v = x;
        for (int i = 0; i < kChain; ++i) {
          const eval::RuntimeValue* inputs[2] = {&v, &y};
          eval::RuntimeValue next;
          run(ops[i % 3], std::span(inputs, i % 3 == 2 ? 1 : 2), next);
          v = std::move(next);
        }
        sink += v.tensor().data<float>()[0];
      }
    });
    std::printf("Chain1000 %.1f\n", ns);
  }
  {
    // The same chain written as a script author writes it: typed operators
    // on concrete Values (type checks, literal handling, counted concrete values),
    // which is what eager mode costs a user. Compared with numpy's chain.
    constexpr int kChain = 1000;
    const double ns = best_ns_per_op(kChain * 20, [&] {
      for (int rep = 0; rep < 20; ++rep) {
        Value v = x.tensor(), w = y.tensor();
        for (int i = 0; i < kChain; ++i) {
          switch (i % 3) {
            case 0:
              v = opset17::Add(v, w);
              break;
            case 1:
              v = opset17::Mul(v, w);
              break;
            default:
              v = opset17::Relu(v);
              break;
          }
        }
        sink += v.tensor().data<float>()[0];
      }
    });
    std::printf("ScriptChain1000 %.1f\n", ns);
  }
  std::fprintf(stderr, "(checksum %g)\n", sink);
}
