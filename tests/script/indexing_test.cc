// Indexing and slicing (x[2], x[{0, Slice(1, -1, 2)}], Ellipsis, NewAxis,
// tensor indices): eager results against values worked out by hand with numpy
// semantics, the exact nodes recorded when tracing, and the errors.

#include "onnxscript/script/indexing.h"
#include "error_message.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "onnxscript/ir/graph.h"
#include "onnxscript/onnxscript.h"
#include "onnxscript/opsets/opset11.h"
#include "onnxscript/opsets/opset9.h"
#include "script/script_test_util.h"

namespace onnxscript {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

// numpy.arange(n).reshape(shape), int64.
Tensor arange(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return Tensor::arange<int64_t>(0, n).reshaped(std::move(shape));
}

// numpy.arange(n, dtype=float32).reshape(shape).
Tensor arangef(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return Tensor::arange<float>(0, static_cast<float>(n)).reshaped(std::move(shape));
}

std::vector<float> fvalues(const Tensor& t) {
  const float* p = t.data<float>();
  return std::vector<float>(p, p + t.numel());
}

std::vector<int64_t> values(const Tensor& t) {
  const int64_t* p = t.data<int64_t>();
  return std::vector<int64_t>(p, p + t.numel());
}

// x = arange(24).reshape(2, 3, 4): x[i, j, k] == 12 i + 4 j + k.
class IndexingEager : public ::testing::Test {
 protected:
  Value x = Value(arange({2, 3, 4}));
  Value v = Value(arange({6}));  // [0 1 2 3 4 5]
};

TEST_F(IndexingEager, IntegerDropsTheAxis) {
  Tensor a = x[1].tensor();
  EXPECT_THAT(a.shape(), ElementsAre(3, 4));
  EXPECT_THAT(values(a), ElementsAre(12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23));
  Tensor b = x[-2].tensor();
  EXPECT_THAT(b.shape(), ElementsAre(3, 4));
  EXPECT_THAT(values(b), ElementsAre(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
  // An int literal Value is an integer index too.
  EXPECT_THAT(values(x[Value(1)].tensor()),
              ElementsAre(12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23));
  Tensor s = v[-1].tensor();
  EXPECT_TRUE(s.shape().empty());
  EXPECT_EQ(values(s), std::vector<int64_t>{5});
}

TEST_F(IndexingEager, IntegerAndStridedRange) {
  // x[0, 1:-1:2]: j in range(1, 2, 2) = [1].
  Tensor a = x[{0, Slice(1, -1, 2)}].tensor();
  EXPECT_THAT(a.shape(), ElementsAre(1, 4));
  EXPECT_THAT(values(a), ElementsAre(4, 5, 6, 7));
  // x[1:, ::2]: i = 1, j in {0, 2}.
  Tensor b = x[{Slice(1, std::nullopt), Slice(std::nullopt, std::nullopt, 2)}].tensor();
  EXPECT_THAT(b.shape(), ElementsAre(1, 2, 4));
  EXPECT_THAT(values(b), ElementsAre(12, 13, 14, 15, 20, 21, 22, 23));
  // x[:, :2]
  Tensor c = x[{Slice(), Slice(std::nullopt, 2)}].tensor();
  EXPECT_THAT(c.shape(), ElementsAre(2, 2, 4));
  EXPECT_THAT(values(c), ElementsAre(0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 16, 17, 18, 19));
  // v[:3], v[-2:], v[1:100] (clamped)
  EXPECT_THAT(values(v[{Slice(std::nullopt, 3)}].tensor()), ElementsAre(0, 1, 2));
  EXPECT_THAT(values(v[{Slice(-2, std::nullopt)}].tensor()), ElementsAre(4, 5));
  EXPECT_THAT(values(v[{Slice(1, 100)}].tensor()), ElementsAre(1, 2, 3, 4, 5));
  EXPECT_THAT(values(v[{Slice(4, 2)}].tensor()), ElementsAre());
}

TEST_F(IndexingEager, NegativeSteps) {
  EXPECT_THAT(values(v[{Slice(std::nullopt, std::nullopt, -1)}].tensor()),
              ElementsAre(5, 4, 3, 2, 1, 0));
  EXPECT_THAT(values(v[{Slice(4, 0, -2)}].tensor()), ElementsAre(4, 2));
  EXPECT_THAT(values(v[{Slice(-1, std::nullopt, -3)}].tensor()), ElementsAre(5, 2));
  EXPECT_THAT(values(v[{Slice(std::nullopt, 1, -1)}].tensor()), ElementsAre(5, 4, 3, 2));
  EXPECT_THAT(values(v[{Slice(std::nullopt, -7, -1)}].tensor()), ElementsAre(5, 4, 3, 2, 1, 0));
  // x[::-1, 2, ::-3]: i in {1, 0}, j = 2, k in {3, 0}.
  Tensor a =
      x[{Slice(std::nullopt, std::nullopt, -1), 2, Slice(std::nullopt, std::nullopt, -3)}].tensor();
  EXPECT_THAT(a.shape(), ElementsAre(2, 2));
  EXPECT_THAT(values(a), ElementsAre(23, 20, 11, 8));
}

TEST_F(IndexingEager, SeveralIntegers) {
  Tensor a = x[{1, 2}].tensor();
  EXPECT_THAT(a.shape(), ElementsAre(4));
  EXPECT_THAT(values(a), ElementsAre(20, 21, 22, 23));
  // -1 as an integer ends at INT64_MAX, not at 0.
  Tensor b = x[{1, -1, -1}].tensor();
  EXPECT_TRUE(b.shape().empty());
  EXPECT_EQ(values(b), std::vector<int64_t>{23});
  Tensor c = x[{-1, Slice(), -1}].tensor();
  EXPECT_THAT(c.shape(), ElementsAre(3));
  EXPECT_THAT(values(c), ElementsAre(15, 19, 23));
}

TEST_F(IndexingEager, Ellipsis) {
  Tensor a = x[{Ellipsis, 0}].tensor();
  EXPECT_THAT(a.shape(), ElementsAre(2, 3));
  EXPECT_THAT(values(a), ElementsAre(0, 4, 8, 12, 16, 20));
  Tensor b = x[{0, Ellipsis, 1}].tensor();
  EXPECT_THAT(b.shape(), ElementsAre(3));
  EXPECT_THAT(values(b), ElementsAre(1, 5, 9));
  // An Ellipsis that stands for no axis.
  Tensor c = x[{1, Ellipsis, 2, 3}].tensor();
  EXPECT_EQ(values(c), std::vector<int64_t>{23});
  Tensor d = x[{Ellipsis, Slice(1, 3), Slice(std::nullopt, std::nullopt, 3)}].tensor();
  EXPECT_THAT(d.shape(), ElementsAre(2, 2, 2));
  EXPECT_THAT(values(d), ElementsAre(4, 7, 8, 11, 16, 19, 20, 23));
}

TEST_F(IndexingEager, NewAxis) {
  Tensor a = x[{NewAxis, Slice()}].tensor();
  EXPECT_THAT(a.shape(), ElementsAre(1, 2, 3, 4));
  EXPECT_EQ(values(a), values(x.tensor()));
  // x[:, None, 1]
  Tensor b = x[{Slice(), NewAxis, 1}].tensor();
  EXPECT_THAT(b.shape(), ElementsAre(2, 1, 4));
  EXPECT_THAT(values(b), ElementsAre(4, 5, 6, 7, 16, 17, 18, 19));
  EXPECT_THAT((x[{Ellipsis, NewAxis}].tensor().shape()), ElementsAre(2, 3, 4, 1));
  EXPECT_THAT((x[{NewAxis, 0, NewAxis, Ellipsis, NewAxis}].tensor().shape()),
              ElementsAre(1, 1, 3, 4, 1));
  EXPECT_THAT((v[{NewAxis, NewAxis}].tensor().shape()), ElementsAre(1, 1, 6));
}

TEST_F(IndexingEager, TensorIndexGathers) {
  const Tensor i = Tensor::from<int64_t>({2, 0});
  // x[:, [2, 0]]
  Tensor a = x[{Slice(), i}].tensor();
  EXPECT_THAT(a.shape(), ElementsAre(2, 2, 4));
  EXPECT_THAT(values(a), ElementsAre(8, 9, 10, 11, 0, 1, 2, 3, 20, 21, 22, 23, 12, 13, 14, 15));
  // x[0, [2, 0]]: the integer sits next to the tensor index, as numpy requires for the same result.
  Tensor b = x[{0, i}].tensor();
  EXPECT_THAT(b.shape(), ElementsAre(2, 4));
  EXPECT_THAT(values(b), ElementsAre(8, 9, 10, 11, 0, 1, 2, 3));
  // A scalar tensor index drops the axis, like an integer.
  Tensor c = x[{Slice(), Tensor::scalar<int64_t>(1)}].tensor();
  EXPECT_THAT(c.shape(), ElementsAre(2, 4));
  EXPECT_THAT(values(c), ElementsAre(4, 5, 6, 7, 16, 17, 18, 19));
  // x[..., [[3], [1]]] and a 2-D index: shape (2, 3, 2, 1).
  Tensor d = x[{Ellipsis, Tensor::from<int64_t>({3, 1}, {2, 1})}].tensor();
  EXPECT_THAT(d.shape(), ElementsAre(2, 3, 2, 1));
  EXPECT_THAT(values(d), ElementsAre(3, 1, 7, 5, 11, 9, 15, 13, 19, 17, 23, 21));
  // Two scalar tensor indices and an int32 one.
  Tensor e = x[{Tensor::scalar<int64_t>(1), Slice(), Tensor::scalar<int32_t>(2)}].tensor();
  EXPECT_THAT(values(e), ElementsAre(14, 18, 22));
  // x[1:, [2, 0], None]
  Tensor f = x[{Slice(1, std::nullopt), i, NewAxis}].tensor();
  EXPECT_THAT(f.shape(), ElementsAre(1, 2, 1, 4));
  EXPECT_THAT(values(f), ElementsAre(20, 21, 22, 23, 12, 13, 14, 15));
}

TEST_F(IndexingEager, WholeValue) {
  EXPECT_EQ(x[{Slice()}].tensor().shape(), x.tensor().shape());
  EXPECT_EQ(values(x[{Ellipsis}].tensor()), values(x.tensor()));
  EXPECT_EQ(values(x[{}].tensor()), values(x.tensor()));
  EXPECT_EQ(values(x[{Slice(), Slice(std::nullopt, std::nullopt, 1)}].tensor()),
            values(x.tensor()));
}

TEST_F(IndexingEager, SubscriptWithARuntimeList) {
  std::vector<Index> indices;
  indices.emplace_back(1);
  indices.emplace_back(Slice(std::nullopt, std::nullopt, -1));
  Tensor a = subscript(x, indices).tensor();
  EXPECT_THAT(a.shape(), ElementsAre(3, 4));
  EXPECT_THAT(values(a), ElementsAre(20, 21, 22, 23, 16, 17, 18, 19, 12, 13, 14, 15));
}

// ---- traced ----

template <typename F>
std::string error_of(F&& f) {
  return testing::message_of<ScriptError>(std::forward<F>(f));
}

std::vector<std::string> op_types(const ir::Function& fn) { return testing::op_types(fn.body()); }

const ir::Node* only(const ir::Function& fn, std::string_view op) {
  const ir::Node* found = nullptr;
  for (ir::Node* n : fn.body().nodes()) {
    if (n->op_type() == op) {
      EXPECT_EQ(found, nullptr) << "more than one " << op;
      found = n;
    }
  }
  EXPECT_NE(found, nullptr) << "no " << op;
  return found;
}

// The int64 values of a Constant feeding input `i` of `node`.
std::vector<int64_t> const_input(const ir::Node* node, size_t i) {
  const ir::Node* producer = node->input(i)->producer();
  if (!producer || producer->op_type() != "Constant") {
    ADD_FAILURE() << node->op_type() << " input " << i << " is not a Constant";
    return {};
  }
  const Tensor& t = producer->attribute("value")->as_tensor();
  EXPECT_EQ(t.dtype(), DataType::kInt64);
  return values(t);
}

std::vector<std::string> shape_of(const ir::Value* v) {
  std::vector<std::string> out;
  if (!v->type() || !v->type()->shape) return {"<unknown rank>"};
  for (const ir::Dim& d : *v->type()->shape) {
    out.push_back(d.is_static() ? std::to_string(d.value()) : d.is_symbolic() ? d.symbol() : "?");
  }
  return out;
}

using X435 = FLOAT<4, 3, 5>;

TEST(IndexingTraced, RangeAndIntegerAreOneSliceAndOneSqueeze) {
  const Function f = script("f", {"X"}, [](X435 X) { return X[{Slice(1, -1), 0}]; });
  const ir::Function& fn = f.to_function();
  EXPECT_THAT(op_types(fn),
              ElementsAre("Constant", "Constant", "Constant", "Slice", "Constant", "Squeeze"));
  const ir::Node* slice = only(fn, "Slice");
  ASSERT_EQ(slice->inputs().size(), 4u);  // no steps: all are 1
  EXPECT_EQ(slice->input(0), fn.body().inputs()[0]);
  EXPECT_THAT(const_input(slice, 1), ElementsAre(1, 0));
  EXPECT_THAT(const_input(slice, 2), ElementsAre(-1, 1));
  EXPECT_THAT(const_input(slice, 3), ElementsAre(0, 1));
  EXPECT_THAT(const_input(only(fn, "Squeeze"), 1), ElementsAre(1));
  EXPECT_THAT(shape_of(fn.body().outputs()[0]), ElementsAre("2", "5"));
  // The same body eagerly: arange(60).reshape(4, 3, 5)[1:-1, 0] takes x[i, 0, :] for i in {1, 2}.
  Tensor out = f(arangef({4, 3, 5}));
  EXPECT_THAT(out.shape(), ElementsAre(2, 5));
  EXPECT_THAT(fvalues(out), ElementsAre(15, 16, 17, 18, 19, 30, 31, 32, 33, 34));
}

TEST(IndexingTraced, SingleIntegerIsOneGather) {
  const Function fn_script = script("f", {"X"}, [](X435 X) { return X[2]; });
  const ir::Function& fn = fn_script.to_function();
  EXPECT_THAT(op_types(fn), ElementsAre("Constant", "Gather"));
  const ir::Node* gather = only(fn, "Gather");
  EXPECT_EQ(gather->attribute("axis")->as_int(), 0);
  const Tensor& index = gather->input(1)->producer()->attribute("value")->as_tensor();
  EXPECT_TRUE(index.shape().empty());  // a scalar: the axis is dropped
  EXPECT_EQ(values(index), std::vector<int64_t>{2});
  EXPECT_THAT(shape_of(fn.body().outputs()[0]), ElementsAre("3", "5"));
}

TEST(IndexingTraced, StepsAndOmittedBounds) {
  const Function fn_script = script("f", {"X"}, [](X435 X) {
    return X[{Slice(), Slice(std::nullopt, std::nullopt, -1), Slice(1, std::nullopt, 2)}];
  });
  const ir::Function& fn = fn_script.to_function();
  EXPECT_THAT(op_types(fn), ElementsAre("Constant", "Constant", "Constant", "Constant", "Slice"));
  const ir::Node* slice = only(fn, "Slice");
  ASSERT_EQ(slice->inputs().size(), 5u);
  EXPECT_THAT(const_input(slice, 1), ElementsAre(kMax, 1));
  EXPECT_THAT(const_input(slice, 2), ElementsAre(kMin, kMax));
  EXPECT_THAT(const_input(slice, 3), ElementsAre(1, 2));  // the full Slice() on axis 0 is omitted
  EXPECT_THAT(const_input(slice, 4), ElementsAre(-1, 2));
  EXPECT_THAT(shape_of(fn.body().outputs()[0]), ElementsAre("4", "3", "2"));
}

TEST(IndexingTraced, SeveralIntegersAreOneSlice) {
  const Function fn_script = script("f", {"X"}, [](X435 X) { return X[{1, Ellipsis, -1}]; });
  const ir::Function& fn = fn_script.to_function();
  EXPECT_THAT(op_types(fn),
              ElementsAre("Constant", "Constant", "Constant", "Slice", "Constant", "Squeeze"));
  const ir::Node* slice = only(fn, "Slice");
  EXPECT_THAT(const_input(slice, 1), ElementsAre(1, -1));
  EXPECT_THAT(const_input(slice, 2), ElementsAre(2, kMax));
  EXPECT_THAT(const_input(slice, 3), ElementsAre(0, 2));
  EXPECT_THAT(const_input(only(fn, "Squeeze"), 1), ElementsAre(0, 2));
  EXPECT_THAT(shape_of(fn.body().outputs()[0]), ElementsAre("3"));
}

TEST(IndexingTraced, EllipsisWithKnownRankUsesPositiveAxes) {
  const Function fn_script = script("f", {"X"}, [](X435 X) { return X[{Ellipsis, 0}]; });
  const ir::Function& fn = fn_script.to_function();
  EXPECT_THAT(op_types(fn), ElementsAre("Constant", "Gather"));
  EXPECT_EQ(only(fn, "Gather")->attribute("axis")->as_int(), 2);
}

TEST(IndexingTraced, NewAxesAreOneUnsqueeze) {
  const Function fn_script = script("f", {"X"}, [](X435 X) {
    return X[{0, Slice(1, 3), NewAxis, Ellipsis, NewAxis}];
  });
  const ir::Function& fn = fn_script.to_function();
  EXPECT_THAT(op_types(fn), ElementsAre("Constant", "Constant", "Constant", "Slice", "Constant",
                                        "Squeeze", "Constant", "Unsqueeze"));
  const ir::Node* slice = only(fn, "Slice");
  EXPECT_THAT(const_input(slice, 1), ElementsAre(0, 1));
  EXPECT_THAT(const_input(slice, 2), ElementsAre(1, 3));
  EXPECT_THAT(const_input(slice, 3), ElementsAre(0, 1));
  EXPECT_THAT(const_input(only(fn, "Squeeze"), 1), ElementsAre(0));
  // Output positions: (2, None, 5, None) -> axes 1 and 3.
  EXPECT_THAT(const_input(only(fn, "Unsqueeze"), 1), ElementsAre(1, 3));
  EXPECT_THAT(shape_of(fn.body().outputs()[0]), ElementsAre("2", "1", "5", "1"));

  const Function g_script = script("g", {"X"}, [](X435 X) { return X[{NewAxis, Slice()}]; });
  const ir::Function& g = g_script.to_function();
  EXPECT_THAT(op_types(g), ElementsAre("Constant", "Unsqueeze"));
  EXPECT_THAT(const_input(only(g, "Unsqueeze"), 1), ElementsAre(0));
}

TEST(IndexingTraced, WholeValueEmitsNothing) {
  bool same = false;
  const Function fn_script = script("a", {"X"}, [&same](X435 X) {
    const Value a = X[{Slice()}], b = X[{Ellipsis}], c = X[{}];
    same = a.ir_value() == X.ir_value() && b.ir_value() == X.ir_value() &&
           c.ir_value() == X.ir_value();
    return a;
  });
  const ir::Function& fn = fn_script.to_function();
  EXPECT_TRUE(same);
  // Only the Identity that script() adds to return an input as an output.
  EXPECT_THAT(op_types(fn), ElementsAre("Identity"));
}

TEST(IndexingTraced, TensorIndexIsGather) {
  const Function f = script("f", {"X", "I"}, [](X435 X, INT64<"K"> I) { return X[{Slice(), I}]; });
  const ir::Function& fn = f.to_function();
  EXPECT_THAT(op_types(fn), ElementsAre("Gather"));
  const ir::Node* gather = only(fn, "Gather");
  EXPECT_EQ(gather->input(1), fn.body().inputs()[1]);
  EXPECT_EQ(gather->attribute("axis")->as_int(), 1);
  EXPECT_THAT(shape_of(fn.body().outputs()[0]), ElementsAre("4", "K", "5"));
  // Eagerly, through the same body: X[:, [2, 0]] on arange(60).reshape(4, 3, 5), then one row.
  Tensor out = f(arangef({4, 3, 5}), Tensor::from<int64_t>({2, 0}));
  EXPECT_THAT(out.shape(), ElementsAre(4, 2, 5));
  const std::vector<float> got = fvalues(out);
  EXPECT_THAT(std::vector<float>(got.begin(), got.begin() + 10),
              ElementsAre(10, 11, 12, 13, 14, 0, 1, 2, 3, 4));
}

TEST(IndexingTraced, IntegerThenTensorIndexAdjustsTheGatherAxis) {
  const Function fn_script = script("f", {"X", "I"}, [](X435 X, INT64<"K"> I) {
    return X[{Slice(1, 3), 0, I}];
  });
  const ir::Function& fn = fn_script.to_function();
  EXPECT_THAT(op_types(fn), ElementsAre("Constant", "Constant", "Constant", "Slice", "Constant",
                                        "Squeeze", "Gather"));
  EXPECT_EQ(only(fn, "Gather")->attribute("axis")->as_int(), 1);
  EXPECT_THAT(shape_of(fn.body().outputs()[0]), ElementsAre("2", "K"));
}

TEST(IndexingTraced, UnknownRankCountsFromTheEnd) {
  const Function fn_script = script("f", {"X"}, [](FLOAT<AnyRank> X) {
    return X[{Ellipsis, 0, NewAxis}];
  });
  const ir::Function& fn = fn_script.to_function();
  EXPECT_THAT(op_types(fn), ElementsAre("Constant", "Gather", "Constant", "Unsqueeze"));
  EXPECT_EQ(only(fn, "Gather")->attribute("axis")->as_int(), -1);
  EXPECT_THAT(const_input(only(fn, "Unsqueeze"), 1), ElementsAre(-1));

  const Function g_script = script("g", {"X"}, [](FLOAT<AnyRank> X) {
    return X[{0, Ellipsis, Slice(1, 2), 3}];
  });
  const ir::Function& g = g_script.to_function();
  const ir::Node* slice = only(g, "Slice");
  EXPECT_THAT(const_input(slice, 3), ElementsAre(0, -2, -1));
  EXPECT_THAT(const_input(only(g, "Squeeze"), 1), ElementsAre(0, -1));
}

TEST(IndexingTraced, ResultTypeLetsSubscriptsChain) {
  const Function fn_script = script("f", {"X"}, [](X435 X) { return X[0][{Ellipsis, 1}]; });
  const ir::Function& fn = fn_script.to_function();
  EXPECT_THAT(op_types(fn), ElementsAre("Constant", "Gather", "Constant", "Gather"));
  std::vector<int64_t> axes;
  for (ir::Node* n : fn.body().nodes()) {
    if (n->op_type() == "Gather") axes.push_back(n->attribute("axis")->as_int());
  }
  EXPECT_THAT(axes, ElementsAre(0, 1));
}

// Without per-node inference, the subscript types its own result, so that a
// further subscript still knows the rank and shape.
TEST(IndexingTraced, ResultTypeWithoutInference) {
  ScopedTraceOptions no_inference(TraceOptions{.infer_types = false});
  const Function f = script("f", {"X"}, [](X435 X) { return X[0][{Ellipsis, 1}]; });
  const ir::Function& fn = f.to_function();
  std::vector<int64_t> axes;
  for (ir::Node* n : fn.body().nodes()) {
    if (n->op_type() == "Gather") axes.push_back(n->attribute("axis")->as_int());
  }
  EXPECT_THAT(axes, ElementsAre(0, 1));
  EXPECT_THAT(shape_of(fn.body().outputs()[0]), ElementsAre("3"));

  const Function g = script("g", {"X", "I"}, [](FLOAT<"N", 3, 5> X, INT64<"K", 2> I) {
    return X[{Slice(std::nullopt, std::nullopt, -2), NewAxis, I, Slice(1, -1)}];
  });
  EXPECT_THAT(shape_of(g.to_function().body().outputs()[0]), ElementsAre("?", "1", "K", "2", "3"));
}

TEST(IndexingTraced, TracedAndEagerAgree) {
  const Function f = script("f", {"X"}, [](Value X) {
    return X[{Slice(std::nullopt, std::nullopt, -1), NewAxis, 1, Slice(1, std::nullopt, 3)}];
  });
  // x[::-1, None, 1, 1::3] on arange(24).reshape(2, 3, 4): i in {1, 0}, j = 1, k in {1}.
  Tensor out = f(arange({2, 3, 4}));
  EXPECT_THAT(out.shape(), ElementsAre(2, 1, 1));
  EXPECT_THAT(values(out), ElementsAre(17, 5));
  EXPECT_THAT(op_types(f.to_function()),
              ElementsAre("Constant", "Constant", "Constant", "Constant", "Slice", "Constant",
                          "Squeeze", "Constant", "Unsqueeze"));
}

// Indexing follows the opset the trace already imports: before opset 13,
// Squeeze and Unsqueeze take axes as attributes; before 10, so does Slice.
TEST(IndexingTraced, OlderOpsetsUseAttributes) {
  const Function f = script("f", {"X"}, [](X435 X) {
    return opset11::Abs(X)[{Slice(1, 3), 0, NewAxis}];
  });
  const ir::Function& fn = f.to_function();
  EXPECT_THAT(op_types(fn), ElementsAre("Abs", "Constant", "Constant", "Constant", "Slice",
                                        "Squeeze", "Unsqueeze"));
  const ir::Node* squeeze = only(fn, "Squeeze");
  EXPECT_EQ(squeeze->inputs().size(), 1u);
  EXPECT_THAT(squeeze->attribute("axes")->as_ints(), ElementsAre(1));
  EXPECT_THAT(only(fn, "Unsqueeze")->attribute("axes")->as_ints(), ElementsAre(1));

  const Function g = script("g", {"X"}, [](X435 X) { return opset9::Abs(X)[{Slice(1, 3), 0}]; });
  const ir::Function& gn = g.to_function();
  EXPECT_THAT(op_types(gn), ElementsAre("Abs", "Slice", "Squeeze"));
  const ir::Node* slice = only(gn, "Slice");
  EXPECT_THAT(slice->attribute("starts")->as_ints(), ElementsAre(1, 0));
  EXPECT_THAT(slice->attribute("ends")->as_ints(), ElementsAre(3, 1));
  EXPECT_THAT(slice->attribute("axes")->as_ints(), ElementsAre(0, 1));
  EXPECT_THAT(error_of([] {
                (void)script("h", {"X"}, [](X435 X) {
                  return opset9::Abs(X)[{Slice(std::nullopt, std::nullopt, -1)}];
                }).to_function();
              }),
              HasSubstr("slices with steps need opset 10"));
}

// The exported model passes the ONNX checker and strict shape inference.
TEST(IndexingTraced, ModelPassesTheChecker) {
  const Function f = script("f", {"X", "I"}, [](FLOAT<"N", 3, 5> X, INT64<"K"> I) {
    Value a = X[{Slice(std::nullopt, std::nullopt, -2), NewAxis, I, Slice(1, -1)}];
    Value b = X[{Ellipsis, 0, NewAxis}];
    Value c = X[{1, Slice(), Slice(std::nullopt, 3)}];
    return std::make_tuple(a, b, c);
  });
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("indexing_test_" + std::to_string(::getpid()) + ".onnx");
  f.save(path);
  const int rc = std::system(
      (std::string(ONNXSCRIPT_CLI) + " check " + path.string() + " > /dev/null").c_str());
  std::filesystem::remove(path);
  EXPECT_EQ(rc, 0) << f.to_text();
}

// ---- errors ----

TEST(IndexingErrors, TooManyIndices) {
  Value x = Value(arange({2, 3}));
  const std::string m = error_of([&] { (void)x[{0, 1, 2}]; });
  EXPECT_THAT(m, HasSubstr("too many indices: 3 for a value of rank 2"));
  EXPECT_THAT(m, HasSubstr("indexing_test.cc:"));
  EXPECT_THAT(error_of([&] { (void)x[{Slice(), Ellipsis, 0, 0}]; }), HasSubstr("too many indices"));
  EXPECT_THAT(error_of([] {
                (void)script("f", {"X"}, [](X435 X) { return X[{0, 0, 0, 0}]; }).to_function();
              }),
              HasSubstr("too many indices: 4 for a value of rank 3"));
}

TEST(IndexingErrors, ZeroStep) {
  Value x = Value(arange({5}));
  const int line = __LINE__ + 1;
  const std::string m = error_of([&] { (void)x[{Slice(0, 3, 0)}]; });
  EXPECT_THAT(m, HasSubstr("step 0"));
  EXPECT_THAT(m, HasSubstr("indexing_test.cc:" + std::to_string(line)));
}

TEST(IndexingErrors, OutOfRangeOnStaticDimension) {
  Value x = Value(arange({2, 3}));
  EXPECT_THAT(error_of([&] { (void)x[2]; }),
              HasSubstr("index 2 is out of range for axis 0 of size 2"));
  EXPECT_THAT(error_of([&] {
                (void)x[{Slice(), -4}];
              }),
              HasSubstr("index -4 is out of range for axis 1 of size 3"));
  const int line = __LINE__ + 2;
  const std::string m = error_of([] {
    (void)script("f", {"X"}, [](X435 X) { return X[{Ellipsis, 5}]; }).to_function();
  });
  EXPECT_THAT(m, HasSubstr("index 5 is out of range for axis 2 of size 5"));
  EXPECT_THAT(m, HasSubstr("indexing_test.cc:" + std::to_string(line)));
  // A symbolic dimension is not checked while tracing.
  EXPECT_NO_THROW((void)script("g", {"X"}, [](FLOAT<"N"> X) { return X[7]; }).to_function());
}

TEST(IndexingErrors, BadIndexCombinations) {
  Value x = Value(arange({2, 3, 4}));
  EXPECT_THAT(error_of([&] { (void)x[{Ellipsis, 0, Ellipsis}]; }), HasSubstr("single Ellipsis"));
  const Tensor i = Tensor::from<int64_t>({0, 1});
  EXPECT_THAT(error_of([&] { (void)x[{i, i}]; }), HasSubstr("broadcast together"));
  EXPECT_THAT(error_of([&] { (void)x[{i, Slice(), 0}]; }), HasSubstr("separated by a slice"));
  EXPECT_THAT(error_of([&] { (void)x[{Value(0.5)}]; }), HasSubstr("an index must be an integer"));
  EXPECT_THAT(error_of([] { (void)Value(1.5)[0]; }), HasSubstr("only tensors can be indexed"));
}

TEST(IndexingErrors, UnknownRankWhereItIsNeeded) {
  const std::string m = error_of([] {
    (void)script("f", {"X", "I"}, [](FLOAT<AnyRank> X, Value I) {
      return X[{I, NewAxis, Ellipsis}];
    }).to_function();
  });
  EXPECT_THAT(m, HasSubstr("cannot place NewAxis"));
  EXPECT_THAT(m, HasSubstr("indexing_test.cc:"));
}

}  // namespace
}  // namespace onnxscript
