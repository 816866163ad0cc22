#pragma once
/// \file
/// Types of ONNX values: tensors, sparse tensors, sequences, optionals, maps
/// and opaque types, with shapes whose dimensions are static, symbolic or unknown.

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "onnxscript/ir/data_type.h"

namespace onnxscript::ir {

/// One dimension of a shape: a known size, a named symbol ("N"), or unknown.
class Dim {
 public:
  /// An unknown dimension.
  Dim() = default;
  /// A static dimension. Negative sizes are representable (so that bad input
  /// can be reported rather than lost) but are_valid() rejects them.
  Dim(int64_t value) : kind_(Kind::kStatic), value_(value) {}  // NOLINT: implicit by design
  /// A symbolic dimension.
  Dim(std::string symbol) : kind_(Kind::kSymbolic), symbol_(std::move(symbol)) {}  // NOLINT
  /// A symbolic dimension.
  Dim(const char* symbol) : Dim(std::string(symbol)) {}  // NOLINT

  /// True for a known size.
  bool is_static() const { return kind_ == Kind::kStatic; }
  /// True for a named symbol.
  bool is_symbolic() const { return kind_ == Kind::kSymbolic; }
  /// True when neither size nor symbol is known.
  bool is_unknown() const { return kind_ == Kind::kUnknown; }
  /// The size; meaningful only when is_static().
  int64_t value() const { return value_; }
  /// The symbol; empty unless is_symbolic().
  const std::string& symbol() const { return symbol_; }

  /// ONNX dimension denotation (e.g. "DATA_BATCH"); usually empty.
  std::string denotation;

  bool operator==(const Dim& other) const = default;

 private:
  enum class Kind : uint8_t { kUnknown, kStatic, kSymbolic };
  Kind kind_ = Kind::kUnknown;
  int64_t value_ = 0;
  std::string symbol_;
};

/// A shape of known rank: its dimensions, outermost first. An unknown rank
/// is an absent Shape (std::nullopt).
///
/// Copies share one immutable list of dimensions, so copying a Type (which
/// building a graph does for every typed value) costs a reference count, not
/// an allocation. The mutating members copy the list first when another
/// Shape shares it. Reads go through const members only: iterate with
/// `const Dim&`, and change one dimension with set().
class Shape {
 public:
  /// A scalar's shape (rank 0).
  Shape() = default;
  /// The given dimensions.
  Shape(std::initializer_list<Dim> dims) : Shape(dims.begin(), dims.end()) {}
  /// The given dimensions.
  Shape(const std::vector<Dim>& dims) : Shape(dims.begin(), dims.end()) {}  // NOLINT: converts
  /// The dimensions in [first, last); each element converts to Dim (an
  /// int64_t size, say).
  template <typename It>
  Shape(It first, It last) {
    reserve(static_cast<size_t>(std::distance(first, last)));
    for (; first != last; ++first) emplace_back(*first);
  }
  Shape(const Shape& other) noexcept : rep_(other.rep_) {
    if (rep_) rep_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  Shape(Shape&& other) noexcept : rep_(std::exchange(other.rep_, nullptr)) {}
  Shape& operator=(const Shape& other) noexcept {
    Shape copy(other);
    std::swap(rep_, copy.rep_);
    return *this;
  }
  Shape& operator=(Shape&& other) noexcept {
    std::swap(rep_, other.rep_);
    return *this;
  }
  ~Shape() { release(rep_); }

  /// The rank.
  size_t size() const { return rep_ ? rep_->size : 0; }
  /// True for rank 0.
  bool empty() const { return size() == 0; }
  /// The dimensions, contiguous.
  const Dim* data() const { return rep_ ? rep_->dims() : nullptr; }
  const Dim* begin() const { return data(); }
  const Dim* end() const { return data() + size(); }
  /// Dimension `i` (unchecked).
  const Dim& operator[](size_t i) const { return data()[i]; }
  /// Dimension `i`; throws std::out_of_range past the end.
  const Dim& at(size_t i) const;
  /// The outermost dimension (the shape must not be empty).
  const Dim& front() const { return data()[0]; }
  /// The innermost dimension (the shape must not be empty).
  const Dim& back() const { return data()[size() - 1]; }
  /// The dimensions as a vector.
  std::vector<Dim> to_vector() const { return {begin(), end()}; }

  /// Appends a dimension.
  void push_back(Dim dim) { emplace_back(std::move(dim)); }
  /// Appends a dimension built from `args`.
  template <typename... Args>
  void emplace_back(Args&&... args) {
    make_room(1);
    new (rep_->dims() + rep_->size) Dim(std::forward<Args>(args)...);
    ++rep_->size;
  }
  /// Makes room for `n` dimensions in all.
  void reserve(size_t n) {
    if (n > size()) make_room(n - size());
  }
  /// Replaces dimension `i` (unchecked).
  void set(size_t i, Dim dim);

  /// Dimension by dimension.
  bool operator==(const Shape& other) const;

 private:
  // One allocation: the header, then `capacity` dimensions.
  struct alignas(Dim) Rep {
    std::atomic<uint32_t> refs;
    uint32_t size;
    uint32_t capacity;
    Dim* dims() { return reinterpret_cast<Dim*>(this + 1); }
  };
  // Gives this Shape a list of its own with room for `extra` more dimensions.
  void make_room(size_t extra) {
    if (rep_ && rep_->refs.load(std::memory_order_acquire) == 1 &&
        rep_->size + extra <= rep_->capacity)
      return;
    grow(extra);
  }
  void grow(size_t extra);
  static void release(Rep* rep) noexcept {
    if (rep && rep->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) destroy(rep);
  }
  static void destroy(Rep* rep) noexcept;

  Rep* rep_ = nullptr;
};

/// What kind of value a Type describes.
enum class TypeKind : uint8_t {
  kUnspecified,   ///< A TypeProto with nothing set.
  kTensor,        ///< A dense tensor.
  kSparseTensor,  ///< A sparse tensor.
  kSequence,      ///< A sequence of values of one element type.
  kOptional,      ///< A value that may be absent.
  kMap,           ///< A map from a scalar key type to values.
  kOpaque,        ///< An opaque type named by domain and name.
};

/// The type of a value. Small and copyable; nested types are shared.
struct Type {
  TypeKind kind = TypeKind::kUnspecified;
  /// Element type of a (sparse) tensor, or the key type of a map.
  DataType elem_type = DataType::kUndefined;
  /// Shape of a (sparse) tensor; nullopt when the rank is unknown.
  std::optional<Shape> shape;
  /// Element type of a sequence or optional, value type of a map.
  std::shared_ptr<const Type> element;

  /// Domain of an opaque type.
  const std::string& opaque_domain() const { return labels().opaque_domain; }
  /// Name of an opaque type.
  const std::string& opaque_name() const { return labels().opaque_name; }
  /// Sets the domain and name of an opaque type.
  void set_opaque(std::string domain, std::string name);
  /// ONNX type denotation; usually empty.
  const std::string& denotation() const { return labels().denotation; }
  /// Sets the denotation.
  void set_denotation(std::string denotation);

  /// A dense tensor type.
  static Type tensor(DataType elem, std::optional<Shape> shape = std::nullopt);
  /// A sparse tensor type.
  static Type sparse_tensor(DataType elem, std::optional<Shape> shape = std::nullopt);
  /// A sequence of `elem`.
  static Type sequence(Type elem);
  /// An optional `elem`.
  static Type optional(Type elem);
  /// A map from `key` to `value`.
  static Type map(DataType key, Type value);

  /// True when this is a dense tensor type.
  bool is_tensor() const { return kind == TypeKind::kTensor; }

  /// Structural equality (nested types compared by value).
  bool operator==(const Type& other) const;

  /// A readable form: "float[N,3]", "seq(int64[])", "map(string, float)".
  std::string to_string() const;

 private:
  // The strings few types carry, shared between copies and out of line:
  // every value in a graph holds a Type, and inline strings would more than
  // double its size.
  struct Labels {
    std::string opaque_domain, opaque_name, denotation;
    bool operator==(const Labels&) const = default;
  };
  const Labels& labels() const;
  Labels& mutable_labels();
  std::shared_ptr<const Labels> labels_;
};

/// The lowest IR version needed to store values of this type (e.g. optional needs 8).
int64_t min_ir_version(const Type& type);

}  // namespace onnxscript::ir
