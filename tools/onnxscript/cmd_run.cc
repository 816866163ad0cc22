// `onnxscript run MODEL [--input NAME=FILE ...] [--output-dir DIR] [--threads N]
// [--no-optimize] [--show-plan]`: runs a
// model once on inputs read from .npy or .pb files and prints (and
// optionally writes) its outputs.
#include <chrono>
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "commands.h"
#include "onnxscript/eval/session.h"
#include "onnxscript/eval/tensor_io.h"

namespace onnxscript::cli {
namespace {

// A file name for an output: the value name with characters that do not
// belong in file names replaced.
std::string file_stem(const std::string& name, size_t index) {
  if (name.empty()) return fmt::format("output_{}", index);
  std::string s = name;
  for (char& c : s)
    if (c == '/' || c == '\\' || c == ':' || c == '\0') c = '_';
  if (s == "." || s == "..") s = fmt::format("output_{}", index);
  return s;
}

}  // namespace

int run_command(const RunOptions& opts) {
  auto shared = std::make_shared<const ir::Model>(load_model_file(opts.model));
  eval::SessionOptions session_options;
  session_options.intra_op_threads = opts.threads;
  session_options.optimize = !opts.no_optimize;
  eval::Session session(shared, session_options);
  if (opts.show_plan) {
    std::map<std::string, int> counts;
    const std::vector<std::string> ops = session.planned_operators();
    for (const std::string& op : ops) ++counts[op];
    std::cout << "plan: " << ops.size() << " steps for " << shared->graph().num_nodes()
              << " nodes\n";
    for (const auto& [op, count] : counts) std::cout << "  " << op << " x " << count << '\n';
    std::cout << '\n';
  }
  const auto graph_inputs = shared->graph().inputs();
  std::map<std::string, eval::RuntimeValue, std::less<>> feed;
  size_t next_positional = 0;
  for (const std::string& spec : opts.inputs) {
    const size_t eq = spec.find('=');
    std::string name;
    std::filesystem::path file;
    if (eq == std::string::npos) {
      // A bare file binds to the next graph input without an initializer.
      while (next_positional < graph_inputs.size() && graph_inputs[next_positional]->const_value())
        ++next_positional;
      if (next_positional >= graph_inputs.size())
        throw Error(fmt::format("--input {}: the model has no more inputs to bind", spec));
      name = graph_inputs[next_positional++]->name();
      file = spec;
    } else {
      name = spec.substr(0, eq);
      file = spec.substr(eq + 1);
    }
    const ir::Value* declared = nullptr;
    for (const ir::Value* v : graph_inputs)
      if (v->name() == name) declared = v;
    if (!declared)
      throw Error(fmt::format("--input {}: the model has no input named '{}'", spec, name));
    feed[name] = file.extension() == ".npy"
                     ? eval::RuntimeValue(eval::load_npy(file))
                     : eval::load_value_pb(file, eval::proto_kind_hint(declared->type()));
  }
  const auto start = std::chrono::steady_clock::now();
  std::vector<eval::RuntimeValue> outputs = session.run(feed);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const auto names = session.output_names();
  if (!opts.output_dir.empty()) std::filesystem::create_directories(opts.output_dir);
  for (size_t i = 0; i < outputs.size(); ++i) {
    const eval::RuntimeValue& v = outputs[i];
    if (!opts.quiet)
      std::cout << names[i] << ": " << v.describe() << '\n' << eval::to_string(v) << "\n\n";
    if (opts.output_dir.empty() || v.is_none()) continue;
    const std::string stem = file_stem(names[i], i);
    bool npy = v.is_tensor();
    if (npy) {
      try {
        eval::save_npy(v.tensor(), opts.output_dir / (stem + ".npy"));
      } catch (const TypeError&) {
        npy = false;  // no numpy dtype (bfloat16, float8, 4-bit): fall back to TensorProto
      }
    }
    if (!npy) eval::save_value_pb(v, opts.output_dir / (stem + ".pb"), names[i]);
  }
  std::cout << fmt::format(
      "ran {} in {:.3f} ms: {} output(s){}\n", opts.model.filename().string(), ms, outputs.size(),
      opts.output_dir.empty() ? "" : fmt::format(", written to {}", opts.output_dir.string()));
  return 0;
}

}  // namespace onnxscript::cli
