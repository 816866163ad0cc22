// CastMap (ai.onnx.ml 1): a map(int64, string|float) to a [1, C] tensor of the
// values in ascending key order, converted by `cast_to` (TO_FLOAT, TO_STRING,
// TO_INT64) with the rules of ONNX Cast (floats print in shortest round-trip
// form, strings must spell numbers). map_form DENSE gives one column per
// entry; SPARSE gives `max_map` columns where column k holds the value of key
// k, so keys must lie in [0, max_map). Columns without a key hold the zero of
// the output type (0 or ""; ONNX Runtime writes "0.f" there for strings, the
// spec names no value).
#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "eval/kernels/cast/cast.h"
#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void cast_map(KernelContext& ctx) {
  const RuntimeValue& input = ctx.input(0);
  if (!input.is_map()) ctx.fail(fmt::format("X must be a map, got {}", input.describe()));
  const MapValue& map = input.map();
  if (map.keys.dtype() != DataType::kInt64) ctx.fail("the map keys must be int64");
  if (map.values.dtype() != DataType::kString && map.values.dtype() != DataType::kFloat)
    ctx.fail(fmt::format("the map values must be string or float, not {}",
                         ir::data_type_name(map.values.dtype())));
  if (map.values.rank() != 1) ctx.fail("the map values must be scalars");

  const std::string cast_to = ctx.attr_string("cast_to", "TO_FLOAT");
  DataType to = DataType::kFloat;
  if (cast_to == "TO_STRING")
    to = DataType::kString;
  else if (cast_to == "TO_INT64")
    to = DataType::kInt64;
  else if (cast_to != "TO_FLOAT")
    ctx.fail(fmt::format("cast_to '{}' is not one of TO_FLOAT, TO_STRING, TO_INT64", cast_to));
  const std::string form = ctx.attr_string("map_form", "DENSE");
  if (form != "DENSE" && form != "SPARSE")
    ctx.fail(fmt::format("map_form '{}' is not DENSE or SPARSE", form));

  const int64_t n = map.keys.numel();
  const int64_t* keys = map.keys.data<int64_t>();
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return keys[a] < keys[b]; });
  for (int64_t i = 1; i < n; ++i)
    if (keys[order[i]] == keys[order[i - 1]])
      ctx.fail(fmt::format("the map holds key {} twice", keys[order[i]]));

  // Convert all values once, then place them.
  const Tensor converted = cast_tensor(ctx, map.values, to, true);
  int64_t columns = n;
  if (form == "SPARSE") {
    columns = ctx.attr_int("max_map", 1);
    if (columns < 0 || columns > INT32_MAX)
      ctx.fail(fmt::format("max_map {} is negative or too large", columns));
    for (int64_t i = 0; i < n; ++i)
      if (keys[i] < 0 || keys[i] >= columns)
        ctx.fail(fmt::format("key {} is outside [0, max_map = {})", keys[i], columns));
  }
  Tensor out(to, {1, columns});
  dispatch_by_size(to, ctx, [&]<typename U>() {
    const U* src = converted.data<U>();
    U* dst = out.data<U>();
    for (int64_t i = 0; i < n; ++i) {
      const int64_t from = order[i];
      dst[form == "SPARSE" ? keys[from] : i] = src[from];
    }
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_ml_cast_map(KernelRegistry& registry) {
  registry.add("ai.onnx.ml", "CastMap", 1, cast_map);
}

}  // namespace onnxscript::eval
