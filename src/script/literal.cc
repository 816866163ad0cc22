#include "script/literal.h"

#include <span>
#include <type_traits>

#include <fmt/format.h>

#include "onnxscript/eval/eager.h"
#include "onnxscript/ir/element_types.h"
#include "onnxscript/support/error.h"

namespace onnxscript::detail {

DataType default_literal_type(const Value& literal) {
  switch (literal.kind()) {
    case Value::Kind::kIntLiteral:
      return DataType::kInt64;
    case Value::Kind::kBoolLiteral:
      return DataType::kBool;
    default:
      return DataType::kFloat;
  }
}

namespace {

template <typename T>
Tensor scalar_of(double value) {
  if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
    return Tensor::scalar(T(static_cast<float>(value)));
  } else if constexpr (std::is_same_v<T, bool>) {
    return Tensor::scalar(value != 0.0);
  } else {
    return Tensor::scalar(static_cast<T>(value));
  }
}

[[noreturn]] void cannot_become(DataType dtype) {
  throw TypeError(fmt::format("a literal cannot become a {} tensor", ir::data_type_name(dtype)));
}

}  // namespace

Tensor literal_tensor(const Value& literal, DataType dtype) {
  const double v = literal.literal_as_double();
  switch (dtype) {
#define ONNXSCRIPT_CASE(D) \
  case DataType::D:        \
    return scalar_of<ir::CppType<DataType::D>::type>(v);
    ONNXSCRIPT_CASE(kFloat)
    ONNXSCRIPT_CASE(kDouble)
    ONNXSCRIPT_CASE(kFloat16)
    ONNXSCRIPT_CASE(kBfloat16)
    ONNXSCRIPT_CASE(kInt8)
    ONNXSCRIPT_CASE(kInt16)
    ONNXSCRIPT_CASE(kInt32)
    ONNXSCRIPT_CASE(kUint8)
    ONNXSCRIPT_CASE(kUint16)
    ONNXSCRIPT_CASE(kUint32)
    ONNXSCRIPT_CASE(kUint64)
    ONNXSCRIPT_CASE(kBool)
#undef ONNXSCRIPT_CASE
    case DataType::kInt64:
      return Tensor::scalar(literal.literal_as_int());
    case DataType::kString:
    case DataType::kComplex64:
    case DataType::kComplex128:
    case DataType::kUndefined:
      cannot_become(dtype);
    default: {
      // The narrow types have no C++ arithmetic type to convert through; the
      // Cast kernel knows their rounding and saturation.
      const ir::Attribute to = ir::Attribute::make_int("to", static_cast<int64_t>(dtype));
      const eval::RuntimeValue in = Tensor::scalar<double>(v);
      try {
        return eval::run_op("Cast", std::span<const eval::RuntimeValue>(&in, 1),
                            std::span<const ir::Attribute>(&to, 1))
            .at(0)
            .tensor();
      } catch (const Error&) {
        cannot_become(dtype);
      }
    }
  }
}

}  // namespace onnxscript::detail
