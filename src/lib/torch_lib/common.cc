#include "common.h"

#include <fmt/format.h>

#include "onnxscript/support/error.h"

namespace onnxscript::torch_lib {

int64_t require_rank(const Value& v, std::string_view aten_op) {
  if (const std::optional<int64_t> rank = v.rank()) return *rank;
  throw TypeError(
      fmt::format("{}: the rank of {} must be known while exporting", aten_op, v.describe()));
}

int64_t require_size(const Value& v, int64_t axis, std::string_view aten_op) {
  const std::optional<ir::Shape> shape = v.shape();
  if (!shape || axis < 0 || axis >= static_cast<int64_t>(shape->size()) ||
      !(*shape)[axis].is_static()) {
    throw TypeError(
        fmt::format("{}: the size of {} along dimension {} must be known while exporting", aten_op,
                    v.describe(), axis));
  }
  return (*shape)[axis].value();
}

int64_t wrap_dim(int64_t dim, int64_t rank, std::string_view aten_op) {
  const int64_t extent = rank == 0 ? 1 : rank;  // a 0-D tensor accepts dim 0 and -1
  if (dim < -extent || dim >= extent) {
    throw TypeError(fmt::format("{}: dimension {} is out of range for a tensor of rank {}", aten_op,
                                dim, rank));
  }
  return dim < 0 ? dim + extent : dim;
}

Value int64s(const std::vector<int64_t>& values) {
  return Value(Tensor::from_span<int64_t>(values));
}

bool is_known_scalar(const Value& v, double x) {
  if (v.is_literal()) return v.literal_as_double() == x;
  if (v.is_concrete() && v.concrete().is_tensor() && v.tensor().numel() == 1) {
    const Tensor& t = v.tensor();
    switch (t.dtype()) {
      case DataType::kFloat:
        return t.data<float>()[0] == x;
      case DataType::kDouble:
        return t.data<double>()[0] == x;
      case DataType::kInt64:
        return static_cast<double>(t.data<int64_t>()[0]) == x;
      default:
        return false;
    }
  }
  return false;
}

bool is_floating(DataType t) {
  return t == DataType::kFloat || t == DataType::kDouble || t == DataType::kFloat16 ||
         t == DataType::kBfloat16;
}

DataType onnx_dtype(int64_t torch_scalar_type) {
  // c10::ScalarType's numbering.
  switch (torch_scalar_type) {
    case 0:
      return DataType::kUint8;
    case 1:
      return DataType::kInt8;
    case 2:
      return DataType::kInt16;
    case 3:
      return DataType::kInt32;
    case 4:
      return DataType::kInt64;
    case 5:
      return DataType::kFloat16;
    case 6:
      return DataType::kFloat;
    case 7:
      return DataType::kDouble;
    case 9:
      return DataType::kComplex64;
    case 10:
      return DataType::kComplex128;
    case 11:
      return DataType::kBool;
    case 15:
      return DataType::kBfloat16;
    default:
      throw TypeError(
          fmt::format("PyTorch dtype code {} has no ONNX element type", torch_scalar_type));
  }
}

}  // namespace onnxscript::torch_lib
