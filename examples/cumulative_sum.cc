// A higher-order operator (Scan) whose body is a nested graph built with
// graph(): the body's outputs tell Scan how many results it has.
// Usage: cumulative_sum [OUTPUT_DIR]   (writes cumulative_sum.onnx there)
#include <onnxscript/onnxscript.h>

#include <filesystem>
#include <iostream>

using namespace onnxscript;
namespace op = onnxscript::opset18;

const Function CumulativeSum = script("CumulativeSum", {"X"}, [](FLOAT<"N"> X) {
  // A graph-valued attribute. Its two outputs are one state variable and one
  // scan output.
  const Graph Sum = graph("Sum", {"sum_in", "next"}, [](Value sum_in, Value next) {
    Value sum_out = sum_in + next;
    Value scan_out = op::Identity(sum_out);
    return std::tuple{sum_out, scan_out};
  });
  // The arity of the result comes from the body's signature (two outputs).
  auto [all_sum, cumulative_sum] =
      unpack<2>(op::Scan({Value(0.0f), X}, {.body = Sum, .num_scan_inputs = 1}));
  return cumulative_sum;
});

#ifndef ONNXSCRIPT_EXAMPLE_NO_MAIN  // tests/examples compiles the definitions above without main
int main(int argc, char** argv) try {
  const std::filesystem::path out_dir = argc > 1 ? argv[1] : ".";
  const std::filesystem::path path = out_dir / "cumulative_sum.onnx";
  CumulativeSum.save(path);
  std::cout << "wrote " << path.string() << "\n" << CumulativeSum.to_text() << "\n";

  const Tensor x = Tensor::from<float>({1, 2, 3, 4, 5});
  const Tensor eager = CumulativeSum(x);  // evaluated eagerly: Scan runs the body per element
  std::cout << "eager:   " << eager << "\n";
  const Tensor planned = eval::Session::load(path).run({x}).at(0).tensor();
  std::cout << "session: " << planned << "\n";
  const Tensor expected = Tensor::from<float>({1, 3, 6, 10, 15});
  return eager.same_contents(expected) && planned.same_contents(expected) ? 0 : 1;
} catch (const std::exception& e) {
  std::cerr << "cumulative_sum: " << e.what() << "\n";
  return 1;
}
#endif
