#include "onnxscript/ir/tensor.h"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>

namespace onnxscript::ir {
namespace {

constexpr size_t kAlignment = 64;

class HeapStorage final : public Storage {
 public:
  explicit HeapStorage(size_t size) : Storage(nullptr, size) {
    // aligned_alloc needs a size that is a multiple of the alignment, and a
    // non-null pointer is convenient even for empty tensors.
    const size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
    data_ = static_cast<std::byte*>(std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded));
    if (data_ == nullptr) throw std::bad_alloc();
    std::memset(data_, 0, size);
  }
  ~HeapStorage() override { std::free(data_); }
};

class StringStorage final : public Storage {
 public:
  explicit StringStorage(int64_t count) : Storage(nullptr, 0), strings_(static_cast<size_t>(count)) {
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

std::shared_ptr<Storage> allocate_storage(size_t size) { return std::make_shared<HeapStorage>(size); }

std::shared_ptr<Storage> allocate_string_storage(int64_t count) {
  return std::make_shared<StringStorage>(count);
}

std::shared_ptr<Storage> borrow_storage(void* data, size_t size, std::shared_ptr<const void> keep_alive) {
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

Tensor::Tensor(DataType dtype, std::vector<int64_t> shape)
    : dtype_(dtype), shape_(std::move(shape)), numel_(checked_numel(shape_)) {
  if (dtype_ == DataType::kString) {
    storage_ = allocate_string_storage(numel_);
  } else {
    storage_ = allocate_storage(element_bytes(dtype_, numel_));
  }
}

Tensor::Tensor(DataType dtype, std::vector<int64_t> shape, std::shared_ptr<Storage> storage,
               size_t byte_offset)
    : dtype_(dtype),
      shape_(std::move(shape)),
      numel_(checked_numel(shape_)),
      storage_(std::move(storage)),
      offset_(byte_offset) {
  const size_t need = element_bytes(dtype_, numel_);
  const size_t have = storage_ ? storage_->size_bytes() : 0;
  if (byte_offset > have || have - byte_offset < need) {
    throw ValidationError(fmt::format("tensor of {} {} elements needs {} bytes but its storage has {}",
                                      numel_, data_type_name(dtype_), need,
                                      have > byte_offset ? have - byte_offset : 0));
  }
}

size_t Tensor::nbytes() const { return element_bytes(dtype_, numel_); }

Tensor Tensor::clone() const {
  Tensor copy(dtype_, shape_);
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

Tensor Tensor::reshaped(std::vector<int64_t> shape) const {
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

}  // namespace onnxscript::ir
