#pragma once
// Helpers shared by the wire-format tests: scratch directories, file bytes,
// proto comparison with a readable report.

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

namespace onnxscript::serde::testing {

// A fresh directory under the system temp dir, removed with its contents.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() /
            ("onnxscript_serde_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) +
             "_" + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

inline std::string read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_bytes(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// Names of the entries of a directory, sorted.
inline std::vector<std::string> list_dir(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// MessageDifferencer::Equals, unknown fields included, with the differences
// spelled out when they differ.
inline ::testing::AssertionResult ProtoEquals(const google::protobuf::Message& expected,
                                              const google::protobuf::Message& actual) {
  if (google::protobuf::util::MessageDifferencer::Equals(expected, actual))
    return ::testing::AssertionSuccess();
  google::protobuf::util::MessageDifferencer diff;
  std::string report;
  diff.ReportDifferencesToString(&report);
  diff.Compare(expected, actual);
  if (report.size() > 4000) report = report.substr(0, 4000) + "...";
  return ::testing::AssertionFailure() << "protos differ:\n" << report;
}

}  // namespace onnxscript::serde::testing
