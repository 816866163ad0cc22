// Peak memory of one export, against the weights it holds. Run once per
// model in a fresh process (the peak is the process's): it reads the
// resident set before loading the module, loads it (LibTorch materialises
// every weight: the 1x that any export starts from), exports it, saves the
// model, and prints each peak over the starting point as a multiple of the
// weights' bytes. The bound is about 1.1 for the export.

#include <sys/resource.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "onnxscript/export/torch_module.h"

namespace {

// The resident set now, in bytes (/proc/self/statm's second field, pages).
double resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  double size = 0, resident = 0;
  statm >> size >> resident;
  return resident * 4096.0;
}

// The process's peak resident set so far, in bytes.
double peak_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) * 1024.0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string first = argc > 1 ? argv[1] : "";
  if (argc < 4 || first == "--help") {
    std::fputs(
        "usage: export_memory MODEL.pt D0xD1x... OUT.onnx [--no-weights]\n\n"
        "Loads MODEL.pt, exports it with an example input of that shape, saves it to\n"
        "OUT.onnx and prints the peak resident memory of each step over the process's\n"
        "before loading, as a multiple of the weights' bytes.\n",
        first == "--help" ? stdout : stderr);
    return first == "--help" ? 0 : 2;
  }
  std::vector<int64_t> shape;
  std::istringstream dims(argv[2]);
  for (std::string d; std::getline(dims, d, 'x');) shape.push_back(std::stoll(d));
  const bool with_weights = !(argc > 4 && std::string(argv[4]) == "--no-weights");
  const onnxscript::Tensor example = onnxscript::Tensor::rand(shape, 0);
  // LibTorch's own start-up (its allocator, thread pools) is not the export's.
  (void)(::torch::ones({8}) + 1);
  const double start = resident_bytes();
  double weights = 0;
  onnxscript::torch::ExportOptions options;
  options.include_weights = with_weights;
  double loaded = 0, exported = 0;
  {
    const ::torch::jit::Module module = ::torch::jit::load(argv[1]);
    for (const auto& p : module.named_parameters()) weights += p.value.nbytes();
    for (const auto& b : module.named_buffers()) weights += b.value.nbytes();
    loaded = peak_bytes();
    const onnxscript::torch::ONNXProgram program =
        onnxscript::torch::export_module(module, {example}, options);
    exported = peak_bytes();
    program.save(argv[3]);
  }
  const double saved = peak_bytes();
  std::printf(
      "weights %.1f MB; peak over the start, in weights: load %.2f, export %.2f, save %.2f\n",
      weights / 1e6, (loaded - start) / weights, (exported - start) / weights,
      (saved - start) / weights);
  return 0;
}
