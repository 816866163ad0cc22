#pragma once
/// \file
/// SmallVector: a vector of trivially copyable elements that keeps its first
/// few elements inside the object. A node's inputs and outputs and a value's
/// uses are almost always one to three pointers; keeping them inline saves a
/// heap allocation (and its free) for each, which is most of what building a
/// graph costs.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <span>
#include <stdexcept>
#include <type_traits>

namespace onnxscript::ir {

/// A growable array of trivially copyable `T` with room for `kInline`
/// elements before it allocates. Only what the IR needs: append, remove the
/// last, index, iterate.
template <typename T, size_t kInline>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector copies elements with memcpy");
  static_assert(kInline > 0);

 public:
  /// An empty vector.
  SmallVector() = default;
  SmallVector(const SmallVector& other) { assign(other.data(), other.size()); }
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) {
      size_ = 0;
      assign(other.data(), other.size());
    }
    return *this;
  }
  ~SmallVector() {
    if (data_ != inline_) std::free(data_);
  }

  /// Number of elements.
  size_t size() const { return size_; }
  /// True when there are no elements.
  bool empty() const { return size_ == 0; }
  /// The elements, contiguous.
  T* data() { return data_; }
  /// The elements, contiguous.
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  /// Element `i` (unchecked).
  T& operator[](size_t i) { return data_[i]; }
  /// Element `i` (unchecked).
  const T& operator[](size_t i) const { return data_[i]; }
  /// Element `i`; throws std::out_of_range past the end, as std::vector::at.
  T& at(size_t i) {
    if (i >= size_) throw std::out_of_range("SmallVector::at");
    return data_[i];
  }
  /// Element `i`; throws std::out_of_range past the end.
  const T& at(size_t i) const {
    if (i >= size_) throw std::out_of_range("SmallVector::at");
    return data_[i];
  }
  /// The last element (the vector must not be empty).
  T& back() { return data_[size_ - 1]; }
  /// The elements as a span.
  operator std::span<const T>() const { return {data_, size_}; }  // NOLINT: a view, by design

  /// Makes room for `n` elements without further allocation.
  void reserve(size_t n) {
    if (n > capacity_) grow_to(n);
  }
  /// Appends an element.
  void push_back(const T& value) {
    if (size_ == capacity_) grow_to(2 * size_t{capacity_});
    data_[size_++] = value;
  }
  /// Removes the last element (the vector must not be empty).
  void pop_back() { --size_; }
  /// Grows or shrinks to `n` elements; new ones are `value`.
  void resize(size_t n, const T& value) {
    reserve(n);
    for (size_t i = size_; i < n; ++i) data_[i] = value;
    size_ = static_cast<uint32_t>(n);
  }

 private:
  void assign(const T* src, size_t n) {
    reserve(n);
    if (n) std::memcpy(static_cast<void*>(data_), src, n * sizeof(T));
    size_ = static_cast<uint32_t>(n);
  }
  void grow_to(size_t n) {
    if (n > kMaxSize) throw std::length_error("SmallVector: too many elements for 32-bit counts");
    T* bigger = static_cast<T*>(std::malloc(n * sizeof(T)));
    if (!bigger) throw std::bad_alloc();
    if (size_) std::memcpy(static_cast<void*>(bigger), data_, size_ * sizeof(T));
    if (data_ != inline_) std::free(data_);
    data_ = bigger;
    capacity_ = static_cast<uint32_t>(n);
  }

  // 32-bit counts: a node's inputs and a value's uses are far fewer, and the
  // IR holds one SmallVector per edge end, so 8 bytes less each adds up.
  static constexpr size_t kMaxSize = UINT32_MAX;
  T* data_ = inline_;
  uint32_t size_ = 0;
  uint32_t capacity_ = kInline;
  T inline_[kInline];
};

}  // namespace onnxscript::ir
