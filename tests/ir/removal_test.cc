// Use lists and initializer lists under removal: each removal is constant
// time (a node input knows where its use sits; a removed initializer leaves
// a hole that the next read compacts), and the lists stay exactly right
// whatever the order of removals.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "onnxscript/ir/graph.h"

namespace onnxscript::ir {
namespace {

// The uses of `v` as a set, for comparing regardless of order.
std::multiset<std::pair<const Node*, int>> uses_of(const Value* v) {
  std::multiset<std::pair<const Node*, int>> out;
  for (const Use& u : v->uses()) out.emplace(u.node, u.index);
  return out;
}

TEST(UseLists, StayRightWhenNodesGoInAnyOrder) {
  Graph g;
  Value* w = g.add_input("w");
  Value* x = g.add_input("x");
  std::vector<Node*> nodes;
  std::multiset<std::pair<const Node*, int>> expected;
  for (int i = 0; i < 200; ++i) {
    // Some nodes read w twice, so one node holds two uses of it.
    Node* n = i % 3 == 0 ? g.append_node("Add", {w, w}, 1) : g.append_node("Mul", {x, w}, 1);
    nodes.push_back(n);
    if (i % 3 == 0) {
      expected.emplace(n, 0);
      expected.emplace(n, 1);
    } else {
      expected.emplace(n, 1);
    }
  }
  ASSERT_EQ(uses_of(w), expected);
  std::mt19937 rng(7);
  std::shuffle(nodes.begin(), nodes.end(), rng);
  for (size_t k = 0; k < nodes.size(); ++k) {
    Node* n = nodes[k];
    for (size_t i = 0; i < n->inputs().size(); ++i)
      if (n->input(i) == w) expected.erase(expected.find({n, static_cast<int>(i)}));
    g.erase(n);
    ASSERT_EQ(uses_of(w), expected) << "after erasing node " << k;
  }
  EXPECT_TRUE(w->uses().empty());
  EXPECT_TRUE(x->uses().empty());
}

TEST(UseLists, StayRightAsInputsChange) {
  Graph g;
  Value* a = g.add_input("a");
  Value* b = g.add_input("b");
  Node* n = g.append_node("Sum", {a, b, a, a}, 1);
  Node* m = g.append_node("Neg", {a}, 1);
  n->set_input(0, b);  // a: inputs 2, 3 of n and 0 of m
  EXPECT_EQ(uses_of(a), (std::multiset<std::pair<const Node*, int>>{{n, 2}, {n, 3}, {m, 0}}));
  n->append_input(a);
  n->pop_input();
  n->pop_input();  // drops input 3
  EXPECT_EQ(uses_of(a), (std::multiset<std::pair<const Node*, int>>{{n, 2}, {m, 0}}));
  EXPECT_EQ(uses_of(b), (std::multiset<std::pair<const Node*, int>>{{n, 0}, {n, 1}}));
  a->replace_all_uses_with(b);
  EXPECT_TRUE(a->uses().empty());
  EXPECT_EQ(uses_of(b),
            (std::multiset<std::pair<const Node*, int>>{{n, 0}, {n, 1}, {n, 2}, {m, 0}}));
}

TEST(Initializers, RemovalKeepsTheOrderOfTheRest) {
  Graph g;
  std::vector<Value*> inits;
  for (int i = 0; i < 10; ++i)
    inits.push_back(g.add_initializer("i" + std::to_string(i), Tensor::scalar<float>(i)));
  g.remove_initializer(inits[0]);
  g.remove_initializer(inits[7]);
  g.remove_initializer(inits[3]);
  const std::vector<Value*> want{inits[1], inits[2], inits[4], inits[5],
                                 inits[6], inits[8], inits[9]};
  EXPECT_EQ(std::vector<Value*>(g.initializers().begin(), g.initializers().end()), want);
  EXPECT_EQ(inits[3]->const_value(), nullptr);
  // After the compaction, removal and re-adding still find their places.
  g.remove_initializer(inits[8]);
  g.set_initializer(inits[0], Tensor::scalar<float>(42));
  const std::vector<Value*> now{inits[1], inits[2], inits[4], inits[5],
                                inits[6], inits[9], inits[0]};
  EXPECT_EQ(std::vector<Value*>(g.initializers().begin(), g.initializers().end()), now);
  EXPECT_EQ(g.initializer_bytes(), 7 * sizeof(float));
  // Removing one that is not (or no longer) an initializer changes nothing.
  g.remove_initializer(inits[8]);
  EXPECT_EQ(g.initializers().size(), 7u);
}

}  // namespace
}  // namespace onnxscript::ir
