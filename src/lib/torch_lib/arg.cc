#include "onnxscript/torch_lib/arg.h"

#include <fmt/format.h>

namespace onnxscript::torch_lib {

std::string Arg::describe() const {
  struct Describe {
    std::string operator()(std::monostate) const { return "None"; }
    std::string operator()(const Value& v) const { return "Tensor " + v.describe(); }
    std::string operator()(const std::vector<Value>& vs) const {
      return fmt::format("Tensor[] of {}", vs.size());
    }
    std::string operator()(int64_t i) const { return fmt::format("int {}", i); }
    std::string operator()(double d) const { return fmt::format("float {}", d); }
    std::string operator()(bool b) const { return b ? "bool True" : "bool False"; }
    std::string operator()(const std::vector<int64_t>& is) const {
      return fmt::format("int[] [{}]", fmt::join(is, ", "));
    }
    std::string operator()(const std::vector<double>& ds) const {
      return fmt::format("float[] [{}]", fmt::join(ds, ", "));
    }
    std::string operator()(const std::string& s) const { return fmt::format("str '{}'", s); }
  };
  return std::visit(Describe{}, storage_);
}

}  // namespace onnxscript::torch_lib
