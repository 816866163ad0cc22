// PyTorch's primitives (prims::, the decompositions' target): operands of
// one element type, no promotion, no alpha; most map onto the aten
// functions, the rest (broadcast_in_dim, sum, var, div) follow the prims'
// own definitions.

#include <fmt/format.h>

#include <algorithm>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"

namespace onnxscript::torch_lib {

Value prims_add(Value self, Value other) { return op::Add(self, other); }
Value prims_sub(Value self, Value other) { return op::Sub(self, other); }
Value prims_mul(Value self, Value other) { return op::Mul(self, other); }

Value prims_div(Value self, Value other) {
  // True division for floating types, truncation for integers: ONNX's Div.
  return op::Div(self, other);
}

Value prims_where(Value pred, Value a, Value b) {
  return op::Where(op::Cast(pred, {.to = DataType::kBool}), a, b);
}

Value prims_broadcast_in_dim(Value a, Value shape, std::vector<int64_t> broadcast_dimensions) {
  // a's dimensions become the listed output dimensions; the others are new
  // dimensions of size 1, then everything broadcasts to shape.
  const std::optional<ir::Shape> out = shape.shape();
  const int64_t out_rank =
      out && out->size() == 1 && (*out)[0].is_static() ? (*out)[0].value() : -1;
  if (out_rank < 0) {
    throw TypeError("prims::broadcast_in_dim: the length of shape must be known while exporting");
  }
  std::vector<int64_t> added;
  for (int64_t d = 0; d < out_rank; ++d) {
    if (std::find(broadcast_dimensions.begin(), broadcast_dimensions.end(), d) ==
        broadcast_dimensions.end())
      added.push_back(d);
  }
  const Value expanded = added.empty() ? a : op::Unsqueeze(a, int64s(added));
  return op::Expand(expanded, op::Cast(shape, {.to = DataType::kInt64}));
}

Value prims_convert_element_type(Value a, int64_t dtype) {
  return op::Cast(a, {.to = onnx_dtype(dtype)});
}

Value prims_device_put(Value a, std::string /*device*/) { return op::Identity(a); }

Value prims_squeeze(Value a, std::vector<int64_t> dimensions) {
  if (dimensions.empty()) return op::Identity(a);
  return op::Squeeze(a, int64s(dimensions));
}

Value prims_sum(Value inp, std::optional<std::vector<int64_t>> dims,
                std::optional<int64_t> output_dtype) {
  // As aten::sum.dim_IntList: an empty list reduces everything and integers
  // accumulate as int64 (prims.sum of int32 gives int64 in PyTorch 1.13).
  return aten_sum_dim(inp, std::move(dims), false, output_dtype);
}

Value prims_var(Value inp, std::optional<std::vector<int64_t>> dims, int64_t correction,
                std::optional<int64_t> output_dtype) {
  Value x = output_dtype ? op::Cast(inp, {.to = onnx_dtype(*output_dtype)}) : inp;
  return aten_var_correction(x, std::move(dims), correction, false);
}

void register_prims(Registry& r) {
  using detail::overload;
#define ONNXSCRIPT_PRIM_UNARY(name, fn) \
  r.add(overload<fn>("prims::" name "(Tensor self) -> Tensor"))
#define ONNXSCRIPT_PRIM_BINARY(name, fn) \
  r.add(overload<fn>("prims::" name "(Tensor self, Tensor other) -> Tensor"))
  ONNXSCRIPT_PRIM_UNARY("abs", aten_abs);
  ONNXSCRIPT_PRIM_UNARY("acos", aten_acos);
  ONNXSCRIPT_PRIM_UNARY("acosh", aten_acosh);
  ONNXSCRIPT_PRIM_UNARY("asin", aten_asin);
  ONNXSCRIPT_PRIM_UNARY("asinh", aten_asinh);
  ONNXSCRIPT_PRIM_UNARY("atan", aten_atan);
  ONNXSCRIPT_PRIM_UNARY("atanh", aten_atanh);
  ONNXSCRIPT_PRIM_UNARY("ceil", aten_ceil);
  ONNXSCRIPT_PRIM_UNARY("cos", aten_cos);
  ONNXSCRIPT_PRIM_UNARY("cosh", aten_cosh);
  ONNXSCRIPT_PRIM_UNARY("erf", aten_erf);
  ONNXSCRIPT_PRIM_UNARY("exp", aten_exp);
  ONNXSCRIPT_PRIM_UNARY("floor", aten_floor);
  ONNXSCRIPT_PRIM_UNARY("log", aten_log);
  ONNXSCRIPT_PRIM_UNARY("neg", aten_neg);
  ONNXSCRIPT_PRIM_UNARY("round", aten_round);
  ONNXSCRIPT_PRIM_UNARY("sin", aten_sin);
  ONNXSCRIPT_PRIM_UNARY("sinh", aten_sinh);
  ONNXSCRIPT_PRIM_UNARY("sqrt", aten_sqrt);
  ONNXSCRIPT_PRIM_UNARY("tan", aten_tan);
  ONNXSCRIPT_PRIM_UNARY("tanh", aten_tanh);
  ONNXSCRIPT_PRIM_BINARY("add", prims_add);
  ONNXSCRIPT_PRIM_BINARY("sub", prims_sub);
  ONNXSCRIPT_PRIM_BINARY("mul", prims_mul);
  ONNXSCRIPT_PRIM_BINARY("div", prims_div);
  ONNXSCRIPT_PRIM_BINARY("pow", aten_pow);
  ONNXSCRIPT_PRIM_BINARY("remainder", aten_remainder);
  ONNXSCRIPT_PRIM_BINARY("eq", aten_eq);
  ONNXSCRIPT_PRIM_BINARY("ne", aten_ne);
  ONNXSCRIPT_PRIM_BINARY("lt", aten_lt);
  ONNXSCRIPT_PRIM_BINARY("le", aten_le);
  ONNXSCRIPT_PRIM_BINARY("gt", aten_gt);
  ONNXSCRIPT_PRIM_BINARY("ge", aten_ge);
#undef ONNXSCRIPT_PRIM_UNARY
#undef ONNXSCRIPT_PRIM_BINARY
  r.add(overload<prims_where>("prims::where(Tensor pred, Tensor a, Tensor b) -> Tensor"));
  r.add(overload<prims_broadcast_in_dim>(
      "prims::broadcast_in_dim(Tensor(a) a, SymInt[] shape, int[] broadcast_dimensions) -> "
      "Tensor(a)"));
  r.add(overload<prims_convert_element_type>(
      "prims::convert_element_type(Tensor a, ScalarType dtype) -> Tensor"));
  r.add(overload<prims_device_put>("prims::device_put(Tensor a, Device device) -> Tensor"));
  r.add(overload<aten_reshape>("prims::reshape(Tensor a, SymInt[] shape) -> Tensor"));
  r.add(overload<prims_squeeze>("prims::squeeze(Tensor(a) a, int[] dimensions) -> Tensor(a)"));
  r.add(overload<aten_permute>("prims::transpose(Tensor(a) a, int[] permutation) -> Tensor(a)"));
  r.add(overload<prims_sum>(
      "prims::sum(Tensor inp, int[]? dims, *, ScalarType? output_dtype=None) -> Tensor"));
  r.add(overload<prims_var>(
      "prims::var(Tensor inp, int[]? dims, *, int correction, ScalarType? output_dtype=None) -> "
      "Tensor"));
}

}  // namespace onnxscript::torch_lib
