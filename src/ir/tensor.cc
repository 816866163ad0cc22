#include "onnxscript/ir/tensor.h"

#include <algorithm>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <new>
#include <random>
#include <unordered_map>

namespace onnxscript::ir {

int64_t min_ir_version(const Tensor& tensor) {
  int64_t v = min_ir_version(tensor.dtype());
  if (const TensorProtoInfo* info = tensor.proto_info(); info && !info->metadata_props.empty())
    v = std::max<int64_t>(v, 10);
  return v;
}

int64_t min_ir_version(const SparseTensor& sparse) {
  return std::max({int64_t{6}, min_ir_version(sparse.values), min_ir_version(sparse.indices)});
}
namespace {

constexpr size_t kAlignment = 64;

size_t round_to_alignment(size_t size) {
  // aligned_alloc needs a size that is a multiple of the alignment, and a
  // non-null pointer is convenient even for empty tensors.
  const size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
  return rounded == 0 ? kAlignment : rounded;
}

std::byte* aligned_bytes(size_t rounded) {
  auto* data = static_cast<std::byte*>(std::aligned_alloc(kAlignment, rounded));
  if (data == nullptr) throw std::bad_alloc();
  return data;
}

class HeapStorage final : public Storage {
 public:
  HeapStorage(size_t size, bool zero) : Storage(aligned_bytes(round_to_alignment(size)), size) {
    if (zero) std::memset(data_, 0, size);
  }
  ~HeapStorage() override { std::free(data_); }
};

// A buffer on loan from a BufferPool, given back when the last tensor goes.
class PooledStorage final : public Storage {
 public:
  PooledStorage(std::shared_ptr<BufferPool> pool, size_t size, bool zero)
      : Storage(pool->acquire(size), size), pool_(std::move(pool)) {
    if (zero) std::memset(data_, 0, size);
  }
  ~PooledStorage() override { pool_->release(data_, size_); }

 private:
  std::shared_ptr<BufferPool> pool_;
};

// The pool BufferPoolScope installed on this thread, if any.
thread_local const std::shared_ptr<BufferPool>* current_pool = nullptr;

// Small tensors (scalars, the one-element values of eager code) keep their
// bytes inside the storage object: one allocation, shared with the control
// block by make_shared, instead of three. Cache-line alignment buys nothing
// for so few bytes; malloc's 16 suits every element type.
constexpr size_t kInlineBytes = 64;

class InlineStorage final : public Storage {
 public:
  explicit InlineStorage(size_t size) : Storage(bytes_, size) {}

 private:
  alignas(16) std::byte bytes_[kInlineBytes] = {};
};

class StringStorage final : public Storage {
 public:
  explicit StringStorage(int64_t count)
      : Storage(nullptr, 0), strings_(static_cast<size_t>(count)) {
    data_ = reinterpret_cast<std::byte*>(strings_.data());
    size_ = strings_.size() * sizeof(std::string);
  }

 private:
  std::vector<std::string> strings_;
};

class BorrowedStorage final : public Storage {
 public:
  BorrowedStorage(void* data, size_t size, std::shared_ptr<const void> keep_alive)
      : Storage(static_cast<std::byte*>(data), size), keep_alive_(std::move(keep_alive)) {}

 private:
  std::shared_ptr<const void> keep_alive_;
};

size_t element_bytes(DataType dtype, int64_t numel) {
  if (dtype == DataType::kString) return static_cast<size_t>(numel) * sizeof(std::string);
  return packed_byte_size(dtype, numel);
}

}  // namespace

namespace {

std::shared_ptr<Storage> allocate(size_t size, bool zero) {
  // Inline storage is zeroed by its member initializer; a memset of at most
  // 64 bytes is not worth a second path.
  if (size <= kInlineBytes) return std::make_shared<InlineStorage>(size);
  if (current_pool && *current_pool)
    return std::make_shared<PooledStorage>(*current_pool, size, zero);
  return std::make_shared<HeapStorage>(size, zero);
}

// Buffers are pooled by size rounded to this granularity: large tensors of
// nearly equal sizes then share buffers, and small ones waste little.
size_t pool_size_class(size_t size) {
  const size_t granule = size >= (size_t{1} << 16) ? 4096 : kAlignment;
  return (size + granule - 1) / granule * granule;
}

}  // namespace

std::shared_ptr<Storage> allocate_storage(size_t size) { return allocate(size, true); }

std::shared_ptr<Storage> allocate_uninitialized_storage(size_t size) {
  return allocate(size, false);
}

struct BufferPool::State {
  size_t max_cached = 0;
  size_t cached = 0;
  mutable std::mutex mutex;
  std::unordered_map<size_t, std::vector<std::byte*>> idle;  // by size class
};

BufferPool::BufferPool(size_t max_cached_bytes) : state_(std::make_unique<State>()) {
  state_->max_cached = max_cached_bytes;
}

BufferPool::~BufferPool() {
  for (auto& [size, buffers] : state_->idle)
    for (std::byte* b : buffers) std::free(b);
}

std::byte* BufferPool::acquire(size_t size) {
  const size_t cls = pool_size_class(size);
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    auto it = state_->idle.find(cls);
    if (it != state_->idle.end() && !it->second.empty()) {
      std::byte* b = it->second.back();
      it->second.pop_back();
      state_->cached -= cls;
      return b;
    }
  }
  return aligned_bytes(round_to_alignment(cls));
}

void BufferPool::release(std::byte* data, size_t size) {
  const size_t cls = pool_size_class(size);
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    if (state_->cached + cls <= state_->max_cached) {
      state_->idle[cls].push_back(data);
      state_->cached += cls;
      return;
    }
  }
  std::free(data);
}

size_t BufferPool::cached_bytes() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->cached;
}

BufferPoolScope::BufferPoolScope(std::shared_ptr<BufferPool> pool)
    : pool_(std::move(pool)), previous_(current_pool) {
  current_pool = &pool_;
}

BufferPoolScope::~BufferPoolScope() { current_pool = previous_; }

std::shared_ptr<Storage> allocate_string_storage(int64_t count) {
  return std::make_shared<StringStorage>(count);
}

std::shared_ptr<Storage> borrow_storage(void* data, size_t size,
                                        std::shared_ptr<const void> keep_alive) {
  return std::make_shared<BorrowedStorage>(data, size, std::move(keep_alive));
}

int64_t checked_numel(std::span<const int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) throw ValidationError(fmt::format("tensor dimension {} is negative", d));
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d)
      throw ValidationError("tensor element count overflows int64");
    n *= d;
  }
  return n;
}

Tensor::Tensor(DataType dtype, Dims shape)
    : dtype_(dtype), shape_(std::move(shape)), numel_(checked_numel(shape_)) {
  if (dtype_ == DataType::kString) {
    storage_ = allocate_string_storage(numel_);
  } else {
    storage_ = allocate_storage(element_bytes(dtype_, numel_));
  }
}

Tensor::Tensor(DataType dtype, Dims shape, UninitializedTag)
    : dtype_(dtype), shape_(std::move(shape)), numel_(checked_numel(shape_)) {
  if (dtype_ == DataType::kString) {
    storage_ = allocate_string_storage(numel_);
  } else if (is_sub_byte(dtype_)) {
    storage_ = allocate_storage(element_bytes(dtype_, numel_));
  } else {
    storage_ = allocate_uninitialized_storage(element_bytes(dtype_, numel_));
  }
}

Tensor Tensor::uninitialized(DataType dtype, Dims shape) {
  return Tensor(dtype, std::move(shape), UninitializedTag{});
}

Tensor::Tensor(DataType dtype, Dims shape, std::shared_ptr<Storage> storage, size_t byte_offset)
    : dtype_(dtype),
      shape_(std::move(shape)),
      numel_(checked_numel(shape_)),
      storage_(std::move(storage)),
      offset_(byte_offset) {
  const size_t need = element_bytes(dtype_, numel_);
  const size_t have = storage_ ? storage_->size_bytes() : 0;
  if (byte_offset > have || have - byte_offset < need) {
    throw ValidationError(
        fmt::format("tensor of {} {} elements needs {} bytes but its storage has {}", numel_,
                    data_type_name(dtype_), need, have > byte_offset ? have - byte_offset : 0));
  }
}

size_t Tensor::nbytes() const { return element_bytes(dtype_, numel_); }

Tensor Tensor::clone() const {
  Tensor copy = uninitialized(dtype_, shape_);
  if (dtype_ == DataType::kString) {
    const auto* src = data<std::string>();
    auto* dst = copy.data<std::string>();
    for (int64_t i = 0; i < numel_; ++i) dst[i] = src[i];
  } else if (nbytes() > 0) {
    std::memcpy(copy.raw_data(), raw_data(), nbytes());
  }
  if (info_) copy.info_ = std::make_shared<TensorProtoInfo>(*info_);
  return copy;
}

Tensor Tensor::reshaped(Dims shape) const {
  Tensor view = *this;
  const int64_t n = checked_numel(shape);
  if (n != numel_) {
    throw ValidationError(
        fmt::format("cannot reshape a tensor of {} elements to {} elements", numel_, n));
  }
  view.shape_ = std::move(shape);
  return view;
}

TensorProtoInfo& Tensor::mutable_proto_info() {
  if (!info_) {
    info_ = std::make_shared<TensorProtoInfo>();
  } else if (info_.use_count() > 1) {
    // Copies share the handle; keep proto facts per handle so that renaming
    // one initializer does not rename another.
    info_ = std::make_shared<TensorProtoInfo>(*info_);
  }
  return *info_;
}

bool Tensor::same_contents(const Tensor& other) const {
  if (dtype_ != other.dtype_ || shape_ != other.shape_) return false;
  if (dtype_ == DataType::kString) {
    const auto* a = data<std::string>();
    const auto* b = other.data<std::string>();
    for (int64_t i = 0; i < numel_; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  const size_t n = nbytes();
  return n == 0 || std::memcmp(raw_data(), other.raw_data(), n) == 0;
}

int64_t Tensor::checked_offset(std::initializer_list<int64_t> index, DataType requested) const {
  if (requested != dtype_)
    throw ValidationError(fmt::format("Tensor::at: the tensor holds {}, not {}",
                                      data_type_name(dtype_), data_type_name(requested)));
  if (index.size() != shape_.size())
    throw ValidationError(
        fmt::format("Tensor::at: {} indices for a tensor of rank {}", index.size(), shape_.size()));
  int64_t offset = 0;
  size_t d = 0;
  for (int64_t i : index) {
    const int64_t dim = shape_[d];
    const int64_t j = i < 0 ? i + dim : i;
    if (j < 0 || j >= dim)
      throw ValidationError(fmt::format(
          "Tensor::at: index {} is out of range for dimension {} of size {}", i, d, dim));
    offset = offset * dim + j;
    ++d;
  }
  return offset;
}

Tensor Tensor::ones(DataType dtype, Dims shape) {
  Tensor t(dtype, std::move(shape));
  auto fill = [&](auto one) {
    using T = decltype(one);
    T* out = t.data<T>();
    for (int64_t i = 0; i < t.numel(); ++i) out[i] = one;
  };
  switch (dtype) {
    case DataType::kFloat:
      fill(1.0f);
      break;
    case DataType::kDouble:
      fill(1.0);
      break;
    case DataType::kFloat16:
      fill(float16(1.0f));
      break;
    case DataType::kBfloat16:
      fill(bfloat16(1.0f));
      break;
    case DataType::kInt8:
      fill(int8_t{1});
      break;
    case DataType::kInt16:
      fill(int16_t{1});
      break;
    case DataType::kInt32:
      fill(int32_t{1});
      break;
    case DataType::kInt64:
      fill(int64_t{1});
      break;
    case DataType::kUint8:
      fill(uint8_t{1});
      break;
    case DataType::kUint16:
      fill(uint16_t{1});
      break;
    case DataType::kUint32:
      fill(uint32_t{1});
      break;
    case DataType::kUint64:
      fill(uint64_t{1});
      break;
    case DataType::kBool:
      fill(true);
      break;
    case DataType::kComplex64:
      fill(std::complex<float>(1.0f, 0.0f));
      break;
    case DataType::kComplex128:
      fill(std::complex<double>(1.0, 0.0));
      break;
    // One byte each; 1.0 is 0x38 in E4M3FN, 0x40 in E4M3FNUZ, 0x3C in E5M2, 0x40 in E5M2FNUZ.
    case DataType::kFloat8E4M3FN:
      fill(uint8_t{0x38});
      break;
    case DataType::kFloat8E4M3FNUZ:
      fill(uint8_t{0x40});
      break;
    case DataType::kFloat8E5M2:
      fill(uint8_t{0x3C});
      break;
    case DataType::kFloat8E5M2FNUZ:
      fill(uint8_t{0x40});
      break;
    case DataType::kFloat8E8M0:  // 2^(127 - 127)
      fill(uint8_t{0x7F});
      break;
    // Two (4-bit) or four (2-bit) per byte, first element in the lowest bits;
    // bits past the last element stay zero.
    case DataType::kInt4:
    case DataType::kUint4:
    case DataType::kFloat4E2M1:
    case DataType::kInt2:
    case DataType::kUint2: {
      const uint8_t one = dtype == DataType::kFloat4E2M1 ? 0x2 : 0x1;  // float4 1.0 is 0b0010
      const int bits = bit_width(dtype);
      const int per_byte = 8 / bits;
      auto* bytes = t.data<uint8_t>();
      for (int64_t i = 0; i < t.numel(); ++i)
        bytes[i / per_byte] |= static_cast<uint8_t>(one << (bits * (i % per_byte)));
      break;
    }
    default:
      throw TypeError(fmt::format("Tensor::ones: no one of type {}", data_type_name(dtype)));
  }
  return t;
}

Tensor Tensor::rand(Dims shape, uint64_t seed, DataType dtype) {
  Tensor t(dtype, std::move(shape));
  // mt19937_64 with a fixed mapping to [0, 1), so a seed gives the same values everywhere.
  std::mt19937_64 engine(seed);
  auto next = [&] { return static_cast<double>(engine() >> 11) * 0x1p-53; };
  const int64_t n = t.numel();
  switch (dtype) {
    case DataType::kFloat:
      for (int64_t i = 0; i < n; ++i)
        t.data<float>()[i] = std::min(static_cast<float>(next()), 0x1.fffffep-1f);
      break;
    case DataType::kDouble:
      for (int64_t i = 0; i < n; ++i) t.data<double>()[i] = next();
      break;
    case DataType::kFloat16:
      // Rounding may reach 1.0; clamp to the largest half below one.
      for (int64_t i = 0; i < n; ++i)
        t.data<float16>()[i] = float16(std::min(static_cast<float>(next()), 0.99951171875f));
      break;
    case DataType::kBfloat16:
      for (int64_t i = 0; i < n; ++i)
        t.data<bfloat16>()[i] = bfloat16(std::min(static_cast<float>(next()), 0.99609375f));
      break;
    default:
      throw TypeError(fmt::format("Tensor::rand: element type {} is not a supported float type",
                                  data_type_name(dtype)));
  }
  return t;
}

}  // namespace onnxscript::ir
