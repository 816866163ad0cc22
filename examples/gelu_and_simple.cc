// GELU as an ONNX function, and a small model that calls it: export, eager
// evaluation, and a Session on the exported model.
// Usage: gelu_and_simple [OUTPUT_DIR]   (writes simple.onnx there)
#include <onnxscript/onnxscript.h>

#include <cmath>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

using namespace onnxscript;
namespace op = onnxscript::opset18;

// Gelu(x) = x * 0.5 * (1 + erf(x / sqrt(2))). Tracing the lambda gives an ONNX
// function; calling it on tensors runs it op by op.
const Function Gelu = script("Gelu", {"X"}, [](Value X) {
  const double kSqrt1_2 = std::sqrt(0.5);
  Value phiX = 0.5 * (op::Erf(kSqrt1_2 * X) + 1.0);  // the literals take X's element type
  return X * phiX;
});

// Typed inputs with symbolic dimensions, as FLOAT["N", "M"] is in Python.
const Function simple = script(
    "simple", {"A", "W", "Bias"},
    [](FLOAT<"N", "M"> A, FLOAT<"M", "C"> W, FLOAT<"C"> Bias) -> FLOAT<"N", "C"> {
      Value AW = op::MatMul(A, W).named("AW");
      Value AWBias = AW + Bias;
      return Gelu(AWBias);  // a call node; Gelu becomes a model-local function
    });

#ifndef ONNXSCRIPT_EXAMPLE_NO_MAIN  // tests/examples compiles the definitions above without main
int main(int argc, char** argv) try {
  const std::filesystem::path out_dir = argc > 1 ? argv[1] : ".";

  // Export: the model carries Gelu as a model-local function.
  const std::filesystem::path path = out_dir / "simple.onnx";
  simple.save(path);
  std::cout << "wrote " << path.string() << "\n" << simple.to_text() << "\n";

  // Eager mode: each operator runs as it is reached.
  const int64_t n = 32, m = 1024, c = 16;
  Tensor a = Tensor::rand({n, m}, /*seed=*/1);
  Tensor w = Tensor::rand({m, c}, /*seed=*/2);
  Tensor b = Tensor::rand({c}, /*seed=*/3);
  Tensor r = simple(a, w, b);
  std::cout << "eager result, shape [" << fmt::format("{}", fmt::join(r.shape(), ", ")) << "]\n"
            << r << "\n";

  // The exported model, run by the built-in evaluator, agrees with eager mode.
  eval::Session session = eval::Session::load(path);
  const std::vector<eval::RuntimeValue> inputs{a, w, b};
  Tensor r2 = session.run(inputs).at(0).tensor();
  const double diff = eval::max_abs_diff(r, r2);
  std::cout << "max |eager - session| = " << diff << "\n";
  return diff <= 1e-4 ? 0 : 1;
} catch (const std::exception& e) {
  std::cerr << "gelu_and_simple: " << e.what() << "\n";
  return 1;
}
#endif
