// NonZero: the coordinates of the non-zero elements, as int64 [rank, count]
// in row-major order (numpy.nonzero, stacked). A scalar is read as a
// one-element 1-D tensor, as numpy and ONNX Runtime do: shape [1, count].
// Strings are non-zero when not empty.
#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {

template <typename T>
bool is_nonzero(const T& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    return !v.empty();
  } else if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
    return static_cast<float>(v) != 0.0f;
  } else {
    return v != T{};
  }
}

void non_zero(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const int64_t rank = x.rank();
  std::vector<int64_t> flat;
  dispatch<kAllTypes>(x.dtype(), ctx, [&]<typename T>() {
    const T* p = x.data<T>();
    for (int64_t i = 0; i < x.numel(); ++i)
      if (is_nonzero(p[i])) flat.push_back(i);
  });
  const int64_t count = static_cast<int64_t>(flat.size());
  const int64_t out_rows = rank == 0 ? 1 : rank;
  Tensor out(DataType::kInt64, {out_rows, count});
  int64_t* dst = out.data<int64_t>();
  if (rank == 0) {
    for (int64_t j = 0; j < count; ++j) dst[j] = 0;
  } else {
    const std::vector<int64_t> strides = contiguous_strides(x.shape());
    for (int64_t j = 0; j < count; ++j) {
      int64_t rem = flat[j];
      for (int64_t d = 0; d < rank; ++d) {
        dst[d * count + j] = rem / strides[d];
        rem %= strides[d];
      }
    }
  }
  ctx.set_output(0, out);
}

}  // namespace

void register_tensor_non_zero(KernelRegistry& registry) {
  for (int64_t v : {9, 13}) registry.add("", "NonZero", v, non_zero);
}

}  // namespace onnxscript::eval
