#include "onnxscript/support/file_io.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "onnxscript/support/error.h"

namespace onnxscript {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("onnxscript_file_io_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

size_t count_entries(const fs::path& dir) {
  return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(FileIo, WritesAndReadsBack) {
  fs::path dir = fresh_dir("roundtrip");
  write_file_atomically(dir / "a.bin", std::string_view("hello\0world", 11));
  EXPECT_EQ(read_file(dir / "a.bin"), std::string("hello\0world", 11));
  EXPECT_EQ(count_entries(dir), 1u);
}

TEST(FileIo, AFailedWriteKeepsTheOldFileAndLeavesNoTemporary) {
  fs::path dir = fresh_dir("failure");
  write_file_atomically(dir / "a.txt", "old contents");
  EXPECT_THROW(write_file_atomically(dir / "a.txt",
                                     [&](std::FILE* out) {
                                       write_all(out, "partial", dir / "a.txt");
                                       throw Error("serialization failed half way");
                                     }),
               Error);
  EXPECT_EQ(read_file(dir / "a.txt"), "old contents");
  EXPECT_EQ(count_entries(dir), 1u);
}

TEST(FileIo, MissingDirectoryIsAnIoErrorNamingThePath) {
  fs::path target = fresh_dir("missing") / "no" / "such" / "dir" / "a.txt";
  try {
    write_file_atomically(target, "x");
    FAIL();
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find(target.string()), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_file(target), IoError);
}

}  // namespace
}  // namespace onnxscript
