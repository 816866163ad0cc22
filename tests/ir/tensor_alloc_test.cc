// Tensor allocation: uninitialized tensors, and the buffer pool sessions use.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "onnxscript/ir/tensor.h"

namespace onnxscript::ir {
namespace {

TEST(TensorAlloc, UninitializedHasTheShapeAndZeroesWhatMustBeZero) {
  Tensor f = Tensor::uninitialized(DataType::kFloat, {3, 5});
  EXPECT_EQ(f.numel(), 15);
  EXPECT_EQ(f.nbytes(), 60u);
  ASSERT_NE(f.raw_data(), nullptr);
  // Strings are constructed, and sub-byte elements (ORed into shared bytes by
  // their writers) start from zero.
  Tensor s = Tensor::uninitialized(DataType::kString, {2});
  EXPECT_EQ(s.data<std::string>()[1], "");
  Tensor i4 = Tensor::uninitialized(DataType::kInt4, {300});
  for (size_t b = 0; b < i4.nbytes(); ++b) ASSERT_EQ(i4.data<uint8_t>()[b], 0) << b;
}

TEST(BufferPool, GivesBackAndReusesBuffersBySize) {
  BufferPool pool;
  std::byte* a = pool.acquire(100000);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  pool.release(a, 100000);
  EXPECT_GE(pool.cached_bytes(), 100000u);
  // A request of the same size class gets the same buffer back.
  EXPECT_EQ(pool.acquire(100001), a);
  EXPECT_EQ(pool.cached_bytes(), 0u);
  pool.release(a, 100001);
}

TEST(BufferPool, KeepsNoMoreThanItsLimit) {
  BufferPool pool(1 << 20);
  std::byte* a = pool.acquire(800000);
  std::byte* b = pool.acquire(800000);
  pool.release(a, 800000);
  pool.release(b, 800000);  // beyond the limit: freed
  EXPECT_LE(pool.cached_bytes(), size_t{1} << 20);
  EXPECT_GT(pool.cached_bytes(), 0u);
}

TEST(BufferPool, ScopeRoutesTensorStorageThroughThePool) {
  auto pool = std::make_shared<BufferPool>();
  const void* first = nullptr;
  {
    BufferPoolScope scope(pool);
    Tensor t(DataType::kFloat, {1000});
    first = t.raw_data();
    t.data<float>()[7] = 3.0f;
  }
  EXPECT_GE(pool->cached_bytes(), 4000u) << "the storage went back to the pool";
  {
    BufferPoolScope scope(pool);
    // A zero-filled tensor from a reused buffer is zero-filled all the same.
    Tensor t(DataType::kFloat, {1000});
    EXPECT_EQ(t.raw_data(), first);
    for (int64_t i = 0; i < t.numel(); ++i) ASSERT_EQ(t.data<float>()[i], 0.0f) << i;
  }
  // Outside any scope the system allocator serves, and a tensor that
  // outlives its scope gives its buffer back when it goes.
  Tensor outside(DataType::kFloat, {1000});
  EXPECT_NE(outside.raw_data(), first);
  Tensor kept;
  {
    BufferPoolScope scope(pool);
    kept = Tensor(DataType::kFloat, {1000});
  }
  const size_t before = pool->cached_bytes();
  kept = Tensor();
  EXPECT_GT(pool->cached_bytes(), before);
  // Small tensors are stored inline, never in the pool.
  {
    BufferPoolScope scope(pool);
    const size_t cached = pool->cached_bytes();
    Tensor small(DataType::kFloat, {4});
    EXPECT_EQ(pool->cached_bytes(), cached);
  }
}

}  // namespace
}  // namespace onnxscript::ir
