#pragma once
// What the check tests share: reading a checker's error list.

#include <algorithm>
#include <string>
#include <vector>

namespace onnxscript::check_test {

/// The errors one per indented line, for failure messages.
inline std::string joined(const std::vector<std::string>& errors) {
  std::string out;
  for (const std::string& e : errors) out += "\n  " + e;
  return out;
}

/// True when some error contains `fragment`.
inline bool any_contains(const std::vector<std::string>& errors, const std::string& fragment) {
  return std::any_of(errors.begin(), errors.end(),
                     [&](const std::string& e) { return e.find(fragment) != std::string::npos; });
}

}  // namespace onnxscript::check_test
