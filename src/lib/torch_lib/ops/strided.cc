// Strided reads: as_strided and im2col (and sym_storage_offset, 0: ONNX
// tensors have no storage to be offset into). ONNX has no memory layout, so both
// are a Gather of the flattened tensor at element positions computed while
// exporting (from the sizes and strides, or from the kernel's geometry).

#include <fmt/format.h>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"

namespace onnxscript::torch_lib {

namespace {

// The number of elements of `v` when its shape is fully known.
std::optional<int64_t> static_numel(const Value& v) {
  const std::optional<ir::Shape> shape = v.shape();
  if (!shape) return std::nullopt;
  int64_t n = 1;
  for (size_t d = 0; d < shape->size(); ++d) {
    if (!(*shape)[d].is_static()) return std::nullopt;
    n *= (*shape)[d].value();
  }
  return n;
}

// An int[2] argument's pair, or a TypeError naming the operator and the
// parameter.
std::pair<int64_t, int64_t> pair_of(const std::vector<int64_t>& v, std::string_view aten_op,
                                    std::string_view param) {
  if (v.size() != 2)
    throw TypeError(fmt::format("{}: {} takes 2 values, got {}", aten_op, param, v.size()));
  return {v[0], v[1]};
}

}  // namespace

Value aten_as_strided(Value self, std::vector<int64_t> size, std::vector<int64_t> stride,
                      std::optional<int64_t> storage_offset) {
  constexpr const char* kOp = "aten::as_strided";
  if (size.size() != stride.size()) {
    throw TypeError(
        fmt::format("{}: size has {} dimensions and stride {}", kOp, size.size(), stride.size()));
  }
  const int64_t offset = storage_offset.value_or(0);
  if (offset < 0)
    throw TypeError(fmt::format("{}: storage_offset must be >= 0, got {}", kOp, offset));
  int64_t count = 1;
  for (size_t d = 0; d < size.size(); ++d) {
    if (size[d] < 0 || stride[d] < 0) {
      throw TypeError(fmt::format("{}: sizes and strides must be >= 0, got size {} and stride {}",
                                  kOp, size[d], stride[d]));
    }
    count *= size[d];
  }
  // Element (i_0, ..., i_k) reads position offset + sum_d i_d * stride_d of
  // self's elements in row-major order (the storage of a contiguous self).
  std::vector<int64_t> positions(static_cast<size_t>(count), offset);
  int64_t block = count;
  for (size_t d = 0; d < size.size(); ++d) {
    if (size[d] == 0) break;
    block /= size[d];
    for (int64_t p = 0; p < count; ++p)
      positions[static_cast<size_t>(p)] += (p / block) % size[d] * stride[d];
  }
  int64_t last = -1;
  for (const int64_t p : positions) last = std::max(last, p);
  if (const std::optional<int64_t> numel = static_numel(self); numel && last >= *numel) {
    throw TypeError(fmt::format("{}: reads element {} of {}, which has {} elements", kOp, last,
                                self.describe(), *numel));
  }
  const Value index(Tensor::from_span<int64_t>(positions, ir::Dims(size.begin(), size.end())));
  return op::Gather(op::Reshape(self, int64s({-1})), index, {.axis = 0});
}

Value aten_im2col(Value self, std::vector<int64_t> kernel_size, std::vector<int64_t> dilation,
                  std::vector<int64_t> padding, std::vector<int64_t> stride) {
  constexpr const char* kOp = "aten::im2col";
  const auto [kh, kw] = pair_of(kernel_size, kOp, "kernel_size");
  const auto [dh, dw] = pair_of(dilation, kOp, "dilation");
  const auto [ph, pw] = pair_of(padding, kOp, "padding");
  const auto [sh, sw] = pair_of(stride, kOp, "stride");
  if (kh <= 0 || kw <= 0 || dh <= 0 || dw <= 0 || sh <= 0 || sw <= 0 || ph < 0 || pw < 0) {
    throw TypeError(fmt::format(
        "{}: kernel_size, dilation and stride must be > 0 and padding >= 0, got kernel_size "
        "[{}, {}], dilation [{}, {}], padding [{}, {}], stride [{}, {}]",
        kOp, kh, kw, dh, dw, ph, pw, sh, sw));
  }
  const int64_t rank = require_rank(self, kOp);
  if (rank != 3 && rank != 4)
    throw TypeError(fmt::format("{}: takes a 3-D or 4-D tensor, got {}", kOp, self.describe()));
  // [C, H, W] is one batch item.
  const Value x = rank == 3 ? op::Unsqueeze(self, int64s({0})) : self;
  const int64_t h = require_size(self, rank - 2, kOp) + 2 * ph;
  const int64_t w = require_size(self, rank - 1, kOp) + 2 * pw;
  const int64_t oh = (h - (dh * (kh - 1) + 1)) / sh + 1;
  const int64_t ow = (w - (dw * (kw - 1) + 1)) / sw + 1;
  if (h < dh * (kh - 1) + 1 || w < dw * (kw - 1) + 1) {
    throw TypeError(
        fmt::format("{}: the padded input of {} x {} is smaller than the kernel", kOp, h, w));
  }
  const Value padded = ph == 0 && pw == 0 ? x : op::Pad(x, int64s({0, 0, ph, pw, 0, 0, ph, pw}));
  // Column (ki, kj) of block (i, j) reads padded position
  // (i sh + ki dh, j sw + kj dw) of each channel: a Gather of the flattened
  // plane by [kh kw, oh ow] positions, then the channels and kernel offsets
  // merged (channel outermost, as PyTorch orders them).
  std::vector<int64_t> positions;
  for (int64_t ki = 0; ki < kh; ++ki)
    for (int64_t kj = 0; kj < kw; ++kj)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j)
          positions.push_back((i * sh + ki * dh) * w + j * sw + kj * dw);
  const Value planes = op::Reshape(padded, int64s({0, 0, h * w}));
  const Value columns = op::Gather(
      planes, Value(Tensor::from_span<int64_t>(positions, {kh * kw, oh * ow})), {.axis = 2});
  const Value merged = op::Reshape(columns, int64s({0, -1, oh * ow}));
  return rank == 3 ? op::Squeeze(merged, int64s({0})) : merged;
}

Value aten_sym_storage_offset(Value /*self*/) { return Value(Tensor::scalar<int64_t>(0)); }

void register_strided(Registry& r) {
  using detail::overload;
  r.add(overload<aten_as_strided>(
      "aten::as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? "
      "storage_offset=None) -> Tensor(a)"));
  r.add(overload<aten_sym_storage_offset>("aten::sym_storage_offset(Tensor self) -> SymInt"));
  r.add(overload<aten_im2col>(
      "aten::im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] "
      "stride) -> Tensor"));
}

}  // namespace onnxscript::torch_lib
