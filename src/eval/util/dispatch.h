#pragma once
// Element-type dispatch for kernels: turn a runtime DataType into a C++ type.
//
//   dispatch<kNumericTypes>(t.dtype(), ctx, [&]<typename T>() { ... T ... });
//
// A type outside the list is a KernelError naming the operator and the type,
// which is what the conformance runner reports for unsupported combinations.

#include <complex>
#include <cstdint>
#include <string>
#include <utility>

#include "onnxscript/eval/kernel.h"
#include "onnxscript/support/float16.h"

namespace onnxscript::eval {

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

/// A compile-time list of element types.
template <DataType... Ds>
struct TypeList {};

using kFloatTypes = TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBfloat16>;
using kSignedIntTypes = TypeList<DataType::kInt8, DataType::kInt16, DataType::kInt32, DataType::kInt64>;
using kUnsignedIntTypes = TypeList<DataType::kUint8, DataType::kUint16, DataType::kUint32, DataType::kUint64>;
using kIntTypes = TypeList<DataType::kInt8, DataType::kInt16, DataType::kInt32, DataType::kInt64,
                           DataType::kUint8, DataType::kUint16, DataType::kUint32, DataType::kUint64>;
using kNumericTypes = TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBfloat16,
                               DataType::kInt8, DataType::kInt16, DataType::kInt32, DataType::kInt64,
                               DataType::kUint8, DataType::kUint16, DataType::kUint32, DataType::kUint64>;
using kSignedNumericTypes = TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBfloat16,
                                     DataType::kInt8, DataType::kInt16, DataType::kInt32, DataType::kInt64>;
/// Every type with a C++ storage type: numeric, bool, string, complex.
using kAllTypes = TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBfloat16,
                           DataType::kInt8, DataType::kInt16, DataType::kInt32, DataType::kInt64,
                           DataType::kUint8, DataType::kUint16, DataType::kUint32, DataType::kUint64,
                           DataType::kBool, DataType::kString, DataType::kComplex64, DataType::kComplex128>;

namespace detail {
template <DataType First, DataType... Rest>
constexpr DataType first_of() { return First; }

template <DataType... Ds, typename F>
decltype(auto) dispatch_impl(TypeList<Ds...>, DataType dtype, const KernelContext& ctx, F&& f) {
  using R = decltype(f.template operator()<typename CppType<first_of<Ds...>()>::type>());
  if constexpr (std::is_void_v<R>) {
    bool done = ((dtype == Ds ? (f.template operator()<typename CppType<Ds>::type>(), true) : false) || ...);
    if (!done) ctx.fail(std::string("element type ") + std::string(ir::data_type_name(dtype)) + " is not supported");
  } else {
    R result{};
    bool done = ((dtype == Ds ? (result = f.template operator()<typename CppType<Ds>::type>(), true) : false) || ...);
    if (!done) ctx.fail(std::string("element type ") + std::string(ir::data_type_name(dtype)) + " is not supported");
    return result;
  }
}
}  // namespace detail

/// Calls `f.template operator()<T>()` with the C++ type of `dtype`, which must
/// be in `List`; otherwise fails the kernel with a message naming the type.
template <typename List, typename F>
decltype(auto) dispatch(DataType dtype, const KernelContext& ctx, F&& f) {
  return detail::dispatch_impl(List{}, dtype, ctx, std::forward<F>(f));
}

}  // namespace onnxscript::eval
