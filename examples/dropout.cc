// Dropout with a data-dependent condition: If with two lambdas that read the
// function's inputs. Tracing gives an ONNX If node with two subgraphs; eager
// mode evaluates the condition and runs one lambda.
// Usage: dropout [OUTPUT_DIR]   (writes dropout.onnx there)
#include <onnxscript/onnxscript.h>

#include <cmath>
#include <filesystem>
#include <iostream>

using namespace onnxscript;
namespace op = onnxscript::opset18;

// `seed` is an attribute of the function, not an input.
const Function Dropout = script(
    "Dropout", {"data", "ratio", "training_mode", "seed"},
    [](Value data, Value ratio, BOOL<> training_mode, Attr<float> seed) {
      // Both branches are lambdas; they read data and ratio from the outer
      // scope. Each returns (output, mask), so the If node has two outputs.
      // (`if (training_mode)` instead would throw, naming the line that
      // produced training_mode and saying to use If.)
      return If(
          training_mode,
          [&] {
            Value rand = op::RandomUniformLike(data, {.dtype = DataType::kFloat, .seed = seed});
            Value mask = rand >= ratio;
            Value output = op::Where(mask, data, 0) / (1.0 - ratio);
            return std::tuple{output, mask};
          },
          [&] {
            Value mask = op::Expand(true, op::Shape(data));
            return std::tuple{data, mask};
          });
    });

// A model around it: the seed is fixed, the rest are inputs.
const Function dropout_model =
    script("dropout_model", {"data", "ratio", "training_mode"},
           [](FLOAT<"N", "M"> data, FLOAT<> ratio, BOOL<> training_mode) {
             return Dropout(data, ratio, training_mode, /*seed=*/7.0f);
           });

#ifndef ONNXSCRIPT_EXAMPLE_NO_MAIN  // tests/examples compiles the definitions above without main
namespace {

// Dropout's contract, whatever the random draw: a mask of data's shape, and
// output == data * mask / (1 - ratio) (output == data when not training).
bool dropout_contract_holds(const Tensor& data, float ratio, bool training, const Tensor& output,
                            const Tensor& mask) {
  if (output.shape() != data.shape() || mask.shape() != data.shape() ||
      mask.dtype() != DataType::kBool)
    return false;
  for (int64_t i = 0; i < data.numel(); ++i) {
    const bool keep = mask.data<bool>()[i];
    if (!training && !keep) return false;
    const float scale = training ? 1.0f / (1.0f - ratio) : 1.0f;
    const float expected = keep ? data.data<float>()[i] * scale : 0.0f;
    if (std::fabs(output.data<float>()[i] - expected) > 1e-5f * (1 + std::fabs(expected)))
      return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) try {
  const std::filesystem::path out_dir = argc > 1 ? argv[1] : ".";
  const std::filesystem::path path = out_dir / "dropout.onnx";
  dropout_model.save(path);
  std::cout << "wrote " << path.string() << "\n" << dropout_model.to_text() << "\n";

  const Tensor data = Tensor::rand({4, 6}, /*seed=*/1);
  const float ratio = 0.5f;
  eval::Session session = eval::Session::load(path);
  bool ok = true;
  for (bool training : {false, true}) {
    // Eager: the If picks a branch in C++.
    auto [output, mask] =
        Dropout(data, Tensor::scalar(ratio), Tensor::scalar(training), 7.0f).as<2>();
    const bool eager_ok =
        dropout_contract_holds(data, ratio, training, output.tensor(), mask.tensor());
    // The exported model, run by the built-in evaluator.
    const std::vector<eval::RuntimeValue> inputs{data, Tensor::scalar(ratio),
                                                 Tensor::scalar(training)};
    const auto outs = session.run(inputs);
    const bool session_ok =
        dropout_contract_holds(data, ratio, training, outs.at(0).tensor(), outs.at(1).tensor());
    std::cout << (training ? "training" : "inference") << ": eager " << (eager_ok ? "ok" : "WRONG")
              << ", session " << (session_ok ? "ok" : "WRONG") << "\n"
              << "mask:\n"
              << mask.tensor() << "\n";
    ok = ok && eager_ok && session_ok;
  }
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::cerr << "dropout: " << e.what() << "\n";
  return 1;
}
#endif
