// Session on models built in the IR: planning, running, input checks,
// subgraphs with outer-scope references, functions.
#include "onnxscript/eval/session.h"

#include <algorithm>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "onnxscript/ir/ir.h"

namespace onnxscript::eval {
namespace {

using ir::Attribute;
using ir::Dim;
using ir::Shape;
using ir::Type;
using ::testing::HasSubstr;

Type floats(Shape shape) { return Type::tensor(DataType::kFloat, std::move(shape)); }

std::vector<float> values_of(const RuntimeValue& v) {
  const Tensor& t = v.tensor();
  EXPECT_EQ(t.dtype(), DataType::kFloat);
  return {t.data<float>(), t.data<float>() + t.numel()};
}

ir::Value* output(ir::Graph& /*graph*/, ir::Node* n, const std::string& name, size_t i = 0) {
  n->output(i)->set_name(name);
  return n->output(i);
}

// y = (x + w) + (x + w), w an initializer of shape [2, 1]; z = Identity(x).
ir::Model add_model() {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports.set("", 17);
  ir::Graph& g = m.graph();
  ir::Value* x = g.add_input("x", floats({Dim(2), Dim("N")}));
  ir::Value* w = g.add_initializer("w", Tensor::from<float>({10, 20}, {2, 1}));
  ir::Value* s = output(g, g.append_node("Add", {x, w}, 1), "s");
  ir::Value* y = output(g, g.append_node("Add", {s, s}, 1), "y");
  ir::Value* z = output(g, g.append_node("Identity", {x}, 1), "z");
  g.outputs() = {y, z};
  return m;
}

TEST(Session, RunsByPositionAndByName) {
  Session session(add_model());
  EXPECT_EQ(session.input_names(), std::vector<std::string>{"x"});
  EXPECT_EQ(session.output_names(), (std::vector<std::string>{"y", "z"}));
  RuntimeValue x = Tensor::from<float>({1, 2, 3, 4}, {2, 2});
  std::vector<RuntimeValue> in{x};
  for (int run = 0; run < 3; ++run) {  // a plan runs many times
    auto out = session.run(in);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(values_of(out[0]), (std::vector<float>{22, 24, 46, 48}));
    EXPECT_EQ(out[1].tensor().storage(), x.tensor().storage());  // Identity shares storage
  }
  auto out = session.run({{"x", x}});
  EXPECT_EQ(values_of(out[0]), (std::vector<float>{22, 24, 46, 48}));
}

TEST(Session, InputCheckErrorsNameTheInput) {
  Session session(add_model());
  auto message = [&](auto&& call) -> std::string {
    try {
      call();
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_THAT(message([&] {
                session.run({{"X", Tensor::from<float>({1, 2}, {2, 1})}});
              }),
              HasSubstr("no input named 'X'"));
  EXPECT_THAT(message([&] {
                session.run(std::vector<RuntimeValue>{Tensor::from<int64_t>({1, 2}, {2, 1})});
              }),
              HasSubstr("input 'x': expected element type float, got int64"));
  EXPECT_THAT(message([&] {
                session.run(std::vector<RuntimeValue>{Tensor::from<float>({1, 2, 3}, {3, 1})});
              }),
              HasSubstr("input 'x': dimension 0 must be 2"));
  EXPECT_THAT(message([&] {
                session.run(std::vector<RuntimeValue>{Tensor::from<float>({1, 2})});
              }),
              HasSubstr("input 'x': expected rank 2"));
  EXPECT_THAT(message([&] { session.run(std::vector<RuntimeValue>{}); }),
              HasSubstr("input 'x' was not given"));
  EXPECT_THAT(message([&] {
                session.run(std::vector<RuntimeValue>{Tensor::from<float>({1, 2}, {2, 1}),
                                                      Tensor::from<float>({1, 2}, {2, 1})});
              }),
              HasSubstr("takes 1 inputs but 2 were given"));
  // A symbolic dimension takes any size.
  EXPECT_EQ(session.run(std::vector<RuntimeValue>{Tensor::from<float>({1, 2, 3, 4, 5, 6}, {2, 3})})
                .size(),
            0u + 2);
}

TEST(Session, ShapeChecksCanBeTurnedOff) {
  SessionOptions options;
  options.check_input_shapes = false;
  Session session(add_model(), options);
  // Rank 1 instead of [2, N]: accepted (and broadcast by Add).
  EXPECT_EQ(session.run({RuntimeValue(Tensor::from<float>({1, 2}))})[0].tensor().shape(),
            (std::vector<int64_t>{2, 2}));
  EXPECT_THROW(session.run({RuntimeValue(Tensor::from<int64_t>({1, 2}))}),
               TypeError);  // dtype still checked
}

TEST(Session, MissingKernelNamesOperatorVersionAndTypes) {
  ir::Model m;
  m.opset_imports.set("", 13);
  ir::Graph& g = m.graph();
  ir::Value* x = g.add_input("x", floats({Dim(3)}));
  ir::Node* n = g.append_node("NoSuchOp", {x}, 1);
  n->set_name("the_node");
  g.outputs() = {output(g, n, "y")};
  Session session(std::move(m));
  EXPECT_EQ(session.missing_kernels(), std::vector<std::string>{"NoSuchOp-13"});
  try {
    session.run(std::vector<RuntimeValue>{Tensor::from<float>({1, 2, 3})});
    FAIL() << "expected an error";
  } catch (const KernelError& e) {
    EXPECT_STREQ(e.what(),
                 "no kernel for NoSuchOp-13 (inputs: tensor(float)[3]) in node 'the_node'");
  }
}

TEST(Session, UnimportedDomainAndUndefinedValuesAreValidationErrors) {
  ir::Model m;
  m.opset_imports.set("", 17);
  ir::Value* x = m.graph().add_input("x");
  m.graph().outputs() = {
      output(m.graph(), m.graph().append_node("Foo", {x}, 1, "com.example"), "y")};
  EXPECT_THROW(Session{std::move(m)}, ValidationError);

  ir::Model m2;
  m2.opset_imports.set("", 17);
  ir::Value* stray = m2.graph().create_detached_value("stray");
  m2.graph().outputs() = {output(m2.graph(), m2.graph().append_node("Identity", {stray}, 1), "y")};
  try {
    Session s{std::move(m2)};
    FAIL();
  } catch (const ValidationError& e) {
    EXPECT_THAT(e.what(), HasSubstr("'stray'"));
  }
}

TEST(Session, OrdersNodesTopologically) {
  ir::Model m;
  m.opset_imports.set("", 17);
  ir::Graph& g = m.graph();
  ir::Value* x = g.add_input("x", floats({Dim(1)}));
  ir::Node* second = g.append_node("Add", {x, x}, 1);  // reads nothing yet
  ir::Node* first = g.append_node("Identity", {x}, 1);
  second->set_input(1, first->output(0));
  g.outputs() = {output(g, second, "y")};
  Session session(std::move(m));
  EXPECT_EQ(values_of(session.run(std::vector<RuntimeValue>{Tensor::from<float>({2})})[0]),
            std::vector<float>{4});
}

// The planner orders nodes by ir::Graph::topological_order, whose error
// names the graph and a node on the cycle.
TEST(Session, ACycleIsAValidationErrorNamingTheGraphAndANode) {
  ir::Model cyclic;
  cyclic.opset_imports.set("", 17);
  ir::Graph& cg = cyclic.graph();
  cg.set_name("main");
  ir::Value* in = cg.add_input("x", floats({Dim(2)}));
  ir::Node* a = cg.append_node("Add", {in, nullptr}, 1);
  a->set_name("a");
  ir::Node* b = cg.append_node("Neg", {a->output(0)}, 1);
  b->set_name("b");
  a->set_input(1, b->output(0));
  cg.outputs() = {output(cg, b, "y")};
  try {
    Session s{std::move(cyclic)};
    ADD_FAILURE() << "no ValidationError";
  } catch (const ValidationError& e) {
    EXPECT_THAT(e.what(), HasSubstr("graph 'main' has a cycle through node '"));
  }
}

// if (c) then x + outer else Identity(x), both branches reading main-graph values.
TEST(Session, IfBranchesReadOuterScope) {
  ir::Model m;
  m.opset_imports.set("", 17);
  ir::Graph& g = m.graph();
  ir::Value* c = g.add_input("c", Type::tensor(DataType::kBool, Shape{}));
  ir::Value* x = g.add_input("x", floats({Dim(2)}));
  ir::Value* outer = g.add_initializer("outer", Tensor::from<float>({100, 200}));
  auto then_g = std::make_shared<ir::Graph>("then");
  then_g->outputs() = {output(*then_g, then_g->append_node("Add", {x, outer}, 1), "t")};
  auto else_g = std::make_shared<ir::Graph>("else");
  else_g->outputs() = {output(*else_g, else_g->append_node("Identity", {x}, 1), "e")};
  ir::Node* n = g.append_node("If", {c}, 1);
  n->set_attribute(Attribute::make_graph("then_branch", then_g));
  n->set_attribute(Attribute::make_graph("else_branch", else_g));
  g.outputs() = {output(g, n, "y")};
  Session session(std::move(m));
  RuntimeValue xv = Tensor::from<float>({1, 2});
  EXPECT_EQ(values_of(session.run({RuntimeValue(Tensor::scalar(true)), xv})[0]),
            (std::vector<float>{101, 202}));
  EXPECT_EQ(values_of(session.run({RuntimeValue(Tensor::scalar(false)), xv})[0]),
            (std::vector<float>{1, 2}));
}

// Loop M times: acc = acc + step (step from the outer scope), scan out acc;
// an If nested in the body reads a main-graph value two scopes up.
TEST(Session, LoopCarriesValuesAndStacksScanOutputs) {
  ir::Model m;
  m.opset_imports.set("", 17);
  ir::Graph& g = m.graph();
  ir::Value* trips = g.add_input("M", Type::tensor(DataType::kInt64, Shape{}));
  ir::Value* init = g.add_input("init", floats({Dim(1)}));
  ir::Value* step = g.add_input("step", floats({Dim(1)}));
  ir::Value* flag = g.add_initializer("flag", Tensor::scalar(true));

  auto body = std::make_shared<ir::Graph>("body");
  body->add_input("i", Type::tensor(DataType::kInt64, Shape{}));
  ir::Value* cond_in = body->add_input("cond_in", Type::tensor(DataType::kBool, Shape{}));
  ir::Value* acc = body->add_input("acc", floats({Dim(1)}));
  auto then_g = std::make_shared<ir::Graph>("then");
  then_g->outputs() = {output(*then_g, then_g->append_node("Add", {acc, step}, 1), "t")};
  auto else_g = std::make_shared<ir::Graph>("else");
  else_g->outputs() = {output(*else_g, else_g->append_node("Identity", {acc}, 1), "e")};
  ir::Node* branch = body->append_node("If", {flag}, 1);
  branch->set_attribute(Attribute::make_graph("then_branch", then_g));
  branch->set_attribute(Attribute::make_graph("else_branch", else_g));
  ir::Value* next = output(*body, branch, "next");
  ir::Value* cond_out = output(*body, body->append_node("Identity", {cond_in}, 1), "cond_out");
  ir::Value* scan = output(*body, body->append_node("Identity", {next}, 1), "scan");
  scan->set_type(floats({Dim(1)}));  // gives an empty scan output its shape
  body->outputs() = {cond_out, next, scan};

  ir::Node* loop = g.append_node("Loop", {trips, nullptr, init}, 2);
  loop->set_attribute(Attribute::make_graph("body", body));
  g.outputs() = {output(g, loop, "final", 0), output(g, loop, "all", 1)};
  Session session(std::move(m));
  auto out =
      session.run({RuntimeValue(Tensor::scalar<int64_t>(3)), RuntimeValue(Tensor::from<float>({1})),
                   RuntimeValue(Tensor::from<float>({10}))});
  EXPECT_EQ(values_of(out[0]), std::vector<float>{31});
  EXPECT_EQ(out[1].tensor().shape(), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(values_of(out[1]), (std::vector<float>{11, 21, 31}));
  // Zero iterations: the carried value passes through, the scan output is empty.
  out =
      session.run({RuntimeValue(Tensor::scalar<int64_t>(0)), RuntimeValue(Tensor::from<float>({1})),
                   RuntimeValue(Tensor::from<float>({10}))});
  EXPECT_EQ(values_of(out[0]), std::vector<float>{1});
  EXPECT_EQ(out[1].tensor().shape(), (std::vector<int64_t>{0, 1}));
}

// Scan-16 cumulative sum over axis 1, read in reverse.
TEST(Session, ScanRunsOverAxesAndDirections) {
  ir::Model m;
  m.opset_imports.set("", 16);
  ir::Graph& g = m.graph();
  ir::Value* init = g.add_input("init", floats({Dim(2)}));
  ir::Value* xs = g.add_input("xs", floats({Dim(2), Dim(3)}));
  auto body = std::make_shared<ir::Graph>("body");
  ir::Value* sum = body->add_input("sum", floats({Dim(2)}));
  ir::Value* x = body->add_input("x", floats({Dim(2)}));
  ir::Value* next = output(*body, body->append_node("Add", {sum, x}, 1), "next");
  ir::Value* copy = output(*body, body->append_node("Identity", {next}, 1), "copy");
  body->outputs() = {next, copy};
  ir::Node* scan = g.append_node("Scan", {init, xs}, 2);
  scan->set_attribute(Attribute::make_graph("body", body));
  scan->set_attribute(Attribute::make_int("num_scan_inputs", 1));
  scan->set_attribute(Attribute::make_ints("scan_input_axes", {1}));
  scan->set_attribute(Attribute::make_ints("scan_input_directions", {1}));
  scan->set_attribute(Attribute::make_ints("scan_output_axes", {-1}));
  g.outputs() = {output(g, scan, "total", 0), output(g, scan, "partial", 1)};
  Session session(std::move(m));
  auto out = session.run({RuntimeValue(Tensor::from<float>({0, 0})),
                          RuntimeValue(Tensor::from<float>({1, 2, 3, 10, 20, 30}, {2, 3}))});
  EXPECT_EQ(values_of(out[0]), (std::vector<float>{6, 60}));
  EXPECT_EQ(out[1].tensor().shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values_of(out[1]), (std::vector<float>{3, 5, 6, 30, 50, 60}));
}

// Scan-8: a batch axis and per-batch sequence lengths (shorter ones zero-padded).
TEST(Session, Scan8HandlesBatchesAndSequenceLengths) {
  ir::Model m;
  m.opset_imports.set("", 8);
  ir::Graph& g = m.graph();
  ir::Value* lens = g.add_input("lens", Type::tensor(DataType::kInt32, Shape{Dim(2)}));
  ir::Value* init = g.add_input("init", floats({Dim(2), Dim(1)}));
  ir::Value* xs = g.add_input("xs", floats({Dim(2), Dim(3), Dim(1)}));
  auto body = std::make_shared<ir::Graph>("body");
  ir::Value* sum = body->add_input("sum");
  ir::Value* x = body->add_input("x");
  ir::Value* next = output(*body, body->append_node("Add", {sum, x}, 1), "next");
  ir::Value* copy = output(*body, body->append_node("Identity", {next}, 1), "copy");
  body->outputs() = {next, copy};
  ir::Node* scan = g.append_node("Scan", {lens, init, xs}, 2);
  scan->set_attribute(Attribute::make_graph("body", body));
  scan->set_attribute(Attribute::make_int("num_scan_inputs", 1));
  g.outputs() = {output(g, scan, "total", 0), output(g, scan, "partial", 1)};
  Session session(std::move(m));
  auto out = session.run({RuntimeValue(Tensor::from<int32_t>({3, 1})),
                          RuntimeValue(Tensor::from<float>({0, 0}, {2, 1})),
                          RuntimeValue(Tensor::from<float>({1, 2, 3, 10, 20, 30}, {2, 3, 1}))});
  EXPECT_EQ(values_of(out[0]), (std::vector<float>{6, 10}));
  EXPECT_EQ(out[1].tensor().shape(), (std::vector<int64_t>{2, 3, 1}));
  EXPECT_EQ(values_of(out[1]), (std::vector<float>{1, 3, 6, 10, 0, 0}));
}

// A model-local function whose body reads attribute `alpha` (default 2) by
// reference: y = x * alpha.
ir::Model function_model(std::optional<float> alpha) {
  ir::Model m;
  m.opset_imports.set("", 17);
  m.opset_imports.set("local", 1);
  auto f = std::make_unique<ir::Function>("local", "Scale");
  ir::Graph& body = f->body();
  ir::Value* fx = body.add_input("fx");
  ir::Node* constant = body.append_node("Constant", {}, 1);
  constant->set_attribute(
      Attribute::make_reference("value_float", ir::AttributeType::kFloat, "alpha"));
  ir::Value* c = output(body, constant, "c");
  ir::Value* cast = output(body, body.append_node("CastLike", {c, fx}, 1), "c2");
  body.outputs() = {output(body, body.append_node("Mul", {fx, cast}, 1), "fy")};
  f->attribute_defaults.push_back(Attribute::make_float("alpha", 2.0f));
  f->opset_imports.set("", 17);
  m.functions().push_back(std::move(f));

  ir::Graph& g = m.graph();
  ir::Value* x = g.add_input("x", floats({Dim(2)}));
  ir::Node* call = g.append_node("Scale", {x}, 1, "local");
  if (alpha) call->set_attribute(Attribute::make_float("alpha", *alpha));
  g.outputs() = {output(g, call, "y")};
  return m;
}

TEST(Session, ModelLocalFunctionsResolveAttributeReferencesAndDefaults) {
  for (auto [alpha, expected] :
       {std::pair<std::optional<float>, float>{std::nullopt, 2.0f}, {3.0f, 3.0f}}) {
    Session session(function_model(alpha));
    std::vector<RuntimeValue> in{Tensor::from<float>({1, 2})};
    EXPECT_EQ(values_of(session.run(in)[0]), (std::vector<float>{expected, 2 * expected}));
  }
}

TEST(Session, RecursiveFunctionsAreRefused) {
  ir::Model m;
  m.opset_imports.set("", 17);
  m.opset_imports.set("local", 1);
  auto f = std::make_unique<ir::Function>("local", "Forever");
  ir::Value* fx = f->body().add_input("fx");
  f->body().outputs() = {
      output(f->body(), f->body().append_node("Forever", {fx}, 1, "local"), "fy")};
  m.functions().push_back(std::move(f));
  ir::Value* x = m.graph().add_input("x");
  m.graph().outputs() = {output(m.graph(), m.graph().append_node("Forever", {x}, 1, "local"), "y")};
  try {
    Session s{std::move(m)};
    FAIL();
  } catch (const ValidationError& e) {
    EXPECT_THAT(e.what(), HasSubstr("recursive"));
  }
}

// An operator without a kernel whose ONNX schema has a body: the session
// expands the body (here a context-dependent one, built for the call's
// attributes and input types) and runs it. NegativeLogLikelihoodLoss is run
// through its body on purpose; the test fails if it ever gains a kernel, so
// that another body-only operator takes its place here.
TEST(Session, ExpandsSchemaFunctionBodies) {
  ASSERT_EQ(KernelRegistry::builtin().find("", "NegativeLogLikelihoodLoss", 13), nullptr);
  ir::Model m;
  m.opset_imports.set("", 13);
  ir::Graph& g = m.graph();
  ir::Value* x = g.add_input("x", floats({Dim(2), Dim(3)}));
  ir::Value* target = g.add_input("target", ir::Type::tensor(DataType::kInt64, ir::Shape{Dim(2)}));
  ir::Node* n = g.append_node("NegativeLogLikelihoodLoss", {x, target}, 1);
  g.outputs() = {output(g, n, "loss", 0)};
  Session session(std::move(m));
  const std::vector<RuntimeValue> out = session.run(std::vector<RuntimeValue>{
      Tensor::from<float>({-1, -2, -3, -4, -5, -6}, {2, 3}), Tensor::from<int64_t>({2, 0})});
  // reduction "mean": -(x[0][2] + x[1][0]) / 2 = -(-3 + -4) / 2 = 3.5.
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].tensor().shape().size(), 0u);
  EXPECT_FLOAT_EQ(out[0].tensor().data<float>()[0], 3.5f);
}

TEST(Session, IsMovableAndOutputsMayRepeatOrBeInputs) {
  ir::Model m;
  m.opset_imports.set("", 17);
  ir::Value* x = m.graph().add_input("x", floats({Dim(1)}));
  ir::Value* y = output(m.graph(), m.graph().append_node("Identity", {x}, 1), "y");
  m.graph().outputs() = {y, y, x};
  Session first(std::move(m));
  Session session = std::move(first);
  auto out = session.run(std::vector<RuntimeValue>{Tensor::from<float>({5})});
  ASSERT_EQ(out.size(), 3u);
  for (const RuntimeValue& v : out) EXPECT_EQ(values_of(v), std::vector<float>{5});
}

// Maps as model inputs and outputs: DictVectorizer reads a map input (its
// key and value types checked against the declaration), ZipMap returns a
// sequence of maps.
TEST(Session, MapInputsAreTypeCheckedAndSequencesOfMapsComeOut) {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports.set("", 17);
  m.opset_imports.set("ai.onnx.ml", 1);
  ir::Graph& g = m.graph();
  const Type map_type = Type::map(DataType::kString, Type::tensor(DataType::kFloat));
  ir::Value* x = g.add_input("x", map_type);
  ir::Node* vectorize = g.append_node("DictVectorizer", {x}, 1, "ai.onnx.ml");
  vectorize->set_attribute(Attribute::make_strings("string_vocabulary", {"a", "b"}));
  ir::Value* features = output(g, vectorize, "features");
  ir::Node* zip = g.append_node("ZipMap", {features}, 1, "ai.onnx.ml");
  zip->set_attribute(Attribute::make_strings("classlabels_strings", {"p", "q"}));
  ir::Value* z = output(g, zip, "z");
  z->set_type(Type::sequence(map_type));
  g.outputs() = {features, z};
  Session session(std::move(m));

  // {b: 2} -> [0, 2] -> [{p: 0, q: 2}].
  const RuntimeValue in =
      RuntimeValue::map(Tensor::from<std::string>({"b"}), Tensor::from<float>({2}));
  auto out = session.run({{"x", in}});
  EXPECT_EQ(values_of(out[0]), (std::vector<float>{0, 2}));
  ASSERT_TRUE(out[1].is_sequence());
  ASSERT_EQ(out[1].sequence().items.size(), 1u);
  const MapValue& zipped = out[1].sequence().items[0].map();
  EXPECT_EQ(zipped.keys.data<std::string>()[1], "q");
  EXPECT_EQ(zipped.values.data<float>()[1], 2.0f);

  auto error_of = [&](const RuntimeValue& v) {
    try {
      session.run({{"x", v}});
    } catch (const TypeError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_THAT(error_of(RuntimeValue::map(Tensor::from<int64_t>({1}), Tensor::from<float>({2}))),
              HasSubstr("input 'x': expected map(string, float)"));
  EXPECT_THAT(
      error_of(RuntimeValue::map(Tensor::from<std::string>({"a"}), Tensor::from<double>({2}))),
      HasSubstr("input 'x': expected map(string, float)"));
  EXPECT_THAT(error_of(Tensor::from<float>({1})), HasSubstr("expected a map"));
}

}  // namespace
}  // namespace onnxscript::eval

namespace onnxscript::eval {
namespace {

// y = Relu(Add(x, x)) on a tensor large enough for the element-wise loops to
// split across threads (2^17 elements) and for the buffer pool to serve it.
ir::Model large_elementwise_model(int64_t n) {
  ir::Model m;
  m.ir_version = 8;
  m.opset_imports.set("", 17);
  ir::Graph& g = m.graph();
  ir::Value* x = g.add_input("x", floats({Dim(n)}));
  ir::Value* s = g.append_node("Add", {x, x}, 1)->output(0);
  ir::Value* y = g.append_node("Relu", {s}, 1)->output(0);
  y->set_name("y");
  g.outputs() = {y};
  return m;
}

TEST(Session, ThreadsAndBufferReuseLeaveResultsAlone) {
  constexpr int64_t n = int64_t{1} << 17;
  Tensor x(DataType::kFloat, {n});
  for (int64_t i = 0; i < n; ++i) x.data<float>()[i] = static_cast<float>(i % 7) - 3.0f;
  for (int threads : {1, 2, 3}) {
    for (bool reuse : {true, false}) {
      SessionOptions options;
      options.intra_op_threads = threads;
      options.reuse_buffers = reuse;
      Session session(large_elementwise_model(n), options);
      for (int run = 0; run < 3; ++run) {  // later runs reuse the first run's buffers
        auto out = session.run({x});
        const Tensor& y = out[0].tensor();
        ASSERT_EQ(y.numel(), n);
        for (int64_t i = 0; i < n; ++i) {
          const float expected = std::max(0.0f, 2.0f * (static_cast<float>(i % 7) - 3.0f));
          ASSERT_EQ(y.data<float>()[i], expected)
              << "element " << i << ", threads " << threads << ", reuse " << reuse;
        }
      }
    }
  }
}

}  // namespace
}  // namespace onnxscript::eval
