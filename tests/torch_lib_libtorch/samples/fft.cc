// Samples of the Fourier transforms and complex numbers (src/lib/torch_lib/ops/fft.cc).
// Complex tensors are real pairs in a trailing dimension of 2 on torchlib's
// side; samples marked complex() hand LibTorch complex tensors made of them,
// and LibTorch's complex outputs compare as real pairs. Each transform runs
// over one dim and several, each normalization, float and double (their
// dims are non-negative: LibTorch's _fft_* take them wrapped, as torch.fft
// passes them); the sums of n products compare at 1e-4 (float).

#include "torch_lib_libtorch/sample_table.h"

namespace onnxscript::torch_lib::comparison {
namespace {

uint64_t next_seed() {
  static uint64_t seed = 75000;
  return seed++;
}

constexpr double kSumTol = 1e-4;
// ONNX Runtime 1.30's inverse double DFT agrees with LibTorch's to about
// 1e-8, not double's 1e-10 (the Session's and the forward DFT's do).
constexpr double kDoubleInverseTol = 1e-7;

void add_transforms(SampleTable& t) {
  const char* r2c = "aten::_fft_r2c";
  t.add(r2c, "rfft of 8 points", {f32({8}, next_seed()), Ints{0}, 0, true}, {}, kSumTol);
  t.add(r2c, "full spectrum, by n, rank 2", {f32({3, 5}, next_seed()), Ints{1}, 2, false}, {},
        kSumTol);
  t.add(r2c, "two dims, by sqrt(n), odd last", {f32({4, 3, 5}, next_seed()), Ints{0, 2}, 1, true},
        {}, kSumTol);
  t.add(r2c, "double, last dim", {f64({2, 6}, next_seed()), Ints{1}, 0, true});

  const char* c2c = "aten::_fft_c2c";
  t.add(c2c, "forward, 1 dim", {f32({6, 2}, next_seed()), Ints{0}, 0, true}, {}, kSumTol);
  t.complex();
  t.add(c2c, "backward by n (ifft), rank 2", {f32({3, 4, 2}, next_seed()), Ints{1}, 2, false}, {},
        kSumTol);
  t.complex();
  t.add(c2c, "two dims, by sqrt(n)", {f32({4, 5, 2}, next_seed()), Ints{0, 1}, 1, true}, {},
        kSumTol);
  t.complex();
  t.add(c2c, "backward unnormalized, double",
        {f64({2, 3, 3, 2}, next_seed()), Ints{2, 0}, 0, false}, {}, kDoubleInverseTol);
  t.complex();

  const char* c2r = "aten::_fft_c2r";
  t.add(c2r, "irfft to 8 points (by n)", {f32({5, 2}, next_seed()), Ints{0}, 2, 8}, {}, kSumTol);
  t.complex();
  t.add(c2r, "irfft to 7 points, rank 2", {f32({3, 4, 2}, next_seed()), Ints{1}, 2, 7}, {},
        kSumTol);
  t.complex();
  t.add(c2r, "two dims, unnormalized", {f32({4, 3, 2}, next_seed()), Ints{0, 1}, 0, 4}, {},
        kSumTol);
  t.complex();
  t.add(c2r, "double, by sqrt(n), dim 1", {f64({2, 4, 2}, next_seed()), Ints{1}, 1, 6}, {},
        kDoubleInverseTol);
  t.complex();
}

void add_complex(SampleTable& t) {
  t.add("aten::view_as_real", "rank 1", {f32({4, 2}, next_seed())});
  t.complex();
  t.add("aten::view_as_real", "double, rank 3", {f64({2, 1, 3, 2}, next_seed())});
  t.complex();
  t.add("aten::view_as_real_copy", "rank 2", {f32({2, 3, 2}, next_seed())});
  t.complex();
  t.add("aten::view_as_complex", "rank 2", {f32({3, 2}, next_seed())});
  t.add("aten::view_as_complex", "double, rank 3", {f64({2, 2, 2}, next_seed())});
  t.add("aten::view_as_complex_copy", "rank 1", {f32({2}, next_seed())});
  t.add("aten::complex", "same shapes", {f32({3}, next_seed()), f32({3}, next_seed())});
  t.add("aten::complex", "broadcasting, double", {f64({2, 1}, next_seed()), f64({3}, next_seed())});
  t.add("aten::complex", "0-D", {f32({}, next_seed()), f32({}, next_seed())});
  t.add("aten::polar", "rank 2", {f32({2, 3}, next_seed(), 0, 3), f32({2, 3}, next_seed())});
  t.add("aten::polar", "broadcasting, double",
        {f64({3, 1}, next_seed(), 0, 2), f64({4}, next_seed())});
}

void add_stft(SampleTable& t) {
  const char* name = "aten::stft";
  t.add(name, "n_fft 8, defaults, return_complex",
        {f32({20}, next_seed()), 8, Arg(), Arg(), Arg(), false, Arg(), true}, {}, kSumTol);
  t.add(name, "batch, hop 3, window shorter than n_fft, normalized",
        {f32({2, 17}, next_seed()), 6, 3, 4, f32({4}, next_seed(), 0, 1), true, Arg(), true}, {},
        kSumTol);
  t.add(name, "two-sided, return_complex keyword", {f32({16}, next_seed()), 4, 2},
        {{"onesided", false}, {"return_complex", true}}, kSumTol);
  t.add(name, "double, return_complex False",
        {f64({12}, next_seed()), 4, 4, Arg(), Arg(), false, Arg(), false});

  const char* center = "aten::stft.center";
  t.add(center, "reflect padding",
        {f32({20}, next_seed()), 8, Arg(), Arg(), Arg(), true, "reflect", false, Arg(), true}, {},
        kSumTol);
  t.add(center, "constant padding, window, batch",
        {f32({2, 15}, next_seed()), 6, 3, 6, f32({6}, next_seed(), 0, 1), true, "constant", false,
         Arg(), true},
        {}, kSumTol);
  t.add(center, "replicate padding, normalized, two-sided",
        {f32({10}, next_seed()), 4, 2, Arg(), Arg(), true, "replicate", true, false, true}, {},
        kSumTol);
  t.add(center, "center False", {f32({12}, next_seed()), 4},
        {{"center", false}, {"return_complex", true}}, kSumTol);
}

}  // namespace

void add_fft_samples(SampleTable& t) {
  add_transforms(t);
  add_stft(t);
  add_complex(t);
}

}  // namespace onnxscript::torch_lib::comparison
