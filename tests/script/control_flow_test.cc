// Control flow and nested graphs: If, for_range, while_loop and early exits,
// graph() bodies for Scan, Loop and SequenceMap, captures of outer values,
// functions inside subgraphs, sequences, and the error for a traced value
// used as a C++ bool. Each construct is pinned as golden text, passes the
// checker, and gives the same values traced (through a Session), eagerly,
// and as computed here.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "golden.h"
#include "onnxscript/onnxscript.h"
#include "script/script_test_util.h"

namespace onnxscript {
namespace {

namespace op = opset17;
using ::testing::HasSubstr;

void expect_valid(const Function& f) {
  SCOPED_TRACE(f.name() + ":\n" + f.to_text());
  testing::expect_checker_accepts(f.to_model());
}

std::vector<eval::RuntimeValue> run_model(const Function& f,
                                          const std::vector<eval::RuntimeValue>& inputs) {
  return eval::Session(f.to_model()).run(inputs);
}

// The function's outputs on `inputs`, eagerly, as runtime values.
std::vector<eval::RuntimeValue> run_eager(const Outputs& outputs) {
  std::vector<eval::RuntimeValue> values;
  for (const Value& v : outputs.values()) values.push_back(v.concrete());
  return values;
}

// Runs `f` on `inputs` through a Session on its model and eagerly, and
// expects both to give `expected` (compared as text, which is exact).
template <typename... Args>
void expect_both(const Function& f, const std::vector<std::string>& expected,
                 const Args&... inputs) {
  const std::vector<eval::RuntimeValue> session = run_model(f, {eval::RuntimeValue(inputs)...});
  const std::vector<eval::RuntimeValue> eager = run_eager(f(inputs...));
  ASSERT_EQ(session.size(), expected.size()) << f.name();
  ASSERT_EQ(eager.size(), expected.size()) << f.name();
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(eval::to_string(session[i]), expected[i])
        << f.name() << " output " << i << " (session)";
    EXPECT_EQ(eval::to_string(eager[i]), expected[i]) << f.name() << " output " << i << " (eager)";
  }
}

Tensor floats(std::initializer_list<float> v) { return Tensor::from<float>(v); }

// ---------------------------------------------------------------- If

// One output: the then branch computes, the else branch passes an outer value.
const Function DoubleIfPositive = script("DoubleIfPositive", {"X"}, [](FLOAT<"N"> X) {
  return If(
      op::ReduceMax(X, {.keepdims = 0}) > 0, [&] { return X * 2; }, [&] { return X; });
});

// Several outputs, and a literal that takes the other branch's element type.
const Function ReluAndCount = script("ReluAndCount", {"X"}, [](FLOAT<"N"> X) {
  auto [relu, count] = If(
      op::ReduceMax(X, {.keepdims = 0}) > 0,
      [&] {
        Value positive = op::Cast(X > 0, {.to = DataType::kInt64});
        return std::tuple{op::Relu(X), op::ReduceSum(positive, Value(), {.keepdims = 0})};
      },
      [&] {
        return std::tuple{X * 0, 0};
      });
  return std::tuple{relu, count};
});

TEST(If, OneAndSeveralOutputs) {
  expect_valid(DoubleIfPositive);
  expect_valid(ReluAndCount);
  expect_both(DoubleIfPositive, {"[-2.  4.  6.]"}, floats({-1, 2, 3}));
  expect_both(DoubleIfPositive, {"[-1. -2.]"}, floats({-1, -2}));
  expect_both(ReluAndCount, {"[0. 2. 3.]", "2"}, floats({-1, 2, 3}));
  expect_both(ReluAndCount, {"[-0. -0.]", "0"}, floats({-1, -2}));
  // The If node's output types come from the branches.
  const ir::Function& fn = ReluAndCount.to_function();
  EXPECT_EQ(fn.body().outputs()[0]->type(),
            ir::Type::tensor(DataType::kFloat, ir::Shape{ir::Dim("N")}));
  EXPECT_EQ(fn.body().outputs()[1]->type(), ir::Type::tensor(DataType::kInt64, ir::Shape{}));
}

TEST(Golden, IfWithOneAndSeveralOutputs) {
  testing::expect_golden("script/if", DoubleIfPositive.to_text() + "\n" + ReluAndCount.to_text());
}

const Function Gelu = script(
    "Gelu", {"X"}, [](Value X) { return X * 0.5 * (op::Erf(X * 0.7071067811865476) + 1.0); });
const Function TwoOutputs = script("TwoOutputs", {"X"}, [](Value X) { return std::tuple{X, X}; });

TEST(If, BranchesDisagreeingAtRunTimeNameTheLine) {
  // A Function call's output count is known only when it is traced.
  int line = 0;
  const Function f = script("mismatch", {"X"}, [&line](FLOAT<"N"> X) {
    line = __LINE__ + 1;
    return If(
        op::ReduceMax(X, {.keepdims = 0}) > 0, [&] { return TwoOutputs(X); },
        [&] { return Gelu(X); });
  });
  try {
    f.to_function();
    FAIL() << "expected ScriptError";
  } catch (const ScriptError& e) {
    EXPECT_THAT(e.what(), HasSubstr("then_branch returns 2 values but else_branch returns 1"));
    EXPECT_THAT(e.what(), HasSubstr(fmt::format("control_flow_test.cc:{}", line)));
  }
}

TEST(If, BranchesOfDifferentElementTypesAreRejected) {
  const Function f = script("types", {"X"}, [](FLOAT<"N"> X) {
    return If(
        op::ReduceMax(X, {.keepdims = 0}) > 0, [&] { return X; },
        [&] { return op::Cast(X, {.to = DataType::kInt64}); });
  });
  EXPECT_THAT([&] { f.to_function(); },
              ::testing::ThrowsMessage<ScriptError>(
                  HasSubstr("result 0 is float[N] in then_branch but int64[N] in else_branch")));
}

TEST(If, ConcreteConditionRunsOneBranch) {
  int then_calls = 0, else_calls = 0;
  const Value x = floats({1, 2});
  Value y = If(
      Tensor::scalar(false), [&] { return ++then_calls, x * 2; },
      [&] { return ++else_calls, x + 1; });
  EXPECT_EQ(eval::to_string(y.concrete()), "[2. 3.]");
  EXPECT_EQ(then_calls, 0);
  EXPECT_EQ(else_calls, 1);
  // A C++ bool is a condition known while tracing: no If node.
  const Function f = script("static_if", {"X"}, [](Value X) {
    return If(
        true, [&] { return X * 2; }, [&] { return X; });
  });
  EXPECT_EQ(f.to_function().body().last_node()->op_type(), "Mul");
}

// ---------------------------------------------------------------- loops

// for i in range(n): acc += X * i, scanning acc and 2 * acc.
const Function WeightedSums = script("WeightedSums", {"X", "n"}, [](FLOAT<"N"> X, INT64<> n) {
  auto [total, partial] = for_range(n, {X * 0}, [&](Value i, Value acc) {
    Value next = acc + X * op::Cast(i, {.to = DataType::kFloat});
    return std::tuple{next, next * 2};
  });
  return std::tuple{total, partial};
});

// while v < 100: v *= 2, counting the steps and scanning v.
const Function Doubling = script("Doubling", {"x"}, [](FLOAT<> x) {
  auto [last, steps, values] = while_loop(x < 100, {x, 0}, [](Value v, Value k) {
    Value w = v * 2;
    return std::tuple{continue_while(w < 100), w, k + 1, w};
  });
  return std::tuple{last, steps, values};
});

// for i in range(len(X)): acc += X[i]; if acc > limit: break
const Function SumUntil = script("SumUntil", {"X", "limit"}, [](FLOAT<"N"> X, FLOAT<> limit) {
  auto [total, seen] = for_range(op::Size(X), {0.0f}, [&](Value i, Value acc) {
    Value next = acc + op::Gather(X, i);
    return std::tuple{break_if(next > limit), next, i};
  });
  return std::tuple{total, seen};
});

TEST(Loops, ForWhileAndEarlyExit) {
  for (const Function* f : {&WeightedSums, &Doubling, &SumUntil}) expect_valid(*f);
  expect_both(WeightedSums, {"[3. 6.]", "[[ 0.  0.]\n [ 2.  4.]\n [ 6. 12.]]"}, floats({1, 2}),
              Tensor::scalar<int64_t>(3));
  expect_both(Doubling, {"192.", "6", "[  6.  12.  24.  48.  96. 192.]"}, Tensor::scalar(3.0f));
  expect_both(SumUntil, {"6.", "[0 1 2]"}, floats({1, 2, 3, 4, 5}), Tensor::scalar(4.0f));
  // Never over the limit: every element is visited.
  expect_both(SumUntil, {"15.", "[0 1 2 3 4]"}, floats({1, 2, 3, 4, 5}), Tensor::scalar(100.0f));
}

TEST(Loops, ZeroIterations) {
  expect_both(WeightedSums, {"[0. 0.]", "[]"}, floats({1, 2}), Tensor::scalar<int64_t>(0));
}

// A loop that runs no iteration scans nothing, yet its scan outputs keep the
// element type the body gives them: `seen` scans the int64 iteration number.
// Eager mode returned an empty float tensor, the Session an int64 one.
TEST(Loops, ZeroIterationsKeepTheScanOutputsElementTypeInBothModes) {
  const Tensor empty = floats({});
  const auto [total, seen] = SumUntil(empty, Tensor::scalar(4.0f)).as<2>();
  EXPECT_EQ(seen.tensor().dtype(), DataType::kInt64);
  EXPECT_EQ(seen.tensor().shape(), (std::vector<int64_t>{0}));
  ir::Model model = SumUntil.to_model();
  const std::vector<eval::RuntimeValue> exported =
      eval::Session(std::move(model)).run({empty, Tensor::scalar(4.0f)});
  EXPECT_EQ(exported.at(1).tensor().dtype(), DataType::kInt64);
  // The scan of a float value stays float, shaped [0, element shape].
  const auto [w_total, w_partial] =
      WeightedSums(floats({1, 2}), Tensor::scalar<int64_t>(0)).as<2>();
  EXPECT_EQ(w_partial.tensor().dtype(), DataType::kFloat);
  EXPECT_EQ(w_partial.tensor().shape(), (std::vector<int64_t>{0, 2}));
}

TEST(Golden, ForWhileAndEarlyExitLoops) {
  testing::expect_golden("script/loops", WeightedSums.to_text() + "\n" + Doubling.to_text() + "\n" +
                                             SumUntil.to_text());
}

TEST(Loops, BodyArityIsChecked) {
  const Function f = script("arity", {"X"}, [](Value X) {
    return for_range(3, {X, X}, [](Value i, Value a) { return std::tuple{a + i, a}; });
  });
  EXPECT_THAT([&] { f.to_function(); },
              ::testing::ThrowsMessage<ScriptError>(HasSubstr(
                  "for_range: the body takes 2 parameters, but the loop carries 2 values")));
}

TEST(Loops, CarriedTypeMustStay) {
  const Function f = script("retype", {"X"}, [](FLOAT<"N"> X) {
    return for_range(3, {X}, [](Value, Value a) { return op::Cast(a, {.to = DataType::kInt64}); });
  });
  EXPECT_THAT([&] { f.to_function(); }, ::testing::ThrowsMessage<ScriptError>(
                                            HasSubstr("carried value 0 starts as float[N]")));
}

// ---------------------------------------------------------------- Scan, SequenceMap

// Two states (sum, product), two scan inputs, two scan outputs.
const Function RunningStats = script("RunningStats", {"A", "B"}, [](FLOAT<"N"> A, FLOAT<"N"> B) {
  const Graph step =
      graph("step", {"s", "p", "a", "b"}, [](FLOAT<> s, FLOAT<> p, FLOAT<> a, FLOAT<> b) {
        Value s2 = s + a;
        Value p2 = p * b;
        return std::tuple{s2, p2, s2 - p2, a * b};
      });
  auto [sum, product, difference, ab] =
      unpack<4>(op::Scan({Value(0.0f), Value(1.0f), A, B}, {.body = step, .num_scan_inputs = 2}));
  return std::tuple{sum, product, difference, ab};
});

// Scanned from the end, and written back from the end: suffix sums.
const Function SuffixSums = script("SuffixSums", {"X"}, [](FLOAT<"N"> X) {
  const Graph add = graph("add", {"acc", "x"}, [](FLOAT<> acc, FLOAT<> x) {
    Value next = acc + x;
    return std::tuple{next, next};
  });
  return op::Scan({Value(0.0f), X}, {.body = add,
                                     .num_scan_inputs = 1,
                                     .scan_input_directions = {1},
                                     .scan_output_directions = {1}})[1];
});

// The lengths of the pieces of a sequence, and each piece scaled.
const Function PieceLengths =
    script("PieceLengths", {"X", "scale"}, [](FLOAT<"N"> X, FLOAT<> scale) {
      Value pieces = op::SplitToSequence(X, op::Constant({.value_ints = {1, 2, 3}}));
      const Graph each = graph("each", {"piece", "k"}, [](FLOAT<"?"> piece, FLOAT<> k) {
        return std::tuple{op::Shape(piece), piece * k};
      });
      auto [lengths, scaled] = unpack<2>(op::SequenceMap(pieces, {scale}, {.body = each}));
      return std::tuple{op::ConcatFromSequence(lengths, {.axis = 0}),
                        op::ConcatFromSequence(scaled, {.axis = 0})};
    });

TEST(Scan, SeveralStatesAndScanOutputs) {
  expect_valid(RunningStats);
  expect_both(RunningStats, {"6.", "24.", "[ -1.  -3. -18.]", "[ 2.  6. 12.]"}, floats({1, 2, 3}),
              floats({2, 3, 4}));
  // Scan outputs are typed from the body, with the scan length in front.
  EXPECT_EQ(RunningStats.to_function().body().outputs()[2]->type()->to_string(), "float[N]");
}

TEST(Scan, ReversedDirections) {
  expect_valid(SuffixSums);
  expect_both(SuffixSums, {"[6. 5. 3.]"}, floats({1, 2, 3}));
}

TEST(SequenceMap, MapsABodyOverPieces) {
  expect_valid(PieceLengths);
  expect_both(PieceLengths, {"[1 2 3]", "[ 2.  4.  6.  8. 10. 12.]"}, floats({1, 2, 3, 4, 5, 6}),
              Tensor::scalar(2.0f));
}

TEST(Golden, ScanAndSequenceMap) {
  testing::expect_golden(
      "script/scan_and_sequence_map",
      RunningStats.to_text() + "\n" + SuffixSums.to_text() + "\n" + PieceLengths.to_text());
}

// graph() bodies for the generated op::Loop and op::If: the output counts
// follow the bodies (Loop: all but the condition).
const Function LoopAndIfFromGraphs = script("LoopAndIfFromGraphs", {"X"}, [](FLOAT<"N"> X) {
  const Graph body =
      graph("body", {"i", "keep_going", "acc"}, [](INT64<> i, BOOL<> keep_going, FLOAT<"?"> acc) {
        Value next = acc + op::Cast(i, {.to = DataType::kFloat});
        return std::tuple{keep_going, next, op::ReduceSum(next, Value(), {.keepdims = 0})};
      });
  auto [last, sums] = unpack<2>(op::Loop(Value(int64_t{3}), Value(), {X}, {.body = body}));
  const Graph positive = graph("positive", {}, [&] { return last; });
  const Graph negative = graph("negative", {}, [&] { return -last; });
  Value chosen = op::If(op::ReduceMax(sums, {.keepdims = 0}) > 0,
                        {.else_branch = negative, .then_branch = positive})[0];
  return std::tuple{chosen, sums};
});

TEST(GraphBodies, GeneratedLoopAndIfTakeGraphs) {
  expect_valid(LoopAndIfFromGraphs);
  // acc: X, X+0, X+1, X+3 -> [4 5]; sums of the steps: 3, 5, 9.
  expect_both(LoopAndIfFromGraphs, {"[4. 5.]", "[3. 5. 9.]"}, floats({1, 2}));
  expect_both(LoopAndIfFromGraphs, {"[2. 3.]", "[-11.  -9.  -5.]"}, floats({-5, -6}));
}

// ---------------------------------------------------------------- nesting

// An If inside a loop body reads the loop's carried value (one level up) and
// the function's values (two levels up).
const Function NestedCaptures = script("NestedCaptures", {"X", "n"}, [](FLOAT<"N"> X, INT64<> n) {
  Value bias = X * 0.5;
  return for_range(n, {X}, [&](Value i, Value acc) {
    return If(
        i > 0, [&] { return acc + bias; }, [&] { return acc - X; });
  });
});

TEST(Nesting, CapturesTwoLevelsDeep) {
  expect_valid(NestedCaptures);
  expect_both(NestedCaptures, {"[2. 4.]"}, floats({2, 4}), Tensor::scalar<int64_t>(3));
  // The If node inside the loop body takes `bias` and `X` of the function
  // body directly, not copies.
  const ir::Graph& body = NestedCaptures.to_function().body();
  const ir::Node* loop = body.last_node();
  ASSERT_EQ(loop->op_type(), "Loop");
  const ir::Graph& loop_body = *loop->attribute("body")->as_graph();
  const ir::Node* if_node = nullptr;
  for (const ir::Node* n : loop_body.nodes())
    if (n->op_type() == "If") if_node = n;
  ASSERT_NE(if_node, nullptr);
  const ir::Graph& then_branch = *if_node->attribute("then_branch")->as_graph();
  EXPECT_EQ(then_branch.first_node()->input(1)->graph(), &body);
}

TEST(Golden, CapturesTwoLevelsDeep) {
  testing::expect_golden("script/nested_captures", NestedCaptures.to_text());
}

const Function Square = script("Square", {"X"}, [](Value X) { return X * X; });

// A function called inside an If inside a loop, inside a function that a
// model calls: the model keeps both functions.
const Function SquareSteps = script("SquareSteps", {"X"}, [](Value X) {
  return for_range(2, {X}, [&](Value i, Value acc) {
    return If(
        i > 0, [&] { return Square(acc); }, [&] { return acc + 1; });
  });
});
// (libonnx 1.12 cannot infer through a function whose loop calls another
// function, so the model declares its output type.)
const Function CallsSquareSteps = script(
    "CallsSquareSteps", {"X"}, [](FLOAT<"N"> X) -> FLOAT<"N"> { return SquareSteps(X); });

// A graph built at namespace scope, calling a function: each use is a fresh
// copy with fresh names, and the function comes along.
const Graph kAccumulateSquares =
    graph("accumulate_squares", {"acc", "x"}, [](FLOAT<> acc, FLOAT<> x) {
      Value next = acc + Square(x);
      return std::tuple{next, next};
    });
const Function TwoScans = script("TwoScans", {"X"}, [](FLOAT<"N"> X) {
  Value first = op::Scan({Value(0.0f), X}, {.body = kAccumulateSquares, .num_scan_inputs = 1})[1];
  Value second =
      op::Scan({Value(0.0f), first}, {.body = kAccumulateSquares, .num_scan_inputs = 1})[1];
  return second;
});

TEST(Nesting, FunctionsInsideSubgraphsAreKept) {
  const ir::Model model = CallsSquareSteps.to_model();
  ASSERT_EQ(model.functions().size(), 2u);
  EXPECT_EQ(model.functions()[0]->name, "SquareSteps");
  EXPECT_EQ(model.functions()[1]->name, "Square");
  expect_valid(CallsSquareSteps);
  // (x + 1)^2
  expect_both(CallsSquareSteps, {"[ 4.  9. 16.]"}, floats({1, 2, 3}));
}

TEST(Nesting, NamespaceScopeGraphIsCopiedIntoEachUse) {
  const ir::Model model = TwoScans.to_model();
  ASSERT_EQ(model.functions().size(), 1u);
  EXPECT_EQ(model.functions()[0]->name, "Square");
  expect_valid(TwoScans);
  // first = [1, 5, 14]; second = cumulative sums of its squares.
  expect_both(TwoScans, {"[  1.  26. 222.]"}, floats({1, 2, 3}));
  // Eagerly, Scan runs the namespace-scope graph (and Square) through the evaluator.
  const Tensor direct = op::Scan({Value(0.0f), Value(floats({1, 2, 3}))},
                                 {.body = kAccumulateSquares, .num_scan_inputs = 1})[1]
                            .tensor();
  EXPECT_EQ(eval::to_string(direct), "[ 1.  5. 14.]");
}

// A graph copied into a use keeps what the tracer never sets itself but a
// user may, on the graph's IR: device configurations, unknown fields, and
// quantization annotations, whose names follow the copy's renaming.
TEST(Nesting, AGraphCopiedIntoAUseKeepsEveryField) {
  const Graph body = graph("running_sum", {"acc", "x"}, [](FLOAT<> acc, FLOAT<> x) {
    Value next = acc + x;
    return std::tuple{next, next};
  });
  ir::Graph& original = *body.ir_graph();
  ir::Node* add = original.first_node();
  ASSERT_NE(add, nullptr);
  const std::string unknown("\xa0\x06\x01", 3);  // field 100, varint 1
  add->mutable_device_configurations().push_back("pipeline");
  add->set_unknown_fields(unknown);
  add->output(0)->set_unknown_fields(unknown);
  original.unknown_fields = unknown;
  original.quantization_annotation.push_back(
      {add->output(0)->name(), {{"SCALE_TENSOR", original.inputs()[1]->name()}}});

  const Function f = script("UsesRunningSum", {"X"}, [&](FLOAT<"N"> X) {
    return op::Scan({Value(0.0f), X}, {.body = body, .num_scan_inputs = 1})[1];
  });
  const ir::Model model = f.to_model();
  const ir::Node* scan = model.graph().last_node();
  ASSERT_EQ(scan->op_type(), "Scan");
  const ir::Graph& copy = *scan->attribute("body")->as_graph();
  const ir::Node* add_copy = copy.first_node();
  EXPECT_EQ(add_copy->device_configurations(), std::vector<std::string>{"pipeline"});
  EXPECT_EQ(add_copy->unknown_fields(), unknown);
  EXPECT_EQ(add_copy->output(0)->unknown_fields(), unknown);
  EXPECT_EQ(copy.unknown_fields, unknown);
  ASSERT_EQ(copy.quantization_annotation.size(), 1u);
  const ir::QuantizationAnnotation& qa = copy.quantization_annotation[0];
  // The copy's values have fresh names; the annotation names them.
  EXPECT_NE(add_copy->output(0)->name(), add->output(0)->name());
  EXPECT_EQ(qa.tensor_name, add_copy->output(0)->name());
  ASSERT_EQ(qa.quant_parameter_tensor_names.size(), 1u);
  EXPECT_EQ(qa.quant_parameter_tensor_names[0].first, "SCALE_TENSOR");
  EXPECT_EQ(qa.quant_parameter_tensor_names[0].second, copy.inputs()[1]->name());
  EXPECT_NE(copy.inputs()[1]->name(), original.inputs()[1]->name());
}

TEST(Golden, FunctionsInsideSubgraphs) {
  testing::expect_golden("script/functions_in_subgraphs",
                         CallsSquareSteps.to_text() + "\n" + TwoScans.to_text());
}

// ---------------------------------------------------------------- sequences and optionals

const Function MakeSequence = script(
    "MakeSequence", {"A", "B"}, [](FLOAT<"N"> A, FLOAT<"N"> B) -> SEQUENCE<FLOAT<"N">> {
      return op::SequenceConstruct({A, B, A + B});
    });
const Function PickFromSequence =
    script("PickFromSequence", {"S", "i"},
           [](SEQUENCE<FLOAT<"N">> S, INT64<> i) { return op::SequenceAt(S, i); });
const Function WrapOptional = script(
    "WrapOptional", {"X"}, [](FLOAT<"N"> X) -> OPTIONAL<FLOAT<"N">> { return op::Optional(X); });
const Function UnwrapOptional = script("UnwrapOptional", {"O"}, [](OPTIONAL<FLOAT<"N">> O) {
  return std::tuple{op::OptionalHasElement(O), op::OptionalGetElement(O)};
});

TEST(Sequences, AsOutputsAndInputsOfModelsAndFunctionsBothWays) {
  for (const Function* f : {&MakeSequence, &PickFromSequence, &WrapOptional, &UnwrapOptional})
    expect_valid(*f);
  // Eager: a function returning a sequence.
  const eval::RuntimeValue seq = MakeSequence(floats({1, 2}), floats({10, 20}));
  ASSERT_TRUE(seq.is_sequence());
  EXPECT_EQ(eval::to_string(seq), "[[1. 2.], [10. 20.], [11. 22.]]");
  // The same through the model, and the sequence passed back into another.
  const auto from_model = run_model(MakeSequence, {floats({1, 2}), floats({10, 20})});
  EXPECT_EQ(eval::to_string(from_model.at(0)), eval::to_string(seq));
  EXPECT_EQ(eval::to_string(run_model(PickFromSequence, {seq, Tensor::scalar<int64_t>(2)}).at(0)),
            "[11. 22.]");
  EXPECT_EQ(eval::to_string(
                PickFromSequence(seq, Tensor::scalar<int64_t>(-1)).operator Value().concrete()),
            "[11. 22.]");
  // Optionals, the same way.
  const eval::RuntimeValue opt = WrapOptional(floats({3}));
  ASSERT_TRUE(opt.is_optional());
  const auto unwrapped = run_eager(UnwrapOptional(opt));
  EXPECT_EQ(eval::to_string(unwrapped[0]), "True");
  EXPECT_EQ(eval::to_string(unwrapped[1]), "[3.]");
  EXPECT_EQ(eval::to_string(run_model(UnwrapOptional, {opt}).at(1)), "[3.]");
  EXPECT_EQ(MakeSequence.to_model().graph().outputs()[0]->type()->to_string(), "seq(float[N])");
}

TEST(Golden, Sequences) {
  testing::expect_golden("script/sequences",
                         MakeSequence.to_text() + "\n" + PickFromSequence.to_text() + "\n" +
                             WrapOptional.to_text() + "\n" + UnwrapOptional.to_text());
}

// ---------------------------------------------------------------- traced values as C++ bools

std::string trace_error(const Function& f) {
  try {
    f.to_function();
  } catch (const ScriptError& e) {
    return e.what();
  }
  return "no error";
}

TEST(TracedBool, IfOnATracedValueNamesTheLineThatProducedIt) {
  int line = 0;
  const Function f = script("cpp_if", {"X"}, [&line](FLOAT<"N"> X) -> Value {
    Value positive = op::ReduceMax(X, {.keepdims = 0}) > 0;
    line = __LINE__ - 1;
    if (positive) return X * 2;
    return X;
  });
  try {
    f.to_function();
    FAIL() << "expected ScriptError";
  } catch (const ScriptError& e) {
    EXPECT_THAT(e.what(), HasSubstr(fmt::format("the value produced at {}:{}", __FILE__, line)));
    EXPECT_THAT(e.what(), HasSubstr("is used as a C++ bool"));
    EXPECT_THAT(e.what(),
                HasSubstr("use If(cond, then, else), for_range/while_loop, or op::Where"));
  }
}

TEST(TracedBool, WhileAndLogicalOperatorsToo) {
  int line = 0;
  const Function with_while = script("cpp_while", {"X"}, [&line](FLOAT<"N"> X) {
    Value y = X;
    line = __LINE__ + 1;
    while (op::ReduceSum(y, Value(), {.keepdims = 0}) < 10) y = y * 2;
    return y;
  });
  std::string message = trace_error(with_while);
  EXPECT_THAT(message, HasSubstr(fmt::format("{}:{}", __FILE__, line)));
  const Function with_and = script("cpp_and", {"A", "B"}, [&line](BOOL<> A, BOOL<> B) {
    line = __LINE__ + 1;
    Value both = (A | B) && B ? A : B;
    return both;
  });
  message = trace_error(with_and);
  EXPECT_THAT(message, HasSubstr(fmt::format("{}:{}", __FILE__, line)));
  // A graph input has no line of its own: its name is given.
  const Function on_input =
      script("cpp_input", {"flag"}, [](BOOL<> flag) { return flag ? Value(1.0f) : Value(2.0f); });
  EXPECT_THAT(trace_error(on_input), HasSubstr("the graph input 'flag' is used as a C++ bool"));
}

TEST(TracedBool, ConcreteValuesAndCppValuesConvertNormally) {
  EXPECT_TRUE(Value(Tensor::scalar(true)));
  // (Not EXPECT_FALSE: its `!` would be the Not operator.)
  EXPECT_EQ(static_cast<bool>(Value(Tensor::scalar(false))), false);
  EXPECT_TRUE(Value(floats({1})) > 0.5f);
  EXPECT_EQ(static_cast<bool>(Value()), false);
  EXPECT_THROW((void)static_cast<bool>(Value(floats({1, 2}))),
               ScriptError);  // ambiguous truth value
  // Eagerly a data-dependent C++ `if` is fine: the value is known.
  const Function f = script("eager_if", {"X"}, [](Value X) {
    if (op::ReduceMax(X, {.keepdims = 0}) > 0) return X * 2;
    return X;
  });
  EXPECT_EQ(eval::to_string(f(floats({1, 2})).operator Value().concrete()), "[2. 4.]");
  // C++ control flow on C++ values keeps working while tracing: unrolled.
  const Function unrolled = script("unrolled", {"X"}, [](Value X) {
    for (int i = 0; i < 3; ++i) {
      if (i % 2 == 0) X = X + 1;
    }
    return X;
  });
  // Two iterations add 1: a Constant, a CastLike (X is untyped) and an Add each.
  EXPECT_EQ(unrolled.to_function().body().num_nodes(), 6u);
}

}  // namespace
}  // namespace onnxscript
