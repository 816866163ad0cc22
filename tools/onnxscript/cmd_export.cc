// `onnxscript export ...`: runs `onnxscript-export` from the folder this
// program is in, with the same arguments. The exporter links LibTorch (about
// 1 s and 165 MB of start-up, 640 MB of packages); keeping it in a program
// of its own lets `onnxscript` build and run without it.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "commands.h"

namespace onnxscript::cli {

namespace {

// This program's own file, for the folder the exporter is in.
std::filesystem::path own_path(const char* argv0) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) return self;
  return std::filesystem::absolute(argv0, ec);
}

}  // namespace

int export_command(int argc, char** argv) {
  const std::filesystem::path exporter = own_path(argv[0]).parent_path() / "onnxscript-export";
  if (::access(exporter.c_str(), X_OK) != 0) {
    std::cerr << fmt::format(
        "onnxscript: error: this build has no PyTorch exporter ({} is missing). Configure with "
        "-DONNXSCRIPT_WITH_TORCH=ON (it needs LibTorch: Debian's libtorch-dev, which "
        "scripts/install-deps.sh installs) and build the onnxscript_export_cli target; see "
        "docs/exporter.md\n",
        exporter.string());
    return 2;
  }
  std::vector<char*> args;
  std::string name = "onnxscript-export";
  args.push_back(name.data());
  for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  ::execv(exporter.c_str(), args.data());
  std::cerr << fmt::format("onnxscript: error: cannot run {}: {}\n", exporter.string(),
                           std::strerror(errno));
  return 2;
}

}  // namespace onnxscript::cli
