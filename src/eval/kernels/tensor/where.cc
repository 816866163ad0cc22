// Where: element-wise select, output[i] = condition[i] ? X[i] : Y[i], with
// the three inputs broadcast together (numpy rules). Every element type,
// strings included: the selection only copies elements.
#include "eval/util/broadcast.h"
#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

void where(KernelContext& ctx) {
  const Tensor& condition = ctx.input_tensor(0);
  const Tensor& x = ctx.input_tensor(1);
  const Tensor& y = ctx.input_tensor(2);
  if (condition.dtype() != DataType::kBool) ctx.fail("condition must be a bool tensor");
  if (x.dtype() != y.dtype()) {
    ctx.fail(std::string("X and Y must have one element type, got ") +
             std::string(ir::data_type_name(x.dtype())) + " and " +
             std::string(ir::data_type_name(y.dtype())));
  }
  const std::vector<int64_t> out_shape =
      broadcast_shape(ctx, {condition.shape(), x.shape(), y.shape()});
  // Materialized broadcasts keep this simple; Where is not on a hot path in
  // the models we run, and the copies are linear in the output size.
  const Tensor c = broadcast_to(condition, out_shape);
  const Tensor a = broadcast_to(x, out_shape);
  const Tensor b = broadcast_to(y, out_shape);
  Tensor out = Tensor::uninitialized(x.dtype(), out_shape);  // every element is picked
  dispatch_by_size(x.dtype(), ctx, [&]<typename T>() {
    const bool* pick = c.data<bool>();
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    T* po = out.data<T>();
    for (int64_t i = 0; i < out.numel(); ++i) po[i] = pick[i] ? pa[i] : pb[i];
  });
  ctx.set_output(0, std::move(out));
}

}  // namespace

void register_tensor_where(KernelRegistry& registry) {
  for (int64_t v : {9, 16}) registry.add("", "Where", v, where);
}

}  // namespace onnxscript::eval
