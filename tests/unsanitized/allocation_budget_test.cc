// Heap allocations per traced node. Tracing and serializing keep nodes,
// values, names and types in pools and arenas, so a long chain should cost a
// handful of block allocations, not one or more per node. A stray temporary
// on the hot path (a shape copied into a std::vector, say) costs as much as
// the rest of the node, and nothing else would notice it: these tests count
// every operator new in this binary and fail when one per node appears.

// The replacements below pair malloc with free, which is right; GCC sees
// the free where it inlines a delete and cannot see the matching malloc.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include <gtest/gtest.h>

#include "chain.h"
#include "onnxscript/onnxscript.h"

namespace {

std::atomic<long> g_allocations{0};

}  // namespace

// Counting replacements of the global allocation functions. The aligned and
// nothrow forms are left to the library: the code measured here uses neither
// on its hot path, and the default forms of those call these.
void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return ::operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace onnxscript {
namespace {

constexpr int64_t kNodes = 8000;

Tensor weights() {
  std::vector<float> w(16);
  for (int i = 0; i < 16; ++i) w[i] = 0.5f + static_cast<float>(i);
  return Tensor::from_span<float>(w);
}

// Pools and arenas grow by blocks, so a chain of kNodes nodes may take some
// allocations, but far fewer than one per 50 nodes.
constexpr long kBudget = kNodes / 50;

TEST(AllocationBudget, TracingAChainAllocatesBlocksNotNodes) {
  ScopedTraceOptions options({.infer_types = false});
  const Tensor w = weights();
  // A first build warms what is kept between builds (interned operator
  // names, the opset tables, per-thread caches).
  (void)bench::chain_function(w, kNodes).to_model();
  const Function chain = bench::chain_function(w, kNodes);
  const long before = g_allocations.load();
  const ir::Model model = chain.to_model();
  const long during = g_allocations.load() - before;
  ASSERT_EQ(model.graph().num_nodes(), static_cast<size_t>(kNodes));
  ASSERT_EQ(model.graph().initializers().size(), static_cast<size_t>(kNodes / 2));
  EXPECT_LT(during, kBudget) << during << " allocations to trace " << kNodes << " nodes";
}

TEST(AllocationBudget, SerializingAChainAllocatesBlocksNotNodes) {
  ScopedTraceOptions options({.infer_types = false});
  const ir::Model model = bench::chain_function(weights(), kNodes).to_model();
  // The first serialization sizes the encoder's working memory, which the
  // thread keeps for the next one.
  const size_t first = serde::serialize_model(model).size();
  const long before = g_allocations.load();
  const std::string bytes = serde::serialize_model(model);
  const long during = g_allocations.load() - before;
  ASSERT_EQ(bytes.size(), first);
  // The output string is allocated inside the library: seeing it shows that
  // the counter sees the library's allocations, so the budget means something.
  EXPECT_GE(during, 1);
  EXPECT_LT(during, kBudget) << during << " allocations to serialize " << kNodes << " nodes";
}

}  // namespace
}  // namespace onnxscript
