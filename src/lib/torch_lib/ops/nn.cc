// Neural-network layers: convolution, batch_norm, layer_norm, max_pool2d,
// avg_pool2d, adaptive_avg_pool2d.

#include <fmt/format.h>

#include <tuple>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"

namespace onnxscript::torch_lib {

namespace {

// PyTorch pads each spatial side symmetrically; ONNX lists all begins, then
// all ends.
std::vector<int64_t> onnx_pads(const std::vector<int64_t>& padding, size_t spatial_rank) {
  std::vector<int64_t> per_axis = padding;
  if (per_axis.size() == 1 && spatial_rank > 1) per_axis.assign(spatial_rank, padding[0]);
  std::vector<int64_t> pads = per_axis;
  pads.insert(pads.end(), per_axis.begin(), per_axis.end());
  return pads;
}

std::vector<int64_t> repeat_to(const std::vector<int64_t>& v, size_t n) {
  if (v.size() == 1 && n > 1) return std::vector<int64_t>(n, v[0]);
  return v;
}

}  // namespace

Value aten_convolution(Value input, Value weight, std::optional<Value> bias,
                       std::vector<int64_t> stride, std::vector<int64_t> padding,
                       std::vector<int64_t> dilation, bool transposed,
                       std::vector<int64_t> output_padding, int64_t groups) {
  const int64_t weight_rank = require_rank(weight, "aten::convolution");
  const size_t spatial = static_cast<size_t>(weight_rank - 2);
  stride = repeat_to(stride, spatial);
  dilation = repeat_to(dilation, spatial);
  const std::vector<int64_t> pads = onnx_pads(padding, spatial);
  if (transposed) {
    output_padding = repeat_to(output_padding, spatial);
    if (bias) {
      return op::ConvTranspose(input, weight, *bias,
                               {.dilations = dilation,
                                .group = groups,
                                .output_padding = output_padding,
                                .pads = pads,
                                .strides = stride});
    }
    return op::ConvTranspose(input, weight,
                             {.dilations = dilation,
                              .group = groups,
                              .output_padding = output_padding,
                              .pads = pads,
                              .strides = stride});
  }
  if (bias) {
    return op::Conv(input, weight, *bias,
                    {.dilations = dilation, .group = groups, .pads = pads, .strides = stride});
  }
  return op::Conv(input, weight,
                  {.dilations = dilation, .group = groups, .pads = pads, .strides = stride});
}

Value aten_batch_norm(Value input, std::optional<Value> weight, std::optional<Value> bias,
                      std::optional<Value> running_mean, std::optional<Value> running_var,
                      bool training, double momentum, double eps, bool /*cudnn_enabled*/) {
  // Missing scale and bias are ones and zeros over the channels (dimension
  // 1); the channel count is read only when one is missing.
  auto filled = [&](double v) {
    const Value channels =
        op::Gather(op::Shape(input), Value(Tensor::scalar<int64_t>(1)), {.axis = 0});
    const Value channel_shape = op::Reshape(channels, int64s({1}));
    return op::CastLike(op::ConstantOfShape(channel_shape, {.value = Tensor::from<float>(
                                                                {static_cast<float>(v)}, {1})}),
                        input);
  };
  const Value scale = weight ? *weight : filled(1.0);
  const Value shift = bias ? *bias : filled(0.0);
  if (!training) {
    if (!running_mean || !running_var) {
      throw TypeError(
          "aten::batch_norm: inference (training=False) needs running_mean and "
          "running_var");
    }
    return op::BatchNormalization(input, scale, shift, *running_mean, *running_var,
                                  {.epsilon = static_cast<float>(eps)});
  }
  // Training mode normalizes with the batch's own statistics. Without
  // running statistics, zeros and ones stand in: only the (unused) updated
  // running statistics depend on them.
  const Value mean = running_mean ? *running_mean : filled(0.0);
  const Value var = running_var ? *running_var : filled(1.0);
  // In training mode BatchNormalization-15 has three outputs (the result
  // and the updated running statistics); ONNX's inference rejects the node
  // with only the first, so all three are made and the first is used.
  return std::get<0>(
      op::BatchNormalization.all_outputs(input, scale, shift, mean, var,
                                         {.epsilon = static_cast<float>(eps),
                                          .momentum = static_cast<float>(1.0 - momentum),
                                          .training_mode = 1}));
}

Value aten_layer_norm(Value input, std::vector<int64_t> normalized_shape,
                      std::optional<Value> weight, std::optional<Value> bias, double eps,
                      bool /*cudnn_enable*/) {
  const int64_t axis = -static_cast<int64_t>(normalized_shape.size());
  Value scale = weight
                    ? *weight
                    : op::CastLike(op::ConstantOfShape(int64s(normalized_shape),
                                                       {.value = Tensor::from<float>({1.0f}, {1})}),
                                   input);
  if (bias) {
    return op::LayerNormalization(input, scale, *bias,
                                  {.axis = axis, .epsilon = static_cast<float>(eps)});
  }
  return op::LayerNormalization(input, scale, {.axis = axis, .epsilon = static_cast<float>(eps)});
}

Value aten_max_pool2d(Value self, std::vector<int64_t> kernel_size, std::vector<int64_t> stride,
                      std::vector<int64_t> padding, std::vector<int64_t> dilation, bool ceil_mode) {
  kernel_size = repeat_to(kernel_size, 2);
  // An empty stride means the kernel size (PyTorch's default).
  stride = stride.empty() ? kernel_size : repeat_to(stride, 2);
  return op::MaxPool(self, {.ceil_mode = ceil_mode ? 1 : 0,
                            .dilations = repeat_to(dilation, 2),
                            .kernel_shape = kernel_size,
                            .pads = onnx_pads(padding, 2),
                            .strides = stride});
}

Value aten_avg_pool2d(Value self, std::vector<int64_t> kernel_size, std::vector<int64_t> stride,
                      std::vector<int64_t> padding, bool ceil_mode, bool count_include_pad,
                      std::optional<int64_t> divisor_override) {
  if (divisor_override) {
    throw NotImplementedError("aten::avg_pool2d: divisor_override has no ONNX equivalent here");
  }
  kernel_size = repeat_to(kernel_size, 2);
  stride = stride.empty() ? kernel_size : repeat_to(stride, 2);
  return op::AveragePool(self, {.ceil_mode = ceil_mode ? 1 : 0,
                                .count_include_pad = count_include_pad ? 1 : 0,
                                .kernel_shape = kernel_size,
                                .pads = onnx_pads(padding, 2),
                                .strides = stride});
}

Value aten_adaptive_avg_pool2d(Value self, std::vector<int64_t> output_size) {
  output_size = repeat_to(output_size, 2);
  if (output_size == std::vector<int64_t>{1, 1}) return op::GlobalAveragePool(self);
  // Equal windows exist when each input size is a multiple of the output size.
  const std::optional<ir::Shape> shape = self.shape();
  if (shape && shape->size() >= 2) {
    const size_t h = shape->size() - 2;
    const ir::Dim& in_h = (*shape)[h];
    const ir::Dim& in_w = (*shape)[h + 1];
    if (in_h.is_static() && in_w.is_static() && in_h.value() % output_size[0] == 0 &&
        in_w.value() % output_size[1] == 0) {
      const std::vector<int64_t> kernel = {in_h.value() / output_size[0],
                                           in_w.value() / output_size[1]};
      return op::AveragePool(self, {.kernel_shape = kernel, .strides = kernel});
    }
  }
  throw NotImplementedError(fmt::format(
      "aten::adaptive_avg_pool2d: output size [{}] needs an input whose spatial sizes are known "
      "multiples of it while exporting; got {}",
      fmt::join(output_size, ", "), self.describe()));
}

namespace {

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

}  // namespace

void register_nn(Registry& r) {
  using detail::overload;
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
}

}  // namespace onnxscript::torch_lib
