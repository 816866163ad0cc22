#pragma once
/// \file
/// torchlib's functions: ATen operators written with the eDSL against ONNX
/// opset 18. Each takes its ATen schema's arguments in order, with these
/// C++ types: Tensor -> Value, Tensor? -> std::optional<Value>, Tensor[] ->
/// std::vector<Value>, Scalar -> Value (a number converts to a literal that
/// takes the tensor's element type), int / float / bool -> int64_t / double /
/// bool, int[] -> std::vector<int64_t> (or Value where the sizes may be
/// computed at run time: view, reshape, expand, zeros), str -> std::string,
/// ScalarType -> an int64_t PyTorch dtype code (see onnx_dtype()).
///
/// Call them directly from a script or eagerly on tensors:
/// `Value y = torch_lib::aten_linear(x, w, b);`. The registry
/// (registry.h) maps ATen names to them for the exporter.
///
/// All of them are traced at the call and inlined into the caller (they
/// branch on the rank and element type their inputs are known to have), so
/// they emit plain opset-18 nodes; none needs a FunctionProto.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onnxscript/ir/tensor.h"
#include "onnxscript/script/value.h"

namespace onnxscript::torch_lib {

/// The ONNX element type of a PyTorch ScalarType code (torch.float32 is 6,
/// torch.int64 is 4, ...); throws TypeError for codes without one.
DataType onnx_dtype(int64_t torch_scalar_type);

// ---------------------------------------------------------------- arithmetic

/// aten::add.Tensor / add.Scalar / add_: self + alpha * other.
Value aten_add(Value self, Value other, Value alpha);
/// aten::sub.Tensor / sub.Scalar: self - alpha * other.
Value aten_sub(Value self, Value other, Value alpha);
/// aten::rsub.Tensor / rsub.Scalar: other - alpha * self.
Value aten_rsub(Value self, Value other, Value alpha);
/// aten::mul.Tensor / mul.Scalar.
Value aten_mul(Value self, Value other);
/// aten::div.Tensor / div.Scalar: true division (integers divide as floats,
/// as PyTorch does).
Value aten_div(Value self, Value other);
/// aten::div.Tensor_mode: rounding_mode None (true division), "trunc" or "floor".
Value aten_div_mode(Value self, Value other, std::optional<std::string> rounding_mode);
/// aten::floor_divide: division rounded toward negative infinity.
Value aten_floor_divide(Value self, Value other);

// ---------------------------------------------------------------- activations

/// aten::relu.
Value aten_relu(Value self);
/// aten::gelu: approximate "none" (erf) or "tanh".
Value aten_gelu(Value self, std::string approximate);
/// aten::hardsigmoid: relu6(x + 3) / 6.
Value aten_hardsigmoid(Value self);
/// aten::hardswish: x * relu6(x + 3) / 6.
Value aten_hardswish(Value self);
/// aten::hardtanh: clamp(x, min_val, max_val).
Value aten_hardtanh(Value self, Value min_val, Value max_val);
/// aten::softmax.int (and _softmax without the half_to_float flag).
Value aten_softmax(Value self, int64_t dim, std::optional<int64_t> dtype);

// ---------------------------------------------------------------- reductions

/// aten::mean: the mean of every element.
Value aten_mean(Value self, std::optional<int64_t> dtype);
/// aten::mean.dim.
Value aten_mean_dim(Value self, std::optional<std::vector<int64_t>> dim, bool keepdim,
                    std::optional<int64_t> dtype);

// ---------------------------------------------------------------- linear algebra

/// aten::matmul.
Value aten_matmul(Value self, Value other);
/// aten::bmm.
Value aten_bmm(Value self, Value mat2);
/// aten::linear: Gemm for a rank-2 input with a bias, MatMul (+ Add) otherwise.
Value aten_linear(Value input, Value weight, std::optional<Value> bias);

// ---------------------------------------------------------------- shapes and indexing

/// aten::cat.
Value aten_cat(std::vector<Value> tensors, int64_t dim);
/// aten::chunk: chunks of ceil(size / chunks) along dim (the last smaller);
/// needs the size along dim while exporting.
std::vector<Value> aten_chunk(Value self, int64_t chunks, int64_t dim);
/// aten::contiguous: the identity in ONNX.
Value aten_contiguous(Value self, std::string memory_format);
/// aten::expand: -1 keeps a dimension.
Value aten_expand(Value self, Value size, bool implicit);
/// aten::flatten.using_ints.
Value aten_flatten(Value self, int64_t start_dim, int64_t end_dim);
/// aten::permute.
Value aten_permute(Value self, std::vector<int64_t> dims);
/// aten::reshape and aten::view.
Value aten_reshape(Value self, Value shape);
/// aten::select.int: index `index` along `dim`, which disappears.
Value aten_select(Value self, int64_t dim, Value index);
/// aten::slice.Tensor.
Value aten_slice(Value self, int64_t dim, std::optional<Value> start, std::optional<Value> end,
                 Value step);
/// aten::size: all the sizes, a 1-D int64 tensor (a constant when they are
/// known while exporting).
Value aten_size(Value self);
/// aten::size.int: the size along dim, a 0-D int64 tensor.
Value aten_size_dim(Value self, int64_t dim);
/// aten::transpose.int.
Value aten_transpose(Value self, int64_t dim0, int64_t dim1);
/// aten::Int.Tensor: a one-element tensor as an int (a 0-D int64 tensor).
Value aten_int(Value a);
/// aten::dim: the rank, known while exporting (a concrete 0-D int64 tensor)
/// or read at run time.
Value aten_dim(Value self);
/// aten::Bool.Tensor: a one-element tensor as a bool (a 0-D bool tensor):
/// the condition of a scripted `if` or `while` on a tensor.
Value aten_bool(Value a);
/// aten::Float.Tensor: a one-element tensor as a float (a 0-D double tensor, as
/// PyTorch's float is).
Value aten_float(Value a);
/// aten::embedding: rows of `weight` picked by `indices`.
Value aten_embedding(Value weight, Value indices, int64_t padding_idx, bool scale_grad_by_freq,
                     bool sparse);

// ---------------------------------------------------------------- creation

/// aten::zeros: a tensor of zeros of the given size (float32 unless dtype says).
Value aten_zeros(Value size, std::optional<int64_t> dtype, std::optional<int64_t> layout,
                 std::optional<std::string> device, std::optional<bool> pin_memory);

// ---------------------------------------------------------------- neural networks

/// aten::convolution: Conv, or ConvTranspose when `transposed`.
Value aten_convolution(Value input, Value weight, std::optional<Value> bias,
                       std::vector<int64_t> stride, std::vector<int64_t> padding,
                       std::vector<int64_t> dilation, bool transposed,
                       std::vector<int64_t> output_padding, int64_t groups);
/// aten::batch_norm: BatchNormalization with running statistics (training
/// false), or with the batch's statistics (training true).
Value aten_batch_norm(Value input, std::optional<Value> weight, std::optional<Value> bias,
                      std::optional<Value> running_mean, std::optional<Value> running_var,
                      bool training, double momentum, double eps, bool cudnn_enabled);
/// aten::layer_norm over the trailing normalized_shape dimensions.
Value aten_layer_norm(Value input, std::vector<int64_t> normalized_shape,
                      std::optional<Value> weight, std::optional<Value> bias, double eps,
                      bool cudnn_enable);
/// aten::max_pool2d.
Value aten_max_pool2d(Value self, std::vector<int64_t> kernel_size, std::vector<int64_t> stride,
                      std::vector<int64_t> padding, std::vector<int64_t> dilation, bool ceil_mode);
/// aten::avg_pool2d.
Value aten_avg_pool2d(Value self, std::vector<int64_t> kernel_size, std::vector<int64_t> stride,
                      std::vector<int64_t> padding, bool ceil_mode, bool count_include_pad,
                      std::optional<int64_t> divisor_override);
/// aten::adaptive_avg_pool2d: GlobalAveragePool for output size 1x1, an
/// AveragePool when the input size is a multiple of the output size.
Value aten_adaptive_avg_pool2d(Value self, std::vector<int64_t> output_size);

// ---------------------------------------------------------------- unary elementwise (integer
// tensors give float32 where PyTorch computes in floating point)

/// aten::abs.
Value aten_abs(Value self);
/// aten::neg.
Value aten_neg(Value self);
/// aten::exp.
Value aten_exp(Value self);
/// aten::exp2: 2 to the power of self.
Value aten_exp2(Value self);
/// aten::log.
Value aten_log(Value self);
/// aten::log2.
Value aten_log2(Value self);
/// aten::log10.
Value aten_log10(Value self);
/// aten::log1p: log(1 + x).
Value aten_log1p(Value self);
/// aten::expm1 (and special_expm1): exp(x) - 1.
Value aten_expm1(Value self);
/// aten::sqrt.
Value aten_sqrt(Value self);
/// aten::rsqrt: 1 / sqrt(x).
Value aten_rsqrt(Value self);
/// aten::sin.
Value aten_sin(Value self);
/// aten::cos.
Value aten_cos(Value self);
/// aten::tan.
Value aten_tan(Value self);
/// aten::asin.
Value aten_asin(Value self);
/// aten::acos.
Value aten_acos(Value self);
/// aten::atan.
Value aten_atan(Value self);
/// aten::sinh.
Value aten_sinh(Value self);
/// aten::cosh.
Value aten_cosh(Value self);
/// aten::tanh.
Value aten_tanh(Value self);
/// aten::asinh.
Value aten_asinh(Value self);
/// aten::acosh.
Value aten_acosh(Value self);
/// aten::atanh.
Value aten_atanh(Value self);
/// aten::sigmoid.
Value aten_sigmoid(Value self);
/// aten::erf (and special_erf).
Value aten_erf(Value self);
/// aten::erfc (and special_erfc): 1 - erf(x).
Value aten_erfc(Value self);
/// aten::special_erfcx: exp(x^2) erfc(x), as written below 1.5 (2.5 for
/// double) and as Laplace's continued fraction above.
Value aten_special_erfcx(Value self);
/// aten::reciprocal.
Value aten_reciprocal(Value self);
/// aten::sign: -1, 0 or 1 (a bool tensor is its own sign).
Value aten_sign(Value self);
/// aten::floor (integers are their own floor).
Value aten_floor(Value self);
/// aten::ceil (integers unchanged).
Value aten_ceil(Value self);
/// aten::round: halves to even.
Value aten_round(Value self);
/// aten::round.decimals: rounded to `decimals` decimal places.
Value aten_round_decimals(Value self, int64_t decimals);
/// aten::trunc: rounded toward zero.
Value aten_trunc(Value self);
/// aten::frac: x - trunc(x).
Value aten_frac(Value self);
/// aten::bitwise_not: Not for bool, BitwiseNot for integers; floats are an error.
Value aten_bitwise_not(Value self);
/// aten::logical_not: a bool tensor.
Value aten_logical_not(Value self);
/// aten::isnan (all false for integers).
Value aten_isnan(Value self);
/// aten::isinf (all false for integers).
Value aten_isinf(Value self);
/// aten::isposinf.
Value aten_isposinf(Value self);
/// aten::isneginf.
Value aten_isneginf(Value self);
/// aten::isfinite (all true for integers).
Value aten_isfinite(Value self);
/// aten::signbit: true for negative values and -0.0.
Value aten_signbit(Value self);
/// aten::rad2deg.
Value aten_rad2deg(Value self);
/// aten::deg2rad.
Value aten_deg2rad(Value self);
/// aten::sinc: sin(pi x) / (pi x), 1 at 0.
Value aten_sinc(Value self);
/// aten::logit: log(x / (1 - x)), x clamped to [eps, 1 - eps] when eps is given.
Value aten_logit(Value self, std::optional<double> eps);
/// aten::angle: pi for negative values, 0 otherwise (real tensors).
Value aten_angle(Value self);
/// aten::conj and _conj: the identity on real tensors; complex is an error.
Value aten_conj(Value self);
/// aten::is_nonzero: a one-element tensor as a 0-D bool.
Value aten_is_nonzero(Value self);
/// aten::_local_scalar_dense: a one-element tensor as 0-D.
Value aten_local_scalar_dense(Value self);

// ---------------------------------------------------------------- binary elementwise and small
// products (operands promoted as PyTorch does)

/// PyTorch does.
Value aten_pow(Value self, Value exponent);
/// aten::remainder: the remainder with the divisor's sign (Python's %).
Value aten_remainder(Value self, Value other);
/// aten::fmod: the remainder with the dividend's sign (C's fmod).
Value aten_fmod(Value self, Value other);
/// aten::maximum (and max.other): the elementwise maximum.
Value aten_maximum(Value self, Value other);
/// aten::minimum (and min.other): the elementwise minimum.
Value aten_minimum(Value self, Value other);
/// aten::atan2: the angle of (other, self) in (-pi, pi].
Value aten_atan2(Value self, Value other);
/// aten::logaddexp: log(exp(self) + exp(other)), without overflow.
Value aten_logaddexp(Value self, Value other);
/// aten::eq.Tensor / eq.Scalar.
Value aten_eq(Value self, Value other);
/// aten::ne.Tensor / ne.Scalar.
Value aten_ne(Value self, Value other);
/// aten::lt (and less).
Value aten_lt(Value self, Value other);
/// aten::le (and less_equal).
Value aten_le(Value self, Value other);
/// aten::gt (and greater).
Value aten_gt(Value self, Value other);
/// aten::ge (and greater_equal).
Value aten_ge(Value self, Value other);
/// aten::logical_and: operands as bools.
Value aten_logical_and(Value self, Value other);
/// aten::logical_or: operands as bools.
Value aten_logical_or(Value self, Value other);
/// aten::logical_xor: operands as bools.
Value aten_logical_xor(Value self, Value other);
/// aten::bitwise_and (Tensor, Scalar, Scalar_Tensor): And for bools; floats are an error.
Value aten_bitwise_and(Value self, Value other);
/// aten::bitwise_or (Tensor, Scalar, Scalar_Tensor).
Value aten_bitwise_or(Value self, Value other);
/// aten::bitwise_xor (Tensor, Scalar, Scalar_Tensor).
Value aten_bitwise_xor(Value self, Value other);
/// aten::where.self / ScalarOther / ScalarSelf / Scalar: self where condition, else other.
Value aten_where(Value condition, Value self, Value other);
/// aten::clamp / clamp.Tensor (and clamp_): at least one bound; a max below min gives max.
Value aten_clamp(Value self, std::optional<Value> min, std::optional<Value> max);
/// aten::clamp_min (Scalar and Tensor).
Value aten_clamp_min(Value self, Value min);
/// aten::clamp_max (Scalar and Tensor).
Value aten_clamp_max(Value self, Value max);
/// aten::masked_fill.Scalar / .Tensor: value where mask is true; keeps self's type.
Value aten_masked_fill(Value self, Value mask, Value value);
/// aten::lerp.Scalar / .Tensor: self + weight * (end - self).
Value aten_lerp(Value self, Value end, Value weight);
/// aten::addcmul: self + value * tensor1 * tensor2.
Value aten_addcmul(Value self, Value tensor1, Value tensor2, Value value);
/// aten::addcdiv: self + value * tensor1 / tensor2.
Value aten_addcdiv(Value self, Value tensor1, Value tensor2, Value value);
/// aten::addmm: beta * self + alpha * mat1 @ mat2 (self ignored when beta is 0).
Value aten_addmm(Value self, Value mat1, Value mat2, Value beta, Value alpha);
/// aten::baddbmm: beta * self + alpha * batch1 @ batch2.
Value aten_baddbmm(Value self, Value batch1, Value batch2, Value beta, Value alpha);
/// aten::mm: the product of two matrices.
Value aten_mm(Value self, Value mat2);
/// aten::dot: the inner product of two vectors (0-D).
Value aten_dot(Value self, Value tensor);
/// aten::mv: a matrix times a vector.
Value aten_mv(Value self, Value vec);
/// aten::outer: the outer product of two vectors.
Value aten_outer(Value self, Value vec2);
/// aten::xlogy (Tensor, Scalar_Other, Scalar_Self): x * log(y), 0 where x is 0.
Value aten_xlogy(Value self, Value other);
/// aten::logaddexp2: log2(2^self + 2^other), without overflow.
Value aten_logaddexp2(Value self, Value other);
/// aten::heaviside: values where self is 0, else 1 for positive and 0 for negative.
Value aten_heaviside(Value self, Value values);
/// aten::isclose: |self - other| <= atol + rtol * |other|, or equal.
Value aten_isclose(Value self, Value other, double rtol, double atol, bool equal_nan);
/// aten::allclose: isclose everywhere, as a 0-D bool.
Value aten_allclose(Value self, Value other, double rtol, double atol, bool equal_nan);
/// aten::equal: same shape and elements, as a 0-D bool.
Value aten_equal(Value self, Value other);
/// aten::addmv: beta * self + alpha * mat @ vec.
Value aten_addmv(Value self, Value mat, Value vec, Value beta, Value alpha);
/// aten::addr: beta * self + alpha * outer(vec1, vec2).
Value aten_addr(Value self, Value vec1, Value vec2, Value beta, Value alpha);
/// aten::addbmm: beta * self + alpha * the sum over the batch of batch1 @ batch2.
Value aten_addbmm(Value self, Value batch1, Value batch2, Value beta, Value alpha);
/// aten::bitwise_left_shift and __lshift__: self * 2^other (integers).
Value aten_bitwise_left_shift(Value self, Value other);
/// aten::bitwise_right_shift and __rshift__: an arithmetic shift (integers).
Value aten_bitwise_right_shift(Value self, Value other);

// ---------------------------------------------------------------- more activations

/// aten::silu: x * sigmoid(x).
Value aten_silu(Value self);
/// aten::elu: scale * (x > 0 ? x : alpha * (exp(x * input_scale) - 1)).
Value aten_elu(Value self, Value alpha, Value scale, Value input_scale);
/// aten::selu.
Value aten_selu(Value self);
/// aten::celu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
Value aten_celu(Value self, Value alpha);
/// aten::leaky_relu.
Value aten_leaky_relu(Value self, Value negative_slope);
/// aten::softplus: log(1 + exp(beta x)) / beta, x above the threshold.
Value aten_softplus(Value self, Value beta, Value threshold);
/// aten::mish: x * tanh(softplus(x)).
Value aten_mish(Value self);
/// aten::log_softmax.int (and special_log_softmax).
Value aten_log_softmax(Value self, int64_t dim, std::optional<int64_t> dtype);
/// aten::_log_softmax: float16 computed as float32 when half_to_float.
Value aten_log_softmax_half(Value self, int64_t dim, bool half_to_float);
/// aten::relu6: clamp(x, 0, 6).
Value aten_relu6(Value self);
/// aten::prelu: weight applies along dimension 1.
Value aten_prelu(Value self, Value weight);
/// aten::glu: the first half of dim times the sigmoid of the second.
Value aten_glu(Value self, int64_t dim);
/// aten::threshold: x where x > threshold, else value.
Value aten_threshold(Value self, Value threshold, Value value);
/// aten::hardshrink: x where |x| > lambd, else 0.
Value aten_hardshrink(Value self, Value lambd);
/// aten::softshrink: x -+ lambd outside [-lambd, lambd], else 0.
Value aten_softshrink(Value self, Value lambd);
/// aten::log_sigmoid: log(sigmoid(x)), without overflow.
Value aten_log_sigmoid(Value self);
/// aten::_softmax: float16 computed as float32 when half_to_float.
Value aten_softmax_half(Value self, int64_t dim, bool half_to_float);
/// aten::hardtanh_backward: grad_output where min_val < self < max_val, else 0.
Value aten_hardtanh_backward(Value grad_output, Value self, Value min_val, Value max_val);

// ---------------------------------------------------------------- more reductions

/// aten::sum: of every element (integers and bools as int64 unless dtype says).
Value aten_sum(Value self, std::optional<int64_t> dtype);
/// aten::sum.dim_IntList (an empty or no dim reduces everything).
Value aten_sum_dim(Value self, std::optional<std::vector<int64_t>> dim, bool keepdim,
                   std::optional<int64_t> dtype);
/// aten::prod: of every element.
Value aten_prod(Value self, std::optional<int64_t> dtype);
/// aten::prod.dim_int.
Value aten_prod_dim(Value self, int64_t dim, bool keepdim, std::optional<int64_t> dtype);
/// aten::amax (an empty dim reduces everything).
Value aten_amax(Value self, std::vector<int64_t> dim, bool keepdim);
/// aten::amin (an empty dim reduces everything).
Value aten_amin(Value self, std::vector<int64_t> dim, bool keepdim);
/// aten::max: of every element (0-D).
Value aten_max(Value self);
/// aten::min: of every element (0-D).
Value aten_min(Value self);
/// aten::max.dim: values and int64 indices along dim.
std::vector<Value> aten_max_dim(Value self, int64_t dim, bool keepdim);
/// aten::min.dim: values and int64 indices along dim.
std::vector<Value> aten_min_dim(Value self, int64_t dim, bool keepdim);
/// aten::argmax: along dim, or over the flattened tensor.
Value aten_argmax(Value self, std::optional<int64_t> dim, bool keepdim);
/// aten::argmin: along dim, or over the flattened tensor.
Value aten_argmin(Value self, std::optional<int64_t> dim, bool keepdim);
/// aten::var.correction: sum((x - mean)^2) / (N - correction), correction 1 by default.
Value aten_var_correction(Value self, std::optional<std::vector<int64_t>> dim,
                          std::optional<int64_t> correction, bool keepdim);
/// aten::var.dim: correction 1 when unbiased, else 0.
Value aten_var_dim(Value self, std::optional<std::vector<int64_t>> dim, bool unbiased,
                   bool keepdim);
/// aten::var: over every element.
Value aten_var(Value self, bool unbiased);
/// aten::std.correction: the square root of var.
Value aten_std_correction(Value self, std::optional<std::vector<int64_t>> dim,
                          std::optional<int64_t> correction, bool keepdim);
/// aten::std.dim.
Value aten_std_dim(Value self, std::optional<std::vector<int64_t>> dim, bool unbiased,
                   bool keepdim);
/// aten::std: over every element.
Value aten_std(Value self, bool unbiased);
/// aten::logsumexp: log(sum(exp(x))) along dim, without overflow.
Value aten_logsumexp(Value self, std::vector<int64_t> dim, bool keepdim);
/// aten::all: a 0-D bool, true for an empty tensor.
Value aten_all(Value self);
/// aten::all.dim.
Value aten_all_dim(Value self, int64_t dim, bool keepdim);
/// aten::any: a 0-D bool, false for an empty tensor.
Value aten_any(Value self);
/// aten::any.dim.
Value aten_any_dim(Value self, int64_t dim, bool keepdim);
/// aten::cumsum (integers and bools as int64 unless dtype says).
Value aten_cumsum(Value self, int64_t dim, std::optional<int64_t> dtype);
/// +-inf or any other).
Value aten_norm_dim(Value self, std::optional<Value> p, std::vector<int64_t> dim, bool keepdim);
/// aten::norm.Scalar: the p-norm of every element.
Value aten_norm(Value self, Value p);
/// aten::norm.ScalarOpt_dtype.
Value aten_norm_dtype(Value self, std::optional<Value> p, int64_t dtype);
/// aten::norm.ScalarOpt_dim_dtype.
Value aten_norm_dim_dtype(Value self, std::optional<Value> p, std::vector<int64_t> dim,
                          bool keepdim, int64_t dtype);
/// aten::logcumsumexp: log(cumsum(exp(x))) along dim, without overflow.
Value aten_logcumsumexp(Value self, int64_t dim);
/// aten::linalg_vector_norm: the ord-norm over dim (everything when none).
Value aten_linalg_vector_norm(Value self, Value ord, std::optional<std::vector<int64_t>> dim,
                              bool keepdim, std::optional<int64_t> dtype);

// ---------------------------------------------------------------- more shapes, indexing, creation
// and casts

/// aten::squeeze: drops every dimension of size 1.
Value aten_squeeze(Value self);
/// aten::squeeze.dim: drops dim when its size is 1, otherwise the identity.
Value aten_squeeze_dim(Value self, int64_t dim);
/// aten::unsqueeze.
Value aten_unsqueeze(Value self, int64_t dim);
/// aten::stack: the tensors joined along a new dimension.
Value aten_stack(std::vector<Value> tensors, int64_t dim);
/// along dim.
std::vector<Value> aten_split(Value self, int64_t split_size, int64_t dim);
/// aten::split_with_sizes (and split, split.sizes).
std::vector<Value> aten_split_with_sizes(Value self, std::vector<int64_t> split_sizes, int64_t dim);
/// aten::unbind.int: the slices along dim; needs its size.
std::vector<Value> aten_unbind(Value self, int64_t dim);
/// aten::repeat: as many repeats as dimensions or more (leading dimensions added).
Value aten_repeat(Value self, std::vector<int64_t> repeats);
/// aten::tile: fewer dims than dimensions repeat the trailing ones.
Value aten_tile(Value self, std::vector<int64_t> dims);
/// aten::flip: reversed along dims.
Value aten_flip(Value self, std::vector<int64_t> dims);
/// aten::roll: shifted circularly along dims (the flattened tensor when none).
Value aten_roll(Value self, std::vector<int64_t> shifts, std::vector<int64_t> dims);
/// aten::narrow: length elements from start (negative counts from the end).
Value aten_narrow(Value self, int64_t dim, int64_t start, int64_t length);
/// aten::narrow.Tensor: a start known at run time (non-negative).
Value aten_narrow_tensor(Value self, int64_t dim, Value start, int64_t length);
/// aten::index_select.
Value aten_index_select(Value self, int64_t dim, Value index);
/// aten::gather: GatherElements along dim.
Value aten_gather(Value self, int64_t dim, Value index, bool sparse_grad);
/// aten::expand_as.
Value aten_expand_as(Value self, Value other);
/// aten::reshape_as and aten::view_as.
Value aten_reshape_as(Value self, Value other);
/// aten::broadcast_to: -1 keeps a dimension.
Value aten_broadcast_to(Value self, Value size);
/// aten::t: the transpose of a matrix; vectors and scalars unchanged.
Value aten_t(Value self);
/// aten::numel: a 0-D int64 tensor.
Value aten_numel(Value self);
/// aten::atleast_1d.
Value aten_atleast_1d(Value self);
/// aten::atleast_2d.
Value aten_atleast_2d(Value self);
/// aten::atleast_3d: [n] becomes [1, n, 1], [a, b] becomes [a, b, 1].
Value aten_atleast_3d(Value self);
/// aten::atleast_1d.Sequence.
std::vector<Value> aten_atleast_1d_sequence(std::vector<Value> tensors);
/// aten::atleast_2d.Sequence.
std::vector<Value> aten_atleast_2d_sequence(std::vector<Value> tensors);
/// aten::atleast_3d.Sequence.
std::vector<Value> aten_atleast_3d_sequence(std::vector<Value> tensors);
/// aten::constant_pad_nd: pad pairs from the last dimension backwards; negative pads crop.
Value aten_constant_pad_nd(Value self, std::vector<int64_t> pad, Value value);
/// aten::pixel_shuffle: DepthToSpace (CRD) of a rank-4 tensor.
Value aten_pixel_shuffle(Value self, int64_t upscale_factor);
/// aten::topk: values and int64 indices.
std::vector<Value> aten_topk(Value self, int64_t k, int64_t dim, bool largest, bool sorted);
/// aten::sort: values and indices (the order of equal elements may differ from PyTorch's).
std::vector<Value> aten_sort(Value self, int64_t dim, bool descending);
/// aten::nonzero: an [n, rank] int64 tensor of indices.
Value aten_nonzero(Value self);
/// aten::tril.
Value aten_tril(Value self, int64_t diagonal);
/// aten::triu.
Value aten_triu(Value self, int64_t diagonal);
/// aten::one_hot: int64; num_classes -1 takes the largest index + 1.
Value aten_one_hot(Value self, int64_t num_classes);
/// aten::ones: float32 unless dtype says.
Value aten_ones(Value size, std::optional<int64_t> dtype, std::optional<int64_t> layout,
                std::optional<std::string> device, std::optional<bool> pin_memory);
/// aten::full: the type of fill_value unless dtype says.
Value aten_full(Value size, Value fill_value, std::optional<int64_t> dtype,
                std::optional<int64_t> layout, std::optional<std::string> device,
                std::optional<bool> pin_memory);
/// aten::empty.memory_format: zeros (uninitialised memory has no ONNX meaning).
Value aten_empty(Value size, std::optional<int64_t> dtype, std::optional<int64_t> layout,
                 std::optional<std::string> device, std::optional<bool> pin_memory,
                 std::optional<std::string> memory_format);
/// aten::zeros_like (and empty_like).
Value aten_zeros_like(Value self, std::optional<int64_t> dtype, std::optional<int64_t> layout,
                      std::optional<std::string> device, std::optional<bool> pin_memory,
                      std::optional<std::string> memory_format);
/// aten::ones_like.
Value aten_ones_like(Value self, std::optional<int64_t> dtype, std::optional<int64_t> layout,
                     std::optional<std::string> device, std::optional<bool> pin_memory,
                     std::optional<std::string> memory_format);
/// aten::full_like.
Value aten_full_like(Value self, Value fill_value, std::optional<int64_t> dtype,
                     std::optional<int64_t> layout, std::optional<std::string> device,
                     std::optional<bool> pin_memory, std::optional<std::string> memory_format);
/// aten::new_zeros (and new_empty): self's type unless dtype says.
Value aten_new_zeros(Value self, Value size, std::optional<int64_t> dtype,
                     std::optional<int64_t> layout, std::optional<std::string> device,
                     std::optional<bool> pin_memory);
/// aten::new_ones.
Value aten_new_ones(Value self, Value size, std::optional<int64_t> dtype,
                    std::optional<int64_t> layout, std::optional<std::string> device,
                    std::optional<bool> pin_memory);
/// aten::new_full.
Value aten_new_full(Value self, Value size, Value fill_value, std::optional<int64_t> dtype,
                    std::optional<int64_t> layout, std::optional<std::string> device,
                    std::optional<bool> pin_memory);
/// aten::scalar_tensor: a 0-D tensor, float32 unless dtype says.
Value aten_scalar_tensor(Value s, std::optional<int64_t> dtype, std::optional<int64_t> layout,
                         std::optional<std::string> device, std::optional<bool> pin_memory);
/// says.
Value aten_arange_start_step(Value start, Value end, Value step, std::optional<int64_t> dtype,
                             std::optional<int64_t> layout, std::optional<std::string> device,
                             std::optional<bool> pin_memory);
/// aten::arange.start.
Value aten_arange_start(Value start, Value end, std::optional<int64_t> dtype,
                        std::optional<int64_t> layout, std::optional<std::string> device,
                        std::optional<bool> pin_memory);
/// aten::arange: 0 to end.
Value aten_arange(Value end, std::optional<int64_t> dtype, std::optional<int64_t> layout,
                  std::optional<std::string> device, std::optional<bool> pin_memory);
/// aten::to.dtype: a Cast.
Value aten_to_dtype(Value self, int64_t dtype, bool non_blocking, bool copy,
                    std::optional<std::string> memory_format);
/// aten::to.other: a CastLike.
Value aten_to_other(Value self, Value other, bool non_blocking, bool copy,
                    std::optional<std::string> memory_format);
/// aten::to.prim_dtype: a Cast, or the identity without dtype.
Value aten_to_prim_dtype(Value self, std::optional<int64_t> dtype, bool non_blocking, bool copy);
/// aten::type_as: a CastLike.
Value aten_type_as(Value self, Value other);
/// aten::_to_copy: a Cast, or the identity without dtype.
Value aten_to_copy(Value self, std::optional<int64_t> dtype, std::optional<int64_t> layout,
                   std::optional<std::string> device, std::optional<bool> pin_memory,
                   bool non_blocking, std::optional<std::string> memory_format);
/// aten::clone: the identity.
Value aten_clone(Value self, std::optional<std::string> memory_format);
/// aten::detach, alias, lift_fresh_copy, resolve_conj, resolve_neg: the identity.
Value aten_identity(Value self);
/// aten::unflatten.int: dim split into sizes.
Value aten_unflatten(Value self, int64_t dim, std::vector<int64_t> sizes);
/// aten::mT and mH: the last two dimensions swapped (real tensors).
Value aten_mT(Value self);
/// aten::fill (Scalar, Tensor) and fill_: self's shape and type, filled with value.
Value aten_fill(Value self, Value value);
/// aten::copy: src broadcast to self's shape, in self's type.
Value aten_copy(Value self, Value src, bool non_blocking);
/// aten::einsum.
Value aten_einsum(std::string equation, std::vector<Value> tensors,
                  std::optional<std::vector<int64_t>> path);
/// aten::linalg_cross: the cross product along dim (of size 3).
Value aten_linalg_cross(Value self, Value other, int64_t dim);
/// aten::cross: along dim, or the first dimension known to be of size 3.
Value aten_cross(Value self, Value other, std::optional<int64_t> dim);
/// aten::repeat_interleave.self_int: each element repeated in place along dim (the flattened tensor
/// when none).
Value aten_repeat_interleave(Value self, int64_t repeats, std::optional<int64_t> dim,
                             std::optional<int64_t> output_size);
/// aten::unfold: windows of size every step along dimension, as a new last dimension; needs the
/// size along it.
Value aten_unfold(Value self, int64_t dimension, int64_t size, int64_t step);
/// aten::pixel_unshuffle: the inverse of pixel_shuffle for a rank-4 tensor.
Value aten_pixel_unshuffle(Value self, int64_t downscale_factor);
/// aten::diagonal: the diagonal of dim1 and dim2 as a new last dimension; needs their sizes.
Value aten_diagonal(Value self, int64_t offset, int64_t dim1, int64_t dim2);
/// aten::linspace: steps values from start to end, float32 unless dtype says.
Value aten_linspace(Value start, Value end, int64_t steps, std::optional<int64_t> dtype,
                    std::optional<int64_t> layout, std::optional<std::string> device,
                    std::optional<bool> pin_memory);
/// aten::tensor.float / .int / .bool: a 0-D tensor of a Python number.
Value aten_tensor(Value t, std::optional<int64_t> dtype, std::optional<std::string> device,
                  bool requires_grad);
/// aten::empty_strided: zeros (strides have no ONNX meaning).
Value aten_empty_strided(Value size, std::vector<int64_t> stride, std::optional<int64_t> dtype,
                         std::optional<int64_t> layout, std::optional<std::string> device,
                         std::optional<bool> pin_memory);
/// aten::new_empty_strided: zeros of self's type.
Value aten_new_empty_strided(Value self, Value size, std::vector<int64_t> stride,
                             std::optional<int64_t> dtype, std::optional<int64_t> layout,
                             std::optional<std::string> device, std::optional<bool> pin_memory);
/// aten::hann_window.periodic: a constant.
Value aten_hann_window(int64_t window_length, bool periodic, std::optional<int64_t> dtype,
                       std::optional<int64_t> layout, std::optional<std::string> device,
                       std::optional<bool> pin_memory);
/// aten::hamming_window.periodic_alpha_beta: a constant.
Value aten_hamming_window(int64_t window_length, bool periodic, double alpha, double beta,
                          std::optional<int64_t> dtype, std::optional<int64_t> layout,
                          std::optional<std::string> device, std::optional<bool> pin_memory);
/// aten::blackman_window.periodic: a constant.
Value aten_blackman_window(int64_t window_length, bool periodic, std::optional<int64_t> dtype,
                           std::optional<int64_t> layout, std::optional<std::string> device,
                           std::optional<bool> pin_memory);
/// aten::hann_window (periodic).
Value aten_hann_window_default(int64_t window_length, std::optional<int64_t> dtype,
                               std::optional<int64_t> layout, std::optional<std::string> device,
                               std::optional<bool> pin_memory);
/// aten::hamming_window (periodic, 0.54, 0.46).
Value aten_hamming_window_default(int64_t window_length, std::optional<int64_t> dtype,
                                  std::optional<int64_t> layout, std::optional<std::string> device,
                                  std::optional<bool> pin_memory);
/// aten::hamming_window.periodic.
Value aten_hamming_window_periodic(int64_t window_length, bool periodic,
                                   std::optional<int64_t> dtype, std::optional<int64_t> layout,
                                   std::optional<std::string> device,
                                   std::optional<bool> pin_memory);
/// aten::hamming_window.periodic_alpha (beta 0.46).
Value aten_hamming_window_alpha(int64_t window_length, bool periodic, double alpha,
                                std::optional<int64_t> dtype, std::optional<int64_t> layout,
                                std::optional<std::string> device, std::optional<bool> pin_memory);
/// aten::blackman_window (periodic).
Value aten_blackman_window_default(int64_t window_length, std::optional<int64_t> dtype,
                                   std::optional<int64_t> layout, std::optional<std::string> device,
                                   std::optional<bool> pin_memory);
/// aten::_unique2: the unique values of the flattened tensor, inverse indices (self's shape) and
/// counts; empty when not asked for.
std::vector<Value> aten_unique2(Value self, bool sorted, bool return_inverse, bool return_counts);
/// aten::_unique: values and inverse indices.
std::vector<Value> aten_unique(Value self, bool sorted, bool return_inverse);
/// aten::unique_dim: unique slices along dim.
std::vector<Value> aten_unique_dim(Value self, int64_t dim, bool sorted, bool return_inverse,
                                   bool return_counts);

// ---------------------------------------------------------------- more neural-network layers

/// aten::conv1d.
Value aten_conv1d(Value input, Value weight, std::optional<Value> bias, std::vector<int64_t> stride,
                  std::vector<int64_t> padding, std::vector<int64_t> dilation, int64_t groups);
/// aten::conv3d.
Value aten_conv3d(Value input, Value weight, std::optional<Value> bias, std::vector<int64_t> stride,
                  std::vector<int64_t> padding, std::vector<int64_t> dilation, int64_t groups);
/// aten::conv1d.padding: "valid" or "same".
Value aten_conv1d_padding(Value input, Value weight, std::optional<Value> bias,
                          std::vector<int64_t> stride, std::string padding,
                          std::vector<int64_t> dilation, int64_t groups);
/// aten::conv3d.padding: "valid" or "same".
Value aten_conv3d_padding(Value input, Value weight, std::optional<Value> bias,
                          std::vector<int64_t> stride, std::string padding,
                          std::vector<int64_t> dilation, int64_t groups);
/// aten::max_pool1d.
Value aten_max_pool1d(Value self, std::vector<int64_t> kernel_size, std::vector<int64_t> stride,
                      std::vector<int64_t> padding, std::vector<int64_t> dilation, bool ceil_mode);
/// aten::max_pool3d.
Value aten_max_pool3d(Value self, std::vector<int64_t> kernel_size, std::vector<int64_t> stride,
                      std::vector<int64_t> padding, std::vector<int64_t> dilation, bool ceil_mode);
/// aten::avg_pool1d.
Value aten_avg_pool1d(Value self, std::vector<int64_t> kernel_size, std::vector<int64_t> stride,
                      std::vector<int64_t> padding, bool ceil_mode, bool count_include_pad);
/// aten::avg_pool3d (no divisor_override).
Value aten_avg_pool3d(Value self, std::vector<int64_t> kernel_size, std::vector<int64_t> stride,
                      std::vector<int64_t> padding, bool ceil_mode, bool count_include_pad,
                      std::optional<int64_t> divisor_override);
/// aten::pad: modes constant, reflect, replicate (circular needs opset 19).
Value aten_pad(Value self, std::vector<int64_t> pad, std::string mode, std::optional<double> value);
/// aten::reflection_pad1d / 2d / 3d.
Value aten_reflection_pad(Value self, std::vector<int64_t> padding);
/// aten::replication_pad1d / 2d / 3d.
Value aten_replication_pad(Value self, std::vector<int64_t> padding);
/// aten::dropout: the identity unless train (then ONNX's random Dropout).
Value aten_dropout(Value input, double p, bool train);
/// aten::native_dropout: the output and the mask of the kept elements.
std::vector<Value> aten_native_dropout(Value input, double p, std::optional<bool> train);
/// aten::group_norm: normalized over each group of channels, then weight and bias per channel.
Value aten_group_norm(Value input, int64_t num_groups, std::optional<Value> weight,
                      std::optional<Value> bias, double eps, bool cudnn_enabled);
/// aten::instance_norm: InstanceNormalization, or BatchNormalization with running statistics when
/// use_input_stats is false.
Value aten_instance_norm(Value input, std::optional<Value> weight, std::optional<Value> bias,
                         std::optional<Value> running_mean, std::optional<Value> running_var,
                         bool use_input_stats, double momentum, double eps, bool cudnn_enabled);
/// aten::native_layer_norm: the output, the mean and the reciprocal standard deviation.
std::vector<Value> aten_native_layer_norm(Value input, std::vector<int64_t> normalized_shape,
                                          std::optional<Value> weight, std::optional<Value> bias,
                                          double eps);
/// aten::max_pool1d_with_indices: values and PyTorch's per-plane indices.
std::vector<Value> aten_max_pool1d_with_indices(Value self, std::vector<int64_t> kernel_size,
                                                std::vector<int64_t> stride,
                                                std::vector<int64_t> padding,
                                                std::vector<int64_t> dilation, bool ceil_mode);
/// aten::max_pool2d_with_indices: values and PyTorch's per-plane indices.
std::vector<Value> aten_max_pool2d_with_indices(Value self, std::vector<int64_t> kernel_size,
                                                std::vector<int64_t> stride,
                                                std::vector<int64_t> padding,
                                                std::vector<int64_t> dilation, bool ceil_mode);
/// aten::max_pool3d_with_indices: values and PyTorch's per-plane indices.
std::vector<Value> aten_max_pool3d_with_indices(Value self, std::vector<int64_t> kernel_size,
                                                std::vector<int64_t> stride,
                                                std::vector<int64_t> padding,
                                                std::vector<int64_t> dilation, bool ceil_mode);
/// aten::native_batch_norm: the output and the saved mean and reciprocal standard deviation (empty
/// in inference).
std::vector<Value> aten_native_batch_norm(Value input, std::optional<Value> weight,
                                          std::optional<Value> bias,
                                          std::optional<Value> running_mean,
                                          std::optional<Value> running_var, bool training,
                                          double momentum, double eps);
/// aten::native_group_norm: the output and the [N, group] mean and reciprocal standard deviation.
std::vector<Value> aten_native_group_norm(Value input, std::optional<Value> weight,
                                          std::optional<Value> bias, int64_t n, int64_t c,
                                          int64_t hxw, int64_t group, double eps);
/// aten::grid_sampler and grid_sampler_2d: GridSample (4-D).
Value aten_grid_sampler(Value input, Value grid, int64_t interpolation_mode, int64_t padding_mode,
                        bool align_corners);
/// aten::col2im: Col2Im.
Value aten_col2im(Value self, std::vector<int64_t> output_size, std::vector<int64_t> kernel_size,
                  std::vector<int64_t> dilation, std::vector<int64_t> padding,
                  std::vector<int64_t> stride);

// ---------------------------------------------------------------- scatters and advanced indexing

/// aten::scatter.src: ScatterElements.
Value aten_scatter_src(Value self, int64_t dim, Value index, Value src);
/// aten::scatter.value.
Value aten_scatter_value(Value self, int64_t dim, Value index, Value value);
/// aten::scatter.reduce.
Value aten_scatter_reduce_src(Value self, int64_t dim, Value index, Value src, std::string reduce);
/// aten::scatter.value_reduce.
Value aten_scatter_value_reduce(Value self, int64_t dim, Value index, Value value,
                                std::string reduce);
/// aten::scatter_add.
Value aten_scatter_add(Value self, int64_t dim, Value index, Value src);
/// aten::scatter_reduce.two: sum, prod, amax, amin with include_self.
Value aten_scatter_reduce_two(Value self, int64_t dim, Value index, Value src, std::string reduce,
                              bool include_self);
/// aten::select_scatter: src placed at index along dim.
Value aten_select_scatter(Value self, Value src, int64_t dim, int64_t index);
/// aten::slice_scatter: src placed at the slice along dim.
Value aten_slice_scatter(Value self, Value src, int64_t dim, std::optional<Value> start,
                         std::optional<Value> end, Value step);
/// aten::index.Tensor: one index tensor (or bool mask), or several adjacent from dimension 0.
Value aten_index(Value self, std::vector<Value> indices);
/// aten::index_put: the same indices as index.Tensor; accumulate adds.
Value aten_index_put(Value self, std::vector<Value> indices, Value values, bool accumulate);
/// aten::masked_scatter: source's leading elements where mask is true.
Value aten_masked_scatter(Value self, Value mask, Value source);
/// aten::repeat_interleave.Tensor: i repeated repeats[i] times.
Value aten_repeat_interleave_tensor(Value repeats, std::optional<int64_t> output_size);
/// aten::repeat_interleave.self_Tensor: slices along dim repeated by a tensor of counts.
Value aten_repeat_interleave_self_tensor(Value self, Value repeats, std::optional<int64_t> dim,
                                         std::optional<int64_t> output_size);

// ---------------------------------------------------------------- PyTorch primitives (prims::)
// beyond the aten functions they share

/// prims::add: same-type operands, no alpha.
Value prims_add(Value self, Value other);
/// prims::sub.
Value prims_sub(Value self, Value other);
/// prims::mul.
Value prims_mul(Value self, Value other);
/// prims::div: true division for floats, truncation for integers.
Value prims_div(Value self, Value other);
/// prims::where.
Value prims_where(Value pred, Value a, Value b);
/// prims::broadcast_in_dim: a's dimensions placed at broadcast_dimensions of shape.
Value prims_broadcast_in_dim(Value a, Value shape, std::vector<int64_t> broadcast_dimensions);
/// prims::convert_element_type: a Cast.
Value prims_convert_element_type(Value a, int64_t dtype);
/// prims::device_put: the identity.
Value prims_device_put(Value a, std::string device);
/// prims::squeeze: the listed dimensions (of size 1) dropped.
Value prims_squeeze(Value a, std::vector<int64_t> dimensions);
/// prims::sum: as aten::sum.dim_IntList.
Value prims_sum(Value inp, std::optional<std::vector<int64_t>> dims,
                std::optional<int64_t> output_dtype);
/// prims::var: with an explicit correction.
Value prims_var(Value inp, std::optional<std::vector<int64_t>> dims, int64_t correction,
                std::optional<int64_t> output_dtype);

// ---------------------------------------------------------------- upsampling (ONNX Resize)

/// aten::upsample_nearest3d (and the 1d / 2d forms): to output_size, PyTorch's floor rounding.
Value aten_upsample_nearest(Value self, Value output_size, std::optional<double> scales_1,
                            std::optional<double> scales_2, std::optional<double> scales_3);
/// aten::upsample_nearest1d / 2d / 3d.vec: an output size or scale factors.
Value aten_upsample_nearest_vec(Value input, std::optional<Value> output_size,
                                std::optional<std::vector<double>> scale_factors);
/// aten::upsample_trilinear3d (and the linear1d / bilinear2d forms).
Value aten_upsample_linear(Value self, Value output_size, bool align_corners,
                           std::optional<double> scales_1, std::optional<double> scales_2,
                           std::optional<double> scales_3);
/// aten::upsample_linear1d / bilinear2d / trilinear3d.vec.
Value aten_upsample_linear_vec(Value input, std::optional<Value> output_size, bool align_corners,
                               std::optional<std::vector<double>> scale_factors);
/// aten::upsample_bicubic2d: cubic with a = -0.75.
Value aten_upsample_bicubic2d(Value self, Value output_size, bool align_corners,
                              std::optional<double> scales_h, std::optional<double> scales_w);
/// aten::upsample_bicubic2d.vec.
Value aten_upsample_bicubic2d_vec(Value input, std::optional<Value> output_size, bool align_corners,
                                  std::optional<std::vector<double>> scale_factors);
/// aten::_upsample_bilinear2d_aa: bilinear with Resize's antialias (the
/// filter widened when downscaling).
Value aten_upsample_bilinear2d_aa(Value self, Value output_size, bool align_corners,
                                  std::optional<double> scales_h, std::optional<double> scales_w);
/// aten::_upsample_bilinear2d_aa.vec.
Value aten_upsample_bilinear2d_aa_vec(Value input, std::optional<Value> output_size,
                                      bool align_corners,
                                      std::optional<std::vector<double>> scale_factors);
/// aten::_upsample_bicubic2d_aa: bicubic (a = -0.5) with Resize's antialias.
Value aten_upsample_bicubic2d_aa(Value self, Value output_size, bool align_corners,
                                 std::optional<double> scales_h, std::optional<double> scales_w);
/// aten::_upsample_bicubic2d_aa.vec.
Value aten_upsample_bicubic2d_aa_vec(Value input, std::optional<Value> output_size,
                                     bool align_corners,
                                     std::optional<std::vector<double>> scale_factors);
/// aten::upsample_nearest1d.
Value aten_upsample_nearest1d(Value self, Value output_size, std::optional<double> scales);
/// aten::upsample_nearest2d.
Value aten_upsample_nearest2d(Value self, Value output_size, std::optional<double> scales_h,
                              std::optional<double> scales_w);
/// aten::upsample_linear1d.
Value aten_upsample_linear1d(Value self, Value output_size, bool align_corners,
                             std::optional<double> scales);
/// aten::upsample_bilinear2d.
Value aten_upsample_bilinear2d(Value self, Value output_size, bool align_corners,
                               std::optional<double> scales_h, std::optional<double> scales_w);

// ---------------------------------------------------------------- losses

/// aten::mse_loss.
Value aten_mse_loss(Value self, Value target, int64_t reduction);
/// aten::nll_loss: classes along dimension 1, weights, ignore_index.
Value aten_nll_loss(Value self, Value target, std::optional<Value> weight, int64_t reduction,
                    int64_t ignore_index);
/// aten::nll_loss_forward: nll_loss and the total weight of the targets
/// counted (0 without a reduction).
std::vector<Value> aten_nll_loss_forward(Value self, Value target, std::optional<Value> weight,
                                         int64_t reduction, int64_t ignore_index);
/// aten::cross_entropy_loss: class indices or probabilities; no label smoothing.
Value aten_cross_entropy_loss(Value self, Value target, std::optional<Value> weight,
                              int64_t reduction, int64_t ignore_index, double label_smoothing);

// ---------------------------------------------------------------- more linear algebra

/// aten::det and linalg_det.
Value aten_det(Value self);
/// aten::logdet: log(det).
Value aten_logdet(Value self);
/// aten::bilinear: x1 W x2 (+ b) for each output feature.
Value aten_bilinear(Value input1, Value input2, Value weight, std::optional<Value> bias);

// ---------------------------------------------------------------- random sampling (ONNX's random
// operators: the distributions match PyTorch, the draws do not)

/// aten::rand: uniform in [0, 1).
Value aten_rand(Value size, std::optional<int64_t> dtype, std::optional<int64_t> layout,
                std::optional<std::string> device, std::optional<bool> pin_memory);
/// aten::randn: standard normal.
Value aten_randn(Value size, std::optional<int64_t> dtype, std::optional<int64_t> layout,
                 std::optional<std::string> device, std::optional<bool> pin_memory);
/// aten::rand_like.
Value aten_rand_like(Value self, std::optional<int64_t> dtype, std::optional<int64_t> layout,
                     std::optional<std::string> device, std::optional<bool> pin_memory,
                     std::optional<std::string> memory_format);
/// aten::randn_like.
Value aten_randn_like(Value self, std::optional<int64_t> dtype, std::optional<int64_t> layout,
                      std::optional<std::string> device, std::optional<bool> pin_memory,
                      std::optional<std::string> memory_format);
/// aten::randint.low: uniform integers in [low, high).
Value aten_randint_low(int64_t low, int64_t high, Value size, std::optional<int64_t> dtype,
                       std::optional<int64_t> layout, std::optional<std::string> device,
                       std::optional<bool> pin_memory);
/// aten::randint: uniform integers in [0, high).
Value aten_randint(int64_t high, Value size, std::optional<int64_t> dtype,
                   std::optional<int64_t> layout, std::optional<std::string> device,
                   std::optional<bool> pin_memory);
/// aten::randint_like.low_dtype.
Value aten_randint_like_low(Value self, int64_t low, int64_t high, std::optional<int64_t> dtype,
                            std::optional<int64_t> layout, std::optional<std::string> device,
                            std::optional<bool> pin_memory,
                            std::optional<std::string> memory_format);
/// aten::randint_like.
Value aten_randint_like(Value self, int64_t high, std::optional<int64_t> dtype,
                        std::optional<int64_t> layout, std::optional<std::string> device,
                        std::optional<bool> pin_memory, std::optional<std::string> memory_format);
/// aten::bernoulli: 1 with self's probabilities.
Value aten_bernoulli(Value self, std::optional<std::string> generator);
/// aten::bernoulli.p: 1 with probability p, of self's shape.
Value aten_bernoulli_p(Value self, double p, std::optional<std::string> generator);
/// aten::normal.Tensor_float.
Value aten_normal_tensor_float(Value mean, double std, std::optional<std::string> generator);
/// aten::normal.float_Tensor.
Value aten_normal_float_tensor(double mean, Value std, std::optional<std::string> generator);
/// aten::normal.Tensor_Tensor.
Value aten_normal_tensor_tensor(Value mean, Value std, std::optional<std::string> generator);
/// aten::normal_functional: normal draws of self's shape and type.
Value aten_normal_functional(Value self, double mean, double std,
                             std::optional<std::string> generator);
/// aten::normal.float_float.
Value aten_normal_float_float(double mean, double std, Value size,
                              std::optional<std::string> generator, std::optional<int64_t> dtype,
                              std::optional<int64_t> layout, std::optional<std::string> device,
                              std::optional<bool> pin_memory);
/// aten::multinomial: with replacement (or a single sample).
Value aten_multinomial(Value self, int64_t num_samples, bool replacement,
                       std::optional<std::string> generator);

// ---------------------------------------------------------------- recurrent

/// aten::lstm.input (torch.nn.LSTM): one ONNX LSTM per layer, PyTorch's gate
/// order (i, f, g, o) rearranged as ONNX's (i, o, f, c); returns (output,
/// h_n, c_n). Inference only; the hidden size must be known while exporting.
std::vector<Value> aten_lstm(Value input, std::vector<Value> hx, std::vector<Value> params,
                             bool has_biases, int64_t num_layers, double dropout, bool train,
                             bool bidirectional, bool batch_first);
/// aten::gru.input (torch.nn.GRU): one ONNX GRU per layer
/// (linear_before_reset, as PyTorch applies the reset gate), PyTorch's gate
/// order (r, z, n) rearranged as ONNX's (z, r, h); returns (output, h_n).
/// Inference only; the hidden size must be known while exporting.
std::vector<Value> aten_gru(Value input, Value hx, std::vector<Value> params, bool has_biases,
                            int64_t num_layers, double dropout, bool train, bool bidirectional,
                            bool batch_first);

// ---------------------------------------------------------------- counting (ops/counting.cc)

/// aten::histc: a histogram of `bins` equal bins over [min, max] (the data's
/// range when min == max, widened by 1 when that is one value); float and
/// double. min and max must be known while exporting.
Value aten_histc(Value self, int64_t bins, Value min, Value max);
/// aten::bincount: the count (or the sum of weights) of each value of a 1-D
/// integer tensor, max(self) + 1 or minlength bins (computed at run time).
Value aten_bincount(Value self, std::optional<Value> weights, int64_t minlength);
/// aten::unique_consecutive: the first of each run of equal elements (of the
/// flattened tensor, or slices along dim), with the inverse and the counts.
std::vector<Value> aten_unique_consecutive(Value self, bool return_inverse, bool return_counts,
                                           std::optional<int64_t> dim);

// ---------------------------------------------------------------- embedding_bag
// (ops/embedding_bag.cc)

/// aten::embedding_renorm: the rows of `self` that `indices` name, scaled
/// to a norm_type-norm of at most max_norm (by max_norm / (norm + 1e-7)).
Value aten_embedding_renorm(Value self, Value indices, double max_norm, double norm_type);
/// aten::embedding_bag: rows of `weight` picked by 1-D `indices`, reduced
/// per bag (started by `offsets`) by sum (mode 0, with per_sample_weights),
/// mean (1) or max (2); returns (output, offset2bag, bag_size, max_indices)
/// as LibTorch 1.13 fills them.
std::vector<Value> aten_embedding_bag(Value weight, Value indices, Value offsets,
                                      bool scale_grad_by_freq, int64_t mode, bool sparse,
                                      std::optional<Value> per_sample_weights,
                                      bool include_last_offset);
/// aten::embedding_bag.padding_idx: the indices equal to padding_idx (which
/// may count from the end) are left out of their bags.
std::vector<Value> aten_embedding_bag_padding_idx(Value weight, Value indices, Value offsets,
                                                  bool scale_grad_by_freq, int64_t mode,
                                                  bool sparse,
                                                  std::optional<Value> per_sample_weights,
                                                  bool include_last_offset,
                                                  std::optional<int64_t> padding_idx);
/// aten::_embedding_bag: as embedding_bag.padding_idx, a negative
/// padding_idx meaning none.
std::vector<Value> aten_embedding_bag_internal(Value weight, Value indices, Value offsets,
                                               bool scale_grad_by_freq, int64_t mode, bool sparse,
                                               std::optional<Value> per_sample_weights,
                                               bool include_last_offset, int64_t padding_idx);
/// aten::_embedding_bag_forward_only: as aten::_embedding_bag.
std::vector<Value> aten_embedding_bag_forward_only(Value weight, Value indices, Value offsets,
                                                   bool scale_grad_by_freq, int64_t mode,
                                                   bool sparse,
                                                   std::optional<Value> per_sample_weights,
                                                   bool include_last_offset, int64_t padding_idx);

// ---------------------------------------------------------------- Fourier transforms, complex
// (ops/fft.cc) A complex tensor is a real one with a trailing dimension of 2 (real, imaginary), as
// upstream's torchlib represents it.

/// aten::_fft_r2c: the DFT of a real tensor over `dim` (one ONNX DFT per
/// dim), the last dim one-sided when `onesided`; normalization 0 (none), 1
/// (by sqrt(n)) or 2 (by n).
Value aten_fft_r2c(Value self, std::vector<int64_t> dim, int64_t normalization, bool onesided);
/// aten::_fft_c2c: the forward or backward DFT of a complex tensor over `dim`.
Value aten_fft_c2c(Value self, std::vector<int64_t> dim, int64_t normalization, bool forward);
/// aten::_fft_c2r: the backward DFT of a one-sided (Hermitian) spectrum over
/// `dim`, real, `last_dim_size` long along the last dim.
Value aten_fft_c2r(Value self, std::vector<int64_t> dim, int64_t normalization,
                   int64_t last_dim_size);
/// aten::stft: ONNX's STFT of a real 1-D or 2-D signal, the window centered
/// in n_fft; complex (return_complex) or not, the output is real pairs.
Value aten_stft(Value self, int64_t n_fft, std::optional<int64_t> hop_length,
                std::optional<int64_t> win_length, std::optional<Value> window, bool normalized,
                std::optional<bool> onesided, std::optional<bool> return_complex);
/// aten::stft.center: stft of the signal padded by n_fft / 2 on each side
/// (pad_mode reflect, constant or replicate) when `center`.
Value aten_stft_center(Value self, int64_t n_fft, std::optional<int64_t> hop_length,
                       std::optional<int64_t> win_length, std::optional<Value> window, bool center,
                       std::string pad_mode, bool normalized, std::optional<bool> onesided,
                       std::optional<bool> return_complex);
/// aten::view_as_real (and _copy): the identity on the real-pair form.
Value aten_view_as_real(Value self);
/// aten::view_as_complex (and _copy): the identity on the real-pair form.
Value aten_view_as_complex(Value self);
/// aten::complex: real and imaginary parts, broadcast, as real pairs.
Value aten_complex(Value real, Value imag);
/// aten::polar: abs (cos angle, sin angle) as real pairs.
Value aten_polar(Value abs, Value angle);

// ---------------------------------------------------------------- strided reads (ops/strided.cc)

/// aten::as_strided: the elements of a contiguous self at storage_offset +
/// sum(i_d * stride_d), as a Gather of positions computed while exporting.
Value aten_as_strided(Value self, std::vector<int64_t> size, std::vector<int64_t> stride,
                      std::optional<int64_t> storage_offset);
/// aten::sym_storage_offset: 0 (ONNX tensors have no storage).
Value aten_sym_storage_offset(Value self);
/// aten::im2col (torch.nn.functional.unfold): the sliding blocks of a 3-D or
/// 4-D tensor as columns [N, C kh kw, L]; the spatial sizes must be known.
Value aten_im2col(Value self, std::vector<int64_t> kernel_size, std::vector<int64_t> dilation,
                  std::vector<int64_t> padding, std::vector<int64_t> stride);

// ---------------------------------------------------------------- fake quantization
// (ops/quantize.cc)

/// aten::fake_quantize_per_tensor_affine: self rounded to the grid of
/// `scale` and `zero_point`, clamped to [quant_min, quant_max], and back.
Value aten_fake_quantize_per_tensor_affine(Value self, double scale, int64_t zero_point,
                                           int64_t quant_min, int64_t quant_max);
/// aten::fake_quantize_per_tensor_affine.tensor_qparams: scale and zero_point
/// as one-element tensors.
Value aten_fake_quantize_per_tensor_affine_tensor(Value self, Value scale, Value zero_point,
                                                  int64_t quant_min, int64_t quant_max);
/// aten::fake_quantize_per_channel_affine: one scale and zero point per
/// index of `axis`.
Value aten_fake_quantize_per_channel_affine(Value self, Value scale, Value zero_point, int64_t axis,
                                            int64_t quant_min, int64_t quant_max);

}  // namespace onnxscript::torch_lib
