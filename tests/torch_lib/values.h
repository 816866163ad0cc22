#pragma once
// Helpers of the torchlib tests of the newer families: small tensors, their
// elements, and comparisons with a tolerance. The expected values in those
// tests come from PyTorch 1.13 (the Python line is in a comment beside each)
// or from hand arithmetic, never from the functions under test.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "onnxscript/onnxscript.h"

namespace onnxscript::torch_lib::testing {

/// A float32 tensor (1-D unless a shape is given).
inline Tensor f32(std::initializer_list<float> v, std::vector<int64_t> shape = {-1}) {
  return Tensor::from<float>(v, std::move(shape));
}
/// An int64 tensor.
inline Tensor i64(std::initializer_list<int64_t> v, std::vector<int64_t> shape = {-1}) {
  return Tensor::from<int64_t>(v, std::move(shape));
}
/// A bool tensor.
inline Tensor b8(std::initializer_list<bool> v, std::vector<int64_t> shape = {-1}) {
  return Tensor::from<bool>(v, std::move(shape));
}

/// The elements of a concrete value, checking their type.
template <typename T>
std::vector<T> elements(const Value& v) {
  const Tensor& t = v.tensor();
  EXPECT_EQ(t.dtype(), ir::data_type_of<T>());
  if (t.dtype() != ir::data_type_of<T>()) return {};
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
}

/// The dimensions of a concrete value.
inline std::vector<int64_t> dims(const Value& v) {
  const auto& shape = v.tensor().shape();
  return std::vector<int64_t>(shape.begin(), shape.end());
}

/// Float32 elements within 1e-5 absolute plus 1e-5 relative of `expected`
/// (NaN matches NaN, infinities match exactly).
inline void expect_close(const Value& v, const std::vector<float>& expected) {
  const std::vector<float> actual = elements<float>(v);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(actual[i])) << i;
    } else if (std::isinf(expected[i])) {
      EXPECT_EQ(actual[i], expected[i]) << i;
    } else {
      EXPECT_NEAR(actual[i], expected[i], 1e-5f + 1e-5f * std::fabs(expected[i])) << i;
    }
  }
}

}  // namespace onnxscript::torch_lib::testing
