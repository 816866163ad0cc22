// PRelu: Y = X for X >= 0, slope * X otherwise, where `slope` broadcasts to X
// (numpy broadcasting from opset 7). Opsets 1 and 6 describe a slope of one
// element or of X's shape; a 1-D slope matching X's channel dimension (dim 1)
// is also accepted there, as old models use it per channel.
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
using kPReluTypes =
    TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBfloat16,
             DataType::kInt32, DataType::kInt64, DataType::kUint32, DataType::kUint64>;

void prelu(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  Tensor slope = ctx.input_tensor(1);
  require_same_type(ctx, x, slope);
  if (ctx.version() < 7 && slope.rank() == 1 && x.rank() >= 2 && slope.numel() != 1 &&
      slope.shape()[0] == x.shape()[1]) {
    std::vector<int64_t> per_channel(static_cast<size_t>(x.rank() - 1), 1);
    per_channel[0] = slope.numel();
    slope = slope.reshaped(std::move(per_channel));
  }
  dispatch<kPReluTypes>(x.dtype(), ctx, [&]<typename T>() {
    ctx.set_output(0, binary_map<T>(ctx, x, slope, []<typename C>(C v, C s) -> C {
                     if constexpr (std::is_unsigned_v<C>)
                       return v;  // never negative
                     else
                       return v < C(0) ? wrap_mul(s, v) : v;
                   }));
  });
}
}  // namespace

void register_activation_prelu(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 7, 9, 16}) registry.add("", "PRelu", v, prelu);
}

}  // namespace onnxscript::eval
