#pragma once
/// \file
/// Indexing and slicing of Values, with numpy / ONNX Script semantics.
///
/// C++20 has no multi-argument `operator[]`, so several indices go in braces:
///
///     x[2]                          // x[2]        one integer: drops the axis
///     x[{0, Slice(1, -1, 2)}]       // x[0, 1:-1:2]
///     x[{Ellipsis, 0}]              // x[..., 0]
///     x[{NewAxis, Slice()}]         // x[None, :]
///     x[{Slice(std::nullopt, 3)}]   // x[:3]
///     x[{Slice(std::nullopt, std::nullopt, -1)}]  // x[::-1]
///     x[{Slice(), i}]               // x[:, i]      i an integer tensor: Gather
///
/// An Index is one of:
/// - an integer k: selects one position and drops the axis (negative counts
///   from the end; out of range is a ScriptError when the size is static);
/// - a Slice{start, stop, step}: Python's `start:stop:step`; each part is
///   optional. Bounds are clamped as numpy does; step 0 is a ScriptError;
/// - a Value (traced or concrete int32/int64 tensor, or an int literal):
///   Gather along that axis; the axis is replaced by the index's shape;
/// - Ellipsis: as many full slices as the unindexed axes (at most one);
/// - NewAxis: inserts a dimension of size 1 (Python's `None`).
/// Axes not indexed at the end are taken whole, as in numpy.
///
/// The nodes emitted are as few as ONNX Script emits: one Slice for all range
/// slices (and for integer indices when there are several or there are ranges),
/// one Squeeze for the integer-indexed axes, one Gather per tensor index, one
/// Unsqueeze for all new axes. A single integer index with no ranges is one
/// Gather with a scalar index. Starts, ends, axes and steps are int64
/// Constants; steps are omitted when all are 1, and full `Slice()` axes are
/// omitted. `x[{Slice()}]` and `x[{Ellipsis}]` return x with no node.
///
/// Traced and eager values take the same path (every op goes through
/// call_op). The rank of x comes from the traced type's shape or the concrete
/// tensor. When it is unknown, axes after the Ellipsis (explicit, or implied
/// at the end) count from the back with negative axes; only a NewAxis with
/// unknown-rank parts on both sides (x and a tensor index) cannot be placed,
/// a ScriptError. With an unknown rank, too many indices fail at run time.
/// Traced results get a type (element type and shape) when per-node inference
/// has not given them one, so subscripts chain.
///
/// Limits: several tensor indices are applied one after another (outer
/// indexing), not broadcast together as numpy does; the combinations where the
/// two differ (two non-scalar tensor indices, or a non-scalar tensor index
/// separated from an integer index by a slice) are rejected with ScriptError.
/// Boolean-mask indexing is not supported (use Compress).
///
/// `Slice`, `Ellipsis` and `NewAxis` live in namespace onnxscript; the typed
/// operator `Slice` lives in onnxscript::opsetN (`op::Slice`).

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <source_location>
#include <span>

#include "onnxscript/script/value.h"

namespace onnxscript {

/// Python's `start:stop:step`. Every part is optional: `Slice()` is `:`,
/// `Slice(1, std::nullopt)` is `1:`, `Slice(std::nullopt, 3)` is `:3`,
/// `Slice(std::nullopt, std::nullopt, -1)` is `::-1`. (There is deliberately
/// no one-argument form: Python's `slice(3)` means stop, which reads badly.)
struct Slice {
  /// First position; default 0 (the last, for negative steps).
  std::optional<int64_t> start;
  /// One past the last position; default the end (before the first, for negative steps).
  std::optional<int64_t> stop;
  /// Stride; default 1; must not be 0.
  std::optional<int64_t> step;

  /// `:`, the whole axis.
  constexpr Slice() = default;
  /// `start:stop` or `start:stop:step`.
  constexpr Slice(std::optional<int64_t> start, std::optional<int64_t> stop,
                  std::optional<int64_t> step = std::nullopt)
      : start(start), stop(stop), step(step) {}

  /// True for `:` (or `::1`), which selects the whole axis.
  constexpr bool is_full() const { return !start && !stop && (!step || *step == 1); }
};

/// The type of Ellipsis (`...`).
struct EllipsisIndex {
  explicit constexpr EllipsisIndex() = default;
};
/// The type of NewAxis (`None`).
struct NewAxisIndex {
  explicit constexpr NewAxisIndex() = default;
};
/// `...`: full slices for every axis not otherwise indexed.
inline constexpr EllipsisIndex Ellipsis{};
/// `None`/`np.newaxis`: inserts a dimension of size 1.
inline constexpr NewAxisIndex NewAxis{};

/// One index of a subscript: an integer, a Slice, a tensor Value, Ellipsis or
/// NewAxis. Implicit conversions make `x[{0, Slice(1, 3), Ellipsis}]` work;
/// each conversion records the user's source line for error messages.
class Index {
 public:
  /// What the index is.
  enum class Kind : uint8_t { kInteger, kSlice, kValue, kEllipsis, kNewAxis };

  /// An integer index (any integer type except bool).
  template <std::integral I>
  requires(!std::same_as<I, bool>)
      Index(I v,  // NOLINT: implicit by design
            std::source_location location = std::source_location::current())
      : kind_(Kind::kInteger), integer_(static_cast<int64_t>(v)), location_(location) {}
  /// A range.
  Index(Slice s, std::source_location location = std::source_location::current())  // NOLINT
      : kind_(Kind::kSlice), slice_(s), location_(location) {}
  /// A tensor index (Gather), or an int literal (an integer index).
  Index(Value v, std::source_location location = std::source_location::current())  // NOLINT
      : kind_(Kind::kValue), value_(v), location_(location) {}
  /// A concrete tensor index (Gather).
  Index(const Tensor& t, std::source_location location = std::source_location::current())  // NOLINT
      : Index(Value(t), location) {}
  /// `...`.
  Index(EllipsisIndex, std::source_location location = std::source_location::current())  // NOLINT
      : kind_(Kind::kEllipsis), location_(location) {}
  /// A new axis of size 1.
  Index(NewAxisIndex, std::source_location location = std::source_location::current())  // NOLINT
      : kind_(Kind::kNewAxis), location_(location) {}

  /// What the index is.
  Kind kind() const { return kind_; }
  /// The integer (kInteger only).
  int64_t integer() const { return integer_; }
  /// The range (kSlice only).
  const Slice& slice() const { return slice_; }
  /// The tensor index (kValue only).
  Value value() const { return value_; }
  /// Where the index was written.
  const std::source_location& location() const { return location_; }

 private:
  Kind kind_;
  int64_t integer_ = 0;
  Slice slice_;
  Value value_;
  std::source_location location_;
};

/// `x[indices...]` with the indices in a span (for indices built at run
/// time). The same as `x[{...}]`; errors name `location` when `indices` is
/// empty, else the line of the first index.
Value subscript(Value x, std::span<const Index> indices,
                std::source_location location = std::source_location::current());

}  // namespace onnxscript
