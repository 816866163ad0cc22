#pragma once
/// \file
/// Dims: a tensor's dimensions, kept inside the tensor up to rank 4.
///
/// Copying a Tensor copies its handle: the storage is shared, but the
/// dimensions were a std::vector of their own, so every copy (a weight put
/// into a graph, a value handed to a kernel, an output stored in an eager
/// scope) cost a malloc and, later, a free. Most tensors have four
/// dimensions or fewer; Dims keeps those inline and copies them with a few
/// moves. It reads like a `const std::vector<int64_t>` (size, indexing,
/// iteration, comparison) and converts to one where code needs a vector.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <span>
#include <type_traits>
#include <vector>

namespace onnxscript::ir {

/// A tensor's dimensions: up to kInline held inline, more on the heap.
class Dims {
 public:
  /// Dimensions kept without a heap allocation.
  static constexpr size_t kInline = 4;
  using value_type = int64_t;              ///< As a container.
  using size_type = size_t;                ///< As a container.
  using difference_type = std::ptrdiff_t;  ///< As a container.
  using reference = int64_t&;              ///< As a container.
  using const_reference = const int64_t&;  ///< As a container.
  using iterator = int64_t*;               ///< Contiguous.
  using const_iterator = const int64_t*;   ///< Contiguous.

  /// No dimensions (a scalar's).
  Dims() = default;
  /// The given dimensions.
  Dims(std::initializer_list<int64_t> dims) { assign(dims.begin(), dims.size()); }
  /// A copy of `dims`. Implicit, so that a std::vector passes where Dims is taken.
  Dims(const std::vector<int64_t>& dims) { assign(dims.data(), dims.size()); }  // NOLINT
  /// A copy of `dims`.
  explicit Dims(std::span<const int64_t> dims) { assign(dims.data(), dims.size()); }
  /// A copy of [first, last), for iterators over integers.
  template <typename It>
  requires(!std::is_integral_v<It>) Dims(It first, It last) {
    reserve(static_cast<size_t>(std::distance(first, last)));
    for (; first != last; ++first) push_back(static_cast<int64_t>(*first));
  }
  /// `count` dimensions, each `value` (as std::vector's (count, value)).
  Dims(size_t count, int64_t value) { resize(count, value); }

  Dims(const Dims& other) {
    if (other.on_heap()) {
      assign(other.data(), other.size());
    } else {
      copy_inline(other);
    }
  }
  Dims(Dims&& other) noexcept { take(other); }
  Dims& operator=(const Dims& other) {
    if (this != &other) {
      size_ = 0;
      if (other.on_heap() || on_heap()) {
        assign(other.data(), other.size());
      } else {
        copy_inline(other);
      }
    }
    return *this;
  }
  Dims& operator=(Dims&& other) noexcept {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  ~Dims() { release(); }

  /// Number of dimensions.
  size_t size() const { return size_; }
  /// True for a scalar's.
  bool empty() const { return size_ == 0; }
  /// The dimensions, contiguous.
  int64_t* data() { return on_heap() ? heap_ : inline_; }
  /// The dimensions, contiguous.
  const int64_t* data() const { return on_heap() ? heap_ : inline_; }
  int64_t* begin() { return data(); }
  int64_t* end() { return data() + size_; }
  const int64_t* begin() const { return data(); }
  const int64_t* end() const { return data() + size_; }
  /// Dimension `i` (unchecked).
  int64_t& operator[](size_t i) { return data()[i]; }
  /// Dimension `i` (unchecked).
  int64_t operator[](size_t i) const { return data()[i]; }
  /// The first dimension (there must be one).
  int64_t front() const { return data()[0]; }
  /// The last dimension (there must be one).
  int64_t back() const { return data()[size_ - 1]; }

  /// Appends a dimension.
  void push_back(int64_t d) {
    if (size_ == capacity_) reserve(2 * size_t{capacity_});
    data()[size_++] = d;
  }
  /// Removes the last dimension (there must be one).
  void pop_back() { --size_; }
  /// Makes room for `n` dimensions.
  void reserve(size_t n) {
    if (n > capacity_) grow_to(n);
  }
  /// Grows or shrinks to `n` dimensions; new ones are `value`.
  void resize(size_t n, int64_t value = 0) {
    reserve(n);
    std::fill(data() + std::min<size_t>(n, size_), data() + n, value);
    size_ = static_cast<uint32_t>(n);
  }
  /// Inserts `d` before `at`; returns where it went.
  int64_t* insert(const int64_t* at, int64_t d) {
    const size_t i = static_cast<size_t>(at - data());
    push_back(d);
    std::rotate(data() + i, data() + size_ - 1, data() + size_);
    return data() + i;
  }
  /// Removes the dimension at `at`; returns what follows it.
  int64_t* erase(const int64_t* at) {
    const size_t i = static_cast<size_t>(at - data());
    std::copy(data() + i + 1, data() + size_, data() + i);
    --size_;
    return data() + i;
  }
  /// Removes every dimension.
  void clear() { size_ = 0; }

  /// The dimensions as a std::vector.
  std::vector<int64_t> to_vector() const { return {begin(), end()}; }
  /// The dimensions as a std::vector. Explicit because it allocates: bound
  /// implicitly, `const std::vector<int64_t>& d = t.shape();` compiled into a
  /// silent copy on a hot path (one malloc per traced weight).
  explicit operator std::vector<int64_t>() const { return to_vector(); }
  /// The dimensions as a span.
  operator std::span<const int64_t>() const { return {data(), size_}; }  // NOLINT: a view

  friend bool operator==(const Dims& a, const Dims& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator==(const Dims& a, const std::vector<int64_t>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  bool on_heap() const { return capacity_ > kInline; }
  void assign(const int64_t* src, size_t n) {
    static_assert(kInline == 4, "the copy below is spelled out for four");
    if (n <= kInline && !on_heap()) {
      // Spelled out: a loop of at most four would become a call to memmove.
      if (n > 0) inline_[0] = src[0];
      if (n > 1) inline_[1] = src[1];
      if (n > 2) inline_[2] = src[2];
      if (n > 3) inline_[3] = src[3];
    } else {
      reserve(n);
      std::copy(src, src + n, data());
    }
    size_ = static_cast<uint32_t>(n);
  }
  // Copies `other`'s inline dimensions (this one's are inline too): the
  // whole fixed-size array, a couple of moves, rather than a sized copy.
  void copy_inline(const Dims& other) {
    std::copy(std::begin(other.inline_), std::end(other.inline_), std::begin(inline_));
    size_ = other.size_;
  }
  void grow_to(size_t n);
  void release() {
    if (on_heap()) delete[] heap_;
    capacity_ = kInline;
    size_ = 0;
  }
  // Takes `other`'s dimensions and leaves it empty.
  void take(Dims& other) {
    size_ = other.size_;
    capacity_ = other.capacity_;
    if (other.on_heap()) {
      heap_ = other.heap_;
    } else {
      std::copy(std::begin(other.inline_), std::end(other.inline_), std::begin(inline_));
    }
    other.capacity_ = kInline;
    other.size_ = 0;
  }

  uint32_t size_ = 0;
  uint32_t capacity_ = kInline;  // over kInline: on the heap
  // The inline array starts zeroed, so that copying all of it (see
  // copy_inline) never reads an indeterminate value.
  union {
    int64_t inline_[kInline] = {};
    int64_t* heap_;
  };
};

}  // namespace onnxscript::ir
