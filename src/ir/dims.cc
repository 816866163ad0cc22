#include "onnxscript/ir/dims.h"

#include <cstdint>
#include <stdexcept>

namespace onnxscript::ir {

void Dims::grow_to(size_t n) {
  if (n > UINT32_MAX) throw std::length_error("Dims: more dimensions than 32-bit counts hold");
  n = std::max(n, 2 * kInline);
  auto* bigger = new int64_t[n];
  std::copy(data(), data() + size_, bigger);
  if (on_heap()) delete[] heap_;
  heap_ = bigger;
  capacity_ = static_cast<uint32_t>(n);
}

}  // namespace onnxscript::ir
