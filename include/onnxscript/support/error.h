#pragma once
/// \file
/// The one exception hierarchy of the project. Every error a user can cause
/// (bad files, bad graphs, misuse of the API) is an `onnxscript::Error`.
/// Broken internal invariants use ONNXSCRIPT_CHECK instead.

#include <source_location>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace onnxscript {

/// Base of all errors thrown by the library. The message is complete: it names
/// the object concerned (file, node, operator) and the rule broken.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Bytes or text that cannot be decoded: truncated files, garbage, syntax errors.
class ParseError : public Error {
 public:
  using Error::Error;
};

/// A structurally invalid model: cycles, dangling references, bad dimensions,
/// attributes of the wrong kind.
class ValidationError : public Error {
 public:
  using Error::Error;
};

/// Reading or writing a file failed, or a path is not allowed.
class IoError : public Error {
 public:
  using Error::Error;
};

/// Element types or shapes that do not fit an operation.
class TypeError : public Error {
 public:
  using Error::Error;
};

/// A feature that is known and not implemented yet.
class NotImplementedError : public Error {
 public:
  using Error::Error;
};

namespace detail {
[[noreturn]] void check_failed(const char* condition, const std::string& message,
                               std::source_location where);
}  // namespace detail

}  // namespace onnxscript

/// Checks an internal invariant; a failure is a library bug, reported with its
/// location and then aborts. Not for user errors: throw an Error for those.
#define ONNXSCRIPT_CHECK(condition, ...)                                          \
  do {                                                                            \
    if (!(condition)) [[unlikely]]                                                \
      ::onnxscript::detail::check_failed(#condition, ::fmt::format("" __VA_ARGS__), \
                                         std::source_location::current());       \
  } while (0)
