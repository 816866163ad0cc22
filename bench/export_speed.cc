// This exporter's side of bench/export_speed.sh: for each model that
// bench/export_speed.py made (DIR/models.txt: "<name> <d0>x<d1>x..."), loads
// the .pt with LibTorch (timed apart: not the exporter's work), exports it
// with export_module and prints "<name> <seconds> <onnx nodes>". The first
// load also pays LibTorch's start-up, which is printed on its own line.

#include <chrono>
#include <cstdio>
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
  if (argc != 2 || std::string(argv[1]) == "--help") {
    std::fputs(
        "usage: export_speed DIR\n\nExports every model of DIR/models.txt (made by "
        "bench/export_speed.py) and prints\n\"<name> <seconds> <onnx nodes>\" per model, "
        "LibTorch's start-up apart.\n",
        argc == 2 ? stdout : stderr);
    return argc == 2 ? 0 : 2;
  }
  const std::string dir = argv[1];
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
    if (first) std::printf("# LibTorch start-up and first load: %.3f s\n", load);
    first = false;
    const onnxscript::Tensor example = onnxscript::Tensor::rand(shape, 0);
    start = Clock::now();
    const onnxscript::torch::ONNXProgram program =
        onnxscript::torch::export_module(module, {example});
    const double exported = seconds_since(start);
    std::printf("%s %.4f %zu\n", name.c_str(), exported, count_nodes(program.model().graph()));
    std::fflush(stdout);
  }
  return 0;
}
