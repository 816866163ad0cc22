// Authoring: operator overloads, literals, inference while building, names,
// attribute references, errors that carry the user's line, eager runs.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "error_message.h"
#include "onnxscript/onnxscript.h"
#include "script/script_test_util.h"

namespace onnxscript {
namespace {

namespace op = opset17;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

using testing::op_types;

// The message of the ScriptError that `f` throws; fails the test (and
// returns "") when it throws none.
template <typename F>
std::string script_error_of(F&& f) {
  return testing::message_of<ScriptError>(std::forward<F>(f));
}

// "authoring_test.cc:<line>", as errors name the user's line.
std::string this_file_at(int line) { return "authoring_test.cc:" + std::to_string(line); }

// The node that produces graph output `i`.
const ir::Node& output_node(const Function& f, size_t i = 0) {
  return *f.to_function().body().outputs().at(i)->producer();
}

TEST(Operators, EachOverloadRecordsItsOperator) {
  const Function f = script("f", {"A", "B"}, [](FLOAT<"N"> A, FLOAT<"N"> B) {
    // One statement each: the order of function arguments is unspecified.
    Value add = A + B, sub = A - B, mul = A * B, div = A / B, mod = A % B, neg = -A;
    Value lt = A<B, le = A <= B, gt = A> B, ge = A >= B, eq = equal(A, B);
    return std::make_tuple(add, sub, mul, div, mod, neg, lt, le, gt, ge, eq);
  });
  const ir::Graph& body = f.to_function().body();
  EXPECT_THAT(op_types(body), ElementsAre("Add", "Sub", "Mul", "Div", "Mod", "Neg", "Less",
                                          "LessOrEqual", "Greater", "GreaterOrEqual", "Equal"));
  // Floating point Mod needs fmod = 1; ONNX rejects fmod = 0 for floats.
  const ir::Attribute* fmod = output_node(f, 4).attribute("fmod");
  ASSERT_NE(fmod, nullptr);
  EXPECT_EQ(fmod->as_int(), 1);
}

TEST(Operators, IntegerModKeepsIntegerSemantics) {
  const Function f = script("f", {"A", "B"}, [](INT64<"N"> A, INT64<"N"> B) { return A % B; });
  EXPECT_EQ(output_node(f).attribute("fmod"), nullptr);
}

TEST(Operators, LogicalOperatorsOnBooleans) {
  const Function f = script("f", {"A", "B"}, [](BOOL<"N"> A, BOOL<"N"> B) {
    Value a = A & B, o = A | B, x = A ^ B, n = !A, t = ~A, ne = not_equal(A, B);
    return std::make_tuple(a, o, x, n, t, ne);
  });
  EXPECT_THAT(op_types(f.to_function().body()),
              ElementsAre("And", "Or", "Xor", "Not", "Not", "Equal", "Not"));
}

TEST(Operators, BitwiseOnIntegersIsReportedUntilOpset18) {
  const Function f = script("f", {"A", "B"}, [](INT32<"N"> A, INT32<"N"> B) { return A & B; });
  EXPECT_THAT(script_error_of([&] { f.to_function(); }), HasSubstr("BitwiseAnd"));
}

TEST(Literals, TakeTheElementTypeOfTheValueBeside) {
  const Function f = script("f", {"X"}, [](FLOAT16<"N"> X) { return X * 0.5; });
  const ir::Graph& body = f.to_function().body();
  // Known element type: the constant is made float16 directly, no CastLike.
  EXPECT_THAT(op_types(body), ElementsAre("Constant", "Mul"));
  const ir::Node* constant = *body.nodes().begin();
  EXPECT_EQ(constant->attribute("value")->as_tensor().dtype(), DataType::kFloat16);
  EXPECT_EQ(body.outputs()[0]->type()->to_string(), "float16[N]");
}

TEST(Literals, FollowAnUntypedValueThroughCastLike) {
  const Function f = script("f", {"X"}, [](Value X) { return X + 1; });
  EXPECT_THAT(op_types(f.to_function().body()), ElementsAre("Constant", "CastLike", "Add"));
}

TEST(Inference, ValuesKnowTheirTypeWhileTheGraphGrows) {
  std::string seen;
  const Function f = script("f", {"A", "W"}, [&](FLOAT<"N", "M"> A, FLOAT<"M", 3> W) {
    Value y = op::MatMul(A, W);
    seen = y.describe();
    return op::Transpose(y, {.perm = {1, 0}});
  });
  f.to_function();
  EXPECT_THAT(seen, HasSubstr("float[N,3]"));
  EXPECT_EQ(f.to_function().body().outputs()[0]->type()->to_string(), "float[3,N]");
}

TEST(Inference, ReshapeReadsItsConstantShape) {
  const Function f = script("f", {"X"}, [](FLOAT<2, 6> X) {
    return op::Reshape(X, Tensor::from<int64_t>({3, -1}));
  });
  EXPECT_EQ(f.to_function().body().outputs()[0]->type()->to_string(), "float[3,4]");
}

// Inference results are memoized by signature (script/inference_memo.h).
// A rule that reads a constant input's data must not be answered from the
// memo: two Reshapes with the same input types but different shape data
// must get different output shapes, in either order.
TEST(Inference, MemoNeverReusesAResultThatReadConstantData) {
  const Function f = script("f", {"X"}, [](FLOAT<2, 6> X) {
    Value a = op::Reshape(X, Tensor::from<int64_t>({3, -1}));
    Value b = op::Reshape(X, Tensor::from<int64_t>({4, -1}));
    Value c = op::Reshape(X, Tensor::from<int64_t>({3, -1}));
    return op::Concat(
        {op::Flatten(a, {.axis = 0}), op::Flatten(b, {.axis = 0}), op::Flatten(c, {.axis = 0})},
        {.axis = 1});
  });
  std::vector<std::string> reshaped;
  for (const ir::Node* n : f.to_function().body().nodes())
    if (n->op_type() == "Reshape") reshaped.push_back(n->output(0)->type()->to_string());
  EXPECT_THAT(reshaped, ElementsAre("float[3,4]", "float[4,3]", "float[3,4]"));
}

// A repeated signature is answered from the memo, and the answer is the
// rule's: each link of a chain gets the full type, and a change of input
// shape or attribute is a new signature.
TEST(Inference, MemoAnswersRepeatedSignaturesWithTheRulesResult) {
  const Function f = script("f", {"X", "Y"}, [](FLOAT<2, 3> X, FLOAT<5, 7> Y) {
    Value x = X, y = Y;
    for (int i = 0; i < 3; ++i) {
      x = op::Transpose(op::Relu(x), {.perm = {1, 0}});
      y = op::Transpose(op::Relu(y), {.perm = {1, 0}});
    }
    return op::Concat({op::Flatten(x, {.axis = 0}), op::Flatten(y, {.axis = 0})}, {.axis = 1});
  });
  std::vector<std::string> transposed;
  for (const ir::Node* n : f.to_function().body().nodes())
    if (n->op_type() == "Transpose") transposed.push_back(n->output(0)->type()->to_string());
  EXPECT_THAT(transposed, ElementsAre("float[3,2]", "float[7,5]", "float[2,3]", "float[5,7]",
                                      "float[3,2]", "float[7,5]"));
  EXPECT_EQ(f.to_function().body().outputs()[0]->type()->to_string(), "float[1,41]");
}

TEST(Inference, CanBeTurnedOff) {
  ScopedTraceOptions options({.infer_types = false});
  const Function f =
      script("f", {"A", "W"}, [](FLOAT<"N", "M"> A, FLOAT<"M", 3> W) { return op::MatMul(A, W); });
  const ir::Graph& body = f.to_function().body();
  EXPECT_FALSE((*body.nodes().begin())->output(0)->type().has_value());
}

TEST(Errors, ShapeConflictNamesOperatorTypesAndUserLine) {
  const Function f = script("f", {"A", "B"}, [](FLOAT<2, 3> A, FLOAT<4, 5> B) {
    return op::MatMul(A, B);  // line checked below
  });
  const int line = __LINE__ - 2;
  const std::string message = script_error_of([&] { f.to_function(); });
  EXPECT_THAT(message, HasSubstr("MatMul"));
  EXPECT_THAT(message, HasSubstr("float[2,3]"));
  EXPECT_THAT(message, HasSubstr("float[4,5]"));
  EXPECT_THAT(message, HasSubstr(this_file_at(line)));
}

TEST(Errors, DynamicTypeOutsideConstraintNamesInputAndAllowedTypes) {
  const Function f = script("f", {"S"}, [](Value S) {
    Value s = op::Cast(S, {.to = DataType::kString});
    return op::Erf(s);
  });
  const int line = __LINE__ - 2;
  const std::string message = script_error_of([&] { f.to_function(); });
  EXPECT_THAT(message, HasSubstr("Erf"));
  EXPECT_THAT(message, HasSubstr("tensor(string)"));
  EXPECT_THAT(message, HasSubstr("tensor(float)"));
  EXPECT_THAT(message, HasSubstr(this_file_at(line)));
}

TEST(Errors, EagerKernelFailureCarriesUserLine) {
  const Tensor a = Tensor::from<float>({1, 2, 3});
  const Tensor b = Tensor::from<float>({1, 2});
  const int line = __LINE__ + 1;
  const std::string message = script_error_of([&] { op::Add(a, b).tensor(); });
  EXPECT_THAT(message, HasSubstr(this_file_at(line)));
}

TEST(SourceLocations, RecordedAsNodeMetadataOnRequest) {
  ScopedTraceOptions options({.record_source_locations = true});
  const int line = __LINE__ + 1;
  const Function f = script("f", {"X"}, [](FLOAT<"N"> X) { return op::Relu(X); });
  const ir::Node& relu = output_node(f);
  ASSERT_EQ(relu.metadata_props().size(), 1u);
  EXPECT_EQ(relu.metadata_props()[0].first, "onnxscript.source");
  EXPECT_THAT(relu.metadata_props()[0].second, HasSubstr(this_file_at(line)));
}

// A function body cannot hold initializers: each becomes a Constant node
// after tracing, both for to_function() and for a model's copy of a callee,
// and that node carries the line of the initializer() call.
TEST(SourceLocations, AnInitializerMadeIntoAConstantKeepsItsLine) {
  ScopedTraceOptions options({.record_source_locations = true});
  const int line = __LINE__ + 2;
  const Function scaled = script("scaled", {"X"}, [](FLOAT<3> X) {
    return X * initializer(Tensor::from<float>({1, 2, 3}), "scale");
  });
  const Function caller = script("caller", {"X"}, [&](FLOAT<3> X) { return scaled(X); });
  const ir::Model model = caller.to_model();
  ASSERT_EQ(model.functions().size(), 1u);
  const ir::Graph* bodies[] = {&scaled.to_function().body(), &model.functions()[0]->body()};
  for (const ir::Graph* body : bodies) {
    const ir::Node* constant = body->first_node();
    ASSERT_NE(constant, nullptr);
    ASSERT_EQ(constant->op_type(), "Constant");
    EXPECT_EQ(constant->origin.line(), static_cast<uint_least32_t>(line));
    ASSERT_EQ(constant->metadata_props().size(), 1u);
    EXPECT_THAT(constant->metadata_props()[0].second, HasSubstr(this_file_at(line)));
  }
}

// Operator calls, the constants of literals, function calls and control flow
// (with the nodes of its branches) each append nodes by their own path; every
// one of them must carry the line.
TEST(SourceLocations, EveryWayOfAppendingANodeRecordsTheLine) {
  ScopedTraceOptions options({.record_source_locations = true});
  const Function inner = script("inner", {"X"}, [](Value X) { return op::Relu(X); });
  const int if_line = __LINE__ + 2;
  const Function outer = script("outer", {"X"}, [&](FLOAT<"N"> X) {
    return If(
        op::ReduceMax(X) > 0, [&] { return inner(X) * 2; }, [&] { return X; });
  });
  const ir::Model model = outer.to_model();
  std::vector<const ir::Node*> nodes;
  const auto collect = [&](const ir::Graph& g, const auto& self) -> void {
    for (const ir::Node* n : g.nodes()) {
      nodes.push_back(n);
      for (const ir::Graph* sub : n->subgraphs()) self(*sub, self);
    }
  };
  collect(model.graph(), collect);
  std::set<std::string> op_types;
  for (const ir::Node* n : nodes) {
    op_types.insert(n->op_type());
    ASSERT_EQ(n->metadata_props().size(), 1u) << n->op_type();
    EXPECT_EQ(n->metadata_props()[0].first, "onnxscript.source");
    // If (and the Identity its else branch needs) is where If( is; the rest
    // come from its arguments, a line below.
    const bool from_if = n->op_type() == "If" || n->op_type() == "Identity";
    EXPECT_THAT(n->metadata_props()[0].second,
                HasSubstr(this_file_at(from_if ? if_line : if_line + 1)))
        << n->op_type();
  }
  // ReduceMax, the constant 0 and Greater; If; in the branch the call, the
  // constant 2 and Mul; Identity passes X through the other branch.
  EXPECT_THAT(op_types,
              ::testing::IsSupersetOf({"ReduceMax", "Constant", "Greater", "If", "inner", "Mul"}));
}

TEST(Tracing, TensorsPassedToOperatorsAreNotKeptAfterTheTrace) {
  const Tensor w = Tensor::from<float>({1, 2, 3});
  const long before = w.storage().use_count();
  {
    const Function f = script("f", {"X"}, [&](FLOAT<3> X) { return op::Add(op::Mul(X, w), w); });
    const ir::Model model = f.to_model();
    EXPECT_EQ(model.graph().num_nodes(), 4u);  // two Constants, Mul, Add
  }
  // The model is gone, and so is every copy the trace made: each operator
  // call turned `w` into a concrete value before its Constant copied it.
  EXPECT_EQ(w.storage().use_count(), before);
}

TEST(ConcreteValues, ShareTheirTensorAndReleaseItWithTheLastHandle) {
  const Tensor w = Tensor::from<float>({1, 2, 3, 4});
  const long before = w.storage().use_count();
  {
    const Value a = w;
    Value b = a;  // another handle to the same value, not a copy of it
    EXPECT_EQ(&a.concrete(), &b.concrete());
    EXPECT_EQ(w.storage().use_count(), before + 1);
    b = Value(2.0);
    EXPECT_EQ(w.storage().use_count(), before + 1);  // `a` still holds it
    Value c = std::move(const_cast<Value&>(a));
    EXPECT_TRUE(a.is_none());
    EXPECT_EQ(w.storage().use_count(), before + 1);
  }
  EXPECT_EQ(w.storage().use_count(), before);  // the last handle gave it back
}

TEST(ConcreteValues, AValueReturnedOutOfALambdaStaysValid) {
  // Made inside the lambda, used after it returned: the result holds its
  // own reference (under AddressSanitizer a dangling one would be reported).
  const auto make = [] {
    const Value x = Tensor::from<float>({1, 2, 3});
    return op::Add(x, x);
  };
  const Value y = make();
  const Value z = op::Mul(y, 2.0f);
  EXPECT_THAT(std::vector<float>(z.tensor().data<float>(), z.tensor().data<float>() + 3),
              ::testing::ElementsAre(4, 8, 12));
  // And a script called eagerly returns values that outlive its body.
  const Function twice = script("twice", {"X"}, [](Value X) { return X + X; });
  const Value r = twice(Tensor::from<float>({5}));
  EXPECT_EQ(r.tensor().data<float>()[0], 10.0f);
}

// Operator overloads, literals and indexing declare ai.onnx only provisionally
// (at 17, unless the trace already uses a version): an explicit call at
// another opset, before or after them, sets the model's opset. Gelu as the
// README writes it, `X * 0.5` before `op::Erf`, failed at opset 18 with
// "opset conflict: domain 'ai.onnx' is used at version 17 and at version 18".
TEST(Opsets, OverloadsTakeTheOpsetOfTheExplicitCalls) {
  const Function gelu18 = script(
      "gelu18", {"X"}, [](FLOAT<"N"> X) -> FLOAT<"N"> {
        Value phi = 0.5 * (opset18::Erf(std::sqrt(0.5) * X) + 1.0);
        return X * phi;
      });
  const ir::Model model = gelu18.to_model();
  EXPECT_EQ(model.opset_imports.find(""), 18);
  const Tensor y =
      eval::Session(gelu18.to_model()).run({Tensor::from<float>({1.0f})}).at(0).tensor();
  EXPECT_NEAR(y.data<float>()[0], 0.8413447f, 1e-6);
  // Overloads inside a loop body follow the explicit opset of the enclosing trace.
  const Function looped = script(
      "looped", {"X"}, [](FLOAT<"N"> X) -> FLOAT<"N"> {
        Value start = opset18::Identity(X);
        return for_range(3, {start}, [](Value, Value acc) { return acc * 2.0; });
      });
  EXPECT_EQ(looped.to_model().opset_imports.find(""), 18);
  // Two explicit versions still conflict.
  const std::string m = testing::message_of<ScriptError>([] {
    (void)script("both", {"X"}, [](FLOAT<"N"> X) { return opset18::Erf(op::Relu(X)); }).to_model();
  });
  EXPECT_THAT(m, ::testing::HasSubstr("opset conflict"));
}

TEST(Names, FreshNamesCountInDecimalThroughEveryCarryAndAcrossScopes) {
  ir::Graph graph, branch;
  ir::OpsetImports opsets, branch_opsets;
  TraceScope scope(graph, opsets);
  for (int i = 0; i < 1200; ++i) {
    ASSERT_EQ(scope.fresh_name(), "t" + std::to_string(i));  // 9 -> 10, 99 -> 100, 999 -> 1000
    if (i % 7 == 0) {
      // A subgraph continues the count, and its parent takes it up after it.
      TraceScope inner(branch, branch_opsets, TraceScope::Nesting::kSubgraph);
      ASSERT_EQ(inner.fresh_name("v"), "v_" + std::to_string(++i));
    }
  }
  EXPECT_EQ(scope.fresh_name(std::string(70, 'h')), std::string(70, 'h') + "_1200");
}

TEST(Names, InputsAttributesAndNamedValuesKeepTheirNames) {
  const Function f = script("f", {"A", {"alpha", 0.5}}, [](FLOAT<"N"> A, Attr<float> alpha) {
    Value scaled = op::LeakyRelu(A, {.alpha = alpha}).named("scaled");
    return scaled * 2;
  });
  const ir::Function& fn = f.to_function();
  EXPECT_EQ(fn.body().inputs()[0]->name(), "A");
  ASSERT_EQ(fn.attribute_defaults.size(), 1u);
  EXPECT_EQ(fn.attribute_defaults[0].name, "alpha");
  const ir::Node* leaky = *fn.body().nodes().begin();
  EXPECT_EQ(leaky->output(0)->name(), "scaled");
  const ir::Attribute* alpha = leaky->attribute("alpha");
  ASSERT_NE(alpha, nullptr);
  EXPECT_EQ(alpha->ref_attr_name, "alpha");
}

TEST(Names, GeneratedNamesAreUnique) {
  const Function f = script("f", {"X"}, [](FLOAT<"N"> X) {
    Value y = X;
    for (int i = 0; i < 20; ++i) y = op::Relu(y) + 1.0;
    return y;
  });
  std::set<std::string> names;
  size_t count = 0;
  for (const ir::Node* n : f.to_function().body().nodes()) {
    for (const ir::Value* v : n->outputs()) {
      names.insert(v->name());
      ++count;
    }
  }
  EXPECT_EQ(names.size(), count);
}

TEST(AttributeReference, UsedAsValueBecomesConstantReferringToIt) {
  const Function f =
      script("f", {"X", "scale"}, [](FLOAT<"N"> X, Attr<float> scale) { return X * scale; });
  const ir::Node* constant = *f.to_function().body().nodes().begin();
  EXPECT_EQ(constant->op_type(), "Constant");
  const ir::Attribute* value = constant->attribute("value_float");
  ASSERT_NE(value, nullptr);
  EXPECT_EQ(value->ref_attr_name, "scale");
}

const Function GeluForTest =
    script("Gelu", {"X"}, [](Value X) { return X * (0.5 * (op::Erf(X * std::sqrt(0.5)) + 1.0)); });

TEST(Eager, FunctionOnTensorsRunsItsBody) {
  const Tensor x = Tensor::from<float>({-2.0f, -0.5f, 0.0f, 0.5f, 2.0f});
  const Tensor y = GeluForTest(x);
  ASSERT_EQ(y.shape(), std::vector<int64_t>{5});
  for (int64_t i = 0; i < 5; ++i) {
    const double v = x.data<float>()[i];
    EXPECT_NEAR(y.data<float>()[i], v * 0.5 * (1 + std::erf(v / std::sqrt(2.0))), 1e-6);
  }
}

TEST(Eager, AttributeDefaultsApplyAndArgumentsOverride) {
  const Function scale =
      script("scale", {"X", {"by", 2.0}}, [](FLOAT<"N"> X, Attr<float> by) { return X * by; });
  const Tensor x = Tensor::from<float>({1, 2});
  Tensor doubled = scale(x);
  Tensor tripled = scale(x, 3.0f);
  EXPECT_EQ(doubled.data<float>()[1], 4.0f);
  EXPECT_EQ(tripled.data<float>()[1], 6.0f);
}

TEST(Model, KeepsCalledFunctionsAndPassesTheChecker) {
  const Function outer = script(
      "outer", {"X"}, [](FLOAT<"N"> X) -> FLOAT<"N"> { return GeluForTest(X + 1.0); });
  ir::Model model = outer.to_model();
  ASSERT_EQ(model.functions().size(), 1u);
  EXPECT_EQ(model.functions()[0]->name, "Gelu");
  testing::expect_checker_accepts(model);
}

TEST(TypedValue, UntypedValueOfOtherElementTypeIsRejected) {
  const Tensor ints = Tensor::from<int64_t>({1, 2});
  EXPECT_THROW(FLOAT<"N">{Value(ints)}, ScriptError);
  EXPECT_NO_THROW(INT64<"N">{Value(ints)});
}

}  // namespace
}  // namespace onnxscript

namespace onnxscript {
namespace {

const Function CustomScale =
    script("com.example", 2, "Scale", {"X"}, [](Value X) { return X * X; });

TEST(Domains, CustomDomainAndVersionReachTheModel) {
  const Function model_fn = script(
      "uses_custom", {"X"}, [](FLOAT<"N"> X) -> FLOAT<"N"> { return CustomScale(X); });
  const ir::Model model = model_fn.to_model();
  ASSERT_EQ(model.functions().size(), 1u);
  EXPECT_EQ(model.functions()[0]->domain, "com.example");
  const auto version = model.opset_imports.find("com.example");
  ASSERT_TRUE(version.has_value());
  EXPECT_EQ(*version, 2);
  const ir::Node* call = *model.graph().nodes().begin();
  EXPECT_EQ(call->domain(), "com.example");
  EXPECT_EQ(call->op_type(), "Scale");
}

TEST(Domains, ConflictingVersionsOfOneDomainAreReported) {
  const Function other_version =
      script("com.example", 3, "Other", {"X"}, [](Value X) { return X + X; });
  const Function both = script(
      "both", {"X"}, [&](FLOAT<"N"> X) -> FLOAT<"N"> {
        Value a = CustomScale(X);
        return other_version(a);
      });
  EXPECT_THAT(script_error_of([&] { both.to_model(); }), HasSubstr("com.example"));
}

}  // namespace
}  // namespace onnxscript
