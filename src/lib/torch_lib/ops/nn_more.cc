// More neural-network layers: conv1d / conv3d (explicit or "valid" /
// "same" padding), max_pool1d / 3d, avg_pool1d / 3d, pad and the reflection
// and replication pads, dropout, native_dropout, group_norm, instance_norm.

#include <fmt/format.h>

#include <functional>
#include <limits>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"

namespace onnxscript::torch_lib {

namespace {

// One value standing for all `n` spatial dimensions, as PyTorch's int[N]
// lists allow.
std::vector<int64_t> spread(const std::vector<int64_t>& v, size_t n) {
  if (v.size() == 1 && n > 1) return std::vector<int64_t>(n, v[0]);
  return v;
}

// PyTorch's symmetric padding per spatial dimension as ONNX's begins then ends.
std::vector<int64_t> symmetric_pads(const std::vector<int64_t>& padding, size_t n) {
  std::vector<int64_t> pads = spread(padding, n);
  const std::vector<int64_t> ends = pads;
  pads.insert(pads.end(), ends.begin(), ends.end());
  return pads;
}

// PyTorch's pad list (begin, end pairs from the last dimension backwards)
// as ONNX's pads for a tensor of `rank`.
std::vector<int64_t> torch_pad_to_onnx(const std::vector<int64_t>& pad, int64_t rank,
                                       std::string_view aten_op) {
  if (pad.size() % 2 != 0)
    throw TypeError(fmt::format("{}: pad needs pairs, got {} entries", aten_op, pad.size()));
  const int64_t n = static_cast<int64_t>(pad.size()) / 2;
  if (n > rank)
    throw TypeError(fmt::format("{}: {} padded dimensions for rank {}", aten_op, n, rank));
  std::vector<int64_t> pads(static_cast<size_t>(2 * rank), 0);
  for (int64_t i = 0; i < n; ++i) {
    pads[rank - 1 - i] = pad[2 * i];
    pads[2 * rank - 1 - i] = pad[2 * i + 1];
  }
  return pads;
}

// Circular padding (Pad's "wrap" mode arrives only in opset 19): per padded
// dimension, the last `begin` elements put before and the first `end` after.
// Negative (cropping) amounts are not taken.
Value circular_pad(Value self, const std::vector<int64_t>& pad, int64_t rank) {
  const std::vector<int64_t> pads = torch_pad_to_onnx(pad, rank, "aten::pad");
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t begin = pads[d], end = pads[rank + d];
    if (begin == 0 && end == 0) continue;
    const int64_t size = require_size(self, d, "aten::pad");
    if (begin < 0 || end < 0 || begin > size || end > size) {
      throw TypeError(fmt::format(
          "aten::pad: circular padding of {} and {} must be in [0, {}] (dimension {}) here", begin,
          end, size, d));
    }
    std::vector<Value> parts;
    if (begin > 0) parts.push_back(op::Slice(self, int64s({-begin}), int64s({kMax}), int64s({d})));
    parts.push_back(self);
    if (end > 0) parts.push_back(op::Slice(self, int64s({0}), int64s({end}), int64s({d})));
    if (parts.size() > 1) self = op::Concat(parts, {.axis = d});
  }
  return self;
}

// Ones or zeros over the channels (dimension 1) of `input`, of its type.
Value channel_constant(const Value& input, float v) {
  const Value channels = op::Slice(op::Shape(input), int64s({1}), int64s({2}));
  return op::CastLike(op::ConstantOfShape(channels, {.value = Tensor::from<float>({v}, {1})}),
                      input);
}

// PyTorch's layers also take an input without its batch dimension (rank
// n + 1 for n spatial dimensions); ONNX's need one. `layer` runs on the
// input given a batch of one, and its outputs lose that dimension again.
std::vector<Value> unbatched(const Value& input, size_t n,
                             const std::function<std::vector<Value>(const Value&)>& layer) {
  if (!input.rank() || *input.rank() != static_cast<int64_t>(n) + 1) return layer(input);
  std::vector<Value> outputs = layer(op::Unsqueeze(input, int64s({0})));
  for (Value& v : outputs) v = op::Squeeze(v, int64s({0}));
  return outputs;
}

// unbatched() for a layer with one output.
Value unbatched1(const Value& input, size_t n, const std::function<Value(const Value&)>& layer) {
  return unbatched(input, n, [&](const Value& x) { return std::vector<Value>{layer(x)}; })[0];
}

Value max_pool_nd(const Value& self, std::vector<int64_t> kernel_size, std::vector<int64_t> stride,
                  const std::vector<int64_t>& padding, std::vector<int64_t> dilation,
                  bool ceil_mode, size_t n) {
  kernel_size = spread(kernel_size, n);
  // An empty stride means the kernel size (PyTorch's default).
  stride = stride.empty() ? kernel_size : spread(stride, n);
  return unbatched1(self, n, [&](const Value& x) {
    return op::MaxPool(x, {.ceil_mode = ceil_mode ? 1 : 0,
                           .dilations = spread(dilation, n),
                           .kernel_shape = kernel_size,
                           .pads = symmetric_pads(padding, n),
                           .strides = stride});
  });
}

Value avg_pool_nd(const Value& self, std::vector<int64_t> kernel_size, std::vector<int64_t> stride,
                  const std::vector<int64_t>& padding, bool ceil_mode, bool count_include_pad,
                  size_t n) {
  kernel_size = spread(kernel_size, n);
  stride = stride.empty() ? kernel_size : spread(stride, n);
  return unbatched1(self, n, [&](const Value& x) {
    return op::AveragePool(x, {.ceil_mode = ceil_mode ? 1 : 0,
                               .count_include_pad = count_include_pad ? 1 : 0,
                               .kernel_shape = kernel_size,
                               .pads = symmetric_pads(padding, n),
                               .strides = stride});
  });
}

Value conv_with_mode(const Value& input, const Value& weight, const std::optional<Value>& bias,
                     const std::vector<int64_t>& stride, const std::string& padding,
                     const std::vector<int64_t>& dilation, int64_t groups, size_t n,
                     std::string_view aten_op) {
  if (padding != "valid" && padding != "same") {
    throw TypeError(
        fmt::format("{}: padding must be 'valid' or 'same', got '{}'", aten_op, padding));
  }
  const std::vector<int64_t> strides = spread(stride, n), dilations = spread(dilation, n);
  // "same" pads each spatial dimension by dilation * (kernel - 1) in all,
  // the odd element at the end, as PyTorch does. The pads are explicit:
  // ONNX Runtime rejects auto_pad SAME_UPPER with a dilation.
  std::vector<int64_t> pads(2 * n, 0);
  if (padding == "same") {
    for (size_t i = 0; i < n; ++i) {
      const int64_t kernel = require_size(weight, static_cast<int64_t>(2 + i), aten_op);
      const int64_t total = dilations[i] * (kernel - 1);
      pads[i] = total / 2;
      pads[n + i] = total - total / 2;
    }
  }
  return unbatched1(input, n, [&](const Value& x) {
    if (bias) {
      return op::Conv(x, weight, *bias,
                      {.dilations = dilations, .group = groups, .pads = pads, .strides = strides});
    }
    return op::Conv(x, weight,
                    {.dilations = dilations, .group = groups, .pads = pads, .strides = strides});
  });
}

}  // namespace

Value aten_conv1d(Value input, Value weight, std::optional<Value> bias, std::vector<int64_t> stride,
                  std::vector<int64_t> padding, std::vector<int64_t> dilation, int64_t groups) {
  return unbatched1(input, 1, [&](const Value& x) {
    return aten_convolution(x, weight, bias, stride, padding, dilation, false, {0}, groups);
  });
}

Value aten_conv3d(Value input, Value weight, std::optional<Value> bias, std::vector<int64_t> stride,
                  std::vector<int64_t> padding, std::vector<int64_t> dilation, int64_t groups) {
  return unbatched1(input, 3, [&](const Value& x) {
    return aten_convolution(x, weight, bias, stride, padding, dilation, false, {0}, groups);
  });
}

Value aten_conv1d_padding(Value input, Value weight, std::optional<Value> bias,
                          std::vector<int64_t> stride, std::string padding,
                          std::vector<int64_t> dilation, int64_t groups) {
  return conv_with_mode(input, weight, bias, stride, padding, dilation, groups, 1,
                        "aten::conv1d.padding");
}

Value aten_conv3d_padding(Value input, Value weight, std::optional<Value> bias,
                          std::vector<int64_t> stride, std::string padding,
                          std::vector<int64_t> dilation, int64_t groups) {
  return conv_with_mode(input, weight, bias, stride, padding, dilation, groups, 3,
                        "aten::conv3d.padding");
}

Value aten_max_pool1d(Value self, std::vector<int64_t> kernel_size, std::vector<int64_t> stride,
                      std::vector<int64_t> padding, std::vector<int64_t> dilation, bool ceil_mode) {
  return max_pool_nd(self, kernel_size, stride, padding, dilation, ceil_mode, 1);
}

Value aten_max_pool3d(Value self, std::vector<int64_t> kernel_size, std::vector<int64_t> stride,
                      std::vector<int64_t> padding, std::vector<int64_t> dilation, bool ceil_mode) {
  return max_pool_nd(self, kernel_size, stride, padding, dilation, ceil_mode, 3);
}

Value aten_avg_pool1d(Value self, std::vector<int64_t> kernel_size, std::vector<int64_t> stride,
                      std::vector<int64_t> padding, bool ceil_mode, bool count_include_pad) {
  return avg_pool_nd(self, kernel_size, stride, padding, ceil_mode, count_include_pad, 1);
}

Value aten_avg_pool3d(Value self, std::vector<int64_t> kernel_size, std::vector<int64_t> stride,
                      std::vector<int64_t> padding, bool ceil_mode, bool count_include_pad,
                      std::optional<int64_t> divisor_override) {
  if (divisor_override) {
    // The window's sum over the given divisor: the mean counting the padding
    // times the kernel's volume is the sum. A ceil_mode window that runs
    // past the padding would be averaged over fewer elements.
    if (*divisor_override == 0) throw TypeError("aten::avg_pool3d: divisor_override must not be 0");
    if (ceil_mode) {
      throw TypeError("aten::avg_pool3d: divisor_override with ceil_mode is not supported");
    }
    int64_t volume = 1;
    for (int64_t k : spread(kernel_size, 3)) volume *= k;
    const Value mean = avg_pool_nd(self, kernel_size, stride, padding, false, true, 3);
    const double factor = static_cast<double>(volume) / static_cast<double>(*divisor_override);
    return op::Mul(mean, op::CastLike(Value(Tensor::scalar<double>(factor)), self));
  }
  return avg_pool_nd(self, kernel_size, stride, padding, ceil_mode, count_include_pad, 3);
}

Value aten_pad(Value self, std::vector<int64_t> pad, std::string mode,
               std::optional<double> value) {
  const int64_t rank = require_rank(self, "aten::pad");
  const Value pads = int64s(torch_pad_to_onnx(pad, rank, "aten::pad"));
  if (mode == "constant") {
    const Value fill = op::CastLike(Value(Tensor::scalar<double>(value.value_or(0.0))), self);
    return op::Pad(self, pads, fill);
  }
  if (value && *value != 0.0) {
    throw TypeError(fmt::format("aten::pad: a value is only for mode 'constant', not '{}'", mode));
  }
  if (mode == "reflect") return op::Pad(self, pads, {.mode = "reflect"});
  if (mode == "replicate") return op::Pad(self, pads, {.mode = "edge"});
  if (mode == "circular") return circular_pad(self, pad, rank);
  throw TypeError(fmt::format(
      "aten::pad: mode must be 'constant', 'reflect', 'replicate' or 'circular', got '{}'", mode));
}

Value aten_reflection_pad(Value self, std::vector<int64_t> padding) {
  const int64_t rank = require_rank(self, "aten::reflection_pad");
  return op::Pad(self, int64s(torch_pad_to_onnx(padding, rank, "aten::reflection_pad")),
                 {.mode = "reflect"});
}

Value aten_replication_pad(Value self, std::vector<int64_t> padding) {
  const int64_t rank = require_rank(self, "aten::replication_pad");
  return op::Pad(self, int64s(torch_pad_to_onnx(padding, rank, "aten::replication_pad")),
                 {.mode = "edge"});
}

Value aten_dropout(Value input, double p, bool train) {
  if (!train || p == 0) return op::Identity(input);
  if (p < 0 || p > 1) throw TypeError(fmt::format("aten::dropout: p must be in [0, 1], got {}", p));
  // p = 1 drops everything; ONNX's Dropout takes a ratio below 1 only.
  if (p == 1) return op::Mul(input, op::CastLike(Value(Tensor::scalar<double>(0.0)), input));
  // Training-mode Dropout scales the kept elements by 1 / (1 - p), as PyTorch
  // does; the random mask is ONNX Runtime's, not PyTorch's.
  return op::Dropout(input, op::CastLike(Value(Tensor::scalar<double>(p)), input),
                     Value(Tensor::scalar<bool>(true)));
}

std::vector<Value> aten_native_dropout(Value input, double p, std::optional<bool> train) {
  if (p < 0 || p > 1) {
    throw TypeError(fmt::format("aten::native_dropout: p must be in [0, 1], got {}", p));
  }
  if (!train.value_or(true) || p == 0) {
    // Nothing dropped: the input and an all-true mask.
    const Value mask =
        op::ConstantOfShape(op::Shape(input), {.value = Tensor::from<bool>({true}, {1})});
    return {op::Identity(input), mask};
  }
  if (p == 1) {
    // Everything dropped (ONNX's Dropout takes a ratio below 1 only).
    const Value mask =
        op::ConstantOfShape(op::Shape(input), {.value = Tensor::from<bool>({false}, {1})});
    return {op::Mul(input, op::CastLike(Value(Tensor::scalar<double>(0.0)), input)), mask};
  }
  // Dropout's mask is true where an element was kept, as PyTorch's is.
  auto [output, mask] =
      op::Dropout.all_outputs(input, op::CastLike(Value(Tensor::scalar<double>(p)), input),
                              Value(Tensor::scalar<bool>(true)));
  return {output, mask};
}

Value aten_group_norm(Value input, int64_t num_groups, std::optional<Value> weight,
                      std::optional<Value> bias, double eps, bool /*cudnn_enabled*/) {
  const int64_t rank = require_rank(input, "aten::group_norm");
  if (rank < 2) throw TypeError("aten::group_norm: needs a tensor of rank 2 or more (N, C, ...)");
  if (num_groups <= 0) {
    throw TypeError(
        fmt::format("aten::group_norm: num_groups must be positive, got {}", num_groups));
  }
  // Normalize over each group's channels and positions: [N, G, -1], biased
  // variance, then back to the input's shape.
  const Value grouped = op::Reshape(input, int64s({0, num_groups, -1}));
  const Value mean = op::ReduceMean(grouped, int64s({2}), {.keepdims = 1});
  const Value centered = op::Sub(grouped, mean);
  const Value var = op::ReduceMean(op::Mul(centered, centered), int64s({2}), {.keepdims = 1});
  const Value normalized = op::Div(centered, op::Sqrt(op::Add(var, eps)));
  Value y = op::Reshape(normalized, op::Shape(input));
  // weight and bias are per channel: [C, 1, ..., 1].
  std::vector<int64_t> channel_shape(static_cast<size_t>(rank - 1), 1);
  channel_shape[0] = -1;
  if (weight) y = op::Mul(y, op::Reshape(*weight, int64s(channel_shape)));
  if (bias) y = op::Add(y, op::Reshape(*bias, int64s(channel_shape)));
  return y;
}

Value aten_instance_norm(Value input, std::optional<Value> weight, std::optional<Value> bias,
                         std::optional<Value> running_mean, std::optional<Value> running_var,
                         bool use_input_stats, double /*momentum*/, double eps,
                         bool /*cudnn_enabled*/) {
  const Value scale = weight ? *weight : channel_constant(input, 1);
  const Value shift = bias ? *bias : channel_constant(input, 0);
  if (use_input_stats) {
    return op::InstanceNormalization(input, scale, shift, {.epsilon = static_cast<float>(eps)});
  }
  // The running statistics, shared by every instance: a batch norm.
  if (!running_mean || !running_var) {
    throw TypeError(
        "aten::instance_norm: use_input_stats=False needs running_mean and running_var");
  }
  return op::BatchNormalization(input, scale, shift, *running_mean, *running_var,
                                {.epsilon = static_cast<float>(eps)});
}

std::vector<Value> aten_native_layer_norm(Value input, std::vector<int64_t> normalized_shape,
                                          std::optional<Value> weight, std::optional<Value> bias,
                                          double eps) {
  // The output, the mean and the reciprocal standard deviation over the
  // trailing normalized_shape dimensions (kept as size 1), as PyTorch returns
  // them. LayerNormalization's extra outputs are not reachable here, so the
  // statistics are computed directly.
  const int64_t n = static_cast<int64_t>(normalized_shape.size());
  if (n == 0) throw TypeError("aten::native_layer_norm: normalized_shape must not be empty");
  std::vector<int64_t> axes;
  for (int64_t i = -n; i < 0; ++i) axes.push_back(i);
  const Value mean = op::ReduceMean(input, int64s(axes), {.keepdims = 1});
  const Value centered = op::Sub(input, mean);
  const Value var = op::ReduceMean(op::Mul(centered, centered), int64s(axes), {.keepdims = 1});
  const Value rstd = op::Reciprocal(op::Sqrt(op::Add(var, eps)));
  Value y = op::Mul(centered, rstd);
  if (weight) y = op::Mul(y, *weight);
  if (bias) y = op::Add(y, *bias);
  return {y, mean, rstd};
}

namespace {

std::vector<Value> max_pool_with_indices(const Value& self, std::vector<int64_t> kernel_size,
                                         std::vector<int64_t> stride,
                                         const std::vector<int64_t>& padding,
                                         const std::vector<int64_t>& dilation, bool ceil_mode,
                                         size_t n) {
  kernel_size = spread(kernel_size, n);
  stride = stride.empty() ? kernel_size : spread(stride, n);
  return unbatched(self, n, [&](const Value& x) -> std::vector<Value> {
    auto [values, flat] = op::MaxPool.all_outputs(x, {.ceil_mode = ceil_mode ? 1 : 0,
                                                      .dilations = spread(dilation, n),
                                                      .kernel_shape = kernel_size,
                                                      .pads = symmetric_pads(padding, n),
                                                      .strides = stride});
    // ONNX counts the index over the whole tensor, PyTorch within each
    // (batch, channel) plane: the remainder by the plane's size.
    const Value plane = op::ReduceProd(
        op::Slice(op::Shape(x), int64s({2}), int64s({std::numeric_limits<int64_t>::max()})),
        {.keepdims = 0});
    return {values, op::Mod(flat, plane, {.fmod = 0})};
  });
}

}  // namespace

std::vector<Value> aten_max_pool1d_with_indices(Value self, std::vector<int64_t> kernel_size,
                                                std::vector<int64_t> stride,
                                                std::vector<int64_t> padding,
                                                std::vector<int64_t> dilation, bool ceil_mode) {
  return max_pool_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode, 1);
}

std::vector<Value> aten_max_pool2d_with_indices(Value self, std::vector<int64_t> kernel_size,
                                                std::vector<int64_t> stride,
                                                std::vector<int64_t> padding,
                                                std::vector<int64_t> dilation, bool ceil_mode) {
  return max_pool_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode, 2);
}

std::vector<Value> aten_max_pool3d_with_indices(Value self, std::vector<int64_t> kernel_size,
                                                std::vector<int64_t> stride,
                                                std::vector<int64_t> padding,
                                                std::vector<int64_t> dilation, bool ceil_mode) {
  return max_pool_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode, 3);
}

std::vector<Value> aten_native_batch_norm(Value input, std::optional<Value> weight,
                                          std::optional<Value> bias,
                                          std::optional<Value> running_mean,
                                          std::optional<Value> running_var, bool training,
                                          double momentum, double eps) {
  const Value empty = op::CastLike(Value(Tensor(DataType::kFloat, {0})), input);
  if (!training) {
    // Inference: the running statistics; PyTorch returns empty saved ones.
    return {aten_batch_norm(input, weight, bias, running_mean, running_var, false, momentum, eps,
                            false),
            empty, empty};
  }
  // Training: the batch's statistics over every dimension but 1, with the
  // saved mean and reciprocal standard deviation per channel.
  const int64_t rank = require_rank(input, "aten::native_batch_norm");
  std::vector<int64_t> axes{0};
  for (int64_t d = 2; d < rank; ++d) axes.push_back(d);
  const Value mean = op::ReduceMean(input, int64s(axes), {.keepdims = 1});
  const Value centered = op::Sub(input, mean);
  const Value var = op::ReduceMean(op::Mul(centered, centered), int64s(axes), {.keepdims = 1});
  const Value rstd = op::Reciprocal(op::Sqrt(op::Add(var, eps)));
  Value y = op::Mul(centered, rstd);
  std::vector<int64_t> channel_shape(static_cast<size_t>(rank - 1), 1);
  channel_shape[0] = -1;
  if (weight) y = op::Mul(y, op::Reshape(*weight, int64s(channel_shape)));
  if (bias) y = op::Add(y, op::Reshape(*bias, int64s(channel_shape)));
  return {y, op::Reshape(mean, int64s({-1})), op::Reshape(rstd, int64s({-1}))};
}

std::vector<Value> aten_native_group_norm(Value input, std::optional<Value> weight,
                                          std::optional<Value> bias, int64_t n, int64_t c,
                                          int64_t hxw, int64_t group, double eps) {
  if (group <= 0 || c % group != 0) {
    throw TypeError(
        fmt::format("aten::native_group_norm: {} channels do not split into {} groups", c, group));
  }
  // Statistics per (batch, group) over [N, group, C / group * HxW].
  const Value grouped = op::Reshape(input, int64s({n, group, -1}));
  const Value mean = op::ReduceMean(grouped, int64s({2}), {.keepdims = 1});
  const Value centered = op::Sub(grouped, mean);
  const Value var = op::ReduceMean(op::Mul(centered, centered), int64s({2}), {.keepdims = 1});
  const Value rstd = op::Reciprocal(op::Sqrt(op::Add(var, eps)));
  // Back to [N, C, HxW] for the per-channel weight and bias, then to the input's shape.
  Value y = op::Reshape(op::Mul(centered, rstd), int64s({n, c, hxw}));
  if (weight) y = op::Mul(y, op::Reshape(*weight, int64s({c, 1})));
  if (bias) y = op::Add(y, op::Reshape(*bias, int64s({c, 1})));
  return {op::Reshape(y, op::Shape(input)), op::Reshape(mean, int64s({n, group})),
          op::Reshape(rstd, int64s({n, group}))};
}

Value aten_grid_sampler(Value input, Value grid, int64_t interpolation_mode, int64_t padding_mode,
                        bool align_corners) {
  static const char* const kModes[] = {"bilinear", "nearest", "bicubic"};
  static const char* const kPadding[] = {"zeros", "border", "reflection"};
  if (interpolation_mode < 0 || interpolation_mode > 2 || padding_mode < 0 || padding_mode > 2) {
    throw TypeError(fmt::format(
        "aten::grid_sampler: interpolation_mode must be 0, 1 or 2 and padding_mode 0, 1 or 2, "
        "got {} and {}",
        interpolation_mode, padding_mode));
  }
  if (input.rank() && *input.rank() != 4) {
    throw TypeError("aten::grid_sampler: GridSample-16 takes 4-D inputs only");
  }
  return op::GridSample(input, grid,
                        {.align_corners = align_corners ? 1 : 0,
                         .mode = kModes[interpolation_mode],
                         .padding_mode = kPadding[padding_mode]});
}

Value aten_col2im(Value self, std::vector<int64_t> output_size, std::vector<int64_t> kernel_size,
                  std::vector<int64_t> dilation, std::vector<int64_t> padding,
                  std::vector<int64_t> stride) {
  // An unbatched input is [C * prod(kernel_size), L]: one spatial
  // "dimension" short of the batched [N, C * prod(kernel_size), L].
  return unbatched1(self, 1, [&](const Value& x) {
    return op::Col2Im(x, int64s(spread(output_size, 2)), int64s(spread(kernel_size, 2)),
                      {.dilations = spread(dilation, 2),
                       .pads = symmetric_pads(padding, 2),
                       .strides = spread(stride, 2)});
  });
}

void register_more_nn(Registry& r) {
  using detail::overload;
  r.add(overload<aten_conv1d>(
      "aten::conv1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=[1], int[1] "
      "padding=[0], int[1] dilation=[1], int groups=1) -> Tensor"));
  r.add(overload<aten_conv3d>(
      "aten::conv3d(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, int[3] "
      "padding=0, int[3] dilation=1, int groups=1) -> Tensor"));
  r.add(overload<aten_conv1d_padding>(
      "aten::conv1d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=[1], "
      "str padding=\"valid\", int[1] dilation=[1], int groups=1) -> Tensor"));
  r.add(overload<aten_conv3d_padding>(
      "aten::conv3d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, str "
      "padding=\"valid\", int[3] dilation=1, int groups=1) -> Tensor"));
  r.add(overload<aten_max_pool1d>(
      "aten::max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], "
      "int[1] dilation=[1], bool ceil_mode=False) -> Tensor"));
  r.add(overload<aten_max_pool3d>(
      "aten::max_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, "
      "int[3] dilation=1, bool ceil_mode=False) -> Tensor"));
  r.add(overload<aten_avg_pool1d>(
      "aten::avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], "
      "bool ceil_mode=False, bool count_include_pad=True) -> Tensor"));
  r.add(overload<aten_avg_pool3d>(
      "aten::avg_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, bool "
      "ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor"));
  r.add(overload<aten_pad>(
      "aten::pad(Tensor self, int[] pad, str mode=\"constant\", float? value=None) -> Tensor"));
  r.add(overload<aten_reflection_pad>(
      "aten::reflection_pad1d(Tensor self, int[2] padding) -> Tensor"));
  r.add(overload<aten_reflection_pad>(
      "aten::reflection_pad2d(Tensor self, int[4] padding) -> Tensor"));
  r.add(overload<aten_reflection_pad>(
      "aten::reflection_pad3d(Tensor self, int[6] padding) -> Tensor"));
  r.add(overload<aten_replication_pad>(
      "aten::replication_pad1d(Tensor self, int[2] padding) -> Tensor"));
  r.add(overload<aten_replication_pad>(
      "aten::replication_pad2d(Tensor self, int[4] padding) -> Tensor"));
  r.add(overload<aten_replication_pad>(
      "aten::replication_pad3d(Tensor self, int[6] padding) -> Tensor"));
  r.add(overload<aten_native_layer_norm>(
      "aten::native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? "
      "bias, float eps) -> (Tensor, Tensor, Tensor)"));
  r.add(overload<aten_dropout>("aten::dropout(Tensor input, float p, bool train) -> Tensor"));
  r.add(overload<aten_max_pool1d_with_indices>(
      "aten::max_pool1d_with_indices(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] "
      "padding=[0], int[1] dilation=[1], bool ceil_mode=False) -> (Tensor, Tensor)"));
  r.add(overload<aten_max_pool2d_with_indices>(
      "aten::max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] "
      "padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)"));
  r.add(overload<aten_max_pool3d_with_indices>(
      "aten::max_pool3d_with_indices(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] "
      "padding=0, int[3] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)"));
  r.add(overload<aten_native_batch_norm>(
      "aten::native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
      "Tensor? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, "
      "Tensor)"));
  r.add(overload<aten_native_group_norm>(
      "aten::native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, "
      "SymInt HxW, int group, float eps) -> (Tensor, Tensor, Tensor)"));
  r.add(overload<aten_grid_sampler>(
      "aten::grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, "
      "bool align_corners) -> Tensor"));
  r.add(overload<aten_grid_sampler>(
      "aten::grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int "
      "padding_mode, bool align_corners) -> Tensor"));
  r.add(overload<aten_col2im>(
      "aten::col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, "
      "int[2] padding, int[2] stride) -> Tensor"));
  r.add(overload<aten_native_dropout>(
      "aten::native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)"));
  r.add(overload<aten_group_norm>(
      "aten::group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, "
      "float eps=1.0000000000000001e-05, bool cudnn_enabled=True) -> Tensor"));
  r.add(overload<aten_instance_norm>(
      "aten::instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
      "Tensor? running_var, bool use_input_stats, float momentum, float eps, bool "
      "cudnn_enabled) -> Tensor"));
}

}  // namespace onnxscript::torch_lib
