#include "ort_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <string_view>
#include <system_error>
#include <thread>

#include "onnxscript/eval/tensor_io.h"
#include "onnxscript/ir/model.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/support/error.h"
#include "onnxscript/support/file_io.h"

extern char** environ;

#ifndef ONNXSCRIPT_NODE_EXECUTABLE
#define ONNXSCRIPT_NODE_EXECUTABLE ""
#endif
#ifndef ONNXSCRIPT_ORT_RUN_SCRIPT
#error "ONNXSCRIPT_ORT_RUN_SCRIPT must be the absolute path of tests/interop/ort_run.mjs"
#endif

namespace onnxscript::testing {
namespace {

namespace fs = std::filesystem;

// How long one ONNX Runtime run may take before it is killed.
constexpr auto kTimeout = std::chrono::seconds(300);

const char* const kInstallHint =
    "run scripts/install-deps.sh (it runs `npm ci --ignore-scripts` in tests/interop)";

bool is_executable(const fs::path& p) {
  std::error_code ec;
  return !p.empty() && fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// The node binary: the one CMake found, else the first `node` on PATH.
fs::path node_executable() {
  const fs::path configured = ONNXSCRIPT_NODE_EXECUTABLE;
  if (is_executable(configured)) return configured;
  if (const char* path = std::getenv("PATH")) {
    std::string_view rest = path;
    while (true) {
      const size_t colon = rest.find(':');
      const std::string_view dir = rest.substr(0, colon);
      if (!dir.empty() && is_executable(fs::path(dir) / "node")) return fs::path(dir) / "node";
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
  }
  return {};
}

fs::path script_path() { return ONNXSCRIPT_ORT_RUN_SCRIPT; }

fs::path ort_package_dir() {
  return script_path().parent_path() / "node_modules" / "onnxruntime-node";
}

// A fresh directory under the system temp dir, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "onnxscript-ort-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
      throw IoError(
          fmt::format("cannot create a temporary directory {}: {}", pattern, std::strerror(errno)));
    path_ = pattern;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

struct ProcessResult {
  int exit_code = 0;  // or 128 + signal
  std::string out, err;
};

// Runs `args` (args[0] an absolute path) with stdout and stderr captured in
// files under `dir`; kills it after kTimeout.
ProcessResult run_process(const std::vector<std::string>& args, const fs::path& dir) {
  const std::string out_file = (dir / "node.stdout").string();
  const std::string err_file = (dir / "node.stderr").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw Error(fmt::format("cannot start {}: {}", args[0], std::strerror(rc)));

  const auto deadline = std::chrono::steady_clock::now() + kTimeout;
  int status = 0;
  bool timed_out = false;
  while (true) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR)
      throw Error(fmt::format("waitpid failed: {}", std::strerror(errno)));
    if (!timed_out && std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      timed_out = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ProcessResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::error_code ec;
  if (fs::exists(out_file, ec)) result.out = read_file(out_file);
  if (fs::exists(err_file, ec)) result.err = read_file(err_file);
  if (timed_out)
    throw Error(fmt::format("ONNX Runtime did not finish within {} s and was killed: {}",
                            kTimeout.count(), result.err));
  return result;
}

void require_onnxruntime() {
  if (!onnxruntime_available()) throw Error(onnxruntime_unavailable_reason());
}

// The message of a failed run: ort_run.mjs's exit code and stderr.
std::string failure_message(const fs::path& model_path, int exit_code, std::string message) {
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  return fmt::format("ONNX Runtime failed on {} (exit code {}{}): {}", model_path.string(),
                     exit_code, exit_code == 3 ? ", non-tensor values are not supported" : "",
                     message.empty() ? "no message" : message);
}

// Saves `inputs` as dir/input_<i>.npy; returns the file names.
std::vector<std::string> save_inputs(const std::vector<ir::Tensor>& inputs, const fs::path& dir) {
  std::vector<std::string> files;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const fs::path file = dir / fmt::format("input_{}.npy", i);
    eval::save_npy(inputs[i], file);
    files.push_back(file.string());
  }
  return files;
}

// The outputs ort_run.mjs wrote into `out`, in order.
std::vector<eval::RuntimeValue> read_outputs(const fs::path& out) {
  std::vector<eval::RuntimeValue> outputs;
  for (size_t i = 0;; ++i) {
    const fs::path npy = out / fmt::format("output_{}.npy", i);
    const fs::path seq = out / fmt::format("output_{}.seq", i);
    if (fs::exists(npy)) {
      outputs.emplace_back(eval::load_npy(npy));
    } else if (fs::exists(seq)) {
      const std::string text = read_file(seq);
      size_t count = 0;
      try {
        count = std::stoul(text);
      } catch (const std::exception&) {
        throw ParseError(fmt::format("{}: not a count: '{}'", seq.string(), text));
      }
      std::vector<eval::RuntimeValue> items;
      for (size_t j = 0; j < count; ++j)
        items.emplace_back(eval::load_npy(out / fmt::format("output_{}_{}.npy", i, j)));
      ir::Type elem = items.empty() ? ir::Type{} : items.front().type();
      outputs.push_back(eval::RuntimeValue::sequence(std::move(elem), std::move(items)));
    } else {
      break;
    }
  }
  return outputs;
}

std::vector<eval::RuntimeValue> run_saved(const fs::path& model_path,
                                          const std::vector<ir::Tensor>& inputs,
                                          const TempDir& dir) {
  std::vector<std::string> args{node_executable().string(), script_path().string(),
                                model_path.string(), (dir.path() / "out").string()};
  for (std::string& file : save_inputs(inputs, dir.path())) args.push_back(std::move(file));
  const ProcessResult result = run_process(args, dir.path());
  if (result.exit_code != 0) throw Error(failure_message(model_path, result.exit_code, result.err));
  return read_outputs(dir.path() / "out");
}

}  // namespace

bool onnxruntime_available() { return onnxruntime_unavailable_reason().empty(); }

std::string onnxruntime_unavailable_reason() {
  if (node_executable().empty())
    return fmt::format("ONNX Runtime is not installed: Node.js (node) was not found; {}",
                       kInstallHint);
  std::error_code ec;
  if (!fs::exists(ort_package_dir() / "package.json", ec))
    return fmt::format("ONNX Runtime is not installed: {} is missing; {}",
                       ort_package_dir().string(), kInstallHint);
  return {};
}

std::vector<eval::RuntimeValue> run_in_onnxruntime(const ir::Model& model,
                                                   const std::vector<ir::Tensor>& inputs) {
  require_onnxruntime();
  TempDir dir;
  const fs::path model_path = dir.path() / "model.onnx";
  serde::save_model(model, model_path);
  return run_saved(model_path, inputs, dir);
}

std::vector<eval::RuntimeValue> run_in_onnxruntime(const fs::path& model_path,
                                                   const std::vector<ir::Tensor>& inputs) {
  require_onnxruntime();
  TempDir dir;
  return run_saved(fs::absolute(model_path), inputs, dir);
}

std::vector<OnnxRuntimeOutcome> run_many_in_onnxruntime(const std::vector<OnnxRuntimeJob>& jobs) {
  require_onnxruntime();
  TempDir dir;
  std::string list;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const fs::path job_dir = dir.path() / fmt::format("job{}", i);
    fs::create_directories(job_dir);
    const fs::path model_path = job_dir / "model.onnx";
    serde::save_model(*jobs[i].model, model_path);
    list += model_path.string() + "\t" + (job_dir / "out").string();
    for (const std::string& file : save_inputs(jobs[i].inputs, job_dir)) list += "\t" + file;
    list += "\n";
  }
  const fs::path list_file = dir.path() / "jobs.txt";
  {
    std::ofstream out(list_file);
    out << list;
    if (!out) throw IoError(fmt::format("cannot write {}", list_file.string()));
  }
  const ProcessResult result = run_process(
      {node_executable().string(), script_path().string(), "--batch", list_file.string()},
      dir.path());
  if (result.exit_code != 0)
    throw Error(fmt::format("ONNX Runtime's batch failed (exit code {}): {}", result.exit_code,
                            result.err));
  std::vector<OnnxRuntimeOutcome> outcomes(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    const fs::path job_dir = dir.path() / fmt::format("job{}", i);
    const fs::path error_file = job_dir / "out" / "error.txt";
    if (fs::exists(error_file)) {
      const std::string text = read_file(error_file);
      const size_t space = text.find(' ');
      int code = 1;
      try {
        code = std::stoi(text.substr(0, space));
      } catch (const std::exception&) {
      }
      outcomes[i].error = failure_message(
          job_dir / "model.onnx", code, space == std::string::npos ? text : text.substr(space + 1));
    } else {
      outcomes[i].outputs = read_outputs(job_dir / "out");
    }
  }
  return outcomes;
}

std::string onnxruntime_version() {
  require_onnxruntime();
  TempDir dir;
  const ProcessResult result =
      run_process({node_executable().string(), script_path().string(), "--version"}, dir.path());
  const std::string_view prefix = "onnxruntime-node ";
  if (result.exit_code != 0 || !result.out.starts_with(prefix))
    throw Error(
        fmt::format("cannot tell the onnxruntime-node version: {}{}", result.out, result.err));
  std::string version = result.out.substr(prefix.size());
  while (!version.empty() && (version.back() == '\n' || version.back() == '\r')) version.pop_back();
  return version;
}

}  // namespace onnxscript::testing
