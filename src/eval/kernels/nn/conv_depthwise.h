#pragma once
// Depthwise 3x3 convolution of float planes, stride 1 or 2, dilation 1, any
// padding (MobileNet's depthwise layers: planes from 112x112 down to 7x7,
// 32 to 960 channels). It was 45% of mobilenet_v2's time as a scalar
// sliding-window loop.
//
// Each plane is copied into a per-thread buffer with zero borders, so the
// nine taps of every output read inside the buffer without bounds checks
// and padding costs nothing per output; each output row is then a run of
// vectors, nine multiply-adds per vector (stride 2 takes the even elements
// of two loads with one shuffle). The bias and the activation of a fused
// convolution are applied in registers before the store.
//
// The build targets baseline x86-64 (SSE2), and users' machines differ, so
// the loops are compiled three times (AVX-512, AVX2+FMA, SSE2) and chosen at
// run time by what the CPU reports.
#include <immintrin.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "conv.h"
#include "eval/util/parallel.h"

namespace onnxscript::eval {

/// The shape of one depthwise 3x3 plane: input and output sizes, stride (1
/// or 2, both axes), and padding.
struct DwGeometry {
  int64_t height = 0, width = 0, out_h = 0, out_w = 0, stride = 1;
  int64_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
  /// Width of a padded row.
  int64_t padded_w() const { return pad_left + width + pad_right; }
  /// Floats in a padded plane, plus room for the lanes of a last partial
  /// vector to read past the end (their results are discarded).
  int64_t scratch_size() const { return (pad_top + height + pad_bottom) * padded_w() + 64; }
};

/// How the vector loops apply an activation: in registers, or (kOther) as a
/// scalar pass over each finished row.
enum class DwAct { kNone, kRelu, kClip, kLeakyRelu, kOther };

/// The register-level form of `act`.
inline DwAct dw_act_kind(const ConvActivation& act) {
  switch (act.kind) {
    case ConvActivation::Kind::kNone:
      return DwAct::kNone;
    case ConvActivation::Kind::kRelu:
      return DwAct::kRelu;
    case ConvActivation::Kind::kClip:
      return DwAct::kClip;
    case ConvActivation::Kind::kLeakyRelu:
      return DwAct::kLeakyRelu;
    default:
      return DwAct::kOther;
  }
}

#pragma GCC push_options
#pragma GCC target("avx512f,avx512vl,avx2,fma")
#define DW_NS dw_avx512
#define DW_WIDE __m512
#define DW_NARROW __m256
#define DW_HAS_FMA 1
#define DW_HAS_512 1
#include "conv_depthwise_impl.h"
#undef DW_NS
#undef DW_WIDE
#undef DW_NARROW
#undef DW_HAS_FMA
#undef DW_HAS_512
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx2,fma")
#define DW_NS dw_avx2
#define DW_WIDE __m256
#define DW_NARROW __m128
#define DW_HAS_FMA 1
#define DW_HAS_512 0
#include "conv_depthwise_impl.h"
#undef DW_NS
#undef DW_WIDE
#undef DW_NARROW
#undef DW_HAS_FMA
#undef DW_HAS_512
#pragma GCC pop_options

#define DW_NS dw_sse2
#define DW_WIDE __m128
#define DW_NARROW __m128
#define DW_HAS_FMA 0
#define DW_HAS_512 0
#include "conv_depthwise_impl.h"
#undef DW_NS
#undef DW_WIDE
#undef DW_NARROW
#undef DW_HAS_FMA
#undef DW_HAS_512

/// Y[p] = act(bias[p % channels] + 3x3 window of X[p] by W[p % channels]) for
/// the `planes` planes of X [planes, g.height, g.width] into Y [planes,
/// g.out_h, g.out_w]; W holds 9 floats per channel, `bias` may be null.
/// Planes are split over the intra-op threads.
inline void depthwise3x3(const float* x, const float* w, const float* bias, float* y,
                         int64_t planes, int64_t channels, const DwGeometry& g,
                         const ConvActivation& act) {
  static const int isa = [] {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")) return 2;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return 1;
    return 0;
  }();
  parallel_for(planes, 1, [&](int64_t begin, int64_t end) {
    std::vector<float> scratch(static_cast<size_t>(g.scratch_size()));
    if (isa == 2)
      dw_avx512::run(x, w, bias, y, channels, begin, end, g, act, scratch.data());
    else if (isa == 1)
      dw_avx2::run(x, w, bias, y, channels, begin, end, g, act, scratch.data());
    else
      dw_sse2::run(x, w, bias, y, channels, begin, end, g, act, scratch.data());
  });
}

}  // namespace onnxscript::eval
