#include "ir/interned_string.h"

#include <array>
#include <cstddef>
#include <mutex>
#include <unordered_set>

namespace onnxscript::ir::detail {

namespace {

// Picks a cache slot. Not a general-purpose hash: it reads only the length
// and three characters, which tells apart the handful of operator types a
// program builds over and over, and costs a few instructions per node. A
// collision only sends a lookup to the locked table.
size_t cache_slot(std::string_view text, size_t slots) {
  const size_t n = text.size();
  const auto at = [&](size_t i) {
    return static_cast<size_t>(static_cast<unsigned char>(text[i]));
  };
  const size_t h = n * 0x9e37 ^ at(0) * 0x85eb ^ at(n / 2) * 0xc2b3 ^ at(n - 1);
  return (h ^ (h >> 7)) % slots;
}

// Every interned string. Node-based, so addresses stay put as it grows; never
// destroyed, since graphs that outlive main() still point into it.
class InternTable {
 public:
  const std::string& intern(std::string_view text) {
    std::lock_guard lock(mutex_);
    return *strings_.emplace(text).first;
  }

 private:
  std::mutex mutex_;
  std::unordered_set<std::string> strings_;
};

InternTable& table() {
  static auto* strings = new InternTable;
  return *strings;
}

}  // namespace

const std::string& intern(std::string_view text) {
  // A per-thread cache in front of the locked table: a program builds nodes
  // of a handful of operator types over and over, so nearly every lookup hits
  // here and takes no lock.
  constexpr size_t kCacheSlots = 64;
  // The default domain comes with nearly every node.
  static const std::string& empty = table().intern({});
  if (text.empty()) return empty;
  thread_local std::array<const std::string*, kCacheSlots> cache{};
  const std::string*& slot = cache[cache_slot(text, kCacheSlots)];
  if (slot == nullptr || *slot != text) slot = &table().intern(text);
  return *slot;
}

}  // namespace onnxscript::ir::detail
