#pragma once
/// \file
/// Tensor: a cheap, shared handle to typed, shaped bytes. The IR stores
/// initializers and tensor attributes as Tensors, and the evaluator computes
/// with the same class, so a constant moves from a model into a kernel without
/// a copy.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "onnxscript/ir/data_type.h"
#include "onnxscript/ir/dims.h"
#include "onnxscript/ir/element_types.h"
#include "onnxscript/support/error.h"

namespace onnxscript::ir {

/// Ordered key/value pairs (ONNX metadata_props). Order and duplicates are kept.
using MetadataProps = std::vector<std::pair<std::string, std::string>>;

/// Memory that holds tensor elements. It may be owned (heap), borrowed (a
/// caller's buffer kept alive by a token) or mapped from a file.
class Storage {
 public:
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  virtual ~Storage() = default;

  /// First byte of the memory.
  std::byte* data() const { return data_; }
  /// Length in bytes.
  size_t size_bytes() const { return size_; }

 protected:
  Storage(std::byte* data, size_t size) : data_(data), size_(size) {}
  std::byte* data_;
  size_t size_;
};

/// Allocates `size` zeroed bytes, aligned to 64 bytes (to 16 when `size` is
/// at most 64: small tensors are stored inline, in one allocation).
std::shared_ptr<Storage> allocate_storage(size_t size);

/// Like allocate_storage, but the bytes are left as they are (for a writer
/// that sets every one of them): no memset, and no page touched before the
/// writer touches it.
std::shared_ptr<Storage> allocate_uninitialized_storage(size_t size);

/// Heap buffers that tensors gave back, kept by size to serve later
/// allocations of the same size without a trip to the system allocator (and,
/// for large buffers, without the page faults of fresh memory). A Session
/// owns one and installs it with BufferPoolScope while it runs, so that a
/// model's second run reuses the memory of its first. Thread-safe: a buffer
/// may be given back from any thread. Buffers still held by tensors keep the
/// pool alive.
class BufferPool {
 public:
  /// A pool that keeps at most `max_cached_bytes` of idle buffers; a buffer
  /// given back beyond that is freed.
  explicit BufferPool(size_t max_cached_bytes = size_t{1} << 30);
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;
  ~BufferPool();

  /// A buffer of at least `size` bytes (the size rounded up to the pool's
  /// granularity), 64-byte aligned, contents unspecified.
  std::byte* acquire(size_t size);
  /// Gives back a buffer that acquire(size) returned.
  void release(std::byte* data, size_t size);
  /// Bytes of idle buffers held now.
  size_t cached_bytes() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// While alive, tensor storage allocated on this thread above the inline size
/// comes from `pool` and returns to it when the last tensor using it goes.
/// Scopes nest; the innermost wins. A null pool means the system allocator.
class BufferPoolScope {
 public:
  /// Installs `pool` for this thread until the scope ends.
  explicit BufferPoolScope(std::shared_ptr<BufferPool> pool);
  BufferPoolScope(const BufferPoolScope&) = delete;
  BufferPoolScope& operator=(const BufferPoolScope&) = delete;
  ~BufferPoolScope();

 private:
  std::shared_ptr<BufferPool> pool_;
  const std::shared_ptr<BufferPool>* previous_;
};

/// Allocates `count` empty std::string objects (element storage of string tensors).
std::shared_ptr<Storage> allocate_string_storage(int64_t count);

/// Wraps memory the caller owns. `keep_alive` is held as long as the storage
/// lives; pass the owner of `data` (or nullptr if the caller guarantees lifetime).
std::shared_ptr<Storage> borrow_storage(void* data, size_t size,
                                        std::shared_ptr<const void> keep_alive);

/// How a tensor was encoded in its TensorProto; kept so that a model is
/// written back the way it was read.
enum class TensorEncoding : uint8_t {
  kRawData,      ///< `raw_data` bytes (the default for new tensors).
  kTypedFields,  ///< float_data, int32_data, int64_data, ... or string_data.
  kExternal,     ///< In a side file, named by `external_data`.
};

/// Proto-level facts about a tensor that are not its value: its name inside a
/// TensorProto, documentation, metadata, where its bytes came from. Only tensors
/// that came from or go to a file carry these.
struct TensorProtoInfo {
  std::string name;                                    ///< TensorProto.name.
  std::string doc_string;                              ///< TensorProto.doc_string.
  MetadataProps metadata_props;                        ///< TensorProto.metadata_props.
  MetadataProps external_data;                         ///< TensorProto.external_data, as read.
  TensorEncoding encoding = TensorEncoding::kRawData;  ///< Encoding as read.
  bool has_segment = false;                            ///< TensorProto.segment was present.
  int64_t segment_begin = 0;                           ///< TensorProto.segment.begin.
  int64_t segment_end = 0;                             ///< TensorProto.segment.end.
  std::string unknown_fields;  ///< Serialized fields this build does not know.
};

/// A typed, shaped array. Copying a Tensor copies the handle, not the
/// elements: copies share storage, as numpy views and torch tensors do. Use
/// clone() for an independent copy.
///
/// Elements are laid out densely in row-major order, in the ONNX raw_data
/// layout: little-endian, bool as one byte, 4-bit types packed two per byte
/// (low nibble first), complex as (real, imaginary) pairs. String tensors hold
/// std::string objects.
class Tensor {
 public:
  /// An undefined tensor (dtype kUndefined, no storage).
  Tensor() = default;

  /// A new zero-filled tensor (empty strings for string tensors).
  Tensor(DataType dtype, Dims shape);

  /// A tensor over existing storage, starting `byte_offset` bytes into it.
  /// Throws ValidationError when the storage is too small for the shape.
  Tensor(DataType dtype, Dims shape, std::shared_ptr<Storage> storage, size_t byte_offset = 0);

  /// A 1-D tensor holding `values`, or of `shape` when given (element counts must agree).
  template <typename T>
  static Tensor from(std::initializer_list<T> values, Dims shape = {-1}) {
    return from_span<T>(std::span<const T>(values.begin(), values.size()), std::move(shape));
  }
  /// Like from(), over any contiguous range of values.
  template <typename T>
  static Tensor from_span(std::span<const T> values, Dims shape = {-1}) {
    if (shape.size() == 1 && shape[0] == -1) shape[0] = static_cast<int64_t>(values.size());
    Tensor t = uninitialized(data_type_of<T>(), std::move(shape));
    if (t.numel() != static_cast<int64_t>(values.size()))
      throw ValidationError("Tensor::from: the values do not fill the shape");
    T* out = t.data<T>();
    for (size_t i = 0; i < values.size(); ++i) out[i] = values[i];
    return t;
  }
  /// A scalar (rank 0) tensor.
  template <typename T>
  static Tensor scalar(T value) {
    return from_span<T>(std::span<const T>(&value, 1), {});
  }

  /// A tensor whose elements are left uninitialized, for a producer that
  /// writes every element (kernels' outputs): it saves the zero-fill and the
  /// page faults it causes. String tensors and the sub-byte types (whose
  /// elements share bytes, so writers OR them in) are zero-filled regardless.
  static Tensor uninitialized(DataType dtype, Dims shape);

  /// A zero-filled tensor (numpy.zeros): the same as Tensor(dtype, shape).
  static Tensor zeros(DataType dtype, Dims shape) { return Tensor(dtype, std::move(shape)); }
  /// A tensor of ones (numpy.ones) of any numeric or bool type, float16,
  /// bfloat16, float8, int4 and complex included. Throws TypeError for strings.
  static Tensor ones(DataType dtype, Dims shape);
  /// A tensor with every element `value` (numpy.full).
  template <typename T>
  static Tensor full(Dims shape, const T& value) {
    Tensor t = uninitialized(data_type_of<T>(), std::move(shape));
    T* out = t.data<T>();
    for (int64_t i = 0; i < t.numel(); ++i) out[i] = value;
    return t;
  }
  /// [start, start + step, ...) up to `stop` exclusive, as numpy.arange.
  /// Throws ValidationError for a zero step.
  template <typename T>
  static Tensor arange(T start, T stop, T step = T(1)) {
    if (step == T(0)) throw ValidationError("Tensor::arange: step must not be zero");
    const double count = std::ceil((static_cast<double>(stop) - static_cast<double>(start)) /
                                   static_cast<double>(step));
    const int64_t n = count > 0 ? static_cast<int64_t>(count) : 0;
    Tensor t(data_type_of<T>(), {n});
    T* out = t.data<T>();
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(start + static_cast<T>(i) * step);
    return t;
  }
  /// Uniform random values in [0, 1) (numpy.random.rand), reproducible from
  /// `seed`. `dtype` is float, double, float16 or bfloat16; else TypeError.
  static Tensor rand(Dims shape, uint64_t seed = 0, DataType dtype = DataType::kFloat);

  /// The element at a multi-dimensional index (negative indices count from
  /// the end). T must match dtype(), which must have whole-byte elements.
  /// Throws ValidationError for a wrong index or a wrong T.
  template <typename T>
  T& at(std::initializer_list<int64_t> index) {
    return data<T>()[checked_offset(index, data_type_of<T>())];
  }
  /// The element at a multi-dimensional index; see at().
  template <typename T>
  const T& at(std::initializer_list<int64_t> index) const {
    return data<T>()[checked_offset(index, data_type_of<T>())];
  }

  /// False for a default-constructed tensor.
  bool defined() const { return dtype_ != DataType::kUndefined; }
  /// Element type.
  DataType dtype() const { return dtype_; }
  /// Dimensions; empty for a scalar. Inline up to rank 4 (see dims.h).
  const Dims& shape() const { return shape_; }
  /// Number of dimensions.
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  /// Number of elements (1 for a scalar).
  int64_t numel() const { return numel_; }
  /// Bytes the elements occupy (for strings: numel * sizeof(std::string)).
  size_t nbytes() const;

  /// Untyped pointer to the first element.
  void* raw_data() { return storage_ ? storage_->data() + offset_ : nullptr; }
  /// Untyped pointer to the first element.
  const void* raw_data() const { return storage_ ? storage_->data() + offset_ : nullptr; }
  /// The element bytes (not meaningful for string tensors).
  std::span<const std::byte> bytes() const {
    return {static_cast<const std::byte*>(raw_data()), nbytes()};
  }
  /// Typed pointer to the first element. The caller picks T to match dtype().
  template <typename T>
  T* data() {
    return static_cast<T*>(raw_data());
  }
  /// Typed pointer to the first element. The caller picks T to match dtype().
  template <typename T>
  const T* data() const {
    return static_cast<const T*>(raw_data());
  }

  /// The storage handle (shared with copies of this tensor).
  const std::shared_ptr<Storage>& storage() const { return storage_; }
  /// Byte offset of the first element inside storage().
  size_t byte_offset() const { return offset_; }

  /// A deep copy with its own storage. Proto info is copied too.
  Tensor clone() const;

  /// Same elements, another shape with the same element count (shares storage).
  Tensor reshaped(Dims shape) const;

  /// Proto-level facts (name, doc, encoding); null for tensors that never
  /// touched the wire format.
  const TensorProtoInfo* proto_info() const { return info_.get(); }
  /// Proto-level facts, created on first use.
  TensorProtoInfo& mutable_proto_info();

  /// Element-wise equality of dtype, shape and bytes (strings compared as
  /// strings). Floats are compared bitwise, so NaN == NaN here.
  bool same_contents(const Tensor& other) const;

 private:
  struct UninitializedTag {};
  Tensor(DataType dtype, Dims shape, UninitializedTag);

  // Row-major element offset of `index`; checks rank, bounds and the element type.
  int64_t checked_offset(std::initializer_list<int64_t> index, DataType requested) const;

  DataType dtype_ = DataType::kUndefined;
  Dims shape_;
  int64_t numel_ = 0;
  std::shared_ptr<Storage> storage_;
  size_t offset_ = 0;
  std::shared_ptr<TensorProtoInfo> info_;
};

/// Product of dimensions; throws ValidationError for a negative dimension or overflow.
int64_t checked_numel(std::span<const int64_t> shape);

/// A sparse tensor in COO form (ONNX SparseTensorProto).
struct SparseTensor {
  Tensor values;              ///< The non-zero values, 1-D.
  Tensor indices;             ///< int64, shape [NNZ] (linearised) or [NNZ, rank].
  std::vector<int64_t> dims;  ///< The dense shape.
};

/// The lowest IR version whose format can hold `tensor`: its element type's,
/// and 10 when it carries metadata_props.
int64_t min_ir_version(const Tensor& tensor);

/// The lowest IR version whose format can hold `sparse`: at least 6
/// (SparseTensorProto), and whatever its values and indices need.
int64_t min_ir_version(const SparseTensor& sparse);

}  // namespace onnxscript::ir
