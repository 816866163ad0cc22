#pragma once
// Shape arithmetic and element-type helpers shared by the tensor, reduce,
// linalg and nn kernels: axis normalisation, strides, numpy broadcasting,
// reading integer lists out of tensors, and a dispatch that only cares about
// element size (for kernels that move elements without looking at them).

#include <algorithm>
#include <complex>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "eval/util/dispatch.h"
#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval {

/// Maps `axis` from [-rank, rank) to [0, rank); fails the kernel naming `what` otherwise.
int64_t normalize_axis(const KernelContext& ctx, int64_t axis, int64_t rank,
                       const char* what = "axis");

/// GatherElements and ScatterElements: checks that `indices` has the rank of
/// `data` (at least 1) and fits inside it on every axis but the `axis`
/// attribute's, and returns that axis, normalized.
int64_t elements_axis(const KernelContext& ctx, const Tensor& data, const Tensor& indices);

/// Row-major strides (in elements) of a dense tensor of `shape`.
std::vector<int64_t> contiguous_strides(std::span<const int64_t> shape);

/// Product of `shape[begin, end)`.
int64_t shape_product(std::span<const int64_t> shape, size_t begin, size_t end);

/// "[2,3,4]" for messages.
std::string shape_string(std::span<const int64_t> shape);

/// The numpy broadcast of two shapes; fails the kernel when they are incompatible.
std::vector<int64_t> broadcast_shapes(const KernelContext& ctx, std::span<const int64_t> a,
                                      std::span<const int64_t> b);

/// Strides for reading a tensor of `shape` as if it had the (broadcast) shape
/// `out_shape`: right-aligned, 0 on broadcast dimensions.
std::vector<int64_t> broadcast_strides(std::span<const int64_t> shape,
                                       std::span<const int64_t> out_shape);

/// The elements of an integer tensor (any integer type) as int64; fails otherwise.
std::vector<int64_t> tensor_to_int64s(const KernelContext& ctx, const Tensor& t, const char* what);

/// One integer out of a one-element integer tensor.
int64_t tensor_to_int64(const KernelContext& ctx, const Tensor& t, const char* what);

/// A transposed copy of `src` (any element type): output dim i is input dim perm[i].
Tensor transpose_tensor(const Tensor& src, std::span<const int64_t> perm);

/// Copies `src` into the dense `out_shape` by numpy broadcasting (Expand).
Tensor broadcast_to(const Tensor& src, const std::vector<int64_t>& out_shape);

/// Arithmetic type for an element type: float16 and bfloat16 compute in float.
template <typename T>
struct ComputeType {
  using type = T;
};
template <>
struct ComputeType<float16> {
  using type = float;
};
template <>
struct ComputeType<bfloat16> {
  using type = float;
};
template <typename T>
using compute_t = typename ComputeType<T>::type;

/// Ordering used by sorting kernels (TopK, Unique): complex numbers compare
/// by real then imaginary part, as numpy sorts them.
template <typename T>
inline bool element_less(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
    return static_cast<float>(a) < static_cast<float>(b);
  } else if constexpr (std::is_same_v<T, std::complex<float>> ||
                       std::is_same_v<T, std::complex<double>>) {
    return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
  } else {
    return a < b;
  }
}

template <typename T>
inline bool element_equal(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
    return static_cast<float>(a) == static_cast<float>(b);
  } else {
    return a == b;
  }
}

/// An opaque 16-byte element (complex128) for size-only dispatch.
struct Bytes16 {
  uint64_t lo, hi;
};

/// Calls `f.template operator()<U>()` where U is an unsigned integer of the
/// element's width (or Bytes16, or std::string for strings): for kernels that
/// only move elements, this instantiates 6 bodies instead of 16. Other
/// element types call `unsupported()`, which must not return normally.
template <typename F, typename Unsupported>
void visit_by_size(DataType dtype, F&& f, Unsupported&& unsupported) {
  if (dtype == DataType::kString) return f.template operator()<std::string>();
  switch (dtype == DataType::kUndefined ? 0 : ir::bit_width(dtype)) {
    case 8:
      return f.template operator()<uint8_t>();
    case 16:
      return f.template operator()<uint16_t>();
    case 32:
      return f.template operator()<uint32_t>();
    case 64:
      return f.template operator()<uint64_t>();
    case 128:
      return f.template operator()<Bytes16>();
    default:
      unsupported();
  }
}

/// visit_by_size inside a kernel: an unsupported type fails the kernel.
template <typename F>
void dispatch_by_size(DataType dtype, const KernelContext& ctx, F&& f) {
  visit_by_size(dtype, std::forward<F>(f), [&] {
    ctx.fail(std::string("element type ") + std::string(ir::data_type_name(dtype)) +
             " is not supported");
  });
}

/// Fails the kernel unless `dtype` is in `List` (for kernels that move
/// elements by size but whose schema restricts the types).
template <DataType... Ds>
void require_type(TypeList<Ds...>, DataType dtype, const KernelContext& ctx) {
  if (!((dtype == Ds) || ...))
    ctx.fail(std::string("element type ") + std::string(ir::data_type_name(dtype)) +
             " is not supported");
}

/// Advances a row-major multi-index over `shape`, keeping `offset` in step
/// with `strides`. Returns false after the last index.
inline bool next_index(std::vector<int64_t>& index, std::span<const int64_t> shape,
                       std::span<const int64_t> strides, int64_t& offset) {
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    if (++index[d] < shape[d]) {
      offset += strides[d];
      return true;
    }
    offset -= strides[d] * (shape[d] - 1);
    index[d] = 0;
  }
  return false;
}

}  // namespace onnxscript::eval
