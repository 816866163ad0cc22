#pragma once
// The message of an expected exception, for tests that check what an error
// says, not only that there was one.

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace onnxscript::testing {

/// Calls `f` and returns the message of the `E` it throws. When it throws
/// nothing, records a test failure and returns "". Other exceptions
/// propagate, which fails the test with their message.
template <typename E, typename F>
std::string message_of(F&& f) {
  try {
    std::forward<F>(f)();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an exception, and none was thrown";
  return "";
}

}  // namespace onnxscript::testing
