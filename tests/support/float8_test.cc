// The float8 and int4 helpers, checked against a brute-force reference: the
// nearest of all 256 decoded values, ties to the even encoding.
#include "onnxscript/support/float8.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "onnxscript/support/int4.h"

namespace onnxscript {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

template <typename F8>
float f(uint8_t bits) {
  return static_cast<float>(F8::from_bits(bits));
}

TEST(Float8, DecodesKnownValues) {
  EXPECT_EQ(f<float8e4m3fn>(0x7e), 448.0f);
  EXPECT_EQ(f<float8e4m3fn>(0x38), 1.0f);
  EXPECT_EQ(f<float8e4m3fn>(0x01), std::ldexp(1.0f, -9));
  EXPECT_EQ(f<float8e4m3fn>(0x08), std::ldexp(1.0f, -6));  // smallest normal
  EXPECT_TRUE(std::isnan(f<float8e4m3fn>(0x7f)));
  EXPECT_TRUE(std::isnan(f<float8e4m3fn>(0xff)));
  EXPECT_TRUE(std::signbit(f<float8e4m3fn>(0x80)));
  EXPECT_EQ(f<float8e4m3fnuz>(0x7f), 240.0f);
  EXPECT_EQ(f<float8e4m3fnuz>(0x40), 1.0f);
  EXPECT_EQ(f<float8e4m3fnuz>(0x01), std::ldexp(1.0f, -10));
  EXPECT_TRUE(std::isnan(f<float8e4m3fnuz>(0x80)));
  EXPECT_EQ(f<float8e5m2>(0x7b), 57344.0f);
  EXPECT_EQ(f<float8e5m2>(0x3c), 1.0f);
  EXPECT_EQ(f<float8e5m2>(0x7c), kInf);
  EXPECT_EQ(f<float8e5m2>(0xfc), -kInf);
  EXPECT_TRUE(std::isnan(f<float8e5m2>(0x7d)));
  EXPECT_EQ(f<float8e5m2>(0x01), std::ldexp(1.0f, -16));
  EXPECT_EQ(f<float8e5m2fnuz>(0x7f), 57344.0f);
  EXPECT_EQ(f<float8e5m2fnuz>(0x40), 1.0f);
  EXPECT_EQ(f<float8e5m2fnuz>(0x01), std::ldexp(1.0f, -17));
  EXPECT_TRUE(std::isnan(f<float8e5m2fnuz>(0x80)));
}

// Every finite encoding converts back to itself.
template <typename F8>
void expect_round_trip() {
  for (int b = 0; b < 256; ++b) {
    const float v = f<F8>(static_cast<uint8_t>(b));
    if (std::isnan(v)) continue;
    if (!std::isinf(v)) {
      EXPECT_EQ(F8(v).bits, b) << "bits " << b << " value " << v;
    }
    EXPECT_EQ(F8(v, false).bits, b) << "bits " << b << " value " << v;
  }
}

TEST(Float8, EveryValueRoundTrips) {
  expect_round_trip<float8e4m3fn>();
  expect_round_trip<float8e4m3fnuz>();
  expect_round_trip<float8e5m2>();
  expect_round_trip<float8e5m2fnuz>();
}

// Brute force: the nearest finite value; ties go to the even encoding.
// Magnitudes above the largest finite value are left to the caller.
template <typename F8>
uint8_t nearest(float x) {
  int best = -1;
  double best_err = 0;
  for (int b = 0; b < 256; ++b) {
    const float v = f<F8>(static_cast<uint8_t>(b));
    if (std::isnan(v) || std::isinf(v)) continue;
    const double err = std::fabs(static_cast<double>(v) - x);
    if (best < 0 || err < best_err || (err == best_err && (b & 1) == 0 && (best & 1) == 1)) {
      best = b;
      best_err = err;
    }
  }
  // Zero keeps the sign of x where the format has a -0.
  if (f<F8>(static_cast<uint8_t>(best)) == 0)
    best = std::signbit(x) && !std::isnan(f<F8>(0x80)) ? 0x80 : 0x00;
  return static_cast<uint8_t>(best);
}

template <typename F8>
void expect_matches_brute_force(float max) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> mant(1.0f, 2.0f);
  std::uniform_int_distribution<int> expo(-22, 16);
  for (int i = 0; i < 20000; ++i) {
    float x = std::ldexp(mant(rng), expo(rng)) * (i & 1 ? -1.0f : 1.0f);
    if (std::fabs(x) > max) continue;
    EXPECT_EQ(F8(x).bits, nearest<F8>(x)) << "x = " << x;
  }
  // Midpoints between neighbours: ties to even.
  for (int b = 0; b < 127; ++b) {
    const float lo = f<F8>(static_cast<uint8_t>(b)), hi = f<F8>(static_cast<uint8_t>(b + 1));
    if (std::isnan(hi) || std::isinf(hi) || std::isnan(lo)) continue;
    const float mid = (lo + hi) / 2;
    EXPECT_EQ(F8(mid).bits, (b & 1) ? b + 1 : b) << "midpoint of " << lo << " and " << hi;
  }
}

TEST(Float8, RoundsToNearestEven) {
  expect_matches_brute_force<float8e4m3fn>(448);
  expect_matches_brute_force<float8e4m3fnuz>(240);
  expect_matches_brute_force<float8e5m2>(57344);
  expect_matches_brute_force<float8e5m2fnuz>(57344);
}

TEST(Float8, SpecialsFollowTheCastTables) {
  // Saturating (the default): overflow and infinities clamp to +-max.
  EXPECT_EQ(float8e4m3fn(1e6f).bits, 0x7e);
  EXPECT_EQ(float8e4m3fn(-kInf).bits, 0xfe);
  EXPECT_EQ(float8e4m3fnuz(kInf).bits, 0x7f);
  EXPECT_EQ(float8e5m2(kInf).bits, 0x7b);
  EXPECT_EQ(float8e5m2fnuz(-1e9f).bits, 0xff);
  // 464 is halfway between 448 and 480 (not finite): ties to even keeps 448
  // even without saturation; 465 rounds past the max.
  EXPECT_EQ(float8e4m3fn(464.0f, false).bits, 0x7e);
  EXPECT_TRUE(std::isnan(static_cast<float>(float8e4m3fn(465.0f, false))));
  EXPECT_EQ(float8e4m3fn(465.0f).bits, 0x7e);
  // Not saturating: NaN, except E5M2 which has infinities.
  EXPECT_TRUE(std::isnan(static_cast<float>(float8e4m3fn(kInf, false))));
  EXPECT_EQ(float8e4m3fnuz(kInf, false).bits, 0x80);
  EXPECT_EQ(float8e5m2(kInf, false).bits, 0x7c);
  EXPECT_EQ(float8e5m2(-1e6f, false).bits, 0xfc);
  EXPECT_EQ(float8e5m2(61440.0f, false).bits, 0x7c);  // [x] = 65536 > max
  EXPECT_EQ(float8e5m2(61439.0f, false).bits, 0x7b);
  EXPECT_EQ(float8e5m2fnuz(kInf, false).bits, 0x80);
  // NaN stays NaN; zeros.
  EXPECT_EQ(float8e4m3fn(kNaN).bits & 0x7f, 0x7f);
  EXPECT_EQ(float8e4m3fnuz(kNaN).bits, 0x80);
  EXPECT_EQ(float8e5m2fnuz(-kNaN).bits, 0x80);
  EXPECT_EQ(float8e4m3fn(-0.0f).bits, 0x80);
  EXPECT_EQ(float8e4m3fnuz(-0.0f).bits, 0x00);
  EXPECT_EQ(float8e5m2fnuz(-1e-30f).bits, 0x00);
  EXPECT_EQ(float8e5m2(-1e-30f).bits, 0x80);
  // Below half the smallest subnormal: zero; just above: the subnormal.
  EXPECT_EQ(float8e4m3fn(std::ldexp(1.0f, -10)).bits, 0x00);  // exactly half: ties to even (0)
  EXPECT_EQ(float8e4m3fn(std::ldexp(1.1f, -10)).bits, 0x01);
}

TEST(Int4, PackingAndConversion) {
  uint8_t packed[2] = {0, 0};
  nibble_set(packed, 0, -1);
  nibble_set(packed, 1, 7);
  nibble_set(packed, 2, -8);
  EXPECT_EQ(packed[0], 0x7f);
  EXPECT_EQ(packed[1], 0x08);
  EXPECT_EQ(int4_get(packed, 0), -1);
  EXPECT_EQ(int4_get(packed, 1), 7);
  EXPECT_EQ(int4_get(packed, 2), -8);
  EXPECT_EQ(uint4_get(packed, 0), 15);
  nibble_set(packed, 0, 3);  // leaves the high nibble alone
  EXPECT_EQ(packed[0], 0x73);
  EXPECT_EQ(int4_from_double(2.5, true), 2);
  EXPECT_EQ(int4_from_double(3.5, true), 4);
  EXPECT_EQ(int4_from_double(-100, true), -8);
  EXPECT_EQ(int4_from_double(100, false), 15);
  EXPECT_EQ(int4_from_double(-3, false), 0);
  EXPECT_EQ(int4_from_double(std::nan(""), true), 0);
  EXPECT_EQ(int4_from_int(9, true), 7);
  EXPECT_EQ(int4_from_int(-9, true), -8);
}

}  // namespace
}  // namespace onnxscript
