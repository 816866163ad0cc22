#pragma once
// Golden text tests: compare text that the code under test produces with a
// checked-in file under tests/data/golden/. Run with ONNXSCRIPT_UPDATE_GOLDEN=1
// (scripts/update-golden.sh does) to rewrite the files instead; review the
// diff before committing it.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace onnxscript::testing {

/// Expects `actual` to equal tests/data/golden/<name>.txt.
inline void expect_golden(std::string_view name, const std::string& actual) {
  const std::filesystem::path path =
      std::filesystem::path(ONNXSCRIPT_TEST_DATA_DIR) / "golden" / (std::string(name) + ".txt");
  if (const char* update = std::getenv("ONNXSCRIPT_UPDATE_GOLDEN");
      update && std::string_view(update) == "1") {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "no golden file " << path << "; run scripts/update-golden.sh to create it";
  std::stringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(expected.str(), actual) << "golden text differs from " << path
                                    << " (scripts/update-golden.sh rewrites it; review the diff)";
}

}  // namespace onnxscript::testing
