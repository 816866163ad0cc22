// Control flow built with the eDSL (loops with carried values, scan outputs
// and early exits, Scan in both directions, captures two levels deep) runs in
// ONNX Runtime 1.30 and agrees with our Session and with values computed here.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "interop/ort_runner.h"
#include "onnxscript/onnxscript.h"

namespace onnxscript {
namespace {

namespace op = opset17;

// Runs `f`'s model in ONNX Runtime and in a Session; both must print as
// `expected`.
void expect_ort(const Function& f, const std::vector<Tensor>& inputs,
                const std::vector<std::string>& expected) {
  ASSERT_TRUE(testing::onnxruntime_available()) << testing::onnxruntime_unavailable_reason();
  const ir::Model model = f.to_model();
  const std::vector<eval::RuntimeValue> ort = testing::run_in_onnxruntime(model, inputs);
  const std::vector<eval::RuntimeValue> ours =
      eval::Session(f.to_model())
          .run(std::vector<eval::RuntimeValue>(inputs.begin(), inputs.end()));
  ASSERT_EQ(ort.size(), expected.size()) << f.name();
  ASSERT_EQ(ours.size(), expected.size()) << f.name();
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(eval::to_string(ort[i]), expected[i])
        << f.name() << " output " << i << " (onnxruntime)";
    EXPECT_EQ(eval::to_string(ours[i]), expected[i]) << f.name() << " output " << i << " (session)";
  }
}

const Function Doubling = script("Doubling", {"x"}, [](FLOAT<> x) {
  auto [last, steps, values] = while_loop(x < 100, {x, 0}, [](Value v, Value k) {
    Value w = v * 2;
    return std::tuple{continue_while(w < 100), w, k + 1, w};
  });
  return std::tuple{last, steps, values};
});

const Function SumUntil = script("SumUntil", {"X", "limit"}, [](FLOAT<"N"> X, FLOAT<> limit) {
  auto [total, seen] = for_range(op::Size(X), {0.0f}, [&](Value i, Value acc) {
    Value next = acc + op::Gather(X, i);
    return std::tuple{break_if(next > limit), next, i};
  });
  return std::tuple{total, seen};
});

const Function NestedCaptures = script("NestedCaptures", {"X", "n"}, [](FLOAT<"N"> X, INT64<> n) {
  Value bias = X * 0.5;
  return for_range(n, {X}, [&](Value i, Value acc) {
    return If(
        i > 0, [&] { return acc + bias; }, [&] { return acc - X; });
  });
});

const Function PrefixAndSuffixSums = script("PrefixAndSuffixSums", {"X"}, [](FLOAT<"N"> X) {
  const Graph add = graph("add", {"acc", "x"}, [](FLOAT<> acc, FLOAT<> x) {
    Value next = acc + x;
    return std::tuple{next, next};
  });
  Value prefix = op::Scan({Value(0.0f), X}, {.body = add, .num_scan_inputs = 1})[1];
  Value suffix = op::Scan({Value(0.0f), X}, {.body = add,
                                             .num_scan_inputs = 1,
                                             .scan_input_directions = {1},
                                             .scan_output_directions = {1}})[1];
  return std::tuple{prefix, suffix};
});

TEST(ControlFlowInOnnxRuntime, WhileLoopWithScanOutput) {
  expect_ort(Doubling, {Tensor::scalar(3.0f)}, {"192.", "6", "[  6.  12.  24.  48.  96. 192.]"});
}

TEST(ControlFlowInOnnxRuntime, ForLoopWithEarlyExit) {
  expect_ort(SumUntil, {Tensor::from<float>({1, 2, 3, 4, 5}), Tensor::scalar(4.0f)},
             {"6.", "[0 1 2]"});
}

TEST(ControlFlowInOnnxRuntime, IfInsideLoopReadsValuesTwoLevelsUp) {
  expect_ort(NestedCaptures, {Tensor::from<float>({2, 4}), Tensor::scalar<int64_t>(3)},
             {"[2. 4.]"});
}

TEST(ControlFlowInOnnxRuntime, ScanForwardAndReversed) {
  expect_ort(PrefixAndSuffixSums, {Tensor::from<float>({1, 2, 3})}, {"[1. 3. 6.]", "[6. 5. 3.]"});
}

}  // namespace
}  // namespace onnxscript
