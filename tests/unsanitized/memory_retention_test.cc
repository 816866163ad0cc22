// What the library keeps after a graph dies and after a model is written,
// and the settings that bound it (ir::set_pool_retention_bytes,
// serde::set_encoder_scratch_retention_bytes). Here, because only a build
// without sanitizers keeps huge pool blocks at all.

#include <gtest/gtest.h>

#include <vector>

#include "onnxscript/ir/ir.h"
#include "onnxscript/ir/object_pool.h"
#include "onnxscript/serde/serde.h"

namespace onnxscript {
namespace {

// Restores the process-wide settings a test changes.
struct RestoreRetention {
  ~RestoreRetention() {
    ir::set_pool_retention_bytes(ir::kDefaultPoolRetentionBytes);
    serde::set_encoder_scratch_retention_bytes(serde::kDefaultEncoderScratchRetentionBytes);
  }
};

// Allocates `n` huge pool blocks and frees them all.
void churn_huge_blocks(int n) {
  std::vector<void*> blocks;
  for (int i = 0; i < n; ++i) blocks.push_back(ir::allocate_pool_block(ir::kHugePoolBlock));
  for (void* b : blocks) ir::free_pool_block(b, ir::kHugePoolBlock);
}

TEST(MemoryRetention, PoolsKeepAtMostTheLimitAndSmallByDefault) {
  RestoreRetention restore;
  EXPECT_EQ(ir::pool_retention_bytes(), size_t{16} << 20);
  churn_huge_blocks(40);  // 80 MiB of blocks given back
  EXPECT_LE(ir::pool_retained_bytes(), size_t{16} << 20);
  EXPECT_GT(ir::pool_retained_bytes(), 0u);  // the default keeps some for the next graph

  ir::set_pool_retention_bytes(ir::kHugePoolBlock * 2);
  EXPECT_EQ(ir::pool_retained_bytes(), ir::kHugePoolBlock * 2);  // lowered: the rest unmapped now
  churn_huge_blocks(5);
  EXPECT_EQ(ir::pool_retained_bytes(), ir::kHugePoolBlock * 2);

  ir::set_pool_retention_bytes(0);
  EXPECT_EQ(ir::pool_retained_bytes(), 0u);
  churn_huge_blocks(5);
  EXPECT_EQ(ir::pool_retained_bytes(), 0u);
}

TEST(MemoryRetention, AGraphGivesItsBlocksBackUnderALimitOfZero) {
  RestoreRetention restore;
  ir::set_pool_retention_bytes(0);
  {
    ir::Graph g("big");
    ir::Value* v = g.add_input("x");
    for (int i = 0; i < 200000; ++i) v = g.append_node("Relu", {v}, 1)->output(0);
    g.outputs().push_back(v);
  }
  EXPECT_EQ(ir::pool_retained_bytes(), 0u);
}

// A chain long enough that the encoder's name tables take megabytes.
ir::Model long_chain(int nodes) {
  ir::Model model;
  model.opset_imports.set("", 17);
  ir::Graph& g = model.graph();
  ir::Value* v = g.add_input("x", ir::Type::tensor(ir::DataType::kFloat, ir::Shape{4}));
  for (int i = 0; i < nodes; ++i) {
    ir::Node* n = g.append_node("Relu", {v}, 1);
    n->output(0)->set_name("v" + std::to_string(i));
    v = n->output(0);
  }
  g.outputs().push_back(v);
  return model;
}

TEST(MemoryRetention, TheEncoderKeepsItsScratchOnlyUpToTheLimit) {
  RestoreRetention restore;
  EXPECT_EQ(serde::encoder_scratch_retention_bytes(), size_t{16} << 20);
  const ir::Model model = long_chain(100000);
  (void)serde::serialize_model(model);
  const size_t kept = serde::encoder_scratch_retained_bytes();
  EXPECT_GT(kept, 0u);
  EXPECT_LE(kept, size_t{16} << 20);

  serde::set_encoder_scratch_retention_bytes(0);
  EXPECT_EQ(serde::encoder_scratch_retained_bytes(), 0u);  // this thread's, freed at once
  (void)serde::serialize_model(model);
  EXPECT_EQ(serde::encoder_scratch_retained_bytes(), 0u);
}

}  // namespace
}  // namespace onnxscript
