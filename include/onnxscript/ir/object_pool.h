#pragma once
/// \file
/// ObjectPool: where a Graph keeps its nodes and values. A graph never frees
/// a node or value before it dies itself (erase() only unlinks, so iterators
/// stay valid), so they can live in large blocks, side by side in creation
/// order: one allocation per block instead of one per object, and a walk over
/// a graph's nodes touches memory in order.

#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace onnxscript::ir {

/// The size of the largest pool blocks: one huge page (2 MiB on x86-64 and
/// most arm64 kernels).
inline constexpr size_t kHugePoolBlock = size_t{2} << 20;

/// Memory for one pool block of `bytes`, aligned for any object. A block of
/// more than half of kHugePoolBlock bytes (and no more) is one aligned huge page where the system
/// offers them (Linux transparent huge pages): a graph of a million nodes then takes a few hundred
/// page faults to grow instead of a few hundred thousand. Throws std::bad_alloc.
void* allocate_pool_block(size_t bytes);
/// Returns a block from allocate_pool_block; `bytes` as given to it.
void free_pool_block(void* block, size_t bytes) noexcept;

/// The default of set_pool_retention_bytes: 16 MiB, eight huge blocks.
inline constexpr size_t kDefaultPoolRetentionBytes = size_t{16} << 20;
/// How many bytes of the huge blocks that dead graphs free the process keeps
/// for the next graph, instead of giving them back to the system (kept
/// blocks are marked MADV_FREE, so the kernel can still reclaim them under
/// pressure). A program that builds one large graph after another builds
/// faster with more (each fresh huge page is zeroed by the kernel when first
/// touched); a service that builds one model and runs for days wants 0.
/// Lowering the limit unmaps what is kept above it at once. Thread-safe.
/// Without huge-page blocks (not Linux, or under AddressSanitizer) nothing
/// is kept and this has no effect.
void set_pool_retention_bytes(size_t bytes);
/// The current limit (0 where nothing is ever kept).
size_t pool_retention_bytes();
/// The bytes kept now.
size_t pool_retained_bytes();

/// Storage for objects of type `T` that all die together, with the pool.
/// The owner constructs each object in place (the IR's constructors are
/// private to Graph): `new (pool.next_slot()) T(...)`, then `pool.commit()`.
template <typename T>
class ObjectPool {
 public:
  ObjectPool() = default;
  ObjectPool(const ObjectPool&) = delete;
  ObjectPool& operator=(const ObjectPool&) = delete;
  /// Destroys every committed object, oldest first.
  ~ObjectPool() {
    each_object([](T* object) { std::destroy_at(object); });
    for (const Block& block : blocks_) free_pool_block(block.slots, block.capacity * sizeof(Slot));
  }

  /// Uninitialized storage for the next object. Calling it again before
  /// commit() returns the same slot, so a constructor that throws leaks nothing.
  void* next_slot() {
    if (blocks_.empty() || used_in_last_ == blocks_.back().capacity) {
      const size_t capacity =
          blocks_.empty() ? kFirstBlock : std::min(2 * blocks_.back().capacity, kLargestBlock);
      // Uninitialized: the slots are constructed into later, zeroing them
      // first would be wasted work.
      blocks_.push_back(
          Block{static_cast<Slot*>(allocate_pool_block(capacity * sizeof(Slot))), capacity});
      used_in_last_ = 0;
    }
    return blocks_.back().slots[used_in_last_].bytes;
  }
  /// Counts the object just constructed in next_slot() and returns it.
  T* commit() {
    T* object = blocks_.back().at(used_in_last_);
    ++used_in_last_;
    ++count_;
    return object;
  }
  /// Number of objects created.
  size_t size() const { return count_; }

  /// Calls `visit(const T&)` on every object, in the order they were
  /// created. That is memory order: on a big pool it reads ahead as fast as
  /// memory streams, where following pointers between objects waits for
  /// each one in turn.
  template <typename Visit>
  void for_each(Visit&& visit) const {
    each_object([&](const T* object) { visit(*object); });
  }

 private:
  // Calls `f(T*)` on every committed object, oldest first.
  template <typename F>
  void each_object(F&& f) const {
    size_t left = count_;
    for (const Block& block : blocks_) {
      const size_t n = std::min(left, block.capacity);
      for (size_t i = 0; i < n; ++i) f(block.at(i));
      left -= n;
    }
  }

  struct Slot {
    alignas(T) std::byte bytes[sizeof(T)];
  };
  // Graphs range from a handful of nodes (a function body) to millions. The
  // largest blocks fill a huge page (see allocate_pool_block).
  static constexpr size_t kFirstBlock = 8, kLargestBlock = kHugePoolBlock / sizeof(Slot);
  struct Block {
    Slot* slots;
    size_t capacity;
    T* at(size_t i) const { return std::launder(reinterpret_cast<T*>(slots[i].bytes)); }
  };
  std::vector<Block> blocks_;
  size_t used_in_last_ = 0;
  size_t count_ = 0;
};

/// Raw memory handed out in order from pool blocks and given back all at
/// once when the arena dies. A Graph keeps its nodes' attribute arrays and
/// its initializer tensors here: one allocation per block instead of a malloc
/// and a free per node or weight, and the objects lie side by side in
/// creation order, as the nodes do. The owner destroys whatever it
/// constructed in the memory before the arena dies.
class ByteArena {
 public:
  ByteArena() = default;
  ByteArena(const ByteArena&) = delete;
  ByteArena& operator=(const ByteArena&) = delete;
  ~ByteArena() {
    for (const Block& block : blocks_) free_pool_block(block.bytes, block.size);
  }

  /// `size` bytes aligned to `alignment` (at most alignof(std::max_align_t)),
  /// valid until the arena dies. Throws std::bad_alloc.
  void* allocate(size_t size, size_t alignment) {
    size_t start = (used_ + alignment - 1) & ~(alignment - 1);
    if (blocks_.empty() || start + size > blocks_.back().size) {
      // Each block doubles the last, up to a huge page; a larger request
      // gets a block of its own size.
      const size_t grown =
          blocks_.empty() ? kFirstBlock : std::min(2 * blocks_.back().size, kHugePoolBlock);
      const size_t block_size = std::max(grown, size);
      blocks_.reserve(blocks_.size() + 1);  // so that push_back cannot throw and leak the block
      blocks_.push_back(
          Block{static_cast<std::byte*>(allocate_pool_block(block_size)), block_size});
      start = 0;
    }
    used_ = start + size;
    return blocks_.back().bytes + start;
  }

 private:
  static constexpr size_t kFirstBlock = 4096;
  struct Block {
    std::byte* bytes;
    size_t size;
  };
  std::vector<Block> blocks_;
  size_t used_ = 0;  // bytes used in the last block
};

/// One object constructed in a ByteArena, owned like a std::unique_ptr
/// except for the memory: reset() and the destructor run the object's
/// destructor, and the bytes go back with the arena. A Value keeps its
/// initializer tensor this way, so that a graph of many small weights makes
/// no malloc and free per weight for the box.
template <typename T>
class ArenaBox {
 public:
  ArenaBox() = default;
  ArenaBox(const ArenaBox&) = delete;
  ArenaBox& operator=(const ArenaBox&) = delete;
  ~ArenaBox() { reset(); }

  /// The object, or null.
  T* get() const { return object_; }
  /// Constructs a new object from `args` in `arena`, replacing any old one.
  template <typename... Args>
  void emplace(ByteArena& arena, Args&&... args) {
    reset();
    object_ = new (arena.allocate(sizeof(T), alignof(T))) T(std::forward<Args>(args)...);
  }
  /// Destroys the object, if any.
  void reset() {
    if (object_ != nullptr) std::destroy_at(std::exchange(object_, nullptr));
  }

 private:
  T* object_ = nullptr;
};

}  // namespace onnxscript::ir
