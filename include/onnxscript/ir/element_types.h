#pragma once
/// \file
/// The C++ types that store ONNX elements, and the mapping both ways.

#include <complex>
#include <cstdint>
#include <string>

#include "onnxscript/ir/data_type.h"
#include "onnxscript/support/float16.h"

namespace onnxscript::ir {

/// The C++ storage type of each element type that has a natural one.
template <DataType D>
struct CppType;
template <> struct CppType<DataType::kFloat> { using type = float; };
template <> struct CppType<DataType::kDouble> { using type = double; };
template <> struct CppType<DataType::kFloat16> { using type = float16; };
template <> struct CppType<DataType::kBfloat16> { using type = bfloat16; };
template <> struct CppType<DataType::kInt8> { using type = int8_t; };
template <> struct CppType<DataType::kInt16> { using type = int16_t; };
template <> struct CppType<DataType::kInt32> { using type = int32_t; };
template <> struct CppType<DataType::kInt64> { using type = int64_t; };
template <> struct CppType<DataType::kUint8> { using type = uint8_t; };
template <> struct CppType<DataType::kUint16> { using type = uint16_t; };
template <> struct CppType<DataType::kUint32> { using type = uint32_t; };
template <> struct CppType<DataType::kUint64> { using type = uint64_t; };
template <> struct CppType<DataType::kBool> { using type = bool; };
template <> struct CppType<DataType::kString> { using type = std::string; };
template <> struct CppType<DataType::kComplex64> { using type = std::complex<float>; };
template <> struct CppType<DataType::kComplex128> { using type = std::complex<double>; };

/// The DataType of a C++ storage type.
template <typename T>
constexpr DataType data_type_of();
template <> constexpr DataType data_type_of<float>() { return DataType::kFloat; }
template <> constexpr DataType data_type_of<double>() { return DataType::kDouble; }
template <> constexpr DataType data_type_of<float16>() { return DataType::kFloat16; }
template <> constexpr DataType data_type_of<bfloat16>() { return DataType::kBfloat16; }
template <> constexpr DataType data_type_of<int8_t>() { return DataType::kInt8; }
template <> constexpr DataType data_type_of<int16_t>() { return DataType::kInt16; }
template <> constexpr DataType data_type_of<int32_t>() { return DataType::kInt32; }
template <> constexpr DataType data_type_of<int64_t>() { return DataType::kInt64; }
template <> constexpr DataType data_type_of<uint8_t>() { return DataType::kUint8; }
template <> constexpr DataType data_type_of<uint16_t>() { return DataType::kUint16; }
template <> constexpr DataType data_type_of<uint32_t>() { return DataType::kUint32; }
template <> constexpr DataType data_type_of<uint64_t>() { return DataType::kUint64; }
template <> constexpr DataType data_type_of<bool>() { return DataType::kBool; }
template <> constexpr DataType data_type_of<std::string>() { return DataType::kString; }
template <> constexpr DataType data_type_of<std::complex<float>>() { return DataType::kComplex64; }
template <> constexpr DataType data_type_of<std::complex<double>>() { return DataType::kComplex128; }

}  // namespace onnxscript::ir
