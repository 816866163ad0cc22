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
/// aten::size.int: the size along dim, a 0-D int64 tensor.
Value aten_size_dim(Value self, int64_t dim);
/// aten::transpose.int.
Value aten_transpose(Value self, int64_t dim0, int64_t dim1);
/// aten::Int.Tensor: a one-element tensor as an int (a 0-D int64 tensor).
Value aten_int(Value a);
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

}  // namespace onnxscript::torch_lib
