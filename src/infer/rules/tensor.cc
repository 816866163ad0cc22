// Own rules for tensor operators beyond libonnx whose signatures changed:
// Pad's axes, Split's num_outputs, CenterCropPad, the Optional operators on
// plain values, and the output types of the quantization operators.

#include <algorithm>

#include <fmt/format.h>

#include "infer/rules_beyond_libonnx.h"

namespace onnxscript::infer::rules {

namespace {

// Normalized axes from constant data or an attribute, checked against
// `rank`; fails on a repeated axis.
std::vector<int64_t> normalize_axes(RuleContext& ctx, const std::vector<int64_t>& axes,
                                    int64_t rank, std::string_view what) {
  std::vector<int64_t> out;
  for (int64_t a : axes) {
    const int64_t n = normalize_axis(ctx, a, rank, what);
    if (std::find(out.begin(), out.end(), n) != out.end())
      ctx.fail(fmt::format("{} repeats axis {}", what, a));
    out.push_back(n);
  }
  return out;
}

}  // namespace

// Pad-18 and later: pads holds a begin and an end per padded axis (all axes,
// or those of the axes input).
void pad(RuleContext& ctx) {
  const ir::Type* data = ctx.tensor_input(0);
  if (!data) return;
  if (!data->shape) {
    ctx.set_output(0, ir::Type::tensor(data->elem_type));
    return;
  }
  const auto rank = static_cast<int64_t>(data->shape->size());
  std::optional<std::vector<int64_t>> axes;
  if (ctx.has_input(3)) {
    std::optional<std::vector<int64_t>> given = ctx.input_ints(3);
    if (!given) {
      // Unknown axes: any dimension may change.
      ctx.set_output(0,
                     ir::Type::tensor(data->elem_type,
                                      ir::Shape(std::vector<ir::Dim>(static_cast<size_t>(rank)))));
      return;
    }
    axes = normalize_axes(ctx, *given, rank, "axes");
  } else {
    axes.emplace();
    for (int64_t a = 0; a < rank; ++a) axes->push_back(a);
  }
  std::vector<ir::Dim> dims = data->shape->to_vector();
  std::optional<std::vector<int64_t>> pads = ctx.input_ints(1);
  if (const ir::Shape* pads_shape = ctx.input_shape(1)) {
    if (pads_shape->size() != 1) ctx.fail("pads must be one-dimensional");
    const ir::Dim& n = (*pads_shape)[0];
    if (n.is_static() && n.value() != 2 * static_cast<int64_t>(axes->size()))
      ctx.fail(fmt::format("pads has {} values; {} axes need {}", n.value(), axes->size(),
                           2 * axes->size()));
  }
  if (pads && pads->size() != 2 * axes->size())
    ctx.fail(fmt::format("pads has {} values; {} axes need {}", pads->size(), axes->size(),
                         2 * axes->size()));
  for (size_t k = 0; k < axes->size(); ++k) {
    ir::Dim& d = dims[static_cast<size_t>((*axes)[k])];
    if (!pads) {
      d = ir::Dim();
    } else if (d.is_static()) {
      const int64_t size = d.value() + (*pads)[k] + (*pads)[k + axes->size()];
      if (size < 0)
        ctx.fail(fmt::format("axis {} would get the negative size {}", (*axes)[k], size));
      d = size;
    } else if ((*pads)[k] != 0 || (*pads)[k + axes->size()] != 0) {
      d = ir::Dim();
    }
  }
  ctx.set_output(0, ir::Type::tensor(data->elem_type, ir::Shape(dims)));
}

// Split-18: sizes from the split input, or num_outputs equal chunks of
// ceil(size / num_outputs) with a smaller last one. With neither (which the
// specification does not allow, but the evaluator runs as Split-13 did),
// equal parts, one per output.
void split(RuleContext& ctx) {
  const ir::Type* input = ctx.tensor_input(0);
  const size_t n = ctx.num_outputs();
  const bool has_num = ctx.has_attr("num_outputs");
  if (ctx.has_input(1) && has_num) ctx.fail("give either the split input or num_outputs, not both");
  if (has_num && ctx.attr_int("num_outputs", 0) != static_cast<int64_t>(n))
    ctx.fail(fmt::format("num_outputs is {} but the node has {} outputs",
                         ctx.attr_int("num_outputs", 0), n));
  if (!input) return;
  if (!input->shape) {
    for (size_t i = 0; i < n; ++i) ctx.set_output(i, ir::Type::tensor(input->elem_type));
    return;
  }
  const auto rank = static_cast<int64_t>(input->shape->size());
  const auto axis = static_cast<size_t>(normalize_axis(ctx, ctx.attr_int("axis", 0), rank, "axis"));
  const ir::Dim& whole = (*input->shape)[axis];
  std::vector<ir::Dim> sizes(n);
  if (ctx.has_input(1)) {
    if (std::optional<std::vector<int64_t>> split = ctx.input_ints(1)) {
      if (split->size() != n)
        ctx.fail(fmt::format("split has {} values for {} outputs", split->size(), n));
      int64_t total = 0;
      for (size_t i = 0; i < n; ++i) {
        if ((*split)[i] < 0) ctx.fail(fmt::format("split has the negative size {}", (*split)[i]));
        total += (*split)[i];
        sizes[i] = (*split)[i];
      }
      if (whole.is_static() && total != whole.value())
        ctx.fail(fmt::format("the sizes in split add up to {}, not axis {}'s size {}", total, axis,
                             whole.value()));
    }
  } else if (!has_num && whole.is_static()) {
    if (n == 0 || whole.value() % static_cast<int64_t>(n) != 0)
      ctx.fail(fmt::format("axis {} of size {} cannot be split equally into {} outputs", axis,
                           whole.value(), n));
    for (size_t i = 0; i < n; ++i) sizes[i] = whole.value() / static_cast<int64_t>(n);
  } else if (whole.is_static() && n > 0) {
    const int64_t count = static_cast<int64_t>(n);
    const int64_t chunk = (whole.value() + count - 1) / count;
    const int64_t last = whole.value() - chunk * (count - 1);
    // A size too small for the parts fails only if the node runs: it may
    // sit in a branch that never does (AffineGrid's function body splits
    // its size input both ways), so the sizes are left unknown.
    if (last >= 0)
      for (size_t i = 0; i < n; ++i) sizes[i] = i + 1 < n ? chunk : last;
  }
  for (size_t i = 0; i < n; ++i) {
    ir::Shape shape = *input->shape;
    shape.set(axis, sizes[i]);
    ctx.set_output(i, ir::Type::tensor(input->elem_type, shape));
  }
}

// CenterCropPad-18: the dimensions of `axes` (all when absent) become the
// values of the shape input.
void center_crop_pad(RuleContext& ctx) {
  const ir::Type* input = ctx.tensor_input(0);
  if (!input) return;
  if (!input->shape) {
    ctx.set_output(0, ir::Type::tensor(input->elem_type));
    return;
  }
  const auto rank = static_cast<int64_t>(input->shape->size());
  std::vector<int64_t> axes;
  if (std::optional<std::vector<int64_t>> given = ctx.attr_ints("axes")) {
    axes = normalize_axes(ctx, *given, rank, "axes");
  } else {
    for (int64_t a = 0; a < rank; ++a) axes.push_back(a);
  }
  std::vector<ir::Dim> dims = input->shape->to_vector();
  std::optional<std::vector<int64_t>> shape = ctx.input_ints(1);
  if (shape && shape->size() != axes.size())
    ctx.fail(fmt::format("shape has {} values for {} axes", shape->size(), axes.size()));
  for (size_t k = 0; k < axes.size(); ++k)
    dims[static_cast<size_t>(axes[k])] = shape ? ir::Dim((*shape)[k]) : ir::Dim();
  ctx.set_output(0, ir::Type::tensor(input->elem_type, ir::Shape(dims)));
}

// OptionalGetElement-18: an optional's element, or a plain tensor or
// sequence as it is.
void optional_get_element(RuleContext& ctx) {
  const ir::Type* input = ctx.input_type(0);
  if (!input) return;
  if (input->kind == ir::TypeKind::kOptional) {
    if (input->element) ctx.set_output(0, *input->element);
    return;
  }
  if (input->kind != ir::TypeKind::kTensor && input->kind != ir::TypeKind::kSequence)
    ctx.fail(fmt::format("the input must be an optional, a tensor or a sequence, not {}",
                         input->to_string()));
  ctx.set_output(0, *input);
}

// OptionalHasElement-18: a bool scalar, whatever the input (which may be
// omitted).
void optional_has_element(RuleContext& ctx) {
  ctx.set_output(0, ir::Type::tensor(ir::DataType::kBool, ir::Shape()));
}

// QuantizeLinear-19 and later: y has x's shape; its element type is
// output_dtype's, else the zero point's, else uint8.
void quantize_linear(RuleContext& ctx) {
  const int64_t output_dtype = ctx.attr_int("output_dtype", 0);
  const ir::Type* zero_point = ctx.tensor_input(2);
  std::optional<ir::DataType> elem;
  if (output_dtype != 0) {
    if (!ir::is_known_data_type(static_cast<int32_t>(output_dtype)))
      ctx.fail(fmt::format("output_dtype {} is not an element type", output_dtype));
    elem = static_cast<ir::DataType>(output_dtype);
    if (zero_point && zero_point->elem_type != *elem)
      ctx.fail(fmt::format("output_dtype ({}) and the zero point's type ({}) differ",
                           ir::data_type_name(*elem), ir::data_type_name(zero_point->elem_type)));
  } else if (zero_point) {
    elem = zero_point->elem_type;
  } else if (!ctx.has_input(2)) {
    elem = ir::DataType::kUint8;
  }
  if (!elem) return;
  const ir::Type* x = ctx.tensor_input(0);
  ctx.set_output(0, ir::Type::tensor(*elem, x ? x->shape : std::nullopt));
}

// DequantizeLinear-19 and later: y has x's shape and the scale's element
// type (or output_dtype's, from 23).
void dequantize_linear(RuleContext& ctx) {
  const int64_t output_dtype = ctx.attr_int("output_dtype", 0);
  const ir::Type* scale = ctx.tensor_input(1);
  std::optional<ir::DataType> elem;
  if (output_dtype != 0) {
    if (!ir::is_known_data_type(static_cast<int32_t>(output_dtype)))
      ctx.fail(fmt::format("output_dtype {} is not an element type", output_dtype));
    elem = static_cast<ir::DataType>(output_dtype);
  } else if (scale) {
    elem = scale->elem_type;
  }
  if (!elem) return;
  const ir::Type* x = ctx.tensor_input(0);
  ctx.set_output(0, ir::Type::tensor(*elem, x ? x->shape : std::nullopt));
}

}  // namespace onnxscript::infer::rules
