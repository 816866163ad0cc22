// This exporter's side of bench/export_speed.sh: for each model that
// bench/export_speed.py made (DIR/models.txt: "<name> <d0>x<d1>x..."), loads
// the .pt with LibTorch (timed apart: not the exporter's work), exports it
// with export_module and prints "<name> <seconds> <onnx nodes>". The first
// load also pays LibTorch's start-up, and a one-node export before the first
// model the exporter's; both are printed on lines of their own. With
// --repeat N each model is exported N times and the median printed.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "onnxscript/export/torch_module.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

size_t count_nodes(const onnxscript::ir::Graph& g) {
  size_t n = 0;
  for (const onnxscript::ir::Node* node : g.nodes()) {
    (void)node;
    ++n;
  }
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string first_arg = argc > 1 ? argv[1] : "";
  int repeat = 1;
  if (argc == 4 && first_arg == "--repeat") repeat = std::max(1, std::atoi(argv[2]));
  if ((argc != 2 && !(argc == 4 && first_arg == "--repeat")) || first_arg == "--help") {
    std::fputs(
        "usage: export_speed [--repeat N] DIR\n\nExports every model of DIR/models.txt (made by "
        "bench/export_speed.py) and prints\n\"<name> <seconds> <onnx nodes>\" per model, "
        "LibTorch's start-up apart;\nwith --repeat, the median of N exports of each.\n",
        first_arg == "--help" ? stdout : stderr);
    return first_arg == "--help" ? 0 : 2;
  }
  const std::string dir = argv[argc - 1];
  std::ifstream listing(dir + "/models.txt");
  if (!listing) {
    std::fprintf(stderr, "export_speed: cannot read %s/models.txt\n", dir.c_str());
    return 1;
  }
  std::string line;
  bool first = true;
  while (std::getline(listing, line)) {
    std::istringstream fields(line);
    std::string name, shape_text;
    fields >> name >> shape_text;
    std::vector<int64_t> shape;
    std::istringstream dims(shape_text);
    for (std::string d; std::getline(dims, d, 'x');) shape.push_back(std::stoll(d));
    auto start = Clock::now();
    const ::torch::jit::Module module = ::torch::jit::load(dir + "/" + name + ".pt");
    const double load = seconds_since(start);
    if (first) {
      std::printf("# LibTorch start-up and first load: %.3f s\n", load);
      // The exporter's own start-up (torchlib's registry, ONNX's operator
      // schemas) is paid by the first export of a process: a one-node
      // module takes it, so that no model of the table does.
      ::torch::jit::Module tiny("Tiny");
      tiny.define("def forward(self, x):\n    return torch.relu(x)\n");
      start = Clock::now();
      onnxscript::torch::export_module(tiny, {onnxscript::Tensor::rand({2}, 0)});
      std::printf("# exporter start-up (first export, one node): %.3f s\n", seconds_since(start));
    }
    first = false;
    const onnxscript::Tensor example = onnxscript::Tensor::rand(shape, 0);
    std::vector<double> times;
    size_t nodes = 0;
    for (int i = 0; i < repeat; ++i) {
      start = Clock::now();
      const onnxscript::torch::ONNXProgram program =
          onnxscript::torch::export_module(module, {example});
      times.push_back(seconds_since(start));
      nodes = count_nodes(program.model().graph());
    }
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    std::printf("%s %.4f %zu\n", name.c_str(), times[times.size() / 2], nodes);
    std::fflush(stdout);
  }
  return 0;
}
