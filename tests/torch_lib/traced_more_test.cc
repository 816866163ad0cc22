// The newer torchlib families traced with symbolic sizes: the paths that
// compute sizes at run time (squeeze.dim, roll, sort, narrow.Tensor, the
// factories) trace into plain opset-18 nodes, and the traced function run on
// concrete inputs gives PyTorch 1.13's values (printed by torch at
// test-writing time, in the comments).
#include <gtest/gtest.h>

#include "onnxscript/onnxscript.h"
#include "onnxscript/torch_lib/ops.h"
#include "torch_lib/values.h"

namespace onnxscript::torch_lib {
namespace {

using testing::dims;
using testing::elements;
using testing::expect_close;
using testing::f32;
using testing::i64;

using Ints = std::vector<int64_t>;

TEST(TorchlibTracedMore, SqueezeDimOfUnknownSizeDecidesAtRunTime) {
  const Function f =
      script("squeeze1", {"x"}, [](FLOAT<"N", "M"> x) { return aten_squeeze_dim(x, 1); });
  EXPECT_EQ(f.to_text().find("Squeeze"), std::string::npos) << f.to_text();
  // torch.ones(3, 1).squeeze(1).shape -> [3]; torch.ones(3, 2).squeeze(1).shape -> [3, 2]
  EXPECT_EQ(dims(f(Tensor(DataType::kFloat, {3, 1}))), (Ints{3}));
  EXPECT_EQ(dims(f(Tensor(DataType::kFloat, {3, 2}))), (Ints{3, 2}));
}

TEST(TorchlibTracedMore, RollAndSortOfUnknownSize) {
  const Function roll = script("roll", {"x"}, [](INT64<"N"> x) { return aten_roll(x, {7}, {0}); });
  // torch.roll(torch.arange(5), 7) -> [3, 4, 0, 1, 2]
  EXPECT_EQ(elements<int64_t>(roll(i64({0, 1, 2, 3, 4}))), (Ints{3, 4, 0, 1, 2}));
  const Function sort =
      script("sort", {"x"}, [](FLOAT<2, "N"> x) { return aten_sort(x, -1, false)[0]; });
  // torch.sort(torch.tensor([[3., 1, 2], [0, -1, 5]])).values -> [[1, 2, 3], [-1, 0, 5]]
  expect_close(sort(f32({3, 1, 2, 0, -1, 5}, {2, 3})), {1, 2, 3, -1, 0, 5});
}

TEST(TorchlibTracedMore, FactoriesAndTypesFromTracedInputs) {
  const Function f = script("factories", {"x"}, [](INT64<"N"> x) {
    // x.new_ones(x.shape) + torch.zeros_like(x) + torch.full_like(x, 2)
    const Value ones =
        aten_new_ones(x, opset18::Shape(x), std::nullopt, std::nullopt, std::nullopt, std::nullopt);
    const Value zeros =
        aten_zeros_like(x, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt);
    const Value twos = aten_full_like(x, Value(int64_t{2}), std::nullopt, std::nullopt,
                                      std::nullopt, std::nullopt, std::nullopt);
    return opset18::Add(opset18::Add(ones, zeros), twos);
  });
  EXPECT_EQ(elements<int64_t>(f(i64({5, 6}))), (Ints{3, 3}));
}

TEST(TorchlibTracedMore, PromotionWithTracedIntegerTensors) {
  // torch.tensor([1, 2, 3]) * 1.0 ** 0.5 and the comparison with 2.5.
  const Function f = script("promote", {"x"}, [](INT64<"N"> x) { return aten_pow(x, Value(0.5)); });
  expect_close(f(i64({1, 4, 9})), {1, 2, 3});
  const Function g = script("compare", {"x"}, [](INT64<"N"> x) { return aten_lt(x, Value(2.5)); });
  EXPECT_EQ(elements<bool>(g(i64({2, 3}))), (std::vector<bool>{true, false}));
}

}  // namespace
}  // namespace onnxscript::torch_lib
