// ir/clone.h: copying graphs and nodes, and the outer-scope references of a
// graph (FreeValues).
#include "onnxscript/ir/clone.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace onnxscript::ir {
namespace {

// main: x -> Relu -> r; If (c) whose then branch reads r and x (outer values)
// and defines t; the else branch returns x itself.
struct Nested {
  Graph g{"main"};
  Value* x = g.add_input("x", Type::tensor(DataType::kFloat, Shape{2}));
  Value* c = g.add_input("c", Type::tensor(DataType::kBool, Shape{}));
  Node* relu = g.append_node("Relu", {x}, 1);
  Node* iff = nullptr;
  Graph* then_branch = nullptr;
  Nested() {
    relu->output(0)->set_name("r");
    auto then_g = std::make_shared<Graph>("then");
    Node* add = then_g->append_node("Add", {relu->output(0), x}, 1);
    add->output(0)->set_name("t");
    then_g->outputs().push_back(add->output(0));
    auto else_g = std::make_shared<Graph>("else");
    else_g->outputs().push_back(x);
    iff = g.append_node("If", {c}, 1);
    iff->set_attribute(Attribute::make_graph("then_branch", then_g));
    iff->set_attribute(Attribute::make_graph("else_branch", else_g));
    then_branch = then_g.get();
  }
};

TEST(FreeValues, AreTheOuterValuesReadByNodesNestedGraphsAndOutputs) {
  Nested n;
  FreeValues free;
  const auto& then_free = free.of(*n.then_branch);
  ASSERT_EQ(then_free.size(), 2u);
  EXPECT_EQ(then_free[0], n.relu->output(0));  // first used first
  EXPECT_EQ(then_free[1], n.x);
  // The else branch reads x only as its output.
  const auto& else_free = free.of(*n.iff->attribute("else_branch")->as_graph());
  ASSERT_EQ(else_free.size(), 1u);
  EXPECT_EQ(else_free[0], n.x);
  // The main graph defines everything its subgraphs read.
  EXPECT_TRUE(free.of(n.g).empty());
}

TEST(Clone, GraphCopiesRenameInnerValuesAndKeepOuterReferences) {
  Nested n;
  ValueMap map;
  std::shared_ptr<Graph> copy =
      clone_graph(*n.then_branch, map, [](const std::string& name) { return name + "_copy"; });
  ASSERT_EQ(copy->num_nodes(), 1u);
  const Node* add = copy->first_node();
  EXPECT_NE(add, n.then_branch->first_node());
  EXPECT_EQ(add->input(0), n.relu->output(0));  // outer values stay as they are
  EXPECT_EQ(add->input(1), n.x);
  EXPECT_EQ(add->output(0)->name(), "t_copy");
  ASSERT_EQ(copy->outputs().size(), 1u);
  EXPECT_EQ(copy->outputs()[0], add->output(0));
}

TEST(Clone, NodeGoesBeforeThePositionWithItsSubgraphsCopied) {
  Nested n;
  ValueMap map;
  auto keep = [](const std::string& name) { return name; };
  Node* copy = clone_node(*n.iff, n.g, n.relu, map, keep);
  EXPECT_EQ(n.g.first_node(), copy);
  EXPECT_EQ(copy->op_type(), "If");
  const auto subs = copy->subgraphs();
  ASSERT_EQ(subs.size(), 2u);
  EXPECT_NE(subs[0], n.then_branch);  // a copy, owned by the new node
  EXPECT_EQ(subs[0]->parent_node(), copy);
  EXPECT_EQ(map.at(n.iff->output(0)), copy->output(0));
}

TEST(Clone, FunctionCopyKeepsNamesAttributesAndImports) {
  Function f("local", "F");
  f.attribute_names = {"alpha"};
  f.opset_imports.set("", 19);
  Value* a = f.body().add_input("a");
  Node* neg = f.body().append_node("Neg", {a}, 1);
  neg->output(0)->set_name("b");
  f.body().outputs().push_back(neg->output(0));
  std::unique_ptr<Function> copy = clone_function(f);
  EXPECT_EQ(copy->domain, "local");
  EXPECT_EQ(copy->name, "F");
  EXPECT_EQ(copy->attribute_names, f.attribute_names);
  EXPECT_EQ(copy->opset_imports.find(""), 19);
  ASSERT_EQ(copy->body().num_nodes(), 1u);
  EXPECT_EQ(copy->body().outputs()[0]->name(), "b");
  EXPECT_EQ(copy->body().first_node()->input(0), copy->body().inputs()[0]);
}

}  // namespace
}  // namespace onnxscript::ir
