// ir::Model -> ModelProto bytes, directly.
//
// Two writers produce a model's bytes:
//  - The general writer (model_writer.cc) converts the IR to generated
//    protobuf messages and lets protobuf serialize them. It is the reference:
//    it handles everything, including residue (serde/residue.h), external
//    data, and every error with its precise message.
//  - This encoder is the fast path for plain models, which is what the eDSL
//    and most files produce. It writes the bytes straight into a string, in
//    the order protobuf's serializer uses (field-number order; proto2
//    repeated scalars unpacked unless the .proto says [packed = true]), with
//    none of the per-message allocation, reflection and sizing.
// Whenever the encoder meets something outside its subset, or a condition
// for which the general writer throws, it gives up ("bails") and the caller
// runs the general writer instead. So error messages, and every case the
// encoder does not know, stay with a single implementation.
//
// The encoder must mean exactly what the general writer means: which fields
// are written when, and which names resolve. tests/serde/wire_encoder_test.cc
// pins byte equality between the two on the ONNX test models, on eDSL models
// and on hand-built graphs that cover every attribute type.
//
// Plain residue: a loaded model keeps, in `unknown_fields`, the fields that
// were present with their default value (`domain: ""`), which the general
// writer re-applies. Nearly every file has some (onnx.helper writes opset
// imports with an explicit empty domain), so the encoder understands those
// presence directives for the singular string and integer fields the writer
// omits when they are empty or zero, and the opset import directive. Any
// other residue (genuine unknown fields, "absent" directives, directives on
// fields the writer decides by itself) makes it bail.
//
// Names: a reference must resolve, through the scopes, to the value itself.
// Most references are to a value of the graph being written, and for those
// the IR already says which value it is (the value's graph, its producer):
// such a reference resolves to it exactly when no other value of that graph
// has the same name. So the encoder records each defined name and checks the
// whole scope for clashes once, at its end, in cache-sized buckets; only the
// references that cross a scope, or that the IR cannot settle, go through a
// name table. See Encoder::resolve for why that is equivalent to
// model_writer.cc's scopes.
//
// Nested messages are written after a one-byte length placeholder; when a
// message turns out to be 128 bytes or longer, its body is moved right to
// make room for the longer length. Only big messages move, once per level of
// nesting, which costs far less than a sizing pass over everything. The main
// graph, most of the output, gets room for the length its size estimate
// predicts, so that it usually does not move.
//
// Memory: on a big graph the time goes to cache misses on the IR (nodes and
// values are scattered heap objects, the node list is linked); NodeWalk
// loads them ahead of use.

#include "serde/wire_encoder.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "onnxscript/serde/serde.h"
#include "onnxscript/wire/onnx.pb.h"

namespace onnxscript::serde::detail {
namespace {

// The most scratch a thread keeps between encoders (see Encoder::Scratch).
std::atomic<size_t>& scratch_retention_limit() {
  static std::atomic<size_t> limit{kDefaultEncoderScratchRetentionBytes};
  return limit;
}

static_assert(std::endian::native == std::endian::little,
              "fixed-width wire values are copied as they lie in memory");

using M = wire::ModelProto;
using G = wire::GraphProto;
using N = wire::NodeProto;
using A = wire::AttributeProto;
using V = wire::ValueInfoProto;
using F = wire::FunctionProto;
using T = wire::TensorProto;

// Thrown inside the encoder when the model leaves the subset it handles;
// caught by encode_model_fast, which then returns false.
struct NotPlain {
  const char* reason;
};

[[noreturn]] void bail(const char* reason) { throw NotPlain{reason}; }

// ---------------------------------------------------------------- wire format

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLen = 2, kFixed32 = 5 };

constexpr uint32_t tag(int field, WireType type) {
  return static_cast<uint32_t>(field) << 3 | type;
}

constexpr size_t varint_size(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

inline char* put_varint(char* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

// Integers as protobuf writes int32, int64 and enum fields: negative values
// sign-extended to 64 bits (ten bytes on the wire).
inline uint64_t as_varint(int64_t v) { return static_cast<uint64_t>(v); }

// Appends bytes to a string that it sizes itself: the string is grown ahead
// (doubling) and cut to the written length by finish(), so each write is a
// bounds check and a copy.
//
// With a splice list, long byte strings (weights) are not copied: the writer
// records where they go and whose bytes they are (spliced_bytes_field), and
// counts them in the lengths of the messages around them, so that writing
// the string's pieces and the spliced bytes in turn gives the very bytes a
// copy would have.
class ByteWriter {
 public:
  // Writes into `*out`, replacing its contents; `expected_size` is a guess
  // of the final size, to spare most regrowing. `splices`, when not null,
  // receives the spliced byte strings, in order.
  ByteWriter(std::string* out, size_t expected_size, std::vector<Splice>* splices = nullptr)
      : out_(out), splices_(splices) {
    out_->clear();
    out_->reserve(expected_size);
    grow(0);
  }

  // The bytes written so far, spliced ones included.
  size_t size() const { return pos_ + spliced_bytes_; }

  // A length-delimited field whose bytes are spliced in, not copied: they
  // must stay alive and unchanged until the output is written out.
  void spliced_bytes_field(uint32_t field_tag, const char* data, size_t length) {
    char* p = room(20);
    p = put_varint(p, field_tag);
    p = put_varint(p, length);
    pos_ = static_cast<size_t>(p - base_);
    splices_->push_back({pos_, data, length});
    spliced_bytes_ += length;
  }

  void varint_field(uint32_t field_tag, uint64_t value) {
    char* p = room(20);
    p = put_varint(p, field_tag);
    pos_ = static_cast<size_t>(put_varint(p, value) - base_);
  }

  void fixed32_field(uint32_t field_tag, uint32_t bits) {
    char* p = put_varint(room(10), field_tag);
    std::memcpy(p, &bits, 4);
    pos_ = static_cast<size_t>(p + 4 - base_);
  }

  void bytes_field(uint32_t field_tag, std::string_view bytes) {
    char* p = room(10 + bytes.size());
    p = put_varint(p, field_tag);
    p = put_varint(p, bytes.size());
    copy(p, bytes.data(), bytes.size());
    pos_ = static_cast<size_t>(p + bytes.size() - base_);
  }

  // A length-delimited field whose `length` bytes the caller writes next,
  // from the returned pointer on, then commit()s.
  char* begin_bytes(uint32_t field_tag, size_t length) {
    char* p = room(10 + length);
    p = put_varint(p, field_tag);
    p = put_varint(p, length);
    pos_ = static_cast<size_t>(p - base_);
    return p;
  }
  // Ends the bytes begun by begin_bytes(), at `end`.
  void commit(const char* end) { pos_ = static_cast<size_t>(end - base_); }

  // Starts a nested message; returns where its body begins, for close().
  size_t open(uint32_t field_tag) {
    char* p = put_varint(room(6), field_tag);
    *p++ = 0;  // length placeholder, right for bodies under 128 bytes
    pos_ = static_cast<size_t>(p - base_);
    return pos_;
  }

  // Starts a nested message expected to be about `expected_length` bytes
  // long, leaving room for that length: when the guess has the right number
  // of varint bytes, close() moves nothing. Worth it for a message that is
  // most of the output (the main graph); one such message at a time.
  size_t open(uint32_t field_tag, size_t expected_length) {
    const size_t reserved = varint_size(expected_length);
    char* p = put_varint(room(5 + reserved), field_tag);
    pos_ = static_cast<size_t>(p - base_) + reserved;
    wide_body_ = pos_;
    wide_length_bytes_ = reserved;
    return pos_;
  }

  // Ends the nested message whose body begins at `body`: writes its length,
  // moving the body when the length needs another number of bytes than the
  // room left for it.
  void close(size_t body) {
    const size_t written = pos_ - body;  // in the buffer
    size_t spliced = 0;                  // spliced into the body
    if (splices_) {
      for (auto it = splices_->rbegin(); it != splices_->rend() && it->at >= body; ++it)
        spliced += it->size;
    }
    const size_t length = written + spliced;
    size_t reserved = 1;
    if (body == wide_body_) {
      reserved = wide_length_bytes_;
      wide_body_ = 0;
    }
    if (length < 0x80 && reserved == 1) {
      base_[body - 1] = static_cast<char>(length);
      return;
    }
    const size_t needed = varint_size(length);
    if (needed > reserved) {
      room(needed - reserved);
      std::memmove(base_ + body + (needed - reserved), base_ + body, written);
    } else if (needed < reserved) {
      std::memmove(base_ + body - (reserved - needed), base_ + body, written);
    }
    if (spliced > 0 && needed != reserved) {
      // The body's splices move with it.
      for (auto it = splices_->rbegin(); it != splices_->rend() && it->at >= body; ++it)
        it->at = it->at + needed - reserved;
    }
    put_varint(base_ + body - reserved, length);
    pos_ = pos_ + needed - reserved;
  }

  void finish() {
    out_->resize(pos_);
    // The size estimate can overshoot (a graph of small nodes, or of mostly
    // long names): give back the unused tail when the string would hold over
    // twice its bytes. Not for less: shrinking copies every byte into fresh
    // memory, which on a big model costs more than the estimate overshoots
    // by (measured on the 100,000-node chain with initializers, where it
    // overshot by 1.5x).
    if (out_->capacity() - pos_ > pos_ + 65536) out_->shrink_to_fit();
  }

 private:
  // memcpy, without a call for the short strings (names) that most fields hold.
  static void copy(char* dst, const char* src, size_t n) {
    if (n >= 8 && n <= 16) {
      uint64_t head, tail;
      std::memcpy(&head, src, 8);
      std::memcpy(&tail, src + n - 8, 8);
      std::memcpy(dst, &head, 8);
      std::memcpy(dst + n - 8, &tail, 8);
    } else if (n >= 4 && n < 8) {
      uint32_t head, tail;
      std::memcpy(&head, src, 4);
      std::memcpy(&tail, src + n - 4, 4);
      std::memcpy(dst, &head, 4);
      std::memcpy(dst + n - 4, &tail, 4);
    } else if (n > 16) {
      std::memcpy(dst, src, n);
    } else {
      for (size_t i = 0; i < n; ++i) dst[i] = src[i];
    }
  }

  [[gnu::always_inline]] char* room(size_t n) {
    if (capacity_ - pos_ < n) [[unlikely]]
      grow(n);
    return base_ + pos_;
  }

  // Makes room for `n` more bytes. The string's size is where writing may
  // go, and resize() must zero-fill up to it: within the memory reserved
  // from the size estimate, the size moves a step at a time, so that an
  // estimate that overshoots costs neither the zeroing nor the page faults
  // of the part never written.
  [[gnu::noinline]] void grow(size_t n) {
    const size_t needed = pos_ + n;
    size_t size;
    if (needed <= out_->capacity()) {
      size = std::min(out_->capacity(), std::max(needed, capacity_ + kFillStep));
    } else {
      size = std::max(needed, capacity_ < 2048 ? 4096 : capacity_ * 2);
    }
    out_->resize(size);
    base_ = out_->data();
    capacity_ = size;
  }
  static constexpr size_t kFillStep = size_t{1} << 20;

  // The message opened with open(tag, expected_length), by where its body
  // begins (0: none), and the bytes left for its length.
  size_t wide_body_ = 0;
  size_t wide_length_bytes_ = 1;

  std::string* out_;
  std::vector<Splice>* splices_;
  size_t spliced_bytes_ = 0;
  char* base_ = nullptr;
  size_t pos_ = 0;
  size_t capacity_ = 0;
};

// ---------------------------------------------------------------- residue

// What residue may say about a message, in the forms the encoder honours.
// Bit n of a mask stands for field number n.
struct ResidueRules {
  // Singular fields the writer omits when empty or zero: a "present"
  // directive (the field with its natural wire type) makes it write them.
  uint64_t optional_len = 0;
  uint64_t optional_varint = 0;
  // Singular fields the writer always writes: a "present" directive changes nothing.
  uint64_t always_len = 0;
  uint64_t always_varint = 0;
  // The repeated OperatorSetIdProto field, for opset domain directives; 0 if none.
  int opset_field = 0;
};

constexpr uint64_t fields(std::initializer_list<int> numbers) {
  uint64_t mask = 0;
  for (int n : numbers) mask |= uint64_t{1} << n;
  return mask;
}

constexpr ResidueRules kModelRules{
    .optional_len = fields({M::kProducerNameFieldNumber, M::kProducerVersionFieldNumber,
                            M::kDomainFieldNumber, M::kDocStringFieldNumber}),
    .optional_varint = fields({M::kIrVersionFieldNumber, M::kModelVersionFieldNumber}),
    .opset_field = M::kOpsetImportFieldNumber};
constexpr ResidueRules kGraphRules{.optional_len =
                                       fields({G::kNameFieldNumber, G::kDocStringFieldNumber})};
constexpr ResidueRules kNodeRules{
    .optional_len = fields({N::kNameFieldNumber, N::kDocStringFieldNumber, N::kDomainFieldNumber,
                            N::kOverloadFieldNumber}),
    .always_len = fields({N::kOpTypeFieldNumber})};
constexpr ResidueRules kAttributeRules{
    .optional_len = fields({A::kDocStringFieldNumber, A::kRefAttrNameFieldNumber}),
    .always_len = fields({A::kNameFieldNumber})};
constexpr ResidueRules kValueInfoRules{.optional_len = fields({V::kDocStringFieldNumber}),
                                       .always_len = fields({V::kNameFieldNumber})};
constexpr ResidueRules kFunctionRules{
    .optional_len =
        fields({F::kDocStringFieldNumber, F::kDomainFieldNumber, F::kOverloadFieldNumber}),
    .always_len = fields({F::kNameFieldNumber}),
    .opset_field = F::kOpsetImportFieldNumber};
constexpr ResidueRules kTensorRules{
    .optional_len = fields({T::kNameFieldNumber, T::kDocStringFieldNumber}),
    .optional_varint = fields({T::kDataLocationFieldNumber}),
    .always_varint = fields({T::kDataTypeFieldNumber})};

// Reads protobuf framing from a residue string, bailing on anything malformed.
class ResidueReader {
 public:
  explicit ResidueReader(std::string_view bytes) : p_(bytes.data()), end_(p_ + bytes.size()) {}
  bool done() const { return p_ == end_; }

  uint64_t varint() {
    uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p_ == end_) bail("residue: truncated varint");
      const auto byte = static_cast<uint8_t>(*p_++);
      if (shift == 63 && byte > 1) bail("residue: varint over 64 bits");
      value |= uint64_t{byte & 0x7fu} << shift;
      if (byte < 0x80) return value;
    }
    bail("residue: varint over 10 bytes");
  }

  std::string_view bytes(uint64_t n) {
    if (n > static_cast<uint64_t>(end_ - p_)) bail("residue: truncated field");
    std::string_view out(p_, static_cast<size_t>(n));
    p_ += n;
    return out;
  }

 private:
  const char* p_;
  const char* end_;
};

// The versions an opset domain directive names: its payload is exactly what
// append_opset_domain_directive writes, {domain: "", version: V}.
int64_t opset_directive_version(std::string_view payload) {
  constexpr uint32_t kDomainTag = tag(wire::OperatorSetIdProto::kDomainFieldNumber, kLen);
  constexpr uint32_t kVersionTag = tag(wire::OperatorSetIdProto::kVersionFieldNumber, kVarint);
  ResidueReader r(payload);
  if (r.varint() != kDomainTag || r.varint() != 0 || r.varint() != kVersionTag)
    bail("residue: unexpected opset directive");
  const auto version = static_cast<int64_t>(r.varint());
  if (!r.done()) bail("residue: unexpected opset directive");
  return version;
}

// The fields a message's residue says were present with their default value
// (a mask by field number); opset domain directives are appended to
// `opset_versions`. Bails on any residue outside ResidueRules.
uint64_t read_residue(std::string_view residue, const ResidueRules& rules,
                      std::vector<int64_t>* opset_versions) {
  uint64_t present = 0;
  ResidueReader r(residue);
  while (!r.done()) {
    const uint64_t field_tag = r.varint();
    const uint64_t number = field_tag >> 3;
    const auto type = static_cast<uint32_t>(field_tag & 7);
    if (number == 0 || number > 63) bail("residue: unknown field");
    const uint64_t bit = uint64_t{1} << number;
    if (type == kVarint) {
      r.varint();
      if (rules.optional_varint & bit) {
        present |= bit;
      } else if (!(rules.always_varint & bit)) {
        bail("residue: unknown field or directive");
      }
    } else if (type == kLen) {
      const std::string_view payload = r.bytes(r.varint());
      if (rules.optional_len & bit) {
        present |= bit;
      } else if (rules.opset_field != 0 && static_cast<int>(number) == rules.opset_field) {
        opset_versions->push_back(opset_directive_version(payload));
      } else if (!(rules.always_len & bit)) {
        bail("residue: unknown field or directive");
      }
    } else {
      bail("residue: unknown field or directive");
    }
  }
  return present;
}

// Residue of a message without opset imports.
uint64_t read_residue(std::string_view residue, const ResidueRules& rules) {
  if (residue.empty()) return 0;
  return read_residue(residue, rules, nullptr);
}

inline bool has_field(uint64_t present, int number) { return (present >> number) & 1; }

// ---------------------------------------------------------------- names

// A hash for value names, which are short: two overlapping loads cover
// names up to 16 bytes, and a multiply folds them.
inline uint64_t load64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline uint64_t load32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint64_t fold_multiply(uint64_t a, uint64_t b) {
  const unsigned __int128 product = static_cast<unsigned __int128>(a) * b;
  return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
}

uint64_t hash_name(std::string_view s) {
  constexpr uint64_t kSeed0 = 0x9e3779b97f4a7c15ull;
  constexpr uint64_t kSeed1 = 0xbf58476d1ce4e5b9ull;
  constexpr uint64_t kSeed2 = 0x94d049bb133111ebull;
  const char* p = s.data();
  const size_t n = s.size();
  uint64_t a = 0;
  uint64_t b = 0;
  if (n > 16) {
    uint64_t h = kSeed0 ^ n;
    size_t i = 0;
    for (; i + 16 < n; i += 16) h = fold_multiply(load64(p + i) ^ kSeed1, load64(p + i + 8) ^ h);
    a = load64(p + n - 16) ^ h;
    b = load64(p + n - 8);
  } else if (n >= 8) {
    a = load64(p);
    b = load64(p + n - 8);
  } else if (n >= 4) {
    a = load32(p);
    b = load32(p + n - 4);
  } else if (n > 0) {
    a = uint64_t{static_cast<uint8_t>(p[0])} << 16 | uint64_t{static_cast<uint8_t>(p[n / 2])} << 8 |
        uint64_t{static_cast<uint8_t>(p[n - 1])};
  }
  return fold_multiply(a ^ kSeed1, b ^ kSeed2 ^ n);
}

// The values one graph scope defines, by name: open addressing with linear
// probing, kept at most 2/3 full (a big graph's table does not fit in cache,
// so its size counts more than a slightly longer probe). Each slot keeps the
// name's hash, so that most probes settle without comparing strings, and a
// lookup for the very value stored settles on the pointer alone.
class NameTable {
 public:
  enum class Found { kNone, kSame, kOther };

  // Empties the table, sized for about `expected` names.
  void reset(size_t expected) {
    size_t capacity = 16;
    while (capacity * 2 < expected * 3) capacity *= 2;
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    count_ = 0;
  }

  // Bytes the table holds on to between uses.
  size_t retained_bytes() const { return slots_.capacity() * sizeof(Slot); }

  // Records `v` (whose name is not empty, hashed to `h`) under its name.
  // Returns false when another value already has that name; defining the
  // same value twice is fine (a graph input that also has an initializer).
  bool define(const ir::Value* v, uint64_t h) {
    if ((count_ + 1) * 3 > slots_.size() * 2) rehash();
    const std::string& name = v->name();
    for (size_t i = h & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.value == nullptr) {
        s = {h, v};
        ++count_;
        return true;
      }
      if (s.value == v) return true;
      if (s.hash == h && s.value->name() == name) return false;
    }
  }

  // What `name` (hashed to `h`) means here: nothing, `v`, or another value.
  Found find(std::string_view name, uint64_t h, const ir::Value* v) const {
    for (size_t i = h & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.value == nullptr) return Found::kNone;
      // Each value is stored under its own name, so finding `v` finds `name`.
      if (s.value == v) return Found::kSame;
      if (s.hash == h && s.value->name() == name) return Found::kOther;
    }
  }

 private:
  struct Slot {
    uint64_t hash = 0;
    const ir::Value* value = nullptr;
  };

  void rehash() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{});
    mask_ = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.value == nullptr) continue;
      size_t i = s.hash & mask_;
      while (slots_[i].value != nullptr) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  size_t count_ = 0;
};

// A name a scope defines, with its hash.
struct DefinedName {
  uint64_t hash;
  const ir::Value* value;
};

// Whether two different values among `defined` share a name. A big graph
// defines hundreds of thousands of names, and one hash table for them all
// does not fit in cache: every probe would be a miss. So the names are first
// spread into buckets by the top bits of their hashes (two sequential
// passes), and each bucket is checked with a table that fits in L1.
class NameClashCheck {
 public:
  // Bytes the check holds on to between uses.
  size_t retained_bytes() const {
    return (starts_.capacity() + cursor_.capacity()) * sizeof(size_t) +
           spread_.capacity() * sizeof(DefinedName) + slots_.capacity() * sizeof(DefinedName*);
  }

  bool any(std::span<const DefinedName> defined) {
    const size_t n = defined.size();
    int bucket_bits = 0;
    while ((n >> bucket_bits) > kBucketTarget) ++bucket_bits;
    if (bucket_bits == 0) return any_in_bucket(defined);
    const size_t buckets = size_t{1} << bucket_bits;
    const int shift = 64 - bucket_bits;
    starts_.assign(buckets + 1, 0);
    for (const DefinedName& d : defined) ++starts_[(d.hash >> shift) + 1];
    for (size_t b = 0; b < buckets; ++b) starts_[b + 1] += starts_[b];
    spread_.resize(n);
    cursor_.assign(starts_.begin(), starts_.end() - 1);
    for (const DefinedName& d : defined) spread_[cursor_[d.hash >> shift]++] = d;
    for (size_t b = 0; b < buckets; ++b) {
      if (any_in_bucket(std::span(spread_).subspan(starts_[b], starts_[b + 1] - starts_[b])))
        return true;
    }
    return false;
  }

 private:
  // About this many names per bucket: its table (twice as many 8-byte
  // slots) stays well inside L1.
  static constexpr size_t kBucketTarget = 512;

  bool any_in_bucket(std::span<const DefinedName> bucket) {
    if (bucket.size() < 2) return false;
    const size_t capacity = std::bit_ceil(2 * bucket.size());
    slots_.assign(capacity, nullptr);
    const size_t mask = capacity - 1;
    for (const DefinedName& d : bucket) {
      for (size_t i = d.hash & mask;; i = (i + 1) & mask) {
        const DefinedName*& slot = slots_[i];
        if (slot == nullptr) {
          slot = &d;
          break;
        }
        if (slot->hash != d.hash) continue;
        if (slot->value == d.value)
          break;  // one value defined twice (an input with an initializer)
        if (slot->value->name() == d.value->name()) return true;
      }
    }
    return false;
  }

  std::vector<size_t> starts_, cursor_;
  std::vector<DefinedName> spread_;
  std::vector<const DefinedName*> slots_;
};

// A graph being written, and the scope around it (null at the top).
//  - `defined`: every name it defines, in order; checked for clashes when
//    the scope completes.
//  - `inputs`: a table of its inputs (the values the IR alone cannot place
//    in the graph).
//  - `names`: a table of everything it defines, built only after the scope
//    completes, for the references it cannot settle otherwise (`pending`
//    holds those made before), which Encoder::resolve explains.
struct Scope {
  const ir::Graph* graph;
  std::vector<DefinedName>* defined;
  NameTable* inputs;
  NameTable* names;
  std::vector<const ir::Value*>* pending;
  Scope* parent;
  bool complete = false;
  bool names_built = false;
};

// ---------------------------------------------------------------- node walk

// Starts loading the cache lines of [p, p + size).
inline void prefetch_range(const void* p, size_t size) {
  if (size == 0) return;
  const auto* bytes = static_cast<const char*>(p);
  const auto first = reinterpret_cast<uintptr_t>(bytes) & ~uintptr_t{63};
  const auto last = reinterpret_cast<uintptr_t>(bytes + size - 1);
  for (uintptr_t line = first; line <= last; line += 64)
    __builtin_prefetch(reinterpret_cast<const void*>(line));
}

// Starts loading what reading the name of `v` touches (the string object,
// whose characters are inline for short names).
inline void prefetch_name(const ir::Value* v) {
  if (v != nullptr) prefetch_range(&v->name(), sizeof(std::string));
}

// Walks a graph's nodes in order while loading, a few nodes ahead, the
// memory that writing a node touches. IR nodes and values are scattered
// over the heap, and the node list is a linked list: without this, each node
// costs several cache misses in a row, which is most of the time of writing
// a big graph. Two mechanisms:
//  - Staged loads through a window of upcoming nodes, each stage using data
//    the previous one loaded: the node object, then its input, output and
//    attribute lists, then the values in them.
//  - Heap streaming: the staged loads cannot start before the linked list
//    reaches a node, and following the list is one cache miss per node.
//    But a graph built or read in order lies in the heap in that order, so
//    while consecutive nodes keep coming at small increasing addresses, the
//    walk also loads the memory just ahead of the newest node, which is
//    where the next nodes, values and lists are. Elsewhere it loads nothing
//    extra. Loading memory never changes what the encoder writes.
class NodeWalk {
 public:
  explicit NodeWalk(const ir::Graph& g) : ahead_(g.nodes().begin()), end_(g.nodes().end()) {
    for (size_t i = 0; i < kWindow; ++i) advance();
  }
  NodeWalk(const NodeWalk&) = delete;
  NodeWalk& operator=(const NodeWalk&) = delete;

  // The next node, or null after the last.
  const ir::Node* next() {
    if (handed_out_) advance();  // the caller is done with the previous node
    const ir::Node* node = window_[position_ % kWindow].node;
    handed_out_ = node != nullptr;
    return node;
  }

 private:
  // Nodes in flight: the one next() hands out and those after it; a node
  // enters at distance kWindow - 1, where its object is loaded. Each later
  // stage runs a few nodes after the previous one, so that the data it
  // reads (a DRAM access away) has arrived.
  static constexpr size_t kWindow = 16;
  static constexpr size_t kLoadLists = 12;
  static constexpr size_t kLoadValues = 9;
  // Heap streaming: how far apart consecutive nodes may lie for the heap to
  // count as in order, how far ahead of the newest node to load, and at
  // most how many cache lines to request per node. The stream goes to L2
  // only (prefetch locality 1): at this distance, lines loaded into L1
  // would be evicted before use. Measured on the 100,000-node chain.
  static constexpr uintptr_t kMaxNodeGap = 16 * 1024;
  static constexpr uintptr_t kStreamAhead = 16 * 1024;
  static constexpr uintptr_t kMaxLinesPerNode = 64;
  // Consecutive nodes found in order before the heap counts as in order.
  static constexpr size_t kMinInOrderRun = 4;

  // A node in flight, and whether the heap stream covered its memory.
  struct Entry {
    const ir::Node* node = nullptr;
    bool streamed = false;
  };

  Entry& entry_at(size_t distance) { return window_[(position_ + distance) % kWindow]; }

  // Moves the window one node on, pulling in the next node of the graph.
  void advance() {
    const ir::Node* pulled = ahead_ == end_ ? nullptr : *ahead_++;
    window_[position_ % kWindow].node = pulled;
    ++position_;
    if (pulled != nullptr) {
      stream_heap_after(pulled);
      window_[(position_ - 1) % kWindow].streamed = streaming_;
      if (!streaming_) prefetch_range(pulled, sizeof(ir::Node));
    }
    // The middle stages, for nodes the stream did not cover.
    if (const Entry& e = entry_at(kLoadLists); e.node != nullptr && !e.streamed) {
      const ir::Node* n = e.node;
      prefetch_range(n->inputs().data(), n->inputs().size_bytes());
      prefetch_range(n->outputs().data(), n->outputs().size_bytes());
      prefetch_range(n->attributes().data(), n->attributes().size() * sizeof(ir::Attribute));
    }
    if (const Entry& e = entry_at(kLoadValues); e.node != nullptr && !e.streamed) {
      const ir::Node* n = e.node;
      for (const ir::Value* v : n->inputs()) prefetch_name(v);
      for (const ir::Value* v : n->outputs()) prefetch_name(v);
      for (const ir::Attribute& a : n->attributes()) {
        if (const auto* t = std::get_if<ir::Tensor>(&a.value)) {
          prefetch_range(t->shape().data(), t->shape().size() * sizeof(int64_t));
          __builtin_prefetch(t->raw_data());
        }
      }
    }
  }

  // Heap streaming (see the class comment), after pulling `node`.
  void stream_heap_after(const ir::Node* node) {
    const auto address = reinterpret_cast<uintptr_t>(node) & ~uintptr_t{63};
    const uintptr_t previous = last_pulled_;
    last_pulled_ = address;
    const bool in_order = address > previous && address - previous <= kMaxNodeGap;
    in_order_run_ = in_order ? in_order_run_ + 1 : 0;
    streaming_ = in_order_run_ >= kMinInOrderRun;
    if (!streaming_) {
      streamed_to_ = address;  // not walking up the heap: wait for a pattern
      return;
    }
    uintptr_t line = std::max(streamed_to_, address);
    const uintptr_t stop = std::min(address + kStreamAhead, line + kMaxLinesPerNode * 64);
    for (; line < stop; line += 64) __builtin_prefetch(reinterpret_cast<const void*>(line), 0, 1);
    streamed_to_ = line;
  }

  ir::NodeRange::iterator ahead_;  // the next node to pull
  ir::NodeRange::iterator end_;
  std::array<Entry, kWindow> window_{};
  size_t position_ = 0;  // the entry next() hands out is window_[position_ % kWindow]
  bool handed_out_ = false;
  uintptr_t last_pulled_ = 0;
  uintptr_t streamed_to_ = 0;
  size_t in_order_run_ = 0;
  bool streaming_ = false;
};

// ---------------------------------------------------------------- tensors

// Entries that `numel` elements take in their typed field (tensor_codec.cc).
int64_t typed_entry_count(ir::DataType dtype, int64_t numel) {
  if (dtype == ir::DataType::kComplex64 || dtype == ir::DataType::kComplex128) return numel * 2;
  // Sub-byte types: one entry per packed byte.
  if (ir::is_sub_byte(dtype)) return static_cast<int64_t>(ir::packed_byte_size(dtype, numel));
  return numel;
}

// ---------------------------------------------------------------- encoder

class Encoder {
 public:
  // With `splices`, raw_data of at least `min_splice` bytes is spliced in
  // (ByteWriter), and the buffer is sized without the initializers' bytes.
  Encoder(std::string* out, const ir::Model& m, std::vector<Splice>* splices = nullptr,
          size_t min_splice = 0)
      : expected_size_(expected_size(m)),
        w_(out, splices ? expected_size_ - m.graph().initializer_bytes() : expected_size_, splices),
        splicing_(splices != nullptr),
        min_splice_(min_splice) {}

  void model(const ir::Model& m) {
    if (!m.training_info.empty()) bail("training_info");
    if (!m.configuration.empty()) bail("configuration");
    std::vector<int64_t> opset_directives;
    const uint64_t present = m.unknown_fields.empty()
                                 ? 0
                                 : read_residue(m.unknown_fields, kModelRules, &opset_directives);

    if (m.ir_version != 0 || has_field(present, M::kIrVersionFieldNumber))
      w_.varint_field(tag(M::kIrVersionFieldNumber, kVarint), as_varint(m.ir_version));
    optional_string(M::kProducerNameFieldNumber, m.producer_name, present);
    optional_string(M::kProducerVersionFieldNumber, m.producer_version, present);
    optional_string(M::kDomainFieldNumber, m.domain, present);
    if (m.model_version != 0 || has_field(present, M::kModelVersionFieldNumber))
      w_.varint_field(tag(M::kModelVersionFieldNumber, kVarint), as_varint(m.model_version));
    optional_string(M::kDocStringFieldNumber, m.doc_string, present);
    const size_t graph = w_.open(tag(M::kGraphFieldNumber, kLen), expected_size_);
    write_graph(m.graph(), nullptr);
    w_.close(graph);
    write_opsets(m.opset_imports, M::kOpsetImportFieldNumber, opset_directives);
    write_metadata(m.metadata_props, M::kMetadataPropsFieldNumber);
    for (const auto& f : m.functions()) {
      if (!f) bail("a null function");
      const size_t at = w_.open(tag(M::kFunctionsFieldNumber, kLen));
      write_function(*f);
      w_.close(at);
    }
    check_size(0);
    w_.finish();
  }

 private:
  // A guess of the encoded size, from what the graph counts as it is built,
  // so that no tensor is read for it: the main graph's nodes (a typical node
  // takes 40 to 80 bytes) and initializers (their bytes, and about 32 for
  // name, dims and tags). Bails when the initializers alone exceed 2 GB (an
  // over-estimate for string tensors, which only makes the check cautious).
  static size_t expected_size(const ir::Model& m) {
    const ir::Graph& g = m.graph();
    const uint64_t size = 4096 + 64 * uint64_t{g.num_nodes()} + g.initializer_bytes() +
                          32 * uint64_t{g.initializers().size()};
    if (size > kMaxProtoBytes) bail("over 2 GB");
    return static_cast<size_t>(size);
  }

  // ---- leaves

  void optional_string(int field, const std::string& value, uint64_t present) {
    if (!value.empty() || has_field(present, field)) w_.bytes_field(tag(field, kLen), value);
  }

  void write_metadata(const ir::MetadataProps& props, int field) {
    for (const auto& [key, value] : props) {
      const size_t at = w_.open(tag(field, kLen));
      w_.bytes_field(tag(wire::StringStringEntryProto::kKeyFieldNumber, kLen), key);
      w_.bytes_field(tag(wire::StringStringEntryProto::kValueFieldNumber, kLen), value);
      w_.close(at);
    }
  }

  // Opset imports; `explicit_empty_domains` lists the versions of opset
  // domain directives, each marking the first not yet marked entry with an
  // empty domain and that version (as residue.cc applies them).
  void write_opsets(const ir::OpsetImports& opsets, int field,
                    std::span<const int64_t> explicit_empty_domains) {
    const auto& entries = opsets.entries();
    std::vector<bool> domain_present;
    if (!explicit_empty_domains.empty()) {
      domain_present.assign(entries.size(), false);
      for (int64_t version : explicit_empty_domains) {
        for (size_t i = 0; i < entries.size(); ++i) {
          if (!domain_present[i] && entries[i].first.empty() && entries[i].second == version) {
            domain_present[i] = true;
            break;
          }
        }
      }
    }
    for (size_t i = 0; i < entries.size(); ++i) {
      const auto& [domain, version] = entries[i];
      const size_t at = w_.open(tag(field, kLen));
      if (!domain.empty() || (!domain_present.empty() && domain_present[i]))
        w_.bytes_field(tag(wire::OperatorSetIdProto::kDomainFieldNumber, kLen), domain);
      w_.varint_field(tag(wire::OperatorSetIdProto::kVersionFieldNumber, kVarint),
                      as_varint(version));
      w_.close(at);
    }
  }

  void write_shape(const ir::Shape& shape, int field) {
    using D = wire::TensorShapeProto::Dimension;
    const size_t at = w_.open(tag(field, kLen));
    for (const ir::Dim& dim : shape) {
      const size_t d = w_.open(tag(wire::TensorShapeProto::kDimFieldNumber, kLen));
      if (dim.is_static()) {
        w_.varint_field(tag(D::kDimValueFieldNumber, kVarint), as_varint(dim.value()));
      } else if (dim.is_symbolic()) {
        w_.bytes_field(tag(D::kDimParamFieldNumber, kLen), dim.symbol());
      }
      if (!dim.denotation.empty())
        w_.bytes_field(tag(D::kDenotationFieldNumber, kLen), dim.denotation);
      w_.close(d);
    }
    w_.close(at);
  }

  // The body of a TypeProto (type_codec.cc's encode_type). The oneof member
  // and denotation (field 6) go in field-number order, so denotation comes
  // after tensor, sequence and map types and before the others.
  void write_type(const ir::Type& t) {
    using TP = wire::TypeProto;
    const auto tensor_like = [&](int field) {
      const size_t at = w_.open(tag(field, kLen));
      w_.varint_field(tag(TP::Tensor::kElemTypeFieldNumber, kVarint),
                      as_varint(static_cast<int32_t>(t.elem_type)));
      if (t.shape) write_shape(*t.shape, TP::Tensor::kShapeFieldNumber);
      w_.close(at);
    };
    const auto nested = [&](int field, int element_field) {
      const size_t at = w_.open(tag(field, kLen));
      if (t.element) {
        const size_t e = w_.open(tag(element_field, kLen));
        write_type(*t.element);
        w_.close(e);
      }
      w_.close(at);
    };
    const auto denotation = [&] {
      if (!t.denotation().empty())
        w_.bytes_field(tag(TP::kDenotationFieldNumber, kLen), t.denotation());
    };
    switch (t.kind) {
      case ir::TypeKind::kUnspecified:
        denotation();
        return;
      case ir::TypeKind::kTensor:
        tensor_like(TP::kTensorTypeFieldNumber);
        denotation();
        return;
      case ir::TypeKind::kSequence:
        nested(TP::kSequenceTypeFieldNumber, TP::Sequence::kElemTypeFieldNumber);
        denotation();
        return;
      case ir::TypeKind::kMap: {
        const size_t at = w_.open(tag(TP::kMapTypeFieldNumber, kLen));
        w_.varint_field(tag(TP::Map::kKeyTypeFieldNumber, kVarint),
                        as_varint(static_cast<int32_t>(t.elem_type)));
        if (t.element) {
          const size_t e = w_.open(tag(TP::Map::kValueTypeFieldNumber, kLen));
          write_type(*t.element);
          w_.close(e);
        }
        w_.close(at);
        denotation();
        return;
      }
      case ir::TypeKind::kOpaque: {
        denotation();
        const size_t at = w_.open(tag(TP::kOpaqueTypeFieldNumber, kLen));
        if (!t.opaque_domain().empty())
          w_.bytes_field(tag(TP::Opaque::kDomainFieldNumber, kLen), t.opaque_domain());
        if (!t.opaque_name().empty())
          w_.bytes_field(tag(TP::Opaque::kNameFieldNumber, kLen), t.opaque_name());
        w_.close(at);
        return;
      }
      case ir::TypeKind::kSparseTensor:
        denotation();
        tensor_like(TP::kSparseTensorTypeFieldNumber);
        return;
      case ir::TypeKind::kOptional:
        denotation();
        nested(TP::kOptionalTypeFieldNumber, TP::Optional::kElemTypeFieldNumber);
        return;
    }
    bail("a type of unknown kind");
  }

  void write_value_info(const ir::Value* v, int field) {
    if (v == nullptr) bail("a null value in a value list");
    const uint64_t present = read_residue(v->unknown_fields(), kValueInfoRules);
    const size_t at = w_.open(tag(field, kLen));
    w_.bytes_field(tag(V::kNameFieldNumber, kLen), v->name());
    if (v->type()) {
      const size_t t = w_.open(tag(V::kTypeFieldNumber, kLen));
      write_type(*v->type());
      w_.close(t);
    }
    optional_string(V::kDocStringFieldNumber, v->doc_string(), present);
    write_metadata(v->metadata_props(), V::kMetadataPropsFieldNumber);
    w_.close(at);
  }

  // Bails when the model, grown by `more` bytes, could exceed 2 GB as
  // serde.cc's encode_inline estimates it: that estimate adds up to 64
  // bytes for each raw_data tensor it defers, so counting 64 for every
  // raw_data tensor keeps the encoder from succeeding where it fails.
  void check_size(size_t more) const {
    const uint64_t estimate = uint64_t{w_.size()} + more + 64 * raw_tensors_;
    if (estimate > kMaxProtoBytes) bail("over 2 GB");
  }

  // A TensorProto body (tensor_codec.cc's encode_tensor with data inline).
  void write_tensor(const ir::Tensor& t, const std::string* name_override) {
    static const std::string kNoName;
    const ir::TensorProtoInfo* info = t.proto_info();
    const std::string& name = name_override ? *name_override : info ? info->name : kNoName;
    if (!t.defined()) bail("an undefined tensor");
    const ir::DataType dtype = t.dtype();
    if (!ir::is_known_data_type(static_cast<int32_t>(dtype))) bail("an unknown element type");
    uint64_t present = 0;
    bool typed = false;
    if (info) {
      if (info->encoding == ir::TensorEncoding::kExternal) bail("an external-data tensor");
      present = read_residue(info->unknown_fields, kTensorRules);
      typed = info->encoding == ir::TensorEncoding::kTypedFields;
    }
    const bool is_string = dtype == ir::DataType::kString;

    for (int64_t d : t.shape()) w_.varint_field(tag(T::kDimsFieldNumber, kVarint), as_varint(d));
    w_.varint_field(tag(T::kDataTypeFieldNumber, kVarint), as_varint(static_cast<int32_t>(dtype)));
    if (info && info->has_segment) {
      const size_t at = w_.open(tag(T::kSegmentFieldNumber, kLen));
      w_.varint_field(tag(T::Segment::kBeginFieldNumber, kVarint), as_varint(info->segment_begin));
      w_.varint_field(tag(T::Segment::kEndFieldNumber, kVarint), as_varint(info->segment_end));
      w_.close(at);
    }
    if (is_string) {
      const auto* strings = t.data<std::string>();
      for (int64_t i = 0; i < t.numel(); ++i) {
        check_size(strings[i].size());
        w_.bytes_field(tag(T::kStringDataFieldNumber, kLen), strings[i]);
      }
    } else if (typed) {
      write_typed_data(t, /*after_raw_data=*/false);
    }
    optional_string(T::kNameFieldNumber, name, present);
    if (!is_string && !typed) {
      ++raw_tensors_;
      const size_t nbytes = t.nbytes();
      check_size(nbytes);
      if (splicing_ && nbytes >= min_splice_) {
        w_.spliced_bytes_field(tag(T::kRawDataFieldNumber, kLen),
                               static_cast<const char*>(t.raw_data()), nbytes);
      } else {
        w_.bytes_field(tag(T::kRawDataFieldNumber, kLen),
                       std::string_view(static_cast<const char*>(t.raw_data()), nbytes));
      }
    }
    if (typed && !is_string) write_typed_data(t, /*after_raw_data=*/true);
    if (info) optional_string(T::kDocStringFieldNumber, info->doc_string, present);
    if (has_field(present, T::kDataLocationFieldNumber))
      w_.varint_field(tag(T::kDataLocationFieldNumber, kVarint), 0);
    if (info) write_metadata(info->metadata_props, T::kMetadataPropsFieldNumber);
  }

  // The packed typed field of a non-string tensor (tensor_codec.cc's
  // encode_typed). float_data, int32_data and int64_data (fields 4, 5, 7)
  // come before name and raw_data; double_data and uint64_data (10, 11)
  // after, so this is called twice and writes the field whose turn it is.
  void write_typed_data(const ir::Tensor& t, bool after_raw_data) {
    using DT = ir::DataType;
    const DT dtype = t.dtype();
    const int64_t entries = typed_entry_count(dtype, t.numel());
    if (entries <= 0) return;  // protobuf writes nothing for an empty packed field
    const void* src = t.raw_data();
    const auto n = static_cast<size_t>(entries);
    const auto fixed = [&](int field, size_t width) {
      check_size(n * width);
      char* p = w_.begin_bytes(tag(field, kLen), n * width);
      std::memcpy(p, src, n * width);
      w_.commit(p + n * width);
    };
    // Varints are sized first: the length prefix comes before them.
    const auto varints = [&](int field, auto&& value_at) {
      size_t length = 0;
      for (size_t i = 0; i < n; ++i) length += varint_size(value_at(i));
      check_size(length);
      char* p = w_.begin_bytes(tag(field, kLen), length);
      for (size_t i = 0; i < n; ++i) p = put_varint(p, value_at(i));
      w_.commit(p);
    };
    const auto sign_extended = [&](auto* values) {
      return [values](size_t i) { return as_varint(values[i]); };
    };
    switch (dtype) {
      case DT::kFloat:
      case DT::kComplex64:
        if (!after_raw_data) fixed(T::kFloatDataFieldNumber, 4);
        return;
      case DT::kDouble:
      case DT::kComplex128:
        if (after_raw_data) fixed(T::kDoubleDataFieldNumber, 8);
        return;
      case DT::kInt64:
        if (!after_raw_data)
          varints(T::kInt64DataFieldNumber, sign_extended(static_cast<const int64_t*>(src)));
        return;
      case DT::kUint64: {
        const auto* values = static_cast<const uint64_t*>(src);
        if (after_raw_data)
          varints(T::kUint64DataFieldNumber, [values](size_t i) { return values[i]; });
        return;
      }
      case DT::kUint32: {
        const auto* values = static_cast<const uint32_t*>(src);
        if (after_raw_data)
          varints(T::kUint64DataFieldNumber, [values](size_t i) { return uint64_t{values[i]}; });
        return;
      }
      default:
        break;
    }
    // int32_data: signed types sign-extended, everything else (unsigned
    // values, bit patterns, bytes of packed 4-bit or 2-bit elements)
    // zero-extended.
    if (after_raw_data) return;
    switch (dtype) {
      case DT::kInt32:
        return varints(T::kInt32DataFieldNumber, sign_extended(static_cast<const int32_t*>(src)));
      case DT::kInt16:
        return varints(T::kInt32DataFieldNumber, sign_extended(static_cast<const int16_t*>(src)));
      case DT::kInt8:
        return varints(T::kInt32DataFieldNumber, sign_extended(static_cast<const int8_t*>(src)));
      default:
        if (ir::bit_width(dtype) == 16) {
          const auto* values = static_cast<const uint16_t*>(src);
          return varints(T::kInt32DataFieldNumber,
                         [values](size_t i) { return uint64_t{values[i]}; });
        }
        const auto* values = static_cast<const uint8_t*>(src);
        return varints(T::kInt32DataFieldNumber,
                       [values](size_t i) { return uint64_t{values[i]}; });
    }
  }

  // ---- names

  // A scope for `graph`, about to be written, inside `parent`.
  Scope enter_scope(const ir::Graph& graph, Scope* parent) {
    if (depth_ == scopes_.size()) scopes_.push_back(std::make_unique<ScopeStorage>());
    ScopeStorage& storage = *scopes_[depth_++];
    storage.defined.clear();
    storage.inputs.reset(graph.inputs().size());
    storage.pending.clear();
    return Scope{&graph,         &storage.defined, &storage.inputs,
                 &storage.names, &storage.pending, parent};
  }

  // Checks the scope's names, now that every node is written: no two values
  // may share one, and the references it deferred must settle.
  void complete_scope(Scope& scope) {
    if (clashes_.any(*scope.defined)) bail("two different values with one name");
    scope.complete = true;
    for (const ir::Value* v : *scope.pending) resolve(v, scope);
    scope.pending->clear();
  }

  // The table of every name a complete scope defines, built on first use.
  static const NameTable& all_names(Scope& scope) {
    if (!scope.names_built) {
      scope.names->reset(scope.defined->size());
      for (const DefinedName& d : *scope.defined) scope.names->define(d.value, d.hash);
      scope.names_built = true;
    }
    return *scope.names;
  }

  void leave_scope() { --depth_; }

  // A graph input.
  static void define_input(Scope& scope, const ir::Value* v) {
    if (v == nullptr) bail("a null value");
    if (v->name().empty()) return;
    const uint64_t h = hash_name(v->name());
    if (!scope.inputs->define(v, h)) bail("two different values with one name");
    scope.defined->push_back({h, v});
  }

  // A node output or an initializer.
  static void define(Scope& scope, const ir::Value* v) {
    if (v == nullptr) bail("a null value");
    if (!v->name().empty()) scope.defined->push_back({hash_name(v->name()), v});
  }

  // Whether `v` is defined in the scope's graph: an output of one of its
  // (live) nodes, one of its initializers (a value of a graph holds a
  // tensor exactly when it is one of that graph's initializers), or one of
  // its inputs.
  static bool defines(const Scope& scope, const ir::Value* v) {
    if (v->graph() != scope.graph) return false;
    if (const ir::Node* producer = v->producer()) return !producer->is_erased();
    if (v->const_value() != nullptr || v->sparse_value() != nullptr) return true;
    return scope.inputs->find(v->name(), hash_name(v->name()), v) == NameTable::Found::kSame;
  }

  // model_writer.cc's reference(): `v` must be named, and its name must
  // resolve, through the scope chain, to `v` itself.
  //
  // The first scope that defines the name decides. A scope that defines `v`
  // decides for `v` provided no other value there has its name, which
  // complete_scope checks for every name; the encoder bails otherwise, so
  // settling the reference early is safe. A scope that does not define `v`
  // must not define its name either: that takes its complete name table, so
  // the reference waits in `pending` until the scope completes, then goes
  // on outwards. (Outer scopes are never complete while an inner one is
  // written, so a reference moves out one scope per completion.)
  static void reference(const ir::Value* v, Scope& scope) {
    if (v->name().empty()) bail("a value without a name is used");
    resolve(v, scope);
  }
  static void resolve(const ir::Value* v, Scope& scope) {
    for (Scope* s = &scope;; s = s->parent) {
      if (defines(*s, v)) return;
      if (!s->complete) {
        s->pending->push_back(v);
        return;
      }
      if (all_names(*s).find(v->name(), hash_name(v->name()), v) != NameTable::Found::kNone)
        bail("a name resolves to another value");
      if (s->parent == nullptr) bail("a name resolves to no value");
    }
  }

  // ---- graphs, nodes, attributes, functions

  void write_graph(const ir::Graph& g, Scope* parent) {
    const uint64_t present = read_residue(g.unknown_fields, kGraphRules);
    if (!g.sparse_initializers().empty()) bail("sparse initializers");
    Scope scope = enter_scope(g, parent);
    for (const ir::Value* v : g.inputs()) define_input(scope, v);
    write_nodes(g, G::kNodeFieldNumber, scope);

    optional_string(G::kNameFieldNumber, g.name(), present);
    // Initializers are defined as they are written: references to them
    // settle through the IR (see defines()), and the names are checked for
    // clashes when the scope completes, just after.
    for (const ir::Value* v : g.initializers()) {
      if (v->name().empty()) bail("an initializer without a name");
      const ir::Tensor* value = v->const_value();
      if (value == nullptr) bail("an initializer without a value");
      define(scope, v);
      const size_t at = w_.open(tag(G::kInitializerFieldNumber, kLen));
      write_tensor(*value, &v->name());
      w_.close(at);
    }
    complete_scope(scope);
    optional_string(G::kDocStringFieldNumber, g.doc_string, present);
    for (const ir::Value* v : g.inputs()) write_value_info(v, G::kInputFieldNumber);
    for (const ir::Value* v : g.outputs()) {
      if (v == nullptr) bail("a null graph output");
      reference(v, scope);
      write_value_info(v, G::kOutputFieldNumber);
    }
    for (const ir::Value* v : g.value_info()) write_value_info(v, G::kValueInfoFieldNumber);
    for (const ir::QuantizationAnnotation& qa : g.quantization_annotation) {
      const size_t at = w_.open(tag(G::kQuantizationAnnotationFieldNumber, kLen));
      w_.bytes_field(tag(wire::TensorAnnotation::kTensorNameFieldNumber, kLen), qa.tensor_name);
      write_metadata(qa.quant_parameter_tensor_names,
                     wire::TensorAnnotation::kQuantParameterTensorNamesFieldNumber);
      w_.close(at);
    }
    write_metadata(g.metadata_props, G::kMetadataPropsFieldNumber);
    leave_scope();
  }

  // Nodes, defining their outputs as they go.
  void write_nodes(const ir::Graph& g, int field, Scope& scope) {
    NodeWalk walk(g);
    scope.defined->reserve(scope.defined->size() + g.num_nodes() + g.initializers().size());
    while (const ir::Node* node = walk.next()) {
      const size_t at = w_.open(tag(field, kLen));
      write_node(*node, scope);
      w_.close(at);
    }
  }

  // A NodeProto body.
  void write_node(const ir::Node& n, Scope& scope) {
    if (!n.device_configurations().empty()) bail("device_configurations");
    const uint64_t present = read_residue(n.unknown_fields(), kNodeRules);
    for (const ir::Value* out : n.outputs()) define(scope, out);
    for (const ir::Value* in : n.inputs()) {
      if (in == nullptr) {
        w_.bytes_field(tag(N::kInputFieldNumber, kLen), {});
        continue;
      }
      reference(in, scope);
      w_.bytes_field(tag(N::kInputFieldNumber, kLen), in->name());
    }
    for (const ir::Value* out : n.outputs())
      w_.bytes_field(tag(N::kOutputFieldNumber, kLen), out->name());
    optional_string(N::kNameFieldNumber, n.name(), present);
    w_.bytes_field(tag(N::kOpTypeFieldNumber, kLen), n.op_type());
    for (const ir::Attribute& a : n.attributes()) {
      const size_t at = w_.open(tag(N::kAttributeFieldNumber, kLen));
      write_attribute(a, &scope);
      w_.close(at);
    }
    optional_string(N::kDocStringFieldNumber, n.doc_string(), present);
    optional_string(N::kDomainFieldNumber, n.domain(), present);
    optional_string(N::kOverloadFieldNumber, n.overload(), present);
    write_metadata(n.metadata_props(), N::kMetadataPropsFieldNumber);
  }

  // The attribute type that each payload alternative stands for, by the
  // alternative's index in ir::Attribute::Payload.
  static ir::AttributeType payload_type(const ir::Attribute::Payload& value) {
    using AT = ir::AttributeType;
    static constexpr AT kByIndex[] = {
        AT::kUndefined, AT::kFloat,        AT::kInt,       AT::kString,        AT::kTensor,
        AT::kGraph,     AT::kSparseTensor, AT::kTypeProto, AT::kFloats,        AT::kInts,
        AT::kStrings,   AT::kTensors,      AT::kGraphs,    AT::kSparseTensors, AT::kTypeProtos};
    static_assert(std::size(kByIndex) == std::variant_size_v<ir::Attribute::Payload>);
    static_assert(
        std::is_same_v<std::variant_alternative_t<6, ir::Attribute::Payload>, ir::SparseTensor>);
    static_assert(std::is_same_v<std::variant_alternative_t<14, ir::Attribute::Payload>,
                                 std::vector<ir::Type>>);
    if (value.valueless_by_exception()) bail("an attribute without a value");
    return kByIndex[value.index()];
  }

  void write_graph_field(const std::shared_ptr<ir::Graph>& g, int field, Scope* scope) {
    if (!g) bail("a null graph attribute");
    const size_t at = w_.open(tag(field, kLen));
    write_graph(*g, scope);
    w_.close(at);
  }

  void write_tensor_field(const ir::Tensor& t, int field) {
    const size_t at = w_.open(tag(field, kLen));
    write_tensor(t, nullptr);
    w_.close(at);
  }

  void write_type_field(const ir::Type& t, int field) {
    const size_t at = w_.open(tag(field, kLen));
    write_type(t);
    w_.close(at);
  }

  // An AttributeProto body. Fields in number order: name (1), the value
  // fields f..graphs (2-11), doc_string (13), tp and type_protos (14, 15),
  // type (20), ref_attr_name (21).
  void write_attribute(const ir::Attribute& a, Scope* scope) {
    const uint64_t present = read_residue(a.unknown_fields, kAttributeRules);
    const auto type = static_cast<int32_t>(a.type);
    // The enum's values are 0..14 without gaps.
    static_assert(A::AttributeType_MIN == 0 && A::AttributeType_ARRAYSIZE == 15);
    if (type < A::AttributeType_MIN || type > A::AttributeType_MAX)
      bail("an attribute type outside the enum");
    const ir::AttributeType held = payload_type(a.value);
    if (held != ir::AttributeType::kUndefined && a.type != ir::AttributeType::kUndefined &&
        held != a.type)
      bail("an attribute whose value does not match its type");
    if (held == ir::AttributeType::kSparseTensor || held == ir::AttributeType::kSparseTensors)
      bail("a sparse tensor attribute");

    w_.bytes_field(tag(A::kNameFieldNumber, kLen), a.name);
    const ir::Attribute::Payload& value = a.value;
    if (const auto* f = std::get_if<float>(&value)) {
      w_.fixed32_field(tag(A::kFFieldNumber, kFixed32), std::bit_cast<uint32_t>(*f));
    } else if (const auto* i = std::get_if<int64_t>(&value)) {
      w_.varint_field(tag(A::kIFieldNumber, kVarint), as_varint(*i));
    } else if (const auto* s = std::get_if<std::string>(&value)) {
      w_.bytes_field(tag(A::kSFieldNumber, kLen), *s);
    } else if (const auto* t = std::get_if<ir::Tensor>(&value)) {
      write_tensor_field(*t, A::kTFieldNumber);
    } else if (const auto* g = std::get_if<std::shared_ptr<ir::Graph>>(&value)) {
      write_graph_field(*g, A::kGFieldNumber, scope);
    } else if (const auto* floats = std::get_if<std::vector<float>>(&value)) {
      for (float x : *floats)
        w_.fixed32_field(tag(A::kFloatsFieldNumber, kFixed32), std::bit_cast<uint32_t>(x));
    } else if (const auto* ints = std::get_if<std::vector<int64_t>>(&value)) {
      for (int64_t x : *ints) w_.varint_field(tag(A::kIntsFieldNumber, kVarint), as_varint(x));
    } else if (const auto* strings = std::get_if<std::vector<std::string>>(&value)) {
      for (const std::string& x : *strings) w_.bytes_field(tag(A::kStringsFieldNumber, kLen), x);
    } else if (const auto* tensors = std::get_if<std::vector<ir::Tensor>>(&value)) {
      for (const ir::Tensor& x : *tensors) write_tensor_field(x, A::kTensorsFieldNumber);
    } else if (const auto* graphs = std::get_if<std::vector<std::shared_ptr<ir::Graph>>>(&value)) {
      for (const auto& x : *graphs) write_graph_field(x, A::kGraphsFieldNumber, scope);
    }
    optional_string(A::kDocStringFieldNumber, a.doc_string, present);
    if (const auto* tp = std::get_if<ir::Type>(&value)) {
      write_type_field(*tp, A::kTpFieldNumber);
    } else if (const auto* tps = std::get_if<std::vector<ir::Type>>(&value)) {
      for (const ir::Type& x : *tps) write_type_field(x, A::kTypeProtosFieldNumber);
    }
    if (a.type != ir::AttributeType::kUndefined)
      w_.varint_field(tag(A::kTypeFieldNumber, kVarint), as_varint(type));
    optional_string(A::kRefAttrNameFieldNumber, a.ref_attr_name, present);
  }

  // A FunctionProto body. Its body graph's own name, doc string, metadata
  // and residue are not part of a FunctionProto, as in model_writer.cc.
  void write_function(const ir::Function& f) {
    const ir::Graph& body = f.body();
    if (!body.initializers().empty() || !body.sparse_initializers().empty())
      bail("a function body with initializers");
    std::vector<int64_t> opset_directives;
    const uint64_t present =
        f.unknown_fields.empty()
            ? 0
            : read_residue(f.unknown_fields, kFunctionRules, &opset_directives);
    Scope scope = enter_scope(body, nullptr);
    for (const ir::Value* v : body.inputs()) define_input(scope, v);

    w_.bytes_field(tag(F::kNameFieldNumber, kLen), f.name);
    for (const ir::Value* v : body.inputs()) {
      if (v->name().empty()) bail("a function input without a name");
      w_.bytes_field(tag(F::kInputFieldNumber, kLen), v->name());
    }
    // The outputs come before the nodes that define them: resolved below.
    for (const ir::Value* v : body.outputs()) {
      if (v == nullptr) bail("a null function output");
      if (v->name().empty()) bail("a value without a name is used");
      w_.bytes_field(tag(F::kOutputFieldNumber, kLen), v->name());
    }
    for (const std::string& name : f.attribute_names)
      w_.bytes_field(tag(F::kAttributeFieldNumber, kLen), name);
    write_nodes(body, F::kNodeFieldNumber, scope);
    complete_scope(scope);
    for (const ir::Value* v : body.outputs()) reference(v, scope);
    optional_string(F::kDocStringFieldNumber, f.doc_string, present);
    write_opsets(f.opset_imports, F::kOpsetImportFieldNumber, opset_directives);
    optional_string(F::kDomainFieldNumber, f.domain, present);
    for (const ir::Attribute& a : f.attribute_defaults) {
      const size_t at = w_.open(tag(F::kAttributeProtoFieldNumber, kLen));
      write_attribute(a, nullptr);  // defaults see no values, as in model_writer.cc
      w_.close(at);
    }
    for (const ir::Value* v : body.value_info()) write_value_info(v, F::kValueInfoFieldNumber);
    optional_string(F::kOverloadFieldNumber, f.overload, present);
    write_metadata(f.metadata_props, F::kMetadataPropsFieldNumber);
    leave_scope();
  }

  // What a scope owns; kept by nesting depth and reused from one graph to the next.
  struct ScopeStorage {
    std::vector<DefinedName> defined;
    NameTable inputs;
    NameTable names;
    std::vector<const ir::Value*> pending;
    size_t retained_bytes() const {
      return defined.capacity() * sizeof(DefinedName) + inputs.retained_bytes() +
             names.retained_bytes() + pending.capacity() * sizeof(const ir::Value*);
    }
  };

  // The encoder's working memory: the scopes' name lists and tables and the
  // clash check. On a big graph these are megabytes, and memory of that size
  // that malloc hands out afresh (it maps and unmaps such blocks as its
  // thresholds move) costs a page fault per 4 KiB: a loop of builds of the
  // 100,000-node chain ran about a fifth slower for it, depending on what
  // else the program had allocated. So each thread keeps the last
  // encoder's, up to the retention limit (set_encoder_scratch_retention_bytes),
  // for the next.
  struct Scratch {
    std::vector<std::unique_ptr<ScopeStorage>> scopes;
    NameClashCheck clashes;
    size_t retained_bytes() const {
      size_t bytes = clashes.retained_bytes();
      for (const auto& scope : scopes) bytes += scope->retained_bytes();
      return bytes;
    }
  };

 public:
  // This thread's kept scratch (empty while an encoder uses it).
  static std::unique_ptr<Scratch>& kept_scratch() {
    thread_local std::unique_ptr<Scratch> kept;
    return kept;
  }

 private:
  static std::unique_ptr<Scratch> take_scratch() {
    std::unique_ptr<Scratch> scratch = std::move(kept_scratch());
    return scratch ? std::move(scratch) : std::make_unique<Scratch>();
  }
  // Gives the scratch back for the next encoder on this thread.
  struct ReturnScratch {
    void operator()(Scratch* scratch) const {
      if (scratch->retained_bytes() <= scratch_retention_limit().load(std::memory_order_relaxed) &&
          !kept_scratch()) {
        kept_scratch().reset(scratch);
      } else {
        delete scratch;
      }
    }
  };

  const size_t expected_size_;
  ByteWriter w_;
  std::unique_ptr<Scratch, ReturnScratch> scratch_{take_scratch().release()};
  std::vector<std::unique_ptr<ScopeStorage>>& scopes_ = scratch_->scopes;
  size_t depth_ = 0;
  NameClashCheck& clashes_ = scratch_->clashes;
  // Tensors written as raw_data so far (see check_size).
  uint64_t raw_tensors_ = 0;
  const bool splicing_;
  const size_t min_splice_;
};

}  // namespace

size_t kept_scratch_bytes() {
  const auto& kept = Encoder::kept_scratch();
  return kept ? kept->retained_bytes() : 0;
}

void drop_kept_scratch_over(size_t limit) {
  auto& kept = Encoder::kept_scratch();
  if (kept && kept->retained_bytes() > limit) kept.reset();
}

bool encode_model_fast(const ir::Model& model, std::string* out, const char** bail_reason) {
  if (bail_reason) *bail_reason = nullptr;
  try {
    Encoder(out, model).model(model);
    return true;
  } catch (const NotPlain& e) {
    if (bail_reason) *bail_reason = e.reason;
    std::string().swap(*out);  // free what was written: it may be large
    return false;
  }
}

bool encode_model_fast_spliced(const ir::Model& model, size_t min_splice, std::string* out,
                               std::vector<Splice>* splices) {
  splices->clear();
  try {
    Encoder(out, model, splices, min_splice).model(model);
    return true;
  } catch (const NotPlain&) {
    std::string().swap(*out);
    splices->clear();
    return false;
  }
}

}  // namespace onnxscript::serde::detail

namespace onnxscript::serde {

void set_encoder_scratch_retention_bytes(size_t bytes) {
  detail::scratch_retention_limit().store(bytes, std::memory_order_relaxed);
  detail::drop_kept_scratch_over(bytes);
}

size_t encoder_scratch_retention_bytes() {
  return detail::scratch_retention_limit().load(std::memory_order_relaxed);
}

size_t encoder_scratch_retained_bytes() { return detail::kept_scratch_bytes(); }

}  // namespace onnxscript::serde
