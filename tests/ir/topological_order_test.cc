// Graph::topological_order, the one topological sort (sort_topologically,
// the Session's planner and the model reader's cycle check all use it).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onnxscript/ir/ir.h"

namespace onnxscript::ir {
namespace {

std::vector<std::string> op_types(const std::vector<Node*>& nodes) {
  std::vector<std::string> out;
  for (const Node* n : nodes) out.push_back(n->op_type());
  return out;
}

std::vector<std::string> op_types_in_graph_order(const Graph& g) {
  std::vector<std::string> out;
  for (const Node* n : g.nodes()) out.push_back(n->op_type());
  return out;
}

std::string validation_error_of(const Graph& g) {
  try {
    g.topological_order();
  } catch (const ValidationError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ValidationError";
  return "";
}

TEST(TopologicalOrder, KeepsTheOrderOfASortedGraphAndOfIndependentNodes) {
  Graph g("g");
  Value* x = g.add_input("x");
  Node* c = g.append_node("C", {x}, 1);
  Node* a = g.append_node("A", {x}, 1);
  g.append_node("D", {c->output(0), a->output(0)}, 1);
  g.append_node("B", {x}, 1);
  EXPECT_EQ(op_types(g.topological_order()), (std::vector<std::string>{"C", "A", "D", "B"}));
}

TEST(TopologicalOrder, MovesOnlyWhatMustMove) {
  Graph g("g");
  Value* x = g.add_input("x");
  Node* late = g.append_node("Late", {nullptr}, 1);
  g.append_node("Other", {x}, 1);
  Node* early = g.append_node("Early", {x}, 1);
  late->set_input(0, early->output(0));
  EXPECT_EQ(op_types(g.topological_order()), (std::vector<std::string>{"Other", "Early", "Late"}));
  EXPECT_EQ(op_types_in_graph_order(g), (std::vector<std::string>{"Late", "Other", "Early"}))
      << "topological_order() leaves the graph alone";
  g.sort_topologically();
  EXPECT_EQ(op_types_in_graph_order(g), (std::vector<std::string>{"Other", "Early", "Late"}));
}

// What subgraphs read counts, however deep: a node input two scopes down,
// and a value a branch returns, which no use records (graph outputs are not
// uses).
TEST(TopologicalOrder, SubgraphsReadingOuterValuesComeAfterTheirProducers) {
  Graph g("g");
  Value* x = g.add_input("x");
  Node* loop = g.append_node("Loop", {x}, 1);
  Node* branch_holder = g.append_node("If", {x}, 1);
  Node* read_deep = g.append_node("Relu", {x}, 1);
  Node* returned = g.append_node("Abs", {x}, 1);

  auto body = std::make_shared<Graph>("body");
  Node* nested_if = body->append_node("If", {x}, 1);
  auto inner_branch = std::make_shared<Graph>("inner_then");
  Node* inner = inner_branch->append_node("Neg", {read_deep->output(0)}, 1);
  inner_branch->outputs().push_back(inner->output(0));
  nested_if->set_attribute(Attribute::make_graph("then_branch", inner_branch));
  body->outputs().push_back(nested_if->output(0));
  loop->set_attribute(Attribute::make_graph("body", body));

  auto branch = std::make_shared<Graph>("then");
  branch->outputs().push_back(returned->output(0));
  branch_holder->set_attribute(Attribute::make_graph("then_branch", branch));
  ASSERT_TRUE(returned->output(0)->uses().empty());

  g.sort_topologically();
  EXPECT_EQ(op_types_in_graph_order(g), (std::vector<std::string>{"Relu", "Loop", "Abs", "If"}));
}

// The node named is on the cycle, not merely waiting for it.
TEST(TopologicalOrder, ACycleIsAValidationErrorNamingTheGraphAndANodeOnIt) {
  Graph g("main");
  Value* x = g.add_input("x");
  Node* waiting = g.append_node("Relu", {nullptr}, 1);
  waiting->set_name("downstream");
  Node* a = g.append_node("Neg", {nullptr}, 1);
  a->set_name("ring_a");
  Node* b = g.append_node("Abs", {a->output(0), x}, 1);
  b->set_name("ring_b");
  a->set_input(0, b->output(0));
  waiting->set_input(0, a->output(0));
  const std::string what = validation_error_of(g);
  EXPECT_NE(what.find("graph 'main'"), std::string::npos) << what;
  EXPECT_NE(what.find("cycle"), std::string::npos) << what;
  EXPECT_TRUE(what.find("node 'ring_a' (Neg, #1)") != std::string::npos ||
              what.find("node 'ring_b' (Abs, #2)") != std::string::npos)
      << what;
  EXPECT_THROW(g.sort_topologically(), ValidationError);
  EXPECT_EQ(g.first_node(), waiting) << "a failed sort leaves the graph as it was";
}

TEST(TopologicalOrder, UnnamedNodesAreNamedByPositionAndOperator) {
  Graph g("g");
  Node* a = g.append_node("Op", {nullptr}, 1, "com.example");
  Node* b = g.append_node("Neg", {a->output(0)}, 1);
  a->set_input(0, b->output(0));
  const std::string what = validation_error_of(g);
  EXPECT_TRUE(what.find("node #0 (com.example.Op)") != std::string::npos ||
              what.find("node #1 (Neg)") != std::string::npos)
      << what;
}

TEST(TopologicalOrder, ANodeReadingItsOwnOutputIsACycle) {
  Graph g("g");
  Value* x = g.add_input("x");
  Node* add = g.append_node("Add", {x, nullptr}, 1);
  add->set_name("add");
  add->output(0)->set_name("y");
  add->set_input(1, add->output(0));
  const std::string what = validation_error_of(g);
  EXPECT_NE(what.find("cycle through node 'add' (Add, #0)"), std::string::npos) << what;
  EXPECT_NE(what.find("its own output 'y'"), std::string::npos) << what;
}

// Through a subgraph too: the If cannot run before its own result exists.
TEST(TopologicalOrder, ANodeWhoseSubgraphReadsItsOutputIsACycle) {
  Graph g("g");
  Value* x = g.add_input("x");
  Node* node = g.append_node("If", {x}, 1);
  node->set_name("if");
  node->output(0)->set_name("r");
  auto branch = std::make_shared<Graph>("then");
  Node* inner = branch->append_node("Neg", {node->output(0)}, 1);
  branch->outputs().push_back(inner->output(0));
  node->set_attribute(Attribute::make_graph("then_branch", branch));
  const std::string what = validation_error_of(g);
  EXPECT_NE(what.find("node 'if' (If, #0)"), std::string::npos) << what;
  EXPECT_NE(what.find("its own output 'r'"), std::string::npos) << what;
  EXPECT_THROW(g.sort_topologically(), ValidationError);
}

// A graph does not take its uses back when it dies (~Graph), so a replaced
// subgraph leaves a use of the outer value that names a freed node; the sort
// reads what the graphs hold now, not use lists (a sanitizer build checks).
TEST(TopologicalOrder, AReplacedSubgraphLeavesNothingToTripOver) {
  Graph g("g");
  Value* x = g.add_input("x");
  Node* holder = g.append_node("If", {x}, 1);
  Node* producer = g.append_node("Relu", {x}, 1);
  {
    auto old_branch = std::make_shared<Graph>("old");
    Node* inner = old_branch->append_node("Neg", {producer->output(0)}, 1);
    old_branch->outputs().push_back(inner->output(0));
    holder->set_attribute(Attribute::make_graph("then_branch", old_branch));
  }
  holder->set_attribute(Attribute::make_graph("then_branch", std::make_shared<Graph>("new")));
  EXPECT_EQ(op_types(g.topological_order()), (std::vector<std::string>{"If", "Relu"}));
}

TEST(TopologicalOrder, ErasedNodesAreLeftOut) {
  Graph g("g");
  Value* x = g.add_input("x");
  Node* gone = g.append_node("Gone", {x}, 1);
  g.append_node("Kept", {x}, 1);
  g.erase(gone);
  EXPECT_EQ(op_types(g.topological_order()), std::vector<std::string>{"Kept"});
}

}  // namespace
}  // namespace onnxscript::ir
