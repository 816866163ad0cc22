// Huge-page pool blocks (src/ir/object_pool.cc). A build with AddressSanitizer
// keeps every pool block on operator new so that the sanitizer sees it, so
// the huge-page path exists only in a build without sanitizers, and these
// tests live in the binary that only such a build makes.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "ir/object_pool_config.h"
#include "onnxscript/ir/object_pool.h"

namespace onnxscript::ir {
namespace {

TEST(HugePagePool, IsOnInABuildWithoutSanitizers) {
#if defined(__linux__)
  EXPECT_TRUE(huge_pool_blocks_enabled());
#else
  GTEST_SKIP() << "huge-page pool blocks are Linux only";
#endif
}

TEST(HugePagePool, AHugeBlockIsAlignedWritableAndFreed) {
  // A block of more than half a huge page takes a whole, aligned one.
  void* block = allocate_pool_block(kHugePoolBlock - 64);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % kHugePoolBlock, 0u);
  std::memset(block, 0xab, kHugePoolBlock - 64);
  free_pool_block(block, kHugePoolBlock - 64);
  void* small = allocate_pool_block(4096);
  std::memset(small, 0, 4096);
  free_pool_block(small, 4096);
}

TEST(HugePagePool, AFreedHugeBlockServesTheNextOne) {
  void* first = allocate_pool_block(kHugePoolBlock);
  std::memset(first, 0x5a, kHugePoolBlock);
  free_pool_block(first, kHugePoolBlock);
  // The block was kept rather than unmapped: the next huge block is the same
  // memory, still mapped and writable end to end.
  void* second = allocate_pool_block(kHugePoolBlock);
  EXPECT_EQ(second, first);
  std::memset(second, 0x3c, kHugePoolBlock);
  EXPECT_EQ(static_cast<unsigned char*>(second)[kHugePoolBlock - 1], 0x3c);
  free_pool_block(second, kHugePoolBlock);
}

}  // namespace
}  // namespace onnxscript::ir
