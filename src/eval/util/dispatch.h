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
#include "onnxscript/ir/element_types.h"

namespace onnxscript::eval {

using ir::CppType;
using ir::data_type_of;

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
