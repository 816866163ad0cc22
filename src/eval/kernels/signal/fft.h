#pragma once
// Discrete Fourier transforms of any length for DFT and STFT, in
// complex<double>:
//   forward  X[k] = sum_j x[j] e^{-2 pi i jk/n}
//   inverse  x[j] = sum_k X[k] e^{+2 pi i jk/n}   (unscaled; callers divide by n)
// A FourierPlan is built once per length and reused for every line of a
// tensor. Powers of two use an iterative radix-2 Cooley-Tukey transform;
// other lengths up to kDirectLimit use the direct O(n^2) sum over a table of
// twiddles; longer ones use Bluestein's algorithm, which rewrites the
// transform as a convolution (jk = (j^2 + k^2 - (k-j)^2) / 2) computed with
// power-of-two FFTs, so every length costs O(n log n).
#include <complex>
#include <cstdint>
#include <memory>
#include <numbers>
#include <vector>

namespace onnxscript::eval {

using Complex = std::complex<double>;

/// A transform of one length and direction.
class FourierPlan {
 public:
  /// Non-power-of-two lengths up to this use the direct sum.
  static constexpr int64_t kDirectLimit = 64;

  FourierPlan(int64_t n, bool inverse) : n_(n), sign_(inverse ? 1.0 : -1.0) {
    if (n <= 1) return;
    if (is_power_of_two(n)) {
      init_radix2();
    } else if (n <= kDirectLimit) {
      twiddles_.resize(static_cast<size_t>(n));
      for (int64_t k = 0; k < n; ++k) twiddles_[k] = unit(static_cast<double>(k) / n);
    } else {
      init_bluestein();
    }
  }

  /// The transform length.
  int64_t size() const { return n_; }

  /// Transforms `data` (n elements) in place. `scratch` is reused between calls.
  void transform(Complex* data, std::vector<Complex>& scratch) const {
    if (n_ <= 1) return;
    if (!bit_reverse_.empty()) return radix2(data);
    if (!twiddles_.empty()) return direct(data, scratch);
    bluestein(data, scratch);
  }

 private:
  static bool is_power_of_two(int64_t n) { return (n & (n - 1)) == 0; }

  // e^{sign * 2 pi i * fraction}, with the angle reduced to [0, 1) turns by
  // the caller, so large indices lose no precision.
  Complex unit(double fraction) const {
    const double angle = sign_ * 2.0 * std::numbers::pi * fraction;
    return {std::cos(angle), std::sin(angle)};
  }

  void init_radix2() {
    bit_reverse_.resize(static_cast<size_t>(n_));
    int bits = 0;
    while ((int64_t{1} << bits) < n_) ++bits;
    for (int64_t i = 0; i < n_; ++i) {
      int64_t r = 0;
      for (int b = 0; b < bits; ++b)
        if (i & (int64_t{1} << b)) r |= int64_t{1} << (bits - 1 - b);
      bit_reverse_[i] = r;
    }
    // twiddle k of the full length; a stage of length len uses k * (n / len).
    radix_twiddles_.resize(static_cast<size_t>(n_ / 2));
    for (int64_t k = 0; k < n_ / 2; ++k) radix_twiddles_[k] = unit(static_cast<double>(k) / n_);
  }

  void radix2(Complex* data) const {
    for (int64_t i = 0; i < n_; ++i)
      if (i < bit_reverse_[i]) std::swap(data[i], data[bit_reverse_[i]]);
    for (int64_t len = 2; len <= n_; len <<= 1) {
      const int64_t half = len / 2, stride = n_ / len;
      for (int64_t start = 0; start < n_; start += len)
        for (int64_t k = 0; k < half; ++k) {
          const Complex t = radix_twiddles_[k * stride] * data[start + k + half];
          data[start + k + half] = data[start + k] - t;
          data[start + k] += t;
        }
    }
  }

  void direct(Complex* data, std::vector<Complex>& scratch) const {
    scratch.assign(data, data + n_);
    for (int64_t k = 0; k < n_; ++k) {
      Complex sum = 0;
      int64_t idx = 0;  // (j * k) mod n
      for (int64_t j = 0; j < n_; ++j) {
        sum += scratch[j] * twiddles_[idx];
        idx += k;
        if (idx >= n_) idx -= n_;
      }
      data[k] = sum;
    }
  }

  void init_bluestein() {
    int64_t m = 1;
    while (m < 2 * n_ - 1) m <<= 1;
    inner_ = std::make_shared<FourierPlan>(m, false);
    inner_inverse_ = std::make_shared<FourierPlan>(m, true);
    // chirp_[j] = e^{sign pi i j^2 / n}; j^2 is reduced mod 2n first.
    chirp_.resize(static_cast<size_t>(n_));
    for (int64_t j = 0; j < n_; ++j) {
      const uint64_t uj = static_cast<uint64_t>(j);  // j < 2^32: j^2 fits
      const int64_t sq = static_cast<int64_t>((uj * uj) % static_cast<uint64_t>(2 * n_));
      chirp_[j] = unit(static_cast<double>(sq) / (2.0 * n_));
    }
    // The convolution kernel conj(chirp) at offsets -(n-1)..(n-1), wrapped
    // to length m, transformed once.
    kernel_.assign(static_cast<size_t>(m), Complex(0));
    for (int64_t j = 0; j < n_; ++j) {
      kernel_[j] = std::conj(chirp_[j]);
      if (j > 0) kernel_[m - j] = std::conj(chirp_[j]);
    }
    std::vector<Complex> unused;
    inner_->transform(kernel_.data(), unused);
  }

  void bluestein(Complex* data, std::vector<Complex>& scratch) const {
    const int64_t m = inner_->size();
    scratch.assign(static_cast<size_t>(m), Complex(0));
    for (int64_t j = 0; j < n_; ++j) scratch[j] = data[j] * chirp_[j];
    std::vector<Complex> unused;
    inner_->transform(scratch.data(), unused);
    for (int64_t i = 0; i < m; ++i) scratch[i] *= kernel_[i];
    inner_inverse_->transform(scratch.data(), unused);
    const double scale = 1.0 / static_cast<double>(m);
    for (int64_t k = 0; k < n_; ++k) data[k] = chirp_[k] * scratch[k] * scale;
  }

  int64_t n_;
  double sign_;
  std::vector<int64_t> bit_reverse_;     // radix-2 permutation
  std::vector<Complex> radix_twiddles_;  // radix-2 e^{sign 2 pi i k / n}, k < n/2
  std::vector<Complex> twiddles_;        // direct: e^{sign 2 pi i k / n}, k < n
  std::vector<Complex> chirp_;           // Bluestein
  std::vector<Complex> kernel_;          // Bluestein, transformed
  std::shared_ptr<FourierPlan> inner_, inner_inverse_;
};

}  // namespace onnxscript::eval
