// Whole models in the project's Session: load time and the median run time.
// bench/models.sh runs it against ONNX Runtime (bench/session_models_ort.mjs)
// on the models bench/models.py makes.
//
//   session_models DIR THREADS [NAME...]
//
// For each model (DIR/models.txt, or the names given), prints one line:
// "<name> <load+prepare ms> <median run ms> <runs>", where load+prepare is
// Session::load (parsing the file and planning). A run feeds
// DIR/<name>.input.npy to the model's first input. One warm-up run, then runs
// until a second has passed and at least three were made. The first output
// of the last run is written to DIR/<name>.ours.npy, for the peer to compare.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "onnxscript/eval/session.h"
#include "onnxscript/eval/tensor_io.h"

using namespace onnxscript;
using Clock = std::chrono::steady_clock;

namespace {

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  const size_t m = xs.size() / 2;
  return xs.size() % 2 ? xs[m] : (xs[m - 1] + xs[m]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || std::string(argv[1]) == "--help") {
    std::fprintf(stderr, "usage: session_models DIR THREADS [NAME...]\n");
    return argc < 3 ? 2 : 0;
  }
  const std::string dir = argv[1];
  eval::SessionOptions options;
  options.intra_op_threads = std::atoi(argv[2]);
  std::vector<std::string> names(argv + 3, argv + argc);
  if (names.empty()) {
    std::ifstream listing(dir + "/models.txt");
    for (std::string line; std::getline(listing, line);)
      if (!line.empty()) names.push_back(line);
  }
  try {
    for (const std::string& name : names) {
      const auto start = Clock::now();
      const eval::Session session = eval::Session::load(dir + "/" + name + ".onnx", options);
      const double load_ms = ms_since(start);
      const eval::RuntimeValue input = eval::load_npy(dir + "/" + name + ".input.npy");
      std::vector<eval::RuntimeValue> outputs = session.run({input});  // warm-up
      std::vector<double> times;
      const auto begin = Clock::now();
      while (times.size() < 3 || ms_since(begin) < 1000) {
        const auto t0 = Clock::now();
        outputs = session.run({input});
        times.push_back(ms_since(t0));
      }
      eval::save_npy(outputs.at(0).tensor(), dir + "/" + name + ".ours.npy");
      std::printf("%s %.2f %.3f %zu\n", name.c_str(), load_ms, median(times), times.size());
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "session_models: %s\n", e.what());
    return 1;
  }
  return 0;
}
