#include "ir/interned_string.h"

#include <array>
#include <cstdint>
#include <mutex>
#include <unordered_set>

namespace onnxscript::ir::detail {

namespace {

// FNV-1a: operator names are short, and this runs once per node built.
uint64_t hash_text(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const char c : text) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return h;
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
  thread_local std::array<const std::string*, kCacheSlots> cache{};
  const std::string*& slot = cache[hash_text(text) % kCacheSlots];
  if (slot == nullptr || *slot != text) slot = &table().intern(text);
  return *slot;
}

}  // namespace onnxscript::ir::detail
