// StringConcat (20): Z = X + Y element by element (byte concatenation), with
// numpy broadcasting.
#include <fmt/format.h>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void string_concat(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const Tensor& y = ctx.input_tensor(1);
  if (x.dtype() != DataType::kString || y.dtype() != DataType::kString)
    ctx.fail(fmt::format("X and Y must be strings, not {} and {}", ir::data_type_name(x.dtype()),
                         ir::data_type_name(y.dtype())));
  const std::vector<int64_t> shape = broadcast_shapes(ctx, x.shape(), y.shape());
  Tensor z(DataType::kString, shape);
  const Tensor xb = broadcast_to(x, shape), yb = broadcast_to(y, shape);
  const std::string* a = xb.data<std::string>();
  const std::string* b = yb.data<std::string>();
  std::string* out = z.data<std::string>();
  for (int64_t i = 0; i < z.numel(); ++i) out[i] = a[i] + b[i];
  ctx.set_output(0, z);
}

}  // namespace

void register_text_string_concat(KernelRegistry& registry) {
  registry.add("", "StringConcat", 20, string_concat);
}

}  // namespace onnxscript::eval
