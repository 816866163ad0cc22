// Eager values own their data: an eager loop written straight in main, with
// no Function call or scope around it, runs in constant memory, because each
// result is released when the last Value referring to it goes. Here, because
// AddressSanitizer keeps freed memory in quarantine and would blur the count.

#include <gtest/gtest.h>
#include <malloc.h>

#include <vector>

#include "onnxscript/onnxscript.h"

namespace onnxscript {
namespace {

namespace op = opset17;

// Bytes the C heap has handed out and not yet been given back.
size_t heap_in_use() {
  const struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

TEST(EagerMemory, AMillionOperatorCallsRunInConstantMemory) {
  Value v = Tensor::from<float>({1, 2, 3, 4});
  const Value w = Tensor::from<float>({0.5f, 0.25f, 0.125f, 2});
  const auto step = [&](int i) {
    switch (i % 4) {
      case 0:
        v = op::Add(v, w);
        break;
      case 1:
        v = op::Relu(v);
        break;
      case 2:
        v = op::Sub(v, w);
        break;
      default:
        v = v * 1.0f;  // a literal, materialized per call
        break;
    }
  };
  for (int i = 0; i < 1000; ++i) step(i);  // warms the kernel caches
  const size_t before = heap_in_use();
  constexpr int kCalls = 1'000'000;
  for (int i = 0; i < kCalls; ++i) step(i);
  const size_t after = heap_in_use();
  // Each result held until the end would take well over 64 bytes (a tensor
  // and its storage): 64 MB for the loop. Allow 1 MiB of noise.
  EXPECT_LT(after, before + (size_t{1} << 20))
      << kCalls << " eager calls grew the heap from " << before << " to " << after << " bytes";
  const std::vector<float> expected = {1, 2, 3, 4};
  EXPECT_EQ(std::vector<float>(v.tensor().data<float>(), v.tensor().data<float>() + 4), expected);
}

}  // namespace
}  // namespace onnxscript
