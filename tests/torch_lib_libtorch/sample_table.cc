// The sample table's builder and input generators.

#include "torch_lib_libtorch/sample_table.h"

#include "onnxscript/support/float16.h"

namespace onnxscript::torch_lib::comparison {
namespace {

// A small deterministic generator (a 64-bit LCG): the same inputs on every
// run, different for each seed.
class Numbers {
 public:
  explicit Numbers(uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  // Uniform in [0, 1).
  double next() {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state_ >> 11) / static_cast<double>(uint64_t{1} << 53);
  }

 private:
  uint64_t state_;
};

int64_t count(const Ints& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// A tensor of `dtype` whose elements are `draw(g)` converted to T.
template <typename T, typename Draw>
Value generate(DataType dtype, const Ints& shape, uint64_t seed, Draw draw) {
  Tensor t(dtype, shape);
  Numbers g(seed);
  for (int64_t i = 0; i < count(shape); ++i) t.data<T>()[i] = static_cast<T>(draw(g));
  return Value(t);
}

}  // namespace

void SampleTable::add(std::string name, std::string label, std::vector<Arg> args,
                      std::vector<KW> keywords, double tolerance) {
  samples_.push_back({std::move(name), std::move(label), std::move(args), std::move(keywords),
                      tolerance, "", "", "", false});
}

void SampleTable::known_failure(std::string why) { samples_.back().known_failure = std::move(why); }

void SampleTable::onnxruntime_lacks(std::string why) {
  samples_.back().onnxruntime_lacks = std::move(why);
}

void SampleTable::reference(std::string aten_name) {
  samples_.back().reference = std::move(aten_name);
}

void SampleTable::random() { samples_.back().random = true; }

void SampleTable::complex() { samples_.back().complex = true; }

Value f32(Ints shape, uint64_t seed, double lo, double hi) {
  return generate<float>(DataType::kFloat, shape, seed,
                         [&](Numbers& g) { return lo + (hi - lo) * g.next(); });
}

Value f64(Ints shape, uint64_t seed, double lo, double hi) {
  return generate<double>(DataType::kDouble, shape, seed,
                          [&](Numbers& g) { return lo + (hi - lo) * g.next(); });
}

Value f16(Ints shape, uint64_t seed, double lo, double hi) {
  return generate<float16>(DataType::kFloat16, shape, seed, [&](Numbers& g) {
    return float16(static_cast<float>(lo + (hi - lo) * g.next()));
  });
}

Value nonzero_f32(Ints shape, uint64_t seed) {
  return generate<float>(DataType::kFloat, shape, seed, [](Numbers& g) {
    const double m = 0.5 + 2.5 * g.next();
    return g.next() < 0.5 ? -m : m;
  });
}

Value i64(Ints shape, uint64_t seed, int64_t lo, int64_t hi) {
  return generate<int64_t>(DataType::kInt64, shape, seed, [&](Numbers& g) {
    return lo + static_cast<int64_t>(g.next() * static_cast<double>(hi - lo + 1));
  });
}

Value i32(Ints shape, uint64_t seed, int64_t lo, int64_t hi) {
  return generate<int32_t>(DataType::kInt32, shape, seed, [&](Numbers& g) {
    return lo + static_cast<int64_t>(g.next() * static_cast<double>(hi - lo + 1));
  });
}

Value nonzero_i64(Ints shape, uint64_t seed) {
  return generate<int64_t>(DataType::kInt64, shape, seed, [](Numbers& g) {
    const int64_t m = 1 + static_cast<int64_t>(g.next() * 5);
    return g.next() < 0.5 ? -m : m;
  });
}

Value booleans(Ints shape, uint64_t seed) {
  return generate<bool>(DataType::kBool, shape, seed, [](Numbers& g) { return g.next() < 0.5; });
}

}  // namespace onnxscript::torch_lib::comparison
