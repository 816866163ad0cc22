#pragma once
// Shared by the kernel tests: reading a tensor output's elements.
#include <gtest/gtest.h>

#include <vector>

#include "onnxscript/eval/runtime_value.h"
#include "onnxscript/ir/element_types.h"

namespace onnxscript::eval::test_util {

/// The elements of tensor value `v`, which must hold T (a test failure
/// otherwise).
template <typename T>
std::vector<T> values(const RuntimeValue& v) {
  const Tensor& t = v.tensor();
  EXPECT_EQ(t.dtype(), ir::data_type_of<T>());
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
}

}  // namespace onnxscript::eval::test_util
