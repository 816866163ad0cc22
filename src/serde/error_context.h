#pragma once
// Where the reader or writer is, for error messages: the source (file name)
// and the path of objects down to the one at fault, e.g.
//   model.onnx: graph 'main' / node 'conv1' (Conv) / attribute 'value': ...
// Frames hold string_views into protos or IR objects that outlive them, so
// tracking costs no allocation on the happy path.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "onnxscript/support/error.h"

namespace onnxscript::serde::detail {

class ErrorContext {
 public:
  explicit ErrorContext(std::string source) : source_(std::move(source)) {}
  ErrorContext(const ErrorContext&) = delete;
  ErrorContext& operator=(const ErrorContext&) = delete;

  // The file or source name.
  const std::string& source() const { return source_; }

  // Pushes a frame for its lifetime. `index` names unnamed objects ("node #3").
  class Frame {
   public:
    Frame(ErrorContext& ctx, std::string_view kind, std::string_view name,
          std::string_view detail = {}, int64_t index = -1)
        : ctx_(ctx) {
      ctx_.frames_.push_back({kind, name, detail, index});
    }
    ~Frame() { ctx_.frames_.pop_back(); }
    Frame(const Frame&) = delete;
    Frame& operator=(const Frame&) = delete;

   private:
    ErrorContext& ctx_;
  };

  // "source: frame / frame: problem".
  std::string describe(std::string_view problem) const {
    std::string out = source_;
    for (size_t i = 0; i < frames_.size(); ++i) {
      const Entry& e = frames_[i];
      out += i == 0 ? ": " : " / ";
      out += e.kind;
      if (!e.name.empty()) {
        out += " '";
        out += e.name;
        out += "'";
      } else if (e.index >= 0) {
        out += " #" + std::to_string(e.index);
      }
      if (!e.detail.empty()) {
        out += " (";
        out += e.detail;
        out += ")";
      }
    }
    out += ": ";
    out += problem;
    return out;
  }

  // Throws E with the described problem.
  template <typename E = ValidationError>
  [[noreturn]] void fail(std::string_view problem) const {
    throw E(describe(problem));
  }

 private:
  struct Entry {
    std::string_view kind, name, detail;
    int64_t index;
  };
  std::string source_;
  std::vector<Entry> frames_;
};

}  // namespace onnxscript::serde::detail
