// The depthwise 3x3 row and plane loops for one instruction set. Included by
// conv_depthwise.h once per instruction set, inside a `#pragma GCC target`
// region, with DW_NS naming the namespace and DW_WIDE / DW_NARROW naming the
// float vector types (__m512 and __m256 for AVX-512, __m256 and __m128 for
// AVX2, __m128 twice for SSE2). No include guard on purpose.

namespace DW_NS {

using Wide = DW_WIDE;
using Narrow = DW_NARROW;

// Unaligned loads and stores of any of the vector types.
template <typename V>
inline V load(const float* p) {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename V>
inline void store(float* p, V v) {
  std::memcpy(p, &v, sizeof v);
}
template <typename V>
inline V splat(float x) {
  return V{} + x;
}

// Stores the first `count` (< lanes) floats of v at p: a masked store where
// the instruction set has one (a small memcpy per row cost as much as the
// arithmetic on 7x7 planes), else element by element.
#if DW_HAS_512
inline void store_first(float* p, __m512 v, int64_t count) {
  _mm512_mask_storeu_ps(p, static_cast<__mmask16>((1u << count) - 1), v);
}
inline void store_first(float* p, __m256 v, int64_t count) {
  _mm256_mask_storeu_ps(p, static_cast<__mmask8>((1u << count) - 1), v);
}
#elif DW_HAS_FMA
inline void store_first(float* p, __m256 v, int64_t count) {
  const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  _mm256_maskstore_ps(p, _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)), lanes), v);
}
inline void store_first(float* p, __m128 v, int64_t count) {
  const __m128i lanes = _mm_setr_epi32(0, 1, 2, 3);
  _mm_maskstore_ps(p, _mm_cmpgt_epi32(_mm_set1_epi32(static_cast<int>(count)), lanes), v);
}
#else
inline void store_first(float* p, __m128 v, int64_t count) {
  float lanes[4];
  store(lanes, v);
  for (int64_t i = 0; i < count; ++i) p[i] = lanes[i];
}
#endif

// a * b + c, fused where the instruction set has it.
inline __m128 fmadd(__m128 a, __m128 b, __m128 c) { return a * b + c; }
#if DW_HAS_FMA
inline __m256 fmadd(__m256 a, __m256 b, __m256 c) { return _mm256_fmadd_ps(a, b, c); }
#endif
#if DW_HAS_512
inline __m512 fmadd(__m512 a, __m512 b, __m512 c) { return _mm512_fmadd_ps(a, b, c); }
#endif

// The even elements of the 2 * lanes floats at p: the inputs of `lanes`
// consecutive outputs of a stride-2 window column.
inline __m128 evens(const float* p, __m128*) {
  typedef int I __attribute__((vector_size(16)));
  return __builtin_shuffle(load<__m128>(p), load<__m128>(p + 4), I{0, 2, 4, 6});
}
#if DW_HAS_FMA
inline __m256 evens(const float* p, __m256*) {
  typedef int I __attribute__((vector_size(32)));
  return __builtin_shuffle(load<__m256>(p), load<__m256>(p + 8), I{0, 2, 4, 6, 8, 10, 12, 14});
}
#endif
#if DW_HAS_512
inline __m512 evens(const float* p, __m512*) {
  typedef int I __attribute__((vector_size(64)));
  return __builtin_shuffle(load<__m512>(p), load<__m512>(p + 16),
                           I{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30});
}
#endif

// The activations applied in registers; the others run as a scalar pass
// over each finished row (DwAct::kOther).
template <typename V>
inline V activate(V v, DwAct kind, V lo, V hi) {
  switch (kind) {
    case DwAct::kRelu:
      return v < V{} ? V{} : v;
    case DwAct::kClip:
      v = v < lo ? lo : v;
      return v > hi ? hi : v;
    case DwAct::kLeakyRelu:
      return v < V{} ? v * lo : v;
    default:
      return v;
  }
}

// One output row: out[ow] for ow in [0, out_w), reading padded rows r0, r1,
// r2 (the window's three rows) at columns ow * S + kw. Whole vectors are
// stored directly; the last partial one goes through a buffer.
template <typename V, int S>
inline void row(const float* r0, const float* r1, const float* r2, const V (&w)[9], V bias,
                float* out, int64_t out_w, DwAct kind, V lo, V hi) {
  constexpr int64_t L = sizeof(V) / sizeof(float);
  const float* rows[3] = {r0, r1, r2};
  for (int64_t ow = 0; ow < out_w; ow += L) {
    V acc = bias;
    for (int kh = 0; kh < 3; ++kh) {
      const float* p = rows[kh] + ow * S;
      for (int kw = 0; kw < 3; ++kw) {
        V v;
        if constexpr (S == 1)
          v = load<V>(p + kw);
        else
          v = evens(p + kw, static_cast<V*>(nullptr));
        acc = fmadd(w[kh * 3 + kw], v, acc);
      }
    }
    acc = activate(acc, kind, lo, hi);
    if (ow + L <= out_w)
      store(out + ow, acc);
    else
      store_first(out + ow, acc, out_w - ow);
  }
}

// Planes [begin, end) of a depthwise 3x3 convolution with stride S: each
// plane is copied into the zero-bordered `scratch` (g.scratch_size() floats,
// zero where this function never writes), so every window reads inside it
// and no tap needs a bounds check; then each output row is one row() call.
template <typename V, int S>
void planes(const float* x, const float* w, const float* bias, float* y, int64_t channels,
            int64_t begin, int64_t end, const DwGeometry& g, const ConvActivation& act,
            float* scratch) {
  const int64_t wp = g.padded_w();
  const DwAct kind = dw_act_kind(act);
  const V lo = splat<V>(act.a), hi = splat<V>(act.b);
  for (int64_t plane = begin; plane < end; ++plane) {
    const int64_t ch = plane % channels;
    const float* xp = x + plane * g.height * g.width;
    for (int64_t r = 0; r < g.height; ++r)
      std::memcpy(scratch + (g.pad_top + r) * wp + g.pad_left, xp + r * g.width,
                  static_cast<size_t>(g.width) * sizeof(float));
    V wv[9];
    for (int k = 0; k < 9; ++k) wv[k] = splat<V>(w[ch * 9 + k]);
    const V b = splat<V>(bias ? bias[ch] : 0.0f);
    float* yp = y + plane * g.out_h * g.out_w;
    for (int64_t oh = 0; oh < g.out_h; ++oh) {
      const float* r0 = scratch + oh * S * wp;
      float* yrow = yp + oh * g.out_w;
      row<V, S>(r0, r0 + wp, r0 + 2 * wp, wv, b, yrow, g.out_w, kind, lo, hi);
      if (kind == DwAct::kOther) add_bias_and_activate(yrow, g.out_w, 0.0f, act);
    }
  }
}

// The entry for this instruction set: wide vectors unless a row fits the
// narrow ones.
inline void run(const float* x, const float* w, const float* bias, float* y, int64_t channels,
                int64_t begin, int64_t end, const DwGeometry& g, const ConvActivation& act,
                float* scratch) {
  const bool narrow = g.out_w <= static_cast<int64_t>(sizeof(Narrow) / sizeof(float));
  if (g.stride == 1) {
    if (narrow)
      planes<Narrow, 1>(x, w, bias, y, channels, begin, end, g, act, scratch);
    else
      planes<Wide, 1>(x, w, bias, y, channels, begin, end, g, act, scratch);
  } else {
    if (narrow)
      planes<Narrow, 2>(x, w, bias, y, channels, begin, end, g, act, scratch);
    else
      planes<Wide, 2>(x, w, bias, y, channels, begin, end, g, act, scratch);
  }
}

}  // namespace DW_NS
