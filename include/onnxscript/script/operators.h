#pragma once
/// \file
/// C++ operators on Values, as ONNX Script maps Python's: `+ - * /` are Add,
/// Sub, Mul, Div; `%` is Mod (fmod for floats); unary `-` is Neg; `< <= > >=`
/// are the comparisons; `& | ^` and `!`/`~` are And, Or, Xor and Not on bools.
/// A C++ number beside a Value becomes a constant of the Value's element type.
///
/// `==` and `!=` are deliberately not overloaded: a Value that compared
/// elementwise would no longer be a regular type (containers, algorithms and
/// `assert(a == b)` all expect a bool), and a silent identity comparison of
/// traced handles would be worse. Use equal() and not_equal().
///
/// Operators cannot take a defaulted std::source_location, so binary operands
/// arrive as detail::Operand, whose converting constructor's default argument
/// is evaluated on the user's line: nodes and errors then name that line.

#include <source_location>
#include <type_traits>

#include "onnxscript/script/value.h"

namespace onnxscript {

namespace detail {
/// An operand of a C++ operator on values: the value, and the line where the
/// operator is used (a conversion's default argument is evaluated there).
struct Operand {
  /// Anything that converts to a Value.
  template <typename T>
  requires std::is_convertible_v<const T&, Value> Operand(  // NOLINT: operands convert
      const T& v, std::source_location where = std::source_location::current())
      : value(static_cast<Value>(v)), location(where) {}
  Value value;                    ///< The operand.
  std::source_location location;  ///< The user's line.
};
}  // namespace detail

/// Add.
Value operator+(detail::Operand a, detail::Operand b);
/// Sub.
Value operator-(detail::Operand a, detail::Operand b);
/// Mul.
Value operator*(detail::Operand a, detail::Operand b);
/// Div.
Value operator/(detail::Operand a, detail::Operand b);
/// Mod; fmod = 1 when either side is floating point.
Value operator%(detail::Operand a, detail::Operand b);
/// Neg.
Value operator-(detail::Operand a);
/// Less.
Value operator<(detail::Operand a, detail::Operand b);
/// LessOrEqual.
Value operator<=(detail::Operand a, detail::Operand b);
/// Greater.
Value operator>(detail::Operand a, detail::Operand b);
/// GreaterOrEqual.
Value operator>=(detail::Operand a, detail::Operand b);
/// And (bool tensors).
Value operator&(detail::Operand a, detail::Operand b);
/// Or (bool tensors).
Value operator|(detail::Operand a, detail::Operand b);
/// Xor (bool tensors).
Value operator^(detail::Operand a, detail::Operand b);
/// Not (bool tensors). (Takes a plain Value: an Operand would make `!x`
/// ambiguous with the built-in `!` through Value's explicit bool conversion.)
Value operator!(Value a);
/// Not (bool tensors); bitwise NOT of integers needs opset 18 (BitwiseNot).
Value operator~(detail::Operand a);

/// Equal, elementwise (see the file comment for why this is not `==`).
Value equal(Value a, Value b, std::source_location location = std::source_location::current());
/// Not(Equal(a, b)).
Value not_equal(Value a, Value b, std::source_location location = std::source_location::current());

}  // namespace onnxscript
