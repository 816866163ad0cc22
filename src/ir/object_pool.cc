#include "onnxscript/ir/object_pool.h"
#include "ir/object_pool_config.h"

#include <cstdint>
#include <mutex>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

// Under AddressSanitizer every block comes from operator new, so that the
// sanitizer watches pool memory (and LeakSanitizer sees the heap pointers
// that objects in it hold).
#if defined(__SANITIZE_ADDRESS__)
#define ONNXSCRIPT_POOL_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ONNXSCRIPT_POOL_SANITIZED 1
#endif
#endif
#if defined(__linux__) && defined(MADV_HUGEPAGE) && !defined(ONNXSCRIPT_POOL_SANITIZED)
#define ONNXSCRIPT_POOL_HUGE_PAGES 1
#endif

namespace onnxscript::ir {

#if defined(ONNXSCRIPT_POOL_HUGE_PAGES)
namespace {

// Blocks of more than half a huge page take a whole one: less would waste
// most of it.
bool takes_huge_page(size_t bytes) { return bytes > kHugePoolBlock / 2 && bytes <= kHugePoolBlock; }

// Huge blocks that dead graphs gave back, kept for the next graph. Faulting a
// huge page in means the kernel zeroing 2 MiB: when a program builds one
// large graph after another, that zeroing was a tenth of the building time.
// A kept block is marked MADV_FREE, so the kernel may still take its pages
// back under memory pressure (the next use then faults in fresh zeroed
// pages); until then, reusing it costs nothing. At most the retention limit
// (set_pool_retention_bytes) is kept; beyond it, blocks are unmapped.
class KeptBlocks {
 public:
  void* take() {
    std::lock_guard lock(mutex_);
    if (blocks_.empty()) return nullptr;
    void* block = blocks_.back();
    blocks_.pop_back();
    return block;
  }
  bool keep(void* block) noexcept {
    std::lock_guard lock(mutex_);
    if ((blocks_.size() + 1) * kHugePoolBlock > limit_) return false;
    try {
      blocks_.push_back(block);
    } catch (const std::bad_alloc&) {
      return false;
    }
    madvise(block, kHugePoolBlock, MADV_FREE);
    return true;
  }
  // Lowers or raises the limit; blocks over a lower one are unmapped now.
  void set_limit(size_t bytes) {
    std::lock_guard lock(mutex_);
    limit_ = bytes;
    while (blocks_.size() * kHugePoolBlock > limit_) {
      munmap(blocks_.back(), kHugePoolBlock);
      blocks_.pop_back();
    }
  }
  size_t limit() {
    std::lock_guard lock(mutex_);
    return limit_;
  }
  size_t kept_bytes() {
    std::lock_guard lock(mutex_);
    return blocks_.size() * kHugePoolBlock;
  }

 private:
  std::mutex mutex_;
  std::vector<void*> blocks_;
  size_t limit_ = kDefaultPoolRetentionBytes;
};

// Never destroyed: graphs that outlive main() may still give blocks back.
KeptBlocks& kept_blocks() {
  static auto* kept = new KeptBlocks;
  return *kept;
}

}  // namespace
#endif

// Nothing is kept where pool blocks are not huge pages.
#if defined(ONNXSCRIPT_POOL_HUGE_PAGES)
void set_pool_retention_bytes(size_t bytes) { kept_blocks().set_limit(bytes); }
size_t pool_retention_bytes() { return kept_blocks().limit(); }
size_t pool_retained_bytes() { return kept_blocks().kept_bytes(); }
#else
void set_pool_retention_bytes(size_t) {}
size_t pool_retention_bytes() { return 0; }
size_t pool_retained_bytes() { return 0; }
#endif

bool huge_pool_blocks_enabled() {
#if defined(ONNXSCRIPT_POOL_HUGE_PAGES)
  return true;
#else
  return false;
#endif
}

// A big graph's nodes and values fill hundreds of megabytes, and every 4 KiB
// page of it is faulted in one by one the first time the graph is built: in a
// profile of building a 100,000-node chain, page faults were the largest
// single cost. A huge page is faulted in once. The kernel only backs an
// aligned 2 MiB range with one, so a huge block maps twice the size and gives
// back the unaligned ends. Everything else, and every system without
// madvise(MADV_HUGEPAGE), uses operator new.
void* allocate_pool_block(size_t bytes) {
#if defined(ONNXSCRIPT_POOL_HUGE_PAGES)
  if (takes_huge_page(bytes)) {
    if (void* kept = kept_blocks().take()) return kept;
    const size_t span = 2 * kHugePoolBlock;
    void* mapped = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    const auto start = reinterpret_cast<uintptr_t>(mapped);
    const uintptr_t aligned = (start + kHugePoolBlock - 1) & ~(uintptr_t{kHugePoolBlock} - 1);
    if (aligned > start) munmap(mapped, aligned - start);
    const uintptr_t tail = aligned + kHugePoolBlock;
    if (tail < start + span) munmap(reinterpret_cast<void*>(tail), start + span - tail);
    // Advice only: where huge pages are off, the block is ordinary memory.
    madvise(reinterpret_cast<void*>(aligned), kHugePoolBlock, MADV_HUGEPAGE);
    return reinterpret_cast<void*>(aligned);
  }
#endif
  return ::operator new(bytes);
}

void free_pool_block(void* block, size_t bytes) noexcept {
#if defined(ONNXSCRIPT_POOL_HUGE_PAGES)
  if (takes_huge_page(bytes)) {
    if (!kept_blocks().keep(block)) munmap(block, kHugePoolBlock);
    return;
  }
#else
  (void)bytes;  // only huge-page blocks are told apart by size
#endif
  ::operator delete(block);
}

}  // namespace onnxscript::ir
