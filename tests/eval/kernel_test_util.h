#pragma once
// Shared by the kernel tests: reading a tensor output's elements, and the
// message of a kernel error.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "error_message.h"
#include "onnxscript/eval/eager.h"
#include "onnxscript/eval/kernel.h"
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

/// Runs one operator eagerly (run_op) on a list of inputs.
inline std::vector<RuntimeValue> run(std::string_view op, std::vector<RuntimeValue> inputs,
                                     std::vector<ir::Attribute> attrs = {}, size_t outputs = 1,
                                     int64_t version = 17, std::string_view domain = "") {
  return run_op(op, inputs, attrs, outputs, version, domain);
}

/// The message of the KernelError that running `f` throws (a test failure
/// and "" if none).
template <typename F>
std::string error_of(F&& f) {
  return testing::message_of<KernelError>(std::forward<F>(f));
}

}  // namespace onnxscript::eval::test_util
