// Pad: grows (or, with negative pads, crops) each axis. pads = [x1_begin,
// x2_begin, ..., x1_end, x2_end, ...]. Modes: constant (fill with a value),
// reflect (mirror, not repeating the edge), edge (repeat the edge). v1 names
// the attribute `paddings`, v2 `pads` (attribute, float `value`); v11+ take
// pads and constant_value as inputs; v13 allows every element type.
// v18 adds the `axes` input (pads then has 2 * len(axes) entries, for those
// axes only); v19 adds mode wrap (the axis repeats periodically). v21 (float8,
// int4, uint4), v23 (float4e2m1), v24 (float8e8m0) and v25 (int2, uint2) only
// widen the types: the types packed several to a byte are unpacked, padded
// and packed again.
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

// A packed sub-byte tensor's elements, one per byte (uint8, same shape).
Tensor unpack_sub_byte(const Tensor& t) {
  const int bits = ir::bit_width(t.dtype());
  const uint8_t mask = static_cast<uint8_t>((1u << bits) - 1);
  const uint8_t* src = static_cast<const uint8_t*>(t.raw_data());
  Tensor out(DataType::kUint8, t.shape());
  uint8_t* dst = out.data<uint8_t>();
  for (int64_t i = 0; i < t.numel(); ++i) {
    const int64_t bit = i * bits;
    dst[i] = static_cast<uint8_t>(src[bit / 8] >> (bit % 8)) & mask;
  }
  return out;
}

// The inverse of unpack_sub_byte: packs `u` (uint8) as `dtype`.
Tensor pack_sub_byte(const Tensor& u, DataType dtype) {
  const int bits = ir::bit_width(dtype);
  const uint8_t mask = static_cast<uint8_t>((1u << bits) - 1);
  Tensor out(dtype, u.shape());
  uint8_t* dst = static_cast<uint8_t*>(out.raw_data());
  std::fill(dst, dst + out.nbytes(), uint8_t{0});
  const uint8_t* src = u.data<uint8_t>();
  for (int64_t i = 0; i < u.numel(); ++i) {
    const int64_t bit = i * bits;
    dst[bit / 8] |= static_cast<uint8_t>((src[i] & mask) << (bit % 8));
  }
  return out;
}

void pad(KernelContext& ctx) {
  const Tensor& input = ctx.input_tensor(0);
  const bool packed = ir::is_sub_byte(input.dtype());
  if (packed && ctx.version() < 21)
    ctx.fail(
        fmt::format("element type {} needs Pad-21 or later", ir::data_type_name(input.dtype())));
  const Tensor data = packed ? unpack_sub_byte(input) : input;
  const int64_t rank = data.rank();
  std::vector<int64_t> pads;
  Tensor fill(data.dtype(), {});
  if (ctx.version() < 11) {
    pads = ctx.attr_ints(ctx.version() < 2 ? "paddings" : "pads");
    const float value = ctx.attr_float("value", 0.0f);
    dispatch<kFloatTypes>(data.dtype(), ctx,
                          [&]<typename T>() { fill.data<T>()[0] = static_cast<T>(value); });
  } else {
    if (ctx.version() < 13) require_type(kNumericTypes{}, data.dtype(), ctx);
    pads = tensor_to_int64s(ctx, ctx.input_tensor(1), "pads");
    if (ctx.has_input(2)) {
      const Tensor& cv = ctx.input_tensor(2);
      if (cv.dtype() != input.dtype())
        ctx.fail("constant_value must have the element type of data");
      if (cv.numel() != 1) ctx.fail("constant_value must have one element");
      fill = packed ? unpack_sub_byte(cv) : cv;
    }
  }
  if (ctx.version() >= 18 && ctx.has_input(3)) {
    // pads names only `axes`: spread it over every axis, 0 elsewhere.
    const std::vector<int64_t> axes = tensor_to_int64s(ctx, ctx.input_tensor(3), "axes");
    const size_t n = axes.size();
    if (pads.size() != 2 * n)
      ctx.fail(fmt::format("pads has {} entries but axes names {} axes", pads.size(), n));
    std::vector<int64_t> full(2 * rank, 0);
    std::vector<uint8_t> seen(rank, 0);
    for (size_t i = 0; i < n; ++i) {
      const int64_t d = normalize_axis(ctx, axes[i], rank, "axes");
      if (seen[d]++) ctx.fail(fmt::format("axis {} is repeated in axes", axes[i]));
      full[d] = pads[i];
      full[d + rank] = pads[i + n];
    }
    pads = std::move(full);
  }
  if (static_cast<int64_t>(pads.size()) != 2 * rank)
    ctx.fail(fmt::format("pads has {} entries but the input has rank {}", pads.size(), rank));
  const std::string mode = ctx.attr_string("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge" &&
      (mode != "wrap" || ctx.version() < 19))
    ctx.fail("unsupported mode '" + mode + "'");

  std::vector<int64_t> out_shape(rank);
  // For each axis, the source coordinate of every output coordinate (-1: fill).
  std::vector<std::vector<int64_t>> source(rank);
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t dim = data.shape()[d];
    out_shape[d] = dim + pads[d] + pads[d + rank];
    if (out_shape[d] < 0) ctx.fail(fmt::format("pads make axis {} negative", d));
    if (mode != "constant" && dim == 0 && out_shape[d] > 0)
      ctx.fail(fmt::format("mode '{}' cannot pad the empty axis {}", mode, d));
    source[d].resize(out_shape[d]);
    for (int64_t o = 0; o < out_shape[d]; ++o) {
      int64_t i = o - pads[d];
      if (i < 0 || i >= dim) {
        if (mode == "constant") {
          i = -1;
        } else if (mode == "wrap") {
          i = ((i % dim) + dim) % dim;
        } else if (mode == "edge" || dim == 1) {
          i = std::clamp<int64_t>(i, 0, dim - 1);
        } else {  // reflect: bounce between 0 and dim-1 without repeating the edges
          const int64_t period = 2 * (dim - 1);
          i = ((i % period) + period) % period;
          if (i >= dim) i = period - i;
        }
      }
      source[d][o] = i;
    }
  }
  Tensor out(data.dtype(), out_shape);
  if (out.numel() == 0) return ctx.set_output(0, packed ? pack_sub_byte(out, input.dtype()) : out);
  const std::vector<int64_t> in_strides = contiguous_strides(data.shape());
  dispatch_by_size(data.dtype(), ctx, [&]<typename U>() {
    const U* src = data.data<U>();
    const U value = fill.data<U>()[0];
    U* dst = out.data<U>();
    if (rank == 0) {
      dst[0] = src[0];
      return;
    }
    std::vector<int64_t> oshape(out_shape.begin(), out_shape.end() - 1);
    std::vector<int64_t> index(oshape.size(), 0);
    const std::vector<int64_t> zero(oshape.size(), 0);
    const std::vector<int64_t>& last = source[rank - 1];
    const int64_t inner = out_shape[rank - 1];
    int64_t unused = 0;
    do {
      int64_t off = 0;
      bool outside = false;
      for (size_t d = 0; d < oshape.size(); ++d) {
        const int64_t s = source[d][index[d]];
        if (s < 0) outside = true;
        off += s * in_strides[d];
      }
      for (int64_t i = 0; i < inner; ++i)
        dst[i] = outside || last[i] < 0 ? value : src[off + last[i]];
      dst += inner;
    } while (next_index(index, oshape, zero, unused));
  });
  ctx.set_output(0, packed ? pack_sub_byte(out, input.dtype()) : out);
}

}  // namespace

void register_tensor_pad(KernelRegistry& registry) {
  for (int64_t v : {1, 2, 11, 13}) registry.add("", "Pad", v, pad);
  registry.add("", "Pad", 18, pad);  // adds the axes input
  registry.add("", "Pad", 19, pad);  // adds mode wrap
  registry.add("", "Pad", 21, pad);  // types only: float8, int4, uint4
  registry.add("", "Pad", 23, pad);  // types only: float4e2m1
  registry.add("", "Pad", 24, pad);  // types only: float8e8m0
  registry.add("", "Pad", 25, pad);  // types only: int2, uint2
}

}  // namespace onnxscript::eval
