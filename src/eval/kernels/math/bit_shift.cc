// BitShift: Z = X << Y or X >> Y (attribute `direction`, "LEFT" or "RIGHT")
// on unsigned integers, with numpy broadcasting. Shifting by the bit width or
// more gives 0 (C++ leaves it undefined; numpy gives 0 too).
#include <fmt/format.h>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
template <typename C>
C shift_left(C x, C n) {
  if (n >= sizeof(C) * 8) return 0;
  return static_cast<C>(static_cast<uint64_t>(x) << n);
}
template <typename C>
C shift_right(C x, C n) {
  if (n >= sizeof(C) * 8) return 0;
  return static_cast<C>(x >> n);
}

void bit_shift(KernelContext& ctx) {
  const std::string direction = ctx.required_attribute("direction").as_string();
  if (direction == "LEFT")
    run_binary<kUnsignedIntTypes>(ctx, [](auto x, auto n) { return shift_left(x, n); });
  else if (direction == "RIGHT")
    run_binary<kUnsignedIntTypes>(ctx, [](auto x, auto n) { return shift_right(x, n); });
  else
    ctx.fail(fmt::format("direction must be \"LEFT\" or \"RIGHT\", not \"{}\"", direction));
}
}  // namespace

void register_math_bit_shift(KernelRegistry& registry) {
  registry.add("", "BitShift", 11, bit_shift);
}

}  // namespace onnxscript::eval
