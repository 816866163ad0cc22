// Build throughput: trace and serialize a chain of operator nodes (Add, Mul,
// Relu, Tanh repeating; a 16-element initializer on each Add and Mul), with
// per-node type inference on and off. bench/build_chain.sh compares the
// figures with onnx.helper building the same chain.
//
// Usage: build_chain [NODES] [off|on|constants]   (default 100000, all cases)
// The weights are graph initializers, as onnx.helper builds them
// (initializer()); the "constants" case passes the tensor straight to the
// operator instead, which records a Constant node per weight (what ONNX
// Script does with a captured tensor), with inference off.
// Prints one line per case: "<case> <operator nodes per second>" (the best
// of three builds), and on stderr where the time went: tracing (to_model),
// serializing, releasing, and the first build's total, which also pays for
// faulting in fresh memory. ONNXSCRIPT_BENCH_RETENTION_MIB=N makes the
// library keep up to N MiB of pool blocks and encoder scratch between builds
// (the default is 16 MiB of each; bench/README.md gives what that costs).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "chain.h"
#include "onnxscript/ir/object_pool.h"
#include "onnxscript/onnxscript.h"
#include "onnxscript/serde/serde.h"

using namespace onnxscript;
using Clock = std::chrono::steady_clock;

namespace {

// Seconds spent in each phase of one build.
struct Phases {
  double trace = 0, serialize = 0, release = 0;
  double total() const { return trace + serialize + release; }
};

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One trace and serialization of the chain; returns the serialized size so
// the work cannot be optimized away.
size_t build_once(int64_t nodes, bool infer, bool constants, Phases& phases) {
  ScopedTraceOptions options({.infer_types = infer});
  std::vector<float> weights(16);
  for (int i = 0; i < 16; ++i) weights[i] = 0.01f * static_cast<float>(i + 1);
  const Tensor w = Tensor::from_span<float>(weights);
  const Function chain = bench::chain_function(w, nodes, constants);
  auto start = Clock::now();
  auto model = std::make_unique<ir::Model>(chain.to_model());
  phases.trace = seconds_since(start);
  start = Clock::now();
  const size_t bytes = serde::serialize_model(*model).size();
  phases.serialize = seconds_since(start);
  start = Clock::now();
  model.reset();
  phases.release = seconds_since(start);
  return bytes;
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t nodes = argc > 1 ? std::atoll(argv[1]) : 100000;
  // One case alone, for profiling: "off", "on" or "constants".
  const std::string only = argc > 2 ? argv[2] : "";
  if (nodes <= 0 || argc > 3 ||
      (!only.empty() && only != "off" && only != "on" && only != "constants")) {
    std::fprintf(stderr, "usage: build_chain [NODES > 0] [off|on|constants]\n");
    return 2;
  }
  // ONNXSCRIPT_BENCH_RETENTION_MIB sets what the library keeps between
  // builds (pool blocks and encoder scratch), to measure what the defaults
  // (16 MiB each) cost against keeping more.
  if (const char* mib = std::getenv("ONNXSCRIPT_BENCH_RETENTION_MIB")) {
    const size_t bytes = static_cast<size_t>(std::atoll(mib)) << 20;
    onnxscript::ir::set_pool_retention_bytes(bytes);
    onnxscript::serde::set_encoder_scratch_retention_bytes(bytes);
  }
  struct Case {
    const char* name;
    const char* label;
    bool infer;
    bool constants;
  };
  const Case cases[] = {{"off", "inference_off", false, false},
                        {"on", "inference_on", true, false},
                        {"constants", "constants_off", false, true}};
  for (const Case& c : cases) {
    if (!only.empty() && only != c.name) continue;
    const bool infer = c.infer;
    Phases best;
    best.trace = 1e300;
    double first = 0;
    size_t bytes = 0;
    for (int rep = 0; rep < 3; ++rep) {  // best of 3: the machine is noisy
      Phases phases;
      bytes = build_once(nodes, infer, c.constants, phases);
      if (rep == 0) first = phases.total();
      if (phases.total() < best.total()) best = phases;
    }
    std::printf("%s %.0f\n", c.label, static_cast<double>(nodes) / best.total());
    const double per_node = 1e9 / static_cast<double>(nodes);
    std::fprintf(stderr,
                 "%s: %.3f s for %lld nodes, %zu bytes; ns/node: trace %.0f, serialize %.0f, "
                 "release %.0f; the first build (cold memory) %.0f in all\n",
                 c.label, best.total(), static_cast<long long>(nodes), bytes, best.trace * per_node,
                 best.serialize * per_node, best.release * per_node, first * per_node);
  }
}
