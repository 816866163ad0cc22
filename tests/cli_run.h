#pragma once
// Runs the `onnxscript` command-line tool (ONNXSCRIPT_CLI, the path the test
// build defines), or any command, in a shell and captures what it prints.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace onnxscript::testing {

/// What one run of the tool did.
struct CliRun {
  int status;          ///< the exit status
  std::string output;  ///< stdout and stderr together
};

/// Runs `command` in a shell, stderr folded into stdout.
inline CliRun run_shell(const std::string& command) {
  std::FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  EXPECT_NE(pipe, nullptr);
  if (!pipe) return {-1, ""};
  std::string output;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  return {WEXITSTATUS(status), output};
}

/// Runs `onnxscript ARGS` (ARGS as a shell would split them).
inline CliRun run_cli(const std::string& args) {
  return run_shell(std::string(ONNXSCRIPT_CLI) + " " + args);
}

}  // namespace onnxscript::testing
