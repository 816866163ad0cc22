#pragma once
// Moving whole slices of tensors along one axis, without looking at the
// elements: what Scan, Loop and the sequence operators need to cut tensors
// apart and put them back together. Any element type with a whole number of
// bytes (and strings) works; 4-bit types are refused.

#include <cstdint>
#include <span>

#include "onnxscript/eval/kernel.h"
#include "onnxscript/ir/tensor.h"

namespace onnxscript::eval {

/// The slice `index` of `t` along `axis`, without that axis (a copy).
Tensor take_slice(const Tensor& t, int64_t axis, int64_t index);

/// `length` slices of `t` along `axis` from `start`, keeping the axis (a copy).
Tensor narrow(const Tensor& t, int64_t axis, int64_t start, int64_t length);

/// Stacks equally shaped tensors along a new axis `axis` (0 <= axis <= rank).
/// Throws KernelError naming `op` when types or shapes differ.
Tensor stack(std::span<const Tensor> parts, int64_t axis, std::string_view op);

/// Concatenates tensors along the existing `axis`; the other dimensions must agree.
Tensor concatenate(std::span<const Tensor> parts, int64_t axis, std::string_view op);

/// The dense form of a sparse tensor (COO with linear or per-dimension indices).
Tensor densify(const ir::SparseTensor& sparse);

}  // namespace onnxscript::eval
