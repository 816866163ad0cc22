// BitCast (26): reinterprets the bits of every element as element type `to`,
// which must have the input's bit width; the shape is unchanged. Strings
// have no bits to reinterpret. The types packed several to a byte keep their
// packing, so the bytes are copied as they are.
#include <cstring>

#include <fmt/format.h>

#include "onnxscript/eval/kernel.h"
#include "onnxscript/ir/data_type.h"

namespace onnxscript::eval {
namespace {

void bit_cast(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  ctx.required_attribute("to");
  const int64_t to_value = ctx.attr_int("to", 0);
  if (!ir::is_known_data_type(static_cast<int32_t>(to_value)))
    ctx.fail(fmt::format("attribute 'to' is {}, which is not an element type", to_value));
  const DataType to = static_cast<DataType>(to_value);
  if (x.dtype() == DataType::kString || to == DataType::kString)
    ctx.fail(fmt::format("cannot bit-cast {} to {}: strings have no fixed width",
                         ir::data_type_name(x.dtype()), ir::data_type_name(to)));
  if (ir::bit_width(x.dtype()) != ir::bit_width(to))
    ctx.fail(fmt::format("{} has {} bits but {} has {}; BitCast needs equal widths",
                         ir::data_type_name(x.dtype()), ir::bit_width(x.dtype()),
                         ir::data_type_name(to), ir::bit_width(to)));
  Tensor y(to, x.shape());
  if (y.nbytes() > 0) std::memcpy(y.raw_data(), x.raw_data(), y.nbytes());
  ctx.set_output(0, y);
}

}  // namespace

void register_cast_bit_cast(KernelRegistry& registry) { registry.add("", "BitCast", 26, bit_cast); }

}  // namespace onnxscript::eval
