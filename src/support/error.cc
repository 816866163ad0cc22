#include "onnxscript/support/error.h"

#include <cstdio>
#include <cstdlib>

namespace onnxscript::detail {

void check_failed(const char* condition, const std::string& message, std::source_location where) {
  std::fprintf(stderr, "onnxscript internal error: %s:%u: check `%s` failed%s%s\n",
               where.file_name(), static_cast<unsigned>(where.line()), condition,
               message.empty() ? "" : ": ", message.c_str());
  std::abort();
}

}  // namespace onnxscript::detail
