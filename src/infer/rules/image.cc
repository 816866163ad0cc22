// Own rules for image, convolution and signal operators beyond libonnx:
// Resize's axes and aspect-ratio policy, N-D GridSample, AffineGrid, Col2Im,
// DeformConv, ImageDecoder, DFT with its axis input, CausalConvWithState.

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "infer/rules_beyond_libonnx.h"

namespace onnxscript::infer::rules {

namespace {

// An int-list attribute with `n` values, or `fallback` repeated; fails on
// another count.
std::vector<int64_t> ints_or(RuleContext& ctx, std::string_view name, size_t n, int64_t fallback) {
  std::optional<std::vector<int64_t>> v = ctx.attr_ints(name);
  if (!v) return std::vector<int64_t>(n, fallback);
  if (v->size() != n) ctx.fail(fmt::format("{} has {} values, expected {}", name, v->size(), n));
  return *v;
}

// The size of a convolution's output along one axis.
ir::Dim conv_output_dim(RuleContext& ctx, const ir::Dim& in, int64_t kernel, int64_t pad_begin,
                        int64_t pad_end, int64_t stride, int64_t dilation) {
  if (!in.is_static()) return {};
  if (stride <= 0) ctx.fail(fmt::format("stride {} must be positive", stride));
  const int64_t span = dilation * (kernel - 1) + 1;
  const int64_t padded = in.value() + pad_begin + pad_end;
  if (padded < span)
    ctx.fail(fmt::format("the kernel's extent {} exceeds the padded input's {}", span, padded));
  return (padded - span) / stride + 1;
}

}  // namespace

// MaxPool, AveragePool and LpPool beyond libonnx: X [N, C, spatial...] gives
// [N, C, out...] (and MaxPool's Indices, int64 of the same shape), with
// dilations, and in ceil mode without a last window that would start in the
// end padding (a rule libonnx 1.12 lacks).
void pool(RuleContext& ctx) {
  const ir::Type* x = ctx.tensor_input(0);
  if (!x) return;
  std::optional<std::vector<int64_t>> kernel = ctx.attr_ints("kernel_shape");
  if (!kernel) ctx.fail("the attribute kernel_shape is required");
  const size_t r = kernel->size();
  auto set = [&](std::optional<ir::Shape> shape) {
    ctx.set_output(0, ir::Type::tensor(x->elem_type, shape));
    if (ctx.num_outputs() > 1) ctx.set_output(1, ir::Type::tensor(ir::DataType::kInt64, shape));
  };
  if (!x->shape) {
    set(ir::Shape(std::vector<ir::Dim>(r + 2)));
    return;
  }
  const ir::Shape& xs = *x->shape;
  if (xs.size() != r + 2)
    ctx.fail(fmt::format("X has rank {}; kernel_shape's {} spatial axes need rank {}", xs.size(), r,
                         r + 2));
  const std::vector<int64_t> strides = ints_or(ctx, "strides", r, 1);
  const std::vector<int64_t> dilations = ints_or(ctx, "dilations", r, 1);
  const std::string auto_pad = ctx.attr_string("auto_pad", "NOTSET");
  const bool ceil_mode = ctx.attr_int("ceil_mode", 0) != 0;
  std::vector<int64_t> pads(2 * r, 0);
  if (auto_pad == "NOTSET") {
    pads = ints_or(ctx, "pads", 2 * r, 0);
  } else if (auto_pad != "SAME_UPPER" && auto_pad != "SAME_LOWER" && auto_pad != "VALID") {
    ctx.fail(fmt::format("auto_pad '{}' is not NOTSET, SAME_UPPER, SAME_LOWER or VALID", auto_pad));
  }
  std::vector<ir::Dim> dims{xs[0], xs[1]};
  for (size_t k = 0; k < r; ++k) {
    const ir::Dim& in = xs[2 + k];
    if (strides[k] <= 0) ctx.fail(fmt::format("stride {} must be positive", strides[k]));
    if (!in.is_static()) {
      dims.emplace_back();
      continue;
    }
    const int64_t span = dilations[k] * ((*kernel)[k] - 1) + 1;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      dims.emplace_back((in.value() + strides[k] - 1) / strides[k]);
      continue;
    }
    const int64_t room = in.value() + pads[k] + pads[r + k] - span;
    if (room < 0)
      ctx.fail(fmt::format("the window's extent {} exceeds the padded input's {}", span,
                           in.value() + pads[k] + pads[r + k]));
    int64_t out = (ceil_mode ? (room + strides[k] - 1) / strides[k] : room / strides[k]) + 1;
    // A last window that starts past the input and its begin padding sees
    // only end padding: ceil mode drops it.
    if (ceil_mode && (out - 1) * strides[k] >= in.value() + pads[k]) --out;
    dims.emplace_back(out);
  }
  set(ir::Shape(dims));
}

// Resize-18/19: the dimensions of `axes` (all when absent) from sizes (with
// keep_aspect_ratio_policy) or from scales (floor(size * scale)).
void resize(RuleContext& ctx) {
  const ir::Type* x = ctx.tensor_input(0);
  if (!x) return;
  if (!x->shape) {
    ctx.set_output(0, ir::Type::tensor(x->elem_type));
    return;
  }
  const auto rank = static_cast<int64_t>(x->shape->size());
  std::vector<int64_t> axes;
  if (std::optional<std::vector<int64_t>> given = ctx.attr_ints("axes")) {
    for (int64_t a : *given) axes.push_back(normalize_axis(ctx, a, rank, "axes"));
  } else {
    for (int64_t a = 0; a < rank; ++a) axes.push_back(a);
  }
  std::vector<ir::Dim> dims = x->shape->to_vector();
  // An empty constant stands for an omitted input.
  auto given = [&](size_t i) {
    if (!ctx.has_input(i)) return false;
    const ir::Shape* s = ctx.input_shape(i);
    return !(s && s->size() == 1 && (*s)[0].is_static() && (*s)[0].value() == 0);
  };
  const bool has_scales = given(2);
  const bool has_sizes = given(3);
  if (has_scales && has_sizes) ctx.fail("give scales or sizes, not both");
  auto unknown_axes = [&] {
    for (int64_t a : axes) dims[static_cast<size_t>(a)] = ir::Dim();
  };
  if (has_sizes) {
    std::optional<std::vector<int64_t>> sizes = ctx.input_ints(3);
    if (!sizes) {
      unknown_axes();
    } else {
      if (sizes->size() != axes.size())
        ctx.fail(fmt::format("sizes has {} values for {} axes", sizes->size(), axes.size()));
      const std::string policy = ctx.attr_string("keep_aspect_ratio_policy", "stretch");
      if (policy == "stretch") {
        for (size_t k = 0; k < axes.size(); ++k) dims[static_cast<size_t>(axes[k])] = (*sizes)[k];
      } else if (policy == "not_larger" || policy == "not_smaller") {
        // One scale for all axes: the smallest (largest) ratio of the
        // requested to the input size; each axis is then rounded.
        bool all_static = true;
        double scale = policy == "not_larger" ? INFINITY : 0.0;
        for (size_t k = 0; k < axes.size(); ++k) {
          const ir::Dim& in = dims[static_cast<size_t>(axes[k])];
          if (!in.is_static() || in.value() == 0) {
            all_static = false;
            break;
          }
          const double ratio =
              static_cast<double>(static_cast<float>((*sizes)[k]) / static_cast<float>(in.value()));
          scale = policy == "not_larger" ? std::min(scale, ratio) : std::max(scale, ratio);
        }
        if (!all_static) {
          unknown_axes();
        } else {
          for (int64_t a : axes) {
            ir::Dim& d = dims[static_cast<size_t>(a)];
            d = static_cast<int64_t>(
                std::floor(static_cast<float>(scale) * static_cast<float>(d.value()) + 0.5f));
          }
        }
      } else {
        ctx.fail(
            fmt::format("keep_aspect_ratio_policy '{}' is not stretch, not_larger or "
                        "not_smaller",
                        policy));
      }
    }
  } else if (has_scales) {
    std::optional<std::vector<double>> scales = ctx.input_floats(2);
    if (!scales) {
      unknown_axes();
    } else {
      if (scales->size() != axes.size())
        ctx.fail(fmt::format("scales has {} values for {} axes", scales->size(), axes.size()));
      for (size_t k = 0; k < axes.size(); ++k) {
        ir::Dim& d = dims[static_cast<size_t>(axes[k])];
        if (d.is_static())
          d = static_cast<int64_t>(
              std::floor(static_cast<float>(d.value()) * static_cast<float>((*scales)[k])));
        else
          d = ir::Dim();
      }
    }
  } else {
    ctx.fail("one of scales and sizes is required");
  }
  ctx.set_output(0, ir::Type::tensor(x->elem_type, ir::Shape(dims)));
}

// GridSample-20/22: X [N, C, D1..Dr] sampled at grid [N, D1'..Dr', r] gives
// [N, C, D1'..Dr'].
void grid_sample(RuleContext& ctx) {
  const ir::Type* x = ctx.tensor_input(0);
  if (!x) return;
  const ir::Shape* xs = x->shape ? &*x->shape : nullptr;
  const ir::Shape* gs = ctx.input_shape(1);
  if (xs && xs->size() < 3) ctx.fail(fmt::format("X must have rank 3 or more, not {}", xs->size()));
  if (xs && gs && gs->size() != xs->size())
    ctx.fail(
        fmt::format("grid has rank {}; X's rank {} needs {}", gs->size(), xs->size(), xs->size()));
  if (!xs || !gs) {
    const size_t rank = xs ? xs->size() : gs ? gs->size() : 0;
    if (rank == 0) {
      ctx.set_output(0, ir::Type::tensor(x->elem_type));
      return;
    }
    std::vector<ir::Dim> dims(rank);
    if (xs) dims[1] = (*xs)[1];
    dims[0] = xs ? (*xs)[0] : (*gs)[0];
    if (gs)
      for (size_t k = 2; k < rank; ++k) dims[k] = (*gs)[k - 1];
    ctx.set_output(0, ir::Type::tensor(x->elem_type, ir::Shape(dims)));
    return;
  }
  const size_t r = xs->size() - 2;
  const ir::Dim& coords = gs->back();
  if (coords.is_static() && coords.value() != static_cast<int64_t>(r))
    ctx.fail(fmt::format("grid's last dimension is {}; X has {} spatial axes", coords.value(), r));
  std::vector<ir::Dim> dims{unify_dim(ctx, (*xs)[0], (*gs)[0], "X's and grid's batch"), (*xs)[1]};
  for (size_t k = 1; k <= r; ++k) dims.push_back((*gs)[k]);
  ctx.set_output(0, ir::Type::tensor(x->elem_type, ir::Shape(dims)));
}

// AffineGrid-20: theta [N, 2, 3] and size (N, C, H, W) give [N, H, W, 2];
// theta [N, 3, 4] and size (N, C, D, H, W) give [N, D, H, W, 3].
void affine_grid(RuleContext& ctx) {
  const ir::Type* theta = ctx.tensor_input(0);
  if (!theta) return;
  const ir::Shape* ts = theta->shape ? &*theta->shape : nullptr;
  if (ts && ts->size() != 3) ctx.fail(fmt::format("theta must have rank 3, not {}", ts->size()));
  // The spatial rank: from size's length, else from theta's shape.
  std::optional<size_t> r;
  std::optional<std::vector<int64_t>> size = ctx.input_ints(1);
  if (size) {
    if (size->size() != 4 && size->size() != 5)
      ctx.fail(fmt::format("size must have 4 or 5 values, not {}", size->size()));
    r = size->size() - 2;
  } else if (const ir::Shape* ss = ctx.input_shape(1);
             ss && ss->size() == 1 && (*ss)[0].is_static()) {
    r = static_cast<size_t>((*ss)[0].value()) - 2;
  } else if (ts && (*ts)[1].is_static()) {
    r = static_cast<size_t>((*ts)[1].value());
  }
  if (!r || (*r != 2 && *r != 3)) {
    ctx.set_output(0, ir::Type::tensor(theta->elem_type));
    return;
  }
  if (ts) {
    const ir::Dim& rows = (*ts)[1];
    const ir::Dim& cols = (*ts)[2];
    if ((rows.is_static() && rows.value() != static_cast<int64_t>(*r)) ||
        (cols.is_static() && cols.value() != static_cast<int64_t>(*r) + 1))
      ctx.fail(fmt::format("theta {} does not fit a {}-D grid", theta->to_string(), *r));
  }
  std::vector<ir::Dim> dims(*r + 2);
  dims[0] = ts ? (*ts)[0] : ir::Dim();
  if (size) {
    dims[0] = unify_dim(ctx, dims[0], (*size)[0], "theta's and size's batch");
    for (size_t k = 0; k < *r; ++k) dims[1 + k] = (*size)[2 + k];
  }
  dims.back() = static_cast<int64_t>(*r);
  ctx.set_output(0, ir::Type::tensor(theta->elem_type, ir::Shape(dims)));
}

// Col2Im-18: input [N, C * prod(block_shape), L] gives [N, C, image_shape...].
void col2im(RuleContext& ctx) {
  const ir::Type* input = ctx.tensor_input(0);
  if (!input) return;
  require_rank(ctx, 0, 3, "input");
  std::optional<std::vector<int64_t>> image = ctx.input_ints(1);
  std::optional<std::vector<int64_t>> block = ctx.input_ints(2);
  std::optional<size_t> r;
  if (image)
    r = image->size();
  else if (const ir::Shape* s = ctx.input_shape(1); s && s->size() == 1 && (*s)[0].is_static())
    r = static_cast<size_t>((*s)[0].value());
  if (image && block && image->size() != block->size())
    ctx.fail(
        fmt::format("image_shape has {} values, block_shape {}", image->size(), block->size()));
  if (!r) {
    ctx.set_output(0, ir::Type::tensor(input->elem_type));
    return;
  }
  std::vector<ir::Dim> dims(*r + 2);
  if (input->shape) {
    dims[0] = (*input->shape)[0];
    if (block) {
      int64_t prod = 1;
      for (int64_t b : *block) prod *= b;
      dims[1] = dim_div(ctx, (*input->shape)[1], prod, "input's dimension 1 by the block size");
    }
  }
  if (image)
    for (size_t k = 0; k < *r; ++k) dims[2 + k] = (*image)[k];
  ctx.set_output(0, ir::Type::tensor(input->elem_type, ir::Shape(dims)));
}

// DeformConv-19/22: [N, oC, out...] with out from the convolution of X's
// spatial axes by the kernel.
void deform_conv(RuleContext& ctx) {
  const ir::Type* x = ctx.tensor_input(0);
  if (!x) return;
  const ir::Shape* xs = x->shape ? &*x->shape : nullptr;
  const ir::Shape* ws = ctx.input_shape(1);
  if (xs && xs->size() < 3) ctx.fail(fmt::format("X must have rank 3 or more, not {}", xs->size()));
  if (xs && ws && ws->size() != xs->size())
    ctx.fail(fmt::format("W has rank {}, X {}", ws->size(), xs->size()));
  if (!xs) {
    ctx.set_output(0, ir::Type::tensor(x->elem_type, ws ? std::optional<ir::Shape>(ir::Shape(
                                                              std::vector<ir::Dim>(ws->size())))
                                                        : std::nullopt));
    return;
  }
  const size_t r = xs->size() - 2;
  std::optional<std::vector<int64_t>> kernel = ctx.attr_ints("kernel_shape");
  if (!kernel && ws) {
    kernel.emplace();
    for (size_t k = 0; k < r; ++k) {
      if (!(*ws)[2 + k].is_static()) {
        kernel.reset();
        break;
      }
      kernel->push_back((*ws)[2 + k].value());
    }
  }
  if (kernel && kernel->size() != r)
    ctx.fail(fmt::format("kernel_shape has {} values for {} spatial axes", kernel->size(), r));
  const int64_t group = ctx.attr_int("group", 1);
  if (ws && group > 0)
    unify_dim(ctx, (*xs)[1], dim_mul((*ws)[1], group), "X's channels and W's channels * group");
  const std::vector<int64_t> strides = ints_or(ctx, "strides", r, 1);
  const std::vector<int64_t> dilations = ints_or(ctx, "dilations", r, 1);
  const std::vector<int64_t> pads = ints_or(ctx, "pads", 2 * r, 0);
  std::vector<ir::Dim> dims{(*xs)[0], ws ? (*ws)[0] : ir::Dim()};
  for (size_t k = 0; k < r; ++k) {
    dims.push_back(kernel ? conv_output_dim(ctx, (*xs)[2 + k], (*kernel)[k], pads[k], pads[r + k],
                                            strides[k], dilations[k])
                          : ir::Dim());
  }
  ctx.set_output(0, ir::Type::tensor(x->elem_type, ir::Shape(dims)));
}

// ImageDecoder-20: uint8 [H, W, C] with C = 3 for RGB and BGR, 1 for
// Grayscale; H and W come from the image.
void image_decoder(RuleContext& ctx) {
  if (const ir::Type* s = ctx.tensor_input(0); s && s->elem_type != ir::DataType::kUint8)
    ctx.fail(fmt::format("encoded_stream must be uint8, not {}", ir::data_type_name(s->elem_type)));
  require_rank(ctx, 0, 1, "encoded_stream");
  const std::string format = ctx.attr_string("pixel_format", "RGB");
  int64_t channels = 0;
  if (format == "RGB" || format == "BGR")
    channels = 3;
  else if (format == "Grayscale")
    channels = 1;
  else
    ctx.fail(fmt::format("pixel_format '{}' is not RGB, BGR or Grayscale", format));
  ctx.set_output(0,
                 ir::Type::tensor(ir::DataType::kUint8, ir::Shape{ir::Dim(), ir::Dim(), channels}));
}

namespace {

// DFT's output: the transform along `axis` (nullopt: unknown) of `input`.
void dft_along(RuleContext& ctx, const ir::Type& input, std::optional<int64_t> axis);

}  // namespace

// DFT-17 at opsets beyond libonnx: as DFT-20, with the axis an attribute
// (default 1). libonnx's DFT-17 rule rejects inverse with onesided.
void dft17(RuleContext& ctx) {
  const ir::Type* input = ctx.tensor_input(0);
  if (!input) return;
  dft_along(ctx, *input, ctx.attr_int("axis", 1));
}

// DFT-20: the transform along the axis input (default -2, the last signal
// axis); the last dimension becomes 2 (complex), the axis dft_length (or
// its size), or n/2 + 1 with onesided. Inverse with onesided gives the real
// signal [..., n, 1] with n = dft_length or 2 (m - 1).
void dft(RuleContext& ctx) {
  const ir::Type* input = ctx.tensor_input(0);
  if (!input) return;
  std::optional<int64_t> axis = -2;
  if (ctx.has_input(2)) {
    std::optional<std::vector<int64_t>> given = ctx.input_ints(2);
    axis = given && given->size() == 1 ? std::optional<int64_t>((*given)[0]) : std::nullopt;
  }
  dft_along(ctx, *input, axis);
}

namespace {

void dft_along(RuleContext& ctx, const ir::Type& type, std::optional<int64_t> axis) {
  const ir::Type* input = &type;
  if (!input->shape) {
    ctx.set_output(0, ir::Type::tensor(input->elem_type));
    return;
  }
  const ir::Shape& s = *input->shape;
  const auto rank = static_cast<int64_t>(s.size());
  if (rank < 2) ctx.fail(fmt::format("input must have rank 2 or more, not {}", rank));
  const ir::Dim& last = s.back();
  if (last.is_static() && last.value() != 1 && last.value() != 2)
    ctx.fail(fmt::format("input's last dimension must be 1 or 2, not {}", last.value()));
  const bool inverse = ctx.attr_int("inverse", 0) != 0;
  const bool onesided = ctx.attr_int("onesided", 0) != 0;
  std::vector<ir::Dim> dims = s.to_vector();
  dims.back() = inverse && onesided ? 1 : 2;
  if (!axis) {
    for (size_t k = 0; k + 1 < dims.size(); ++k) dims[k] = ir::Dim();
    ctx.set_output(0, ir::Type::tensor(input->elem_type, ir::Shape(dims)));
    return;
  }
  // The axis counts over signal axes only: the last one (the complex
  // component) cannot be transformed.
  int64_t a = *axis < 0 ? *axis + rank : *axis;
  if (a < 0 || a >= rank - 1)
    ctx.fail(fmt::format("axis {} is out of range for an input of rank {}", *axis, rank));
  ir::Dim n = dims[static_cast<size_t>(a)];
  bool length_known = true;
  if (ctx.has_input(1)) {
    std::optional<std::vector<int64_t>> length = ctx.input_ints(1);
    if (length && length->size() == 1) {
      if ((*length)[0] <= 0) ctx.fail(fmt::format("dft_length {} must be positive", (*length)[0]));
      n = (*length)[0];
    } else {
      length_known = false;
      n = ir::Dim();
    }
  }
  ir::Dim out = n;
  if (onesided && !inverse) {
    out = n.is_static() ? ir::Dim(n.value() / 2 + 1) : ir::Dim();
  } else if (onesided && inverse && !ctx.has_input(1)) {
    out = n.is_static() ? ir::Dim(2 * (n.value() - 1)) : ir::Dim();
  } else if (!length_known) {
    out = ir::Dim();
  }
  dims[static_cast<size_t>(a)] = out;
  ctx.set_output(0, ir::Type::tensor(input->elem_type, ir::Shape(dims)));
}

}  // namespace

// CausalConvWithState-27: input [B, C, L] and weight [C, 1, k] give output
// [B, C, L] and present_state [B, C, k - 1].
void causal_conv_with_state(RuleContext& ctx) {
  const ir::Type* input = ctx.tensor_input(0);
  if (!input) return;
  require_rank(ctx, 0, 3, "input");
  require_rank(ctx, 1, 3, "weight");
  require_rank(ctx, 3, 3, "past_state");
  ctx.set_output(0, *input);
  const ir::Shape* is = input->shape ? &*input->shape : nullptr;
  const ir::Shape* ws = ctx.input_shape(1);
  const ir::Shape* ps = ctx.input_shape(3);
  ir::Dim batch = is ? (*is)[0] : ir::Dim();
  ir::Dim channels = is ? (*is)[1] : ir::Dim();
  ir::Dim state;
  if (ws) {
    channels = unify_dim(ctx, channels, (*ws)[0], "input's and weight's channels");
    if ((*ws)[2].is_static()) state = (*ws)[2].value() - 1;
  }
  if (ps) {
    batch = unify_dim(ctx, batch, (*ps)[0], "input's and past_state's batch");
    channels = unify_dim(ctx, channels, (*ps)[1], "input's and past_state's channels");
    state = unify_dim(ctx, state, (*ps)[2], "past_state's length and the kernel size - 1");
  }
  ctx.set_output(1, ir::Type::tensor(input->elem_type, ir::Shape{batch, channels, state}));
}

}  // namespace onnxscript::infer::rules
