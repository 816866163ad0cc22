// torchlib's registry: each ATen overload name, its schema (as PyTorch 1.13
// prints it), and the function that implements it. TorchScript's spellings
// (_convolution, in-place forms) map to the same functions: in-place
// operators have no meaning in ONNX's value semantics, and the exporter
// removes the mutation before dispatch.

#include "bind.h"
#include "onnxscript/torch_lib/ops.h"
#include "onnxscript/torch_lib/registry.h"

namespace onnxscript::torch_lib {

namespace {

using detail::overload;

// aten::_convolution's extra flags only steer backends.
Value aten__convolution(Value input, Value weight, std::optional<Value> bias,
                        std::vector<int64_t> stride, std::vector<int64_t> padding,
                        std::vector<int64_t> dilation, bool transposed,
                        std::vector<int64_t> output_padding, int64_t groups, bool /*benchmark*/,
                        bool /*deterministic*/, bool /*cudnn_enabled*/, bool /*allow_tf32*/) {
  return aten_convolution(std::move(input), std::move(weight), std::move(bias), std::move(stride),
                          std::move(padding), std::move(dilation), transposed,
                          std::move(output_padding), groups);
}

Value aten_conv(Value input, Value weight, std::optional<Value> bias, std::vector<int64_t> stride,
                std::vector<int64_t> padding, std::vector<int64_t> dilation, int64_t groups) {
  return aten_convolution(std::move(input), std::move(weight), std::move(bias), std::move(stride),
                          std::move(padding), std::move(dilation), false, {0}, groups);
}

Registry build() {
  Registry r;
  // Arithmetic.
  r.add(overload<aten_add>(
      "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"));
  r.add(
      overload<aten_add>("aten::add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor"));
  r.add(overload<aten_add>(
      "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)"));
  r.add(overload<aten_add>(
      "aten::add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)"));
  r.add(overload<aten_sub>(
      "aten::sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"));
  r.add(
      overload<aten_sub>("aten::sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor"));
  r.add(overload<aten_rsub>(
      "aten::rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"));
  r.add(overload<aten_rsub>(
      "aten::rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor"));
  r.add(overload<aten_mul>("aten::mul.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_mul>("aten::mul.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_mul>("aten::mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)"));
  r.add(overload<aten_div>("aten::div.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_div>("aten::div.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_div_mode>(
      "aten::div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor"));
  r.add(overload<aten_floor_divide>("aten::floor_divide(Tensor self, Tensor other) -> Tensor"));
  // Activations.
  r.add(overload<aten_relu>("aten::relu(Tensor self) -> Tensor"));
  r.add(overload<aten_relu>("aten::relu_(Tensor(a!) self) -> Tensor(a!)"));
  r.add(overload<aten_gelu>("aten::gelu(Tensor self, *, str approximate='none') -> Tensor"));
  r.add(overload<aten_hardsigmoid>("aten::hardsigmoid(Tensor self) -> Tensor"));
  r.add(overload<aten_hardswish>("aten::hardswish(Tensor self) -> Tensor"));
  r.add(overload<aten_hardswish>("aten::hardswish_(Tensor(a!) self) -> Tensor(a!)"));
  r.add(overload<aten_hardtanh>(
      "aten::hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor"));
  r.add(overload<aten_hardtanh>(
      "aten::hardtanh_(Tensor(a!) self, Scalar min_val=-1, Scalar max_val=1) -> Tensor(a!)"));
  r.add(overload<aten_softmax>(
      "aten::softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor"));
  // Reductions.
  r.add(overload<aten_mean>("aten::mean(Tensor self, *, ScalarType? dtype=None) -> Tensor"));
  r.add(overload<aten_mean_dim>(
      "aten::mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) "
      "-> Tensor"));
  // Linear algebra.
  r.add(overload<aten_matmul>("aten::matmul(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_bmm>("aten::bmm(Tensor self, Tensor mat2) -> Tensor"));
  r.add(overload<aten_linear>(
      "aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor"));
  // Shapes and indexing.
  r.add(overload<aten_cat>("aten::cat(Tensor[] tensors, int dim=0) -> Tensor"));
  r.add(overload<aten_chunk>(
      "aten::chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]"));
  r.add(overload<aten_contiguous>(
      "aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> "
      "Tensor(a)"));
  r.add(overload<aten_expand>(
      "aten::expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)"));
  r.add(overload<aten_flatten>(
      "aten::flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)"));
  r.add(overload<aten_permute>("aten::permute(Tensor(a) self, int[] dims) -> Tensor(a)"));
  r.add(overload<aten_reshape>("aten::reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)"));
  r.add(overload<aten_reshape>("aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)"));
  r.add(overload<aten_select>(
      "aten::select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)"));
  r.add(overload<aten_slice>(
      "aten::slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, "
      "SymInt step=1) -> Tensor(a)"));
  r.add(overload<aten_size_dim>("aten::size.int(Tensor self, int dim) -> int"));
  r.add(overload<aten_transpose>(
      "aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)"));
  r.add(overload<aten_int>("aten::Int.Tensor(Tensor a) -> int"));
  r.add(overload<aten_embedding>(
      "aten::embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool "
      "scale_grad_by_freq=False, bool sparse=False) -> Tensor"));
  // Creation.
  r.add(overload<aten_zeros>(
      "aten::zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None) -> Tensor"));
  // Neural networks.
  r.add(overload<aten_convolution>(
      "aten::convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, SymInt[] "
      "padding, int[] dilation, bool transposed, SymInt[] output_padding, int groups) -> Tensor"));
  r.add(overload<aten__convolution>(
      "aten::_convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, SymInt[] "
      "padding, int[] dilation, bool transposed, SymInt[] output_padding, int groups, bool "
      "benchmark, bool deterministic, bool cudnn_enabled, bool allow_tf32) -> Tensor"));
  r.add(overload<aten_conv>(
      "aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] "
      "padding=0, int[2] dilation=1, int groups=1) -> Tensor"));
  r.add(overload<aten_batch_norm>(
      "aten::batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
      "Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> "
      "Tensor"));
  r.add(overload<aten_layer_norm>(
      "aten::layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? "
      "bias=None, float eps=1e-05, bool cudnn_enable=True) -> Tensor"));
  r.add(overload<aten_max_pool2d>(
      "aten::max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
      "int[2] dilation=1, bool ceil_mode=False) -> Tensor"));
  r.add(overload<aten_avg_pool2d>(
      "aten::avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
      "bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor"));
  r.add(overload<aten_adaptive_avg_pool2d>(
      "aten::adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor"));
  return r;
}

}  // namespace

const Registry& torchlib_registry() {
  static const Registry registry = build();
  return registry;
}

}  // namespace onnxscript::torch_lib
