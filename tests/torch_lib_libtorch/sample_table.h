#pragma once
/// \file
/// What the sample files (samples/*.cc) write with: a table that collects
/// sample calls, and deterministic generators of input tensors. One file per
/// torchlib family adds its samples through `add_<family>_samples`; the
/// table is built once, in the order of samples.cc.

#include <cstdint>
#include <string>
#include <vector>

#include "torch_lib_libtorch/compare.h"

namespace onnxscript::torch_lib::comparison {

using KW = libtorch::KeywordArg;
using Ints = std::vector<int64_t>;

/// Collects samples. The two marks apply to the sample added last.
class SampleTable {
 public:
  /// Adds a call of `name` with positional `args` and `keywords`;
  /// `tolerance` 0 takes the element type's (see Sample::tolerance).
  void add(std::string name, std::string label, std::vector<Arg> args,
           std::vector<KW> keywords = {}, double tolerance = 0);
  /// The last sample fails today, for the reason given (a true one).
  void known_failure(std::string why);
  /// The last sample needs a kernel ONNX Runtime 1.30's CPU provider lacks.
  void onnxruntime_lacks(std::string why);
  /// The last sample's expected values come from LibTorch's `aten_name`
  /// (for a prims:: name, which LibTorch lacks).
  void reference(std::string aten_name);
  /// The last sample is a random draw: only element types and shapes are
  /// compared.
  void random();
  /// The last sample's tensor arguments are complex, as [..., 2] real pairs
  /// (Sample::complex).
  void complex();
  /// Everything added so far.
  std::vector<Sample> take() { return std::move(samples_); }

 private:
  std::vector<Sample> samples_;
};

// Input generators. Each seed gives the same values on every run, and
// different seeds give different values.

/// float32 values uniform in [lo, hi).
Value f32(Ints shape, uint64_t seed, double lo = -3, double hi = 3);
/// float64 values uniform in [lo, hi).
Value f64(Ints shape, uint64_t seed, double lo = -3, double hi = 3);
/// float16 values uniform in [lo, hi) (rounded to the nearest float16).
Value f16(Ints shape, uint64_t seed, double lo = -3, double hi = 3);
/// float32 values away from zero (magnitude in [0.5, 3), either sign): divisors.
Value nonzero_f32(Ints shape, uint64_t seed);
/// int64 values uniform in [lo, hi].
Value i64(Ints shape, uint64_t seed, int64_t lo = -9, int64_t hi = 9);
/// int32 values uniform in [lo, hi].
Value i32(Ints shape, uint64_t seed, int64_t lo = -9, int64_t hi = 9);
/// Non-zero int64 divisors in [-5, 5].
Value nonzero_i64(Ints shape, uint64_t seed);
/// Random booleans.
Value booleans(Ints shape, uint64_t seed);

/// PyTorch's ScalarType codes, as TorchScript passes a `dtype`.
inline constexpr int64_t kUint8Code = 0, kInt8Code = 1, kInt32Code = 3, kLong = 4, kHalfCode = 5,
                         kFloatCode = 6, kDoubleCode = 7, kBoolCode = 11;

// The families' sample files. Each adds the samples of the registered names
// of its torchlib family (src/lib/torch_lib/ops/<family>.cc).
void add_core_samples(SampleTable& table);
void add_unary_samples(SampleTable& table);
void add_binary_samples(SampleTable& table);
void add_activation_samples(SampleTable& table);
void add_reduction_samples(SampleTable& table);
void add_shape_samples(SampleTable& table);
void add_indexing_samples(SampleTable& table);
void add_nn_samples(SampleTable& table);
void add_linalg_samples(SampleTable& table);
void add_loss_samples(SampleTable& table);
void add_upsample_samples(SampleTable& table);
void add_random_samples(SampleTable& table);
void add_arithmetic_samples(SampleTable& table);
void add_prims_samples(SampleTable& table);
void add_rnn_samples(SampleTable& table);
/// histc, bincount, unique_consecutive (samples/counting.cc).
void add_counting_samples(SampleTable& table);
/// as_strided, im2col (samples/strided.cc).
void add_strided_samples(SampleTable& table);
/// The fake quantizations (samples/quantize.cc).
void add_quantize_samples(SampleTable& table);
/// embedding_bag and its spellings (samples/embedding_bag.cc).
void add_embedding_bag_samples(SampleTable& table);
/// The Fourier transforms and complex numbers (samples/fft.cc).
void add_fft_samples(SampleTable& table);
/// ceil, sum, prod, amax, amin and their prims (samples/sums_and_extrema.cc).
void add_sums_and_extrema_samples(SampleTable& table);

}  // namespace onnxscript::torch_lib::comparison
