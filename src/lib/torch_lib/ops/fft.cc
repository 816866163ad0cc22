// Fourier transforms and complex numbers: _fft_r2c, _fft_c2c, _fft_c2r (the
// operators torch.fft's functions lower to), stft (ONNX's STFT), view_as_real,
// view_as_complex, complex and polar.
//
// As upstream's torchlib does, a complex tensor is a real one with a
// trailing dimension of 2 (real, imaginary): the representation of ONNX's
// DFT, and what view_as_real gives in PyTorch. So view_as_real and
// view_as_complex are identities here.
//
// ONNX's DFT (opset 17) transforms one axis of [batch, signal..., 1 or 2]:
// a transform over several dims is one DFT per dim, on the input with a
// leading batch dimension of 1. The DFT is unnormalized forward and divides
// by n inverse; PyTorch's `normalization` (0: none, 1: by sqrt(n), 2: by n,
// of the transform's own direction) is a scale factor after it.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"
#include "lib/torch_lib/promotion.h"

namespace onnxscript::torch_lib {

namespace {

// The dims of a transform over a tensor of (complex) rank `rank`, wrapped;
// a TypeError naming the operator when they are empty or repeat.
std::vector<int64_t> fft_dims(const std::vector<int64_t>& dim, int64_t rank,
                              std::string_view aten_op) {
  if (dim.empty())
    throw TypeError(fmt::format("{}: dim must name at least one dimension", aten_op));
  std::vector<int64_t> dims;
  for (const int64_t d : dim) {
    const int64_t w = wrap_dim(d, rank, aten_op);
    if (std::find(dims.begin(), dims.end(), w) != dims.end())
      throw TypeError(fmt::format("{}: dim {} appears twice", aten_op, d));
    dims.push_back(w);
  }
  return dims;
}

// The floating type of `self`, or a TypeError naming the operator.
DataType fft_type(const Value& self, std::string_view aten_op) {
  const std::optional<DataType> t = self.dtype();
  if (!t || (*t != DataType::kFloat && *t != DataType::kDouble)) {
    throw TypeError(
        fmt::format("{}: takes a float or double tensor, got {}", aten_op, self.describe()));
  }
  return *t;
}

// A complex input's rank without its trailing pair, or a TypeError.
int64_t complex_rank(const Value& self, std::string_view aten_op) {
  const int64_t rank = require_rank(self, aten_op);
  const std::optional<ir::Shape> shape = self.shape();
  if (rank < 1 || !(*shape)[rank - 1].is_static() || (*shape)[rank - 1].value() != 2) {
    throw TypeError(
        fmt::format("{}: takes a complex tensor as real pairs (a last dimension of size 2), got {}",
                    aten_op, self.describe()));
  }
  return rank - 1;
}

// The product of `x`'s sizes along `axes` (at run time), as `type`.
Value signal_size(const Value& x, const std::vector<int64_t>& axes, DataType type) {
  const Value sizes = op::Gather(op::Shape(x), int64s(axes), {.axis = 0});
  return op::Cast(op::ReduceProd(sizes, Value(), {.keepdims = 0}), {.to = type});
}

// The factor PyTorch's `normalization` applies after an unnormalized
// transform of n points; `inverse_dft` when the DFT was ONNX's inverse one,
// which already divided by n.
Value norm_factor(int64_t normalization, const Value& n, bool inverse_dft, DataType type,
                  std::string_view aten_op) {
  if (normalization < 0 || normalization > 2) {
    throw TypeError(
        fmt::format("{}: normalization must be 0 (none), 1 (by sqrt(n)) or 2 (by n), "
                    "got {}",
                    aten_op, normalization));
  }
  const Value one = scalar_of(type, 1);
  if (inverse_dft) {
    if (normalization == 0) return n;
    if (normalization == 1) return op::Sqrt(n);
    return one;
  }
  if (normalization == 0) return one;
  if (normalization == 1) return op::Div(one, op::Sqrt(n));
  return op::Div(one, n);
}

// DFTs of `x` (with its leading batch dimension) along each of `dims` (the
// complex tensor's dims, so axis d + 1).
Value dft_along(Value x, const std::vector<int64_t>& dims, bool inverse) {
  for (const int64_t d : dims) x = op::DFT(x, Value(), {.axis = d + 1, .inverse = inverse ? 1 : 0});
  return x;
}

}  // namespace

Value aten_fft_r2c(Value self, std::vector<int64_t> dim, int64_t normalization, bool onesided) {
  constexpr const char* kOp = "aten::_fft_r2c";
  const DataType type = fft_type(self, kOp);
  const std::vector<int64_t> dims = fft_dims(dim, require_rank(self, kOp), kOp);
  // [1, ..., 1]: a batch of one real signal.
  const Value x = op::Unsqueeze(self, int64s({0, -1}));
  Value y = dft_along(x, dims, false);
  if (onesided) {
    // The last dim keeps bins 0 .. n / 2.
    const int64_t last = dims.back();
    const Value half =
        op::Add(op::Div(op::Gather(op::Shape(self), int64s({last}), {.axis = 0}), int64s({2})),
                int64s({1}));
    y = op::Slice(y, int64s({0}), half, int64s({last + 1}));
  }
  const Value n = signal_size(self, dims, type);
  return op::Squeeze(op::Mul(y, norm_factor(normalization, n, false, type, kOp)), int64s({0}));
}

Value aten_fft_c2c(Value self, std::vector<int64_t> dim, int64_t normalization, bool forward) {
  constexpr const char* kOp = "aten::_fft_c2c";
  const DataType type = fft_type(self, kOp);
  const std::vector<int64_t> dims = fft_dims(dim, complex_rank(self, kOp), kOp);
  const Value y = dft_along(op::Unsqueeze(self, int64s({0})), dims, !forward);
  const Value n = signal_size(self, dims, type);
  return op::Squeeze(op::Mul(y, norm_factor(normalization, n, !forward, type, kOp)), int64s({0}));
}

Value aten_fft_c2r(Value self, std::vector<int64_t> dim, int64_t normalization,
                   int64_t last_dim_size) {
  constexpr const char* kOp = "aten::_fft_c2r";
  const DataType type = fft_type(self, kOp);
  const std::vector<int64_t> dims = fft_dims(dim, complex_rank(self, kOp), kOp);
  if (last_dim_size < 1)
    throw TypeError(fmt::format("{}: last_dim_size must be >= 1, got {}", kOp, last_dim_size));
  const int64_t last = dims.back(), length = last_dim_size;
  const std::vector<int64_t> others(dims.begin(), dims.end() - 1);
  const Value x = dft_along(op::Unsqueeze(self, int64s({0})), others, true);
  // The last dim's full spectrum of `length` bins from its first
  // length / 2 + 1: bin k > length / 2 is the conjugate of bin length - k.
  const int64_t axis = last + 1;
  const Value low = op::Slice(x, int64s({0}), int64s({length / 2 + 1}), int64s({axis}));
  const Value mirrored =
      op::Slice(x, int64s({(length + 1) / 2 - 1}), int64s({0}), int64s({axis}), int64s({-1}));
  const Value conjugate = op::Mul(mirrored, op::Cast(int64s({1, -1}), {.to = type}));
  const Value full = op::Concat({low, conjugate}, {.axis = axis});
  const Value y = op::DFT(full, Value(), {.axis = axis, .inverse = 1});
  // The real parts.
  const Value real =
      op::Squeeze(op::Slice(y, int64s({0}), int64s({1}), int64s({-1})), int64s({0, -1}));
  // n: the output's sizes over dims (the other dims keep their sizes).
  Value n = scalar_of(type, static_cast<double>(length));
  if (!others.empty()) n = op::Mul(n, signal_size(self, others, type));
  return op::Mul(real, norm_factor(normalization, n, true, type, kOp));
}

Value aten_view_as_real(Value self) {
  complex_rank(self, "aten::view_as_real");
  return op::Identity(self);
}

Value aten_view_as_complex(Value self) {
  complex_rank(self, "aten::view_as_complex");
  return op::Identity(self);
}

Value aten_complex(Value real, Value imag) {
  // Both broadcast to one shape, then paired in a new last dimension.
  const Value shape = op::Shape(op::Add(real, imag));
  return op::Concat({op::Unsqueeze(op::Expand(real, shape), int64s({-1})),
                     op::Unsqueeze(op::Expand(imag, shape), int64s({-1}))},
                    {.axis = -1});
}

Value aten_polar(Value abs, Value angle) {
  return aten_complex(op::Mul(abs, op::Cos(angle)), op::Mul(abs, op::Sin(angle)));
}

namespace {

// stft of a real [L] or [B, L] tensor, already padded when centered.
Value stft(const Value& self, int64_t n_fft, std::optional<int64_t> hop_length,
           std::optional<int64_t> win_length, const std::optional<Value>& window, bool normalized,
           std::optional<bool> onesided, std::optional<std::string> pad_mode,
           std::string_view aten_op) {
  const DataType type = fft_type(self, aten_op);
  const int64_t rank = require_rank(self, aten_op);
  if (rank != 1 && rank != 2)
    throw TypeError(fmt::format("{}: takes a 1-D or 2-D tensor, got {}", aten_op, self.describe()));
  const int64_t hop = hop_length.value_or(n_fft / 4);
  const int64_t win = win_length.value_or(n_fft);
  if (n_fft <= 0 || hop <= 0 || win <= 0 || win > n_fft) {
    throw TypeError(fmt::format(
        "{}: needs n_fft > 0, hop_length > 0 and 0 < win_length <= n_fft, got {}, {} and {}",
        aten_op, n_fft, hop, win));
  }
  Value x = rank == 1 ? op::Unsqueeze(self, int64s({0})) : self;  // [B, L]
  if (pad_mode) {
    // center: n_fft / 2 on each side of the signal.
    const int64_t p = n_fft / 2;
    std::string mode;
    if (*pad_mode == "reflect")
      mode = "reflect";
    else if (*pad_mode == "constant")
      mode = "constant";
    else if (*pad_mode == "replicate")
      mode = "edge";
    else {
      throw TypeError(fmt::format(
          "{}: pad_mode '{}' has no opset-18 Pad mode (reflect, constant and replicate do)",
          aten_op, *pad_mode));
    }
    x = op::Pad(x, int64s({0, p, 0, p}), Value(), Value(), {.mode = mode});
  }
  // The window: given or ones, win_length long, centered in n_fft zeros.
  Value w = window ? op::CastLike(*window, self) : op::Expand(scalar_of(type, 1), int64s({win}));
  if (win < n_fft) {
    const int64_t left = (n_fft - win) / 2;
    w = op::Pad(w, int64s({left, n_fft - win - left}));
  }
  // ONNX's STFT: [B, frames, bins, 2]; PyTorch's is [B, bins, frames].
  const Value frames =
      op::STFT(op::Unsqueeze(x, int64s({-1})), scalar_of(DataType::kInt64, hop), w,
               scalar_of(DataType::kInt64, n_fft), {.onesided = onesided.value_or(true) ? 1 : 0});
  Value y = op::Transpose(frames, {.perm = {0, 2, 1, 3}});
  if (normalized) y = op::Mul(y, scalar_of(type, 1.0 / std::sqrt(static_cast<double>(n_fft))));
  return rank == 1 ? op::Squeeze(y, int64s({0})) : y;
}

}  // namespace

Value aten_stft(Value self, int64_t n_fft, std::optional<int64_t> hop_length,
                std::optional<int64_t> win_length, std::optional<Value> window, bool normalized,
                std::optional<bool> onesided, std::optional<bool> /*return_complex*/) {
  return stft(self, n_fft, hop_length, win_length, window, normalized, onesided, std::nullopt,
              "aten::stft");
}

Value aten_stft_center(Value self, int64_t n_fft, std::optional<int64_t> hop_length,
                       std::optional<int64_t> win_length, std::optional<Value> window, bool center,
                       std::string pad_mode, bool normalized, std::optional<bool> onesided,
                       std::optional<bool> /*return_complex*/) {
  return stft(self, n_fft, hop_length, win_length, window, normalized, onesided,
              center ? std::optional(pad_mode) : std::nullopt, "aten::stft.center");
}

void register_fft(Registry& r) {
  using detail::overload;
  r.add(overload<aten_fft_r2c>(
      "aten::_fft_r2c(Tensor self, int[] dim, int normalization, bool onesided) -> Tensor"));
  r.add(overload<aten_fft_c2c>(
      "aten::_fft_c2c(Tensor self, int[] dim, int normalization, bool forward) -> Tensor"));
  r.add(overload<aten_fft_c2r>(
      "aten::_fft_c2r(Tensor self, int[] dim, int normalization, int last_dim_size) -> "
      "Tensor"));
  r.add(overload<aten_view_as_real>("aten::view_as_real(Tensor(a) self) -> Tensor(a)"));
  r.add(overload<aten_view_as_real>("aten::view_as_real_copy(Tensor self) -> Tensor"));
  r.add(overload<aten_view_as_complex>("aten::view_as_complex(Tensor(a) self) -> Tensor(a)"));
  r.add(overload<aten_view_as_complex>("aten::view_as_complex_copy(Tensor self) -> Tensor"));
  r.add(overload<aten_complex>("aten::complex(Tensor real, Tensor imag) -> Tensor"));
  r.add(overload<aten_polar>("aten::polar(Tensor abs, Tensor angle) -> Tensor"));
  r.add(overload<aten_stft>(
      "aten::stft(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, Tensor? "
      "window=None, bool normalized=False, bool? onesided=None, bool? return_complex=None) -> "
      "Tensor"));
  r.add(overload<aten_stft_center>(
      "aten::stft.center(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, "
      "Tensor? window=None, bool center=True, str pad_mode=\"reflect\", bool normalized=False, "
      "bool? onesided=None, bool? return_complex=None) -> Tensor"));
}

}  // namespace onnxscript::torch_lib
