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

#include "onnxscript/script/value.h"

namespace onnxscript {

/// Add.
Value operator+(Value a, Value b);
/// Sub.
Value operator-(Value a, Value b);
/// Mul.
Value operator*(Value a, Value b);
/// Div.
Value operator/(Value a, Value b);
/// Mod; fmod = 1 when either side is floating point.
Value operator%(Value a, Value b);
/// Neg.
Value operator-(Value a);
/// Less.
Value operator<(Value a, Value b);
/// LessOrEqual.
Value operator<=(Value a, Value b);
/// Greater.
Value operator>(Value a, Value b);
/// GreaterOrEqual.
Value operator>=(Value a, Value b);
/// And (bool tensors).
Value operator&(Value a, Value b);
/// Or (bool tensors).
Value operator|(Value a, Value b);
/// Xor (bool tensors).
Value operator^(Value a, Value b);
/// Not (bool tensors).
Value operator!(Value a);
/// Not (bool tensors); bitwise NOT of integers needs opset 18 (BitwiseNot).
Value operator~(Value a);

/// Equal, elementwise (see the file comment for why this is not `==`).
Value equal(Value a, Value b);
/// Not(Equal(a, b)).
Value not_equal(Value a, Value b);

}  // namespace onnxscript
