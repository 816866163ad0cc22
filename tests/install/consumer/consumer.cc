// An authoring program built against an installed prefix: it traces a
// function with the typed operators, saves the model, loads it back in a
// Session, and checks the Session against eager evaluation and against
// values worked out by hand. Prints "consumer: ok" when all agree.
#include <onnxscript/onnxscript.h>

#include <cmath>
#include <filesystem>
#include <iostream>

using namespace onnxscript;
namespace op = onnxscript::opset17;

// y = relu(x * 2 - 1)
const Function scaled_relu = script(
    "scaled_relu", {"X"}, [](FLOAT<"N"> X) -> FLOAT<"N"> { return op::Relu(X * 2.0 - 1.0); });

int main(int argc, char** argv) try {
  const std::filesystem::path path =
      std::filesystem::path(argc > 1 ? argv[1] : ".") / "scaled_relu.onnx";
  scaled_relu.save(path);

  const Tensor x = Tensor::from<float>({-1.0f, 0.25f, 0.5f, 3.0f});
  const Tensor eager = scaled_relu(x);
  const Tensor loaded = eval::Session::load(path).run({eval::RuntimeValue(x)}).at(0).tensor();
  const float expected[] = {0.0f, 0.0f, 0.0f, 5.0f};
  for (int i = 0; i < 4; ++i) {
    const float got = loaded.data<float>()[i];
    if (std::fabs(got - expected[i]) > 1e-6f || std::fabs(eager.data<float>()[i] - got) > 1e-6f) {
      std::cerr << "consumer: element " << i << " is " << got << ", expected " << expected[i]
                << "\n";
      return 1;
    }
  }
  std::cout << "consumer: ok\n";
  return 0;
} catch (const std::exception& e) {
  std::cerr << "consumer: " << e.what() << "\n";
  return 1;
}
