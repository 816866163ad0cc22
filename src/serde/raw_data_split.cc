// The wire walk behind fast loading; see raw_data_split.h. Field numbers are
// onnx.proto's: ModelProto.graph = 7, GraphProto.initializer = 5,
// TensorProto.raw_data = 9.

#include "serde/raw_data_split.h"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>

namespace onnxscript::serde::detail {
namespace {

constexpr uint32_t kModelGraph = 7;
constexpr uint32_t kGraphInitializer = 5;
constexpr uint32_t kTensorRawData = 9;

constexpr uint32_t kWireVarint = 0;
constexpr uint32_t kWireFixed64 = 1;
constexpr uint32_t kWireLengthDelimited = 2;
constexpr uint32_t kWireFixed32 = 5;

// Lifted payloads start on this boundary inside the arena (the alignment of
// the project's own tensor storage).
constexpr size_t kArenaAlignment = 64;

// One field of a message: [begin, value) is its tag (and length prefix),
// [value, end) its value.
struct Field {
  uint32_t number = 0;
  uint32_t wire = 0;
  size_t begin = 0;
  size_t value = 0;
  size_t end = 0;
};

// Reads a varint at `*pos`, not past `limit`. False when it is cut off or
// longer than ten bytes.
bool read_varint(std::string_view bytes, size_t* pos, size_t limit, uint64_t* out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*pos >= limit) return false;
    const auto b = static_cast<uint8_t>(bytes[(*pos)++]);
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) {
      *out = v;
      return true;
    }
  }
  return false;
}

// Reads the field at `*pos` and moves past it. False on anything protobuf
// might read differently or reject: a cut-off field, field number 0, groups,
// unknown wire types.
bool next_field(std::string_view bytes, size_t* pos, size_t limit, Field* f) {
  f->begin = *pos;
  uint64_t tag = 0;
  if (!read_varint(bytes, pos, limit, &tag) || tag > UINT32_MAX) return false;
  f->number = static_cast<uint32_t>(tag >> 3);
  f->wire = static_cast<uint32_t>(tag & 7);
  if (f->number == 0) return false;
  uint64_t skip = 0;
  switch (f->wire) {
    case kWireVarint: {
      uint64_t ignored = 0;
      f->value = *pos;
      if (!read_varint(bytes, pos, limit, &ignored)) return false;
      f->end = *pos;
      return true;
    }
    case kWireFixed64:
      skip = 8;
      break;
    case kWireFixed32:
      skip = 4;
      break;
    case kWireLengthDelimited:
      if (!read_varint(bytes, pos, limit, &skip)) return false;
      break;
    default:
      return false;
  }
  f->value = *pos;
  if (skip > limit - *pos) return false;
  *pos += static_cast<size_t>(skip);
  f->end = *pos;
  return true;
}

void append_varint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

void append_tag(std::string* out, uint32_t number, uint32_t wire) {
  append_varint(out, (uint64_t{number} << 3) | wire);
}

// An initializer whose raw_data is lifted: the initializer field, and its
// raw_data field inside it.
struct Lift {
  size_t initializer = 0;  // index among the graph's initializers
  Field tensor;
  Field raw;
};

size_t round_up(size_t n) { return (n + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment; }

// The huge page size of x86-64 and arm64 with 4 KiB base pages.
constexpr size_t kHugePage = size_t{2} << 20;

// The arena: an anonymous private mapping whose bytes start at its first
// 2 MiB boundary, advised to use transparent huge pages, so that filling it
// takes one page fault per 2 MiB instead of one per 4 KiB (on this project's
// VM, 100 MB copied into it took 9 ms against 42 ms into malloc'd memory;
// but see fill()).
// Writable; unmapped when the last tensor over it goes.
class Arena final : public ir::Storage {
 public:
  explicit Arena(size_t size) : Storage(nullptr, size) {
    // One huge page more than needed, so that a 2 MiB-aligned start fits.
    mapped_ = (std::max<size_t>(size, 1) + kHugePage - 1) / kHugePage * kHugePage + kHugePage;
    void* addr =
        ::mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (addr == MAP_FAILED) throw std::bad_alloc();
    base_ = static_cast<std::byte*>(addr);
    const auto at = reinterpret_cast<uintptr_t>(base_);
    data_ = base_ + (kHugePage - at % kHugePage) % kHugePage;
#ifdef MADV_HUGEPAGE
    // Advice only: without transparent huge pages the arena still works,
    // with 4 KiB pages.
    ::madvise(data_, mapped_ - static_cast<size_t>(data_ - base_), MADV_HUGEPAGE);
#endif
    page_start_ = std::chrono::steady_clock::now();
  }
  ~Arena() override { ::munmap(base_, mapped_); }

  // Copies `n` bytes from `src` to `at` bytes into the arena. Calls must fill
  // the arena front to back.
  //
  // Huge pages are not always cheap. On a VM whose free 2 MiB blocks were
  // handed back to the host (virtio-balloon free page reporting), zeroing a
  // fresh huge page on first touch ran at 0.3-0.5 GB/s, three times slower
  // than faulting the same memory in 4 KiB pages; memory freed shortly before
  // fills at about 10 GB/s. So each huge page's fill is timed, and after one
  // that filled slower than kSlowHugePage the rest of the arena is advised
  // back to 4 KiB pages. The bytes are the same either way.
  void fill(size_t at, const char* src, size_t n) {
    while (n > 0) {
      const size_t page = at / kHugePage;
      if (page != page_) next_page(page);
      const size_t piece = std::min(n, (page + 1) * kHugePage - at);
      std::memcpy(data_ + at, src, piece);
      at += piece;
      src += piece;
      n -= piece;
    }
  }

 private:
  // Called when the fill moves on to huge page `page`, every page before it
  // filled: switches to 4 KiB pages when those pages filled slowly.
  void next_page(size_t page) {
    const auto now = std::chrono::steady_clock::now();
    if (huge_ && now - page_start_ > kSlowHugePage * static_cast<int>(page - page_)) {
      huge_ = false;
#ifdef MADV_NOHUGEPAGE
      const size_t from = page * kHugePage;
      if (from < size_) ::madvise(data_ + from, size_ - from, MADV_NOHUGEPAGE);
#endif
    }
    page_ = page;
    page_start_ = now;
  }

  // A huge page filled slower than this (2 GB/s) filled slower than 4 KiB
  // pages would have (0.8-1.8 GB/s on the VM above, against about 10 GB/s
  // for warm huge pages and 0.3-0.5 cold ones: the threshold sits in the gap).
  static constexpr auto kSlowHugePage = std::chrono::microseconds(1000);

  std::byte* base_ = nullptr;
  size_t mapped_ = 0;
  bool huge_ = true;
  size_t page_ = 0;  // the huge page being filled, since page_start_
  std::chrono::steady_clock::time_point page_start_;
};

}  // namespace

bool split_model_bytes(std::string_view bytes, SplitModel* out) {
  // The model's graph field; protobuf merges repeated occurrences of a
  // message field, which the walk does not follow, so a second one is left
  // to protobuf.
  Field graph;
  bool has_graph = false;
  for (size_t pos = 0; pos < bytes.size();) {
    Field f;
    if (!next_field(bytes, &pos, bytes.size(), &f)) return false;
    if (f.number != kModelGraph) continue;
    if (f.wire != kWireLengthDelimited || has_graph) return false;
    graph = f;
    has_graph = true;
  }
  if (!has_graph) return false;

  std::vector<Lift> lifts;
  size_t initializers = 0;
  size_t arena_bytes = 0;   // with each payload's start rounded to 64
  size_t lifted_bytes = 0;  // the payloads alone
  for (size_t pos = graph.value; pos < graph.end;) {
    Field f;
    if (!next_field(bytes, &pos, graph.end, &f)) return false;
    if (f.number != kGraphInitializer) continue;
    if (f.wire != kWireLengthDelimited) return false;
    Field raw;
    int raw_fields = 0;
    for (size_t tpos = f.value; tpos < f.end;) {
      Field t;
      if (!next_field(bytes, &tpos, f.end, &t)) return false;
      if (t.number != kTensorRawData) continue;
      // protobuf keeps the last of repeated raw_data fields; rare enough to
      // leave to it.
      if (t.wire != kWireLengthDelimited || ++raw_fields > 1) return false;
      raw = t;
    }
    if (raw_fields == 1 && raw.end - raw.value >= kMinLiftedRawData) {
      lifts.push_back({initializers, f, raw});
      arena_bytes += round_up(raw.end - raw.value);
      lifted_bytes += raw.end - raw.value;
    }
    ++initializers;
  }
  if (lifts.empty()) return false;

  // The graph with each lifted tensor re-encoded around an empty raw_data.
  std::string graph_bytes;
  graph_bytes.reserve(graph.end - graph.value - lifted_bytes + lifts.size() * 16);
  size_t from = graph.value;
  for (const Lift& l : lifts) {
    graph_bytes.append(bytes.substr(from, l.tensor.begin - from));
    const size_t tensor_size = (l.tensor.end - l.tensor.value) - (l.raw.end - l.raw.begin) + 2;
    append_tag(&graph_bytes, kGraphInitializer, kWireLengthDelimited);
    append_varint(&graph_bytes, tensor_size);
    graph_bytes.append(bytes.substr(l.tensor.value, l.raw.begin - l.tensor.value));
    append_tag(&graph_bytes, kTensorRawData, kWireLengthDelimited);
    append_varint(&graph_bytes, 0);
    graph_bytes.append(bytes.substr(l.raw.end, l.tensor.end - l.raw.end));
    from = l.tensor.end;
  }
  graph_bytes.append(bytes.substr(from, graph.end - from));

  SplitModel split;
  split.skeleton.reserve(bytes.size() - (graph.end - graph.value) + graph_bytes.size() + 16);
  split.skeleton.append(bytes.substr(0, graph.begin));
  append_tag(&split.skeleton, kModelGraph, kWireLengthDelimited);
  append_varint(&split.skeleton, graph_bytes.size());
  split.skeleton.append(graph_bytes);
  split.skeleton.append(bytes.substr(graph.end));

  // One arena for all payloads: one mapping, filled at huge-page speed, and
  // every payload 64-byte aligned whatever its offset in the file.
  auto arena = std::make_shared<Arena>(arena_bytes);
  split.initializer_raw_data.resize(initializers);
  size_t at = 0;
  for (const Lift& l : lifts) {
    const size_t n = l.raw.end - l.raw.value;
    arena->fill(at, bytes.data() + l.raw.value, n);
    split.initializer_raw_data[l.initializer] = ir::borrow_storage(arena->data() + at, n, arena);
    at += round_up(n);
  }
  *out = std::move(split);
  return true;
}

}  // namespace onnxscript::serde::detail
