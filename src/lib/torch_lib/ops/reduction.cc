// Reductions: mean, mean.dim.

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"

namespace onnxscript::torch_lib {

Value aten_mean(Value self, std::optional<int64_t> dtype) {
  if (dtype) self = op::Cast(self, {.to = onnx_dtype(*dtype)});
  // ReduceMean-18 with no axes reduces everything; keepdims 0 gives a 0-D result.
  return op::ReduceMean(self, {.keepdims = 0});
}

Value aten_mean_dim(Value self, std::optional<std::vector<int64_t>> dim, bool keepdim,
                    std::optional<int64_t> dtype) {
  if (dtype) self = op::Cast(self, {.to = onnx_dtype(*dtype)});
  // An empty dim list reduces every dimension, as no list does.
  if (!dim || dim->empty()) return op::ReduceMean(self, {.keepdims = keepdim ? 1 : 0});
  return op::ReduceMean(self, int64s(*dim), {.keepdims = keepdim ? 1 : 0});
}

void register_reductions(Registry& r) {
  using detail::overload;
  r.add(overload<aten_mean>("aten::mean(Tensor self, *, ScalarType? dtype=None) -> Tensor"));
  r.add(overload<aten_mean_dim>(
      "aten::mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) "
      "-> Tensor"));
}

}  // namespace onnxscript::torch_lib
