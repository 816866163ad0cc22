#include "onnxscript/ir/ir.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace onnxscript::ir {
namespace {

// x -> Relu -> Neg -> y
struct Chain {
  Graph g{"chain"};
  Value* x = g.add_input("x", Type::tensor(DataType::kFloat, Shape{Dim("N")}));
  Node* relu = g.append_node("Relu", {x}, 1);
  Node* neg = g.append_node("Neg", {relu->output(0)}, 1);
  Chain() {
    relu->output(0)->set_name("r");
    neg->output(0)->set_name("y");
    g.outputs().push_back(neg->output(0));
  }
};

TEST(Graph, TracksProducersAndUses) {
  Chain c;
  EXPECT_EQ(c.relu->output(0)->producer(), c.relu);
  EXPECT_EQ(c.relu->output(0)->output_index(), 0);
  ASSERT_EQ(c.x->uses().size(), 1u);
  EXPECT_EQ(c.x->uses()[0], (Use{c.relu, 0}));
  EXPECT_TRUE(c.x->is_graph_input());
  EXPECT_TRUE(c.neg->output(0)->is_graph_output());
  EXPECT_EQ(c.g.num_nodes(), 2u);
}

TEST(Graph, InitializerBytesFollowSetReplacedAndRemovedTensors) {
  Graph g;
  EXPECT_EQ(g.initializer_bytes(), 0u);
  Value* w = g.add_initializer("w", Tensor::from<float>({1, 2, 3}));  // 12 bytes
  Value* b = g.add_initializer("b", Tensor::from<int64_t>({1, 2}));   // 16 bytes
  EXPECT_EQ(g.initializer_bytes(), 28u);
  g.set_initializer(w, Tensor::from<double>({1}));  // replaces 12 bytes with 8
  EXPECT_EQ(g.initializer_bytes(), 24u);
  // An input that takes a default value counts too.
  Value* x = g.add_input("x");
  g.set_initializer(x, Tensor::from<float>({0, 0}));
  EXPECT_EQ(g.initializer_bytes(), 32u);
  g.remove_initializer(b);
  EXPECT_EQ(g.initializer_bytes(), 16u);
  g.remove_initializer(b);  // no longer an initializer: nothing to take away
  EXPECT_EQ(g.initializer_bytes(), 16u);
  g.remove_initializer(w);
  g.remove_initializer(x);
  EXPECT_EQ(g.initializer_bytes(), 0u);
  EXPECT_TRUE(g.initializers().empty());
}

// Huge-page alignment and reuse are checked in tests/unsanitized; here,
// under AddressSanitizer, every byte of a large and a small block must be
// addressable and the blocks freed without a report.
TEST(ObjectPool, BlocksAreWritableEndToEndAndFreed) {
  void* block = allocate_pool_block(kHugePoolBlock - 64);
  ASSERT_NE(block, nullptr);
  std::memset(block, 0xab, kHugePoolBlock - 64);
  free_pool_block(block, kHugePoolBlock - 64);
  void* small = allocate_pool_block(4096);
  ASSERT_NE(small, nullptr);
  std::memset(small, 0, 4096);
  free_pool_block(small, 4096);
}

TEST(Graph, AGraphPastTheLargestBlocksKeepsEveryNodeInOrder) {
  // Enough nodes and values to fill several huge-page blocks of each pool.
  Graph g("long");
  Value* v = g.add_input("x", Type::tensor(DataType::kFloat, Shape{Dim(4)}));
  constexpr int kNodes = 30000;
  for (int i = 0; i < kNodes; ++i) {
    Node* n = g.append_node(i % 2 ? "Relu" : "Neg", {v}, 1);
    n->output(0)->set_name("v" + std::to_string(i));
    v = n->output(0);
  }
  g.outputs().push_back(v);
  int i = 0;
  const Value* prev = g.inputs()[0];
  for (const Node* n : g.nodes()) {
    ASSERT_EQ(n->op_type(), i % 2 ? "Relu" : "Neg");
    ASSERT_EQ(n->input(0), prev);
    ASSERT_EQ(n->output(0)->name(), "v" + std::to_string(i));
    prev = n->output(0);
    ++i;
  }
  EXPECT_EQ(i, kNodes);
}

TEST(Graph, ReplaceAllUsesUpdatesNodesAndOutputs) {
  Chain c;
  Node* abs = c.g.append_node("Abs", {c.x}, 1);
  c.neg->output(0)->replace_all_uses_with(abs->output(0));
  EXPECT_EQ(c.g.outputs()[0], abs->output(0));
  c.relu->output(0)->replace_all_uses_with(c.x);
  EXPECT_EQ(c.neg->input(0), c.x);
  EXPECT_TRUE(c.relu->output(0)->uses().empty());
  EXPECT_EQ(c.x->uses().size(), 3u);
}

TEST(Graph, EraseRefusesUsedOutputs) {
  Chain c;
  EXPECT_THROW(c.g.erase(c.relu), ValidationError);
  EXPECT_THROW(c.g.erase(c.neg), ValidationError);  // graph output
}

TEST(Graph, EraseWhileIteratingVisitsEveryLiveNodeOnce) {
  Graph g;
  Value* x = g.add_input("x");
  std::vector<Node*> made;
  for (int i = 0; i < 6; ++i) made.push_back(g.append_node("Identity", {x}, 1));
  std::vector<Node*> seen;
  for (Node* n : g.nodes()) {
    seen.push_back(n);
    // Erase the current node and the one after it; iteration must go on.
    if (n == made[1]) {
      g.erase(made[1]);
      g.erase(made[2]);
    }
  }
  EXPECT_EQ(seen, (std::vector<Node*>{made[0], made[1], made[3], made[4], made[5]}));
  EXPECT_EQ(g.num_nodes(), 4u);
  EXPECT_TRUE(made[1]->is_erased());
  EXPECT_EQ(x->uses().size(), 4u);
}

TEST(Graph, InsertWhileIteratingVisitsInsertedNodesAfterCurrent) {
  Graph g;
  Value* x = g.add_input("x");
  Node* a = g.append_node("A", {x}, 1);
  Node* b = g.append_node("B", {x}, 1);
  std::vector<std::string> seen;
  for (Node* n : g.nodes()) {
    seen.push_back(n->op_type());
    if (n == a) g.insert_node_before(b, "Inserted", {x}, 1);
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"A", "Inserted", "B"}));
}

TEST(Graph, TopologicalSortReordersAndDetectsCycles) {
  Graph g;
  Value* x = g.add_input("x");
  Node* second = g.append_node("Second", {nullptr}, 1);
  Node* first = g.append_node("First", {x}, 1);
  second->set_input(0, first->output(0));
  g.sort_topologically();
  EXPECT_EQ(g.first_node(), first);
  EXPECT_EQ(g.last_node(), second);

  first->set_input(0, second->output(0));  // now a cycle
  second->set_name("loop_me");
  try {
    g.sort_topologically();
    FAIL() << "expected a cycle error";
  } catch (const ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find("cycle"), std::string::npos) << e.what();
  }
}

TEST(Graph, SubgraphCapturesCountForOrderingAndAreDroppedOnErase) {
  Graph g;
  Value* x = g.add_input("x");
  Node* user = g.append_node("If", {x}, 1);
  Node* producer = g.append_node("Relu", {x}, 1);
  auto branch = std::make_shared<Graph>("then");
  Node* inner = branch->append_node("Identity", {producer->output(0)}, 1);
  branch->outputs().push_back(inner->output(0));
  user->set_attribute(Attribute::make_graph("then_branch", branch));
  EXPECT_EQ(branch->parent_node(), user);
  EXPECT_EQ(branch->parent_graph(), &g);
  g.sort_topologically();
  EXPECT_EQ(g.first_node(), producer);
  g.erase(user);
  EXPECT_TRUE(producer->output(0)->uses().empty());
}

TEST(Graph, ASubgraphReplacedOrRemovedGivesBackItsUsesOfOuterValues) {
  Graph g;
  Value* x = g.add_input("x");
  Node* user = g.append_node("If", {x}, 1);
  // A branch whose nodes read `x`, one of them inside a nested branch.
  const auto branch_reading_x = [&](const char* name) {
    auto branch = std::make_shared<Graph>(name);
    Node* inner = branch->append_node("Identity", {x}, 1);
    auto nested = std::make_shared<Graph>("nested");
    nested->outputs().push_back(nested->append_node("Neg", {x}, 1)->output(0));
    inner->set_attribute(Attribute::make_graph("body", nested));
    branch->outputs().push_back(inner->output(0));
    return branch;
  };
  user->set_attribute(Attribute::make_graph("then_branch", branch_reading_x("first")));
  EXPECT_EQ(x->uses().size(), 3u);  // If, and the two branch nodes
  // Replaced: the first branch dies, and with it its two uses of `x`.
  user->set_attribute(Attribute::make_graph("then_branch", branch_reading_x("second")));
  EXPECT_EQ(x->uses().size(), 3u);
  for (const Use& use : x->uses()) EXPECT_NE(use.node->op_type(), "");  // no freed node
  // Removed: the same.
  EXPECT_TRUE(user->remove_attribute("then_branch"));
  ASSERT_EQ(x->uses().size(), 1u);
  EXPECT_EQ(x->uses()[0].node, user);
  // A branch another node still holds keeps its uses.
  auto shared = branch_reading_x("shared");
  user->set_attribute(Attribute::make_graph("else_branch", shared));
  EXPECT_TRUE(user->remove_attribute("else_branch"));
  EXPECT_EQ(x->uses().size(), 3u);
}

TEST(Tensor, SharesStorageAndClones) {
  Tensor t(DataType::kFloat, {2, 3});
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.nbytes(), 24u);
  Tensor alias = t;
  alias.data<float>()[4] = 2.5f;
  EXPECT_EQ(t.data<float>()[4], 2.5f);
  Tensor copy = t.clone();
  copy.data<float>()[4] = 1.0f;
  EXPECT_EQ(t.data<float>()[4], 2.5f);
  EXPECT_THROW(t.reshaped({4}), ValidationError);
  EXPECT_EQ(t.reshaped({6}).shape(), std::vector<int64_t>{6});
}

TEST(Tensor, PacksFourBitTypesAndRejectsBadShapes) {
  Tensor t(DataType::kInt4, {3});
  EXPECT_EQ(t.nbytes(), 2u);
  EXPECT_THROW(Tensor(DataType::kFloat, {2, -1}), ValidationError);
  EXPECT_THROW(Tensor(DataType::kFloat, {int64_t{1} << 40, int64_t{1} << 40}), ValidationError);
  auto small = allocate_storage(4);
  EXPECT_THROW(Tensor(DataType::kFloat, {2}, small), ValidationError);
}

TEST(Tensor, StringTensorsHoldStrings) {
  Tensor t(DataType::kString, {2});
  t.data<std::string>()[1] = "hello";
  Tensor copy = t.clone();
  EXPECT_TRUE(copy.same_contents(t));
  copy.data<std::string>()[1] = "other";
  EXPECT_FALSE(copy.same_contents(t));
}

TEST(Type, PrintsAndCompares) {
  Type seq = Type::sequence(Type::tensor(DataType::kInt64, Shape{}));
  EXPECT_EQ(seq.to_string(), "seq(int64[])");
  EXPECT_EQ(seq, Type::sequence(Type::tensor(DataType::kInt64, Shape{})));
  EXPECT_NE(seq, Type::sequence(Type::tensor(DataType::kInt64)));
  EXPECT_EQ(Type::tensor(DataType::kFloat, Shape{Dim("N"), Dim(3), Dim()}).to_string(),
            "float[N,3,?]");
  EXPECT_EQ(min_ir_version(Type::optional(Type::tensor(DataType::kFloat))), 8);
  EXPECT_EQ(min_ir_version(Type::tensor(DataType::kInt4)), 10);
}

TEST(Shape, CopiesShareDimensionsUntilOneChanges) {
  Shape a{Dim("N"), Dim(3)};
  const Shape b = a;  // shares a's list
  EXPECT_EQ(a.data(), b.data());
  a.set(1, Dim(4));  // a gets a list of its own; b keeps the old one
  EXPECT_NE(a.data(), b.data());
  EXPECT_EQ(b[1].value(), 3);
  EXPECT_EQ(a[1].value(), 4);
  EXPECT_EQ(a[0].symbol(), "N");
  a.push_back(Dim());
  EXPECT_EQ(a.size(), 3u);
  EXPECT_EQ(b.size(), 2u);
  EXPECT_NE(a, b);
  Shape c = b;
  c.push_back(Dim());
  EXPECT_EQ(b.size(), 2u);
  EXPECT_EQ(c.size(), 3u);
  EXPECT_TRUE(c.back().is_unknown());
  EXPECT_EQ(Shape(c.begin(), c.begin() + 2), b);
  EXPECT_EQ(Shape(), Shape(std::vector<Dim>{}));
  EXPECT_THROW(static_cast<void>(b.at(2)), std::out_of_range);
  // A sole owner grows in place, keeping what it had.
  Shape grown;
  for (int64_t i = 0; i < 40; ++i) grown.push_back(Dim(i));
  EXPECT_EQ(grown.size(), 40u);
  EXPECT_EQ(grown[39].value(), 39);
  EXPECT_EQ(grown.to_vector().size(), 40u);
}

TEST(Attribute, TypedAccessNamesTheAttribute) {
  Attribute a = Attribute::make_int("axis", 1);
  EXPECT_EQ(a.as_int(), 1);
  try {
    (void)a.as_float();
    FAIL();
  } catch (const TypeError& e) {
    EXPECT_STREQ(e.what(), "attribute 'axis' is int, not float");
  }
}

}  // namespace
}  // namespace onnxscript::ir

namespace onnxscript::ir {
namespace {
TEST(Tensor, FromValuesAndScalars) {
  Tensor t = Tensor::from<float>({1, 2, 3, 4}, {2, 2});
  EXPECT_EQ(t.dtype(), DataType::kFloat);
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(t.data<float>()[3], 4.0f);
  EXPECT_EQ(Tensor::from<int64_t>({5, 6}).shape(), std::vector<int64_t>{2});
  Tensor s = Tensor::scalar(true);
  EXPECT_EQ(s.dtype(), DataType::kBool);
  EXPECT_EQ(s.rank(), 0);
  EXPECT_THROW(Tensor::from<float>({1, 2, 3}, {2, 2}), ValidationError);
}
TEST(Node, AttributesKeepTheirOrderThroughGrowthReplacementAndRemoval) {
  Graph g;
  Node* n = g.append_node("Op", {}, 1);
  // Five attributes outgrow the first arrays (1, 2, 4 slots) twice over.
  for (int i = 0; i < 5; ++i)
    n->set_attribute(Attribute::make_string("a" + std::to_string(i), std::string(40, 'a' + i)));
  n->set_attribute(Attribute::make_int("a2", 7));  // replaces in place
  ASSERT_TRUE(n->remove_attribute("a1"));
  EXPECT_FALSE(n->remove_attribute("a1"));
  std::vector<std::string> names;
  for (const Attribute& a : n->attributes()) names.push_back(a.name);
  EXPECT_EQ(names, (std::vector<std::string>{"a0", "a2", "a3", "a4"}));
  EXPECT_EQ(n->attribute("a2")->as_int(), 7);
  EXPECT_EQ(n->attribute("a4")->as_string(), std::string(40, 'e'));
  EXPECT_EQ(n->attribute("a1"), nullptr);
  // A tensor attribute holds its storage until the graph dies.
  const Tensor t = Tensor::from<float>({1, 2, 3});
  n->set_attribute(Attribute::make_tensor("value", t));
  EXPECT_EQ(t.storage().use_count(), 2);
}

TEST(Node, AttributesOfManyNodesAreReleasedWithTheGraph) {
  const Tensor t = Tensor::from<float>({1, 2, 3});
  {
    Graph g;
    // Past several arena blocks (4 KiB doubling to 2 MiB).
    for (int i = 0; i < 20000; ++i)
      g.append_node("Constant", {}, 1)->set_attribute(Attribute::make_tensor("value", t));
    EXPECT_EQ(t.storage().use_count(), 20001);
    int seen = 0;
    for (Node* n : g.nodes()) seen += n->attribute("value")->as_tensor().storage() == t.storage();
    EXPECT_EQ(seen, 20000);
  }
  EXPECT_EQ(t.storage().use_count(), 1);
}

TEST(Node, NamesAreSetRenamedAndClearedLikeAString) {
  Graph g;
  Node* n = g.append_node("Relu", {}, 1);
  EXPECT_EQ(n->name(), "");
  n->set_name("");  // stays unnamed without holding an empty name
  EXPECT_EQ(n->name(), "");
  const std::string long_name(100, 'n');  // past std::string's inline storage
  n->set_name(long_name);
  EXPECT_EQ(n->name(), long_name);
  n->set_name("relu_1");
  EXPECT_EQ(n->name(), "relu_1");
  n->set_name("");
  EXPECT_EQ(n->name(), "");
}

TEST(Value, TypesAreSetReplacedAndClearedAndReleasedWithTheGraph) {
  const Shape shape{Dim(3)};
  {
    Graph g;
    Value* v = g.append_node("Relu", {}, 1)->output(0);
    EXPECT_FALSE(v->type().has_value());
    v->set_type(std::nullopt);
    EXPECT_FALSE(v->type().has_value());
    v->set_type(Type::tensor(DataType::kFloat, shape));
    const std::optional<Type>& held = v->type();
    ASSERT_TRUE(held.has_value());
    EXPECT_EQ(*held, Type::tensor(DataType::kFloat, shape));
    v->set_type(Type::tensor(DataType::kInt64));
    // Retyping updates the type in place: a reference taken earlier sees it.
    EXPECT_EQ(held->elem_type, DataType::kInt64);
    EXPECT_FALSE(held->shape.has_value());
    v->set_type(Type::tensor(DataType::kFloat, shape));
    v->set_type(std::nullopt);
    EXPECT_FALSE(v->type().has_value());
    // Many typed values, past the arena's first blocks. Each holds a count on
    // the shared shape, which the graph must release: the sanitizer build's
    // leak check fails this test if a held type is never destroyed.
    for (int i = 0; i < 1000; ++i) {
      Value* out = g.append_node("Relu", {}, 1)->output(0);
      out->set_type(Type::tensor(DataType::kFloat, Shape{Dim("N" + std::string(40, 'x'))}));
      EXPECT_EQ(out->type()->shape->at(0).symbol(), "N" + std::string(40, 'x'));
    }
  }
}

TEST(Node, OperatorTypesAndDomainsAreSharedAcrossGraphsAndThreads) {
  Graph a, b;
  const Node* relu_a = a.append_node("Relu", {}, 1, "com.example");
  const Node* relu_b = b.append_node(std::string("Re") + "lu", {}, 1, std::string("com.example"));
  const Node* neg = a.append_node("Neg", {}, 1);
  EXPECT_EQ(&relu_a->op_type(), &relu_b->op_type());
  EXPECT_EQ(&relu_a->domain(), &relu_b->domain());
  EXPECT_NE(&relu_a->op_type(), &neg->op_type());
  EXPECT_EQ(neg->op_type(), "Neg");
  EXPECT_EQ(neg->domain(), "");
  // Threads interning the same new names at once all get the one copy.
  std::vector<const std::string*> seen(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < seen.size(); ++t) {
    threads.emplace_back([&seen, t] {
      Graph g;
      for (int i = 0; i < 200; ++i) g.append_node("Op" + std::to_string(i), {}, 1);
      seen[t] = &g.append_node("Op7", {}, 1)->op_type();
    });
  }
  for (std::thread& t : threads) t.join();
  for (const std::string* s : seen) EXPECT_EQ(s, seen[0]);
  EXPECT_EQ(*seen[0], "Op7");
}

TEST(Graph, ForEachNodeUnorderedVisitsEveryLiveNodeOnce) {
  Chain c;
  Node* head = c.g.insert_node_before(c.relu, "Identity", {c.x}, 1);
  Node* dead = c.g.append_node("Abs", {c.x}, 1);
  c.g.erase(dead);
  std::vector<const Node*> seen;
  c.g.for_each_node_unordered([&](const Node& n) { seen.push_back(&n); });
  // Creation order, not graph order; the erased node is left out.
  EXPECT_EQ(seen, (std::vector<const Node*>{c.relu, c.neg, head}));
}

TEST(ByteArena, HandsOutAlignedDisjointMemoryAcrossBlocks) {
  ByteArena arena;
  std::vector<std::pair<unsigned char*, size_t>> pieces;
  for (size_t i = 0; i < 2000; ++i) {
    const size_t size = 1 + (i * 37) % 3000;  // many cross a block's end
    const size_t alignment = size_t{1} << (i % 5);
    auto* p = static_cast<unsigned char*>(arena.allocate(size, alignment));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % alignment, 0u);
    std::memset(p, static_cast<int>(i & 0xff), size);
    pieces.emplace_back(p, size);
  }
  // A request larger than any block gets one of its own.
  auto* big = static_cast<unsigned char*>(arena.allocate(3 * kHugePoolBlock, 8));
  std::memset(big, 0x77, 3 * kHugePoolBlock);
  // Nothing overlapped: every piece still holds what was written to it.
  for (size_t i = 0; i < pieces.size(); ++i) {
    const auto [p, size] = pieces[i];
    EXPECT_EQ(p[0], i & 0xff);
    EXPECT_EQ(p[size - 1], i & 0xff);
  }
}

}  // namespace
}  // namespace onnxscript::ir
