// Golden text of what the eDSL builds: operator overloads, literal promotion
// for each numeric type, nested function calls, attribute references.
// scripts/update-golden.sh regenerates the expected files.

#include <gtest/gtest.h>

#include <string>

#include "golden.h"
#include "onnxscript/onnxscript.h"
#include "sample_scripts.h"

namespace onnxscript {
namespace {

namespace op = opset17;

TEST(Golden, OperatorOverloads) {
  const Function arithmetic = script("arithmetic", {"A", "B"}, [](FLOAT<"N"> A, FLOAT<"N"> B) {
    Value add = A + B, sub = A - B, mul = A * B, div = A / B, mod = A % B, neg = -A;
    return std::make_tuple(add, sub, mul, div, mod, neg);
  });
  const Function comparison = script("comparison", {"A", "B"}, [](INT64<"N"> A, INT64<"N"> B) {
    Value lt = A<B, le = A <= B, gt = A> B, ge = A >= B, eq = equal(A, B), ne = not_equal(A, B),
          mod = A % B;
    return std::make_tuple(lt, le, gt, ge, eq, ne, mod);
  });
  const Function logical = script("logical", {"A", "B"}, [](BOOL<"N"> A, BOOL<"N"> B) {
    Value a = A & B, o = A | B, x = A ^ B, n = !A, t = ~B;
    return std::make_tuple(a, o, x, n, t);
  });
  testing::expect_golden(
      "script/operator_overloads",
      arithmetic.to_text() + "\n" + comparison.to_text() + "\n" + logical.to_text());
}

// X + 1 and X * 0.5 for every numeric element type: the constant takes X's type.
template <typename Typed>
std::string literal_case(const std::string& name) {
  const Function f = script(name, {"X"}, [](Typed X) { return (X + 1) * 0.5; });
  return f.to_text();
}

TEST(Golden, LiteralPromotionForEachNumericType) {
  std::string text;
  text += literal_case<FLOAT<"N">>("float_") + "\n";
  text += literal_case<DOUBLE<"N">>("double_") + "\n";
  text += literal_case<FLOAT16<"N">>("float16_") + "\n";
  text += literal_case<BFLOAT16<"N">>("bfloat16_") + "\n";
  text += literal_case<INT8<"N">>("int8_") + "\n";
  text += literal_case<INT16<"N">>("int16_") + "\n";
  text += literal_case<INT32<"N">>("int32_") + "\n";
  text += literal_case<INT64<"N">>("int64_") + "\n";
  text += literal_case<UINT8<"N">>("uint8_") + "\n";
  text += literal_case<UINT16<"N">>("uint16_") + "\n";
  text += literal_case<UINT32<"N">>("uint32_") + "\n";
  text += literal_case<UINT64<"N">>("uint64_") + "\n";
  // Unknown element type while building: CastLike follows the input at run time.
  text += script("untyped", {"X"}, [](Value X) { return X * 0.5; }).to_text();
  testing::expect_golden("script/literal_promotion", text);
}

TEST(Golden, SlicingForms) {
  const Function f = script("slicing", {"X", "I"}, [](FLOAT<"N", 3, 5> X, INT64<"K"> I) {
    Value single = X[2];                                          // X[2]
    Value ranges = X[{Slice(1, -1), Slice(0, 3, 2)}];             // X[1:-1, 0:3:2]
    Value mixed = X[{Slice(1, -1), 0}];                           // X[1:-1, 0]
    Value several_ints = X[{0, 1}];                               // X[0, 1]
    Value reversed = X[{Slice(std::nullopt, std::nullopt, -1)}];  // X[::-1]
    Value ellipsis = X[{Ellipsis, 0, NewAxis}];                   // X[..., 0, None]
    Value new_axes = X[{NewAxis, Slice(), NewAxis}];              // X[None, :, None]
    Value gathered = X[{Slice(), I}];                             // X[:, I]
    Value whole = X[{Ellipsis}];                                  // X (no node)
    return std::make_tuple(single, ranges, mixed, several_ints, reversed, ellipsis, new_axes,
                           gathered, whole);
  });
  testing::expect_golden("script/slicing_forms", f.to_text());
}

const Function Square = script("Square", {"X"}, [](Value X) { return X * X; });
const Function SumOfSquares =
    script("SumOfSquares", {"X", "Y"}, [](Value X, Value Y) { return Square(X) + Square(Y); });
const Function Norm = script(
    "Norm", {"X", "Y"},
    [](FLOAT<"N"> X, FLOAT<"N"> Y) -> FLOAT<"N"> { return op::Sqrt(SumOfSquares(X, Y)); });

TEST(Golden, NestedFunctionCalls) {
  // The model keeps every function it calls, transitively, once each.
  testing::expect_golden("script/nested_function_calls", Norm.to_text());
}

TEST(Golden, AttributeReferences) {
  testing::expect_golden("script/attribute_references", testing::scaled_caller().to_text());
}

// Weights from initializer(): initializers of the model's graph, Constant
// nodes of the same names in the function that a model calls.
const Function Biased = script("Biased", {"X"}, [](FLOAT<3> X) -> FLOAT<3> {
  const Value bias = initializer(Tensor::from<float>({0.5f, -1.0f, 2.0f}), "bias");
  const Value gain = initializer(Tensor::from<float>({2.0f, 2.0f, 2.0f}));
  return (X + bias) * gain;
});

TEST(Golden, InitializersInAModelAndItsFunctions) {
  const Function twice =
      script("Twice", {"X"}, [](FLOAT<3> X) -> FLOAT<3> { return Biased(Biased(X)); });
  testing::expect_golden("script/initializers", Biased.to_text() + "\n" + twice.to_text());
}

// A model at opset 18: Split with num_outputs, Reduce with axes as an input.
TEST(Golden, AModelAtOpset18) {
  testing::expect_golden("script/opset18_model", testing::opset18_model().to_text());
}

}  // namespace
}  // namespace onnxscript
