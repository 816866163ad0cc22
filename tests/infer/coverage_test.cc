// Every operator version beyond libonnx 1.12 in opgen's since-version table
// has a rule, or is listed as deprecated; and the table of rules names no
// version the since-version table does not know.

#include <set>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "infer/rules_beyond_libonnx.h"
#include "onnxscript/eval/schema_versions.h"

namespace onnxscript::infer {
namespace {

using Version = std::tuple<std::string, std::string, int64_t>;

std::set<Version> versions_beyond_libonnx() {
  std::set<Version> out;
  for (const eval::OperatorVersion& v : eval::all_operator_versions()) {
    const int64_t max = libonnx_max_version(v.domain);
    if (v.since_version > max)
      out.emplace(std::string(v.domain), std::string(v.op_type), v.since_version);
  }
  return out;
}

TEST(RulesBeyondLibonnx, EveryVersionHasARuleOrIsDeprecated) {
  const std::set<Version> table = versions_beyond_libonnx();
  // The vendored operator table holds 198 such versions (ONNX 1.22 and the
  // 1.23 additions); a much smaller count means the table was not read.
  EXPECT_GE(table.size(), 198u);
  std::set<Version> covered;
  for (const BeyondRule& r : rules_beyond_libonnx())
    covered.emplace(std::string(r.domain), std::string(r.op_type), r.since_version);
  for (const DeprecatedVersion& d : deprecated_beyond_libonnx())
    covered.emplace(std::string(d.domain), std::string(d.op_type), d.since_version);
  for (const Version& v : table)
    EXPECT_TRUE(covered.count(v)) << "no inference rule for " << std::get<0>(v) << " "
                                  << std::get<1>(v) << "-" << std::get<2>(v);
  // Entries at a version libonnx knows replace its rule beyond its opsets;
  // each must still name a real version.
  std::set<Version> all;
  for (const eval::OperatorVersion& v : eval::all_operator_versions())
    all.emplace(std::string(v.domain), std::string(v.op_type), v.since_version);
  for (const Version& v : covered)
    EXPECT_TRUE(all.count(v)) << "a rule for " << std::get<0>(v) << " " << std::get<1>(v) << "-"
                              << std::get<2>(v) << ", which the operator table does not know";
}

TEST(RulesBeyondLibonnx, EachEntryIsOneKindOfRule) {
  for (const BeyondRule& r : rules_beyond_libonnx()) {
    const int kinds = (r.own != nullptr) + r.from_bodies +
                      (r.own == nullptr && !r.from_bodies);  // reuse is the rest
    EXPECT_EQ(kinds, 1) << r.op_type << "-" << r.since_version;
    if (r.own || r.from_bodies) {
      EXPECT_TRUE(r.libonnx_op.empty()) << r.op_type << "-" << r.since_version;
      EXPECT_EQ(r.libonnx_version, 0) << r.op_type << "-" << r.since_version;
    }
  }
}

TEST(RulesBeyondLibonnx, TheEntryInForceIsTheNewestNotAfterTheOpset) {
  // ReduceMax: 18 and 20 beyond libonnx.
  EXPECT_EQ(find_rule_beyond_libonnx("", "ReduceMax", 17), nullptr);
  ASSERT_NE(find_rule_beyond_libonnx("", "ReduceMax", 19), nullptr);
  EXPECT_EQ(find_rule_beyond_libonnx("", "ReduceMax", 19)->since_version, 18);
  EXPECT_EQ(find_rule_beyond_libonnx("ai.onnx", "ReduceMax", 28)->since_version, 20);
  // Abs has no version beyond libonnx: libonnx's Abs-13 stays in force.
  EXPECT_EQ(find_rule_beyond_libonnx("", "Abs", 28), nullptr);
  // Gelu does not exist before 20.
  EXPECT_EQ(find_rule_beyond_libonnx("", "Gelu", 19), nullptr);
  EXPECT_NE(find_rule_beyond_libonnx("", "Gelu", 20), nullptr);
  EXPECT_NE(find_rule_beyond_libonnx("ai.onnx.ml", "LabelEncoder", 5), nullptr);
  EXPECT_EQ(find_rule_beyond_libonnx("com.example", "Gelu", 20), nullptr);
  // Deprecated versions: no rule, and no older one in their place.
  EXPECT_TRUE(deprecated_at("ai.onnx.ml", "TreeEnsembleClassifier", 5));
  EXPECT_FALSE(deprecated_at("ai.onnx.ml", "TreeEnsembleClassifier", 3));
  EXPECT_TRUE(deprecated_at("", "GroupNormalization", 20));
  EXPECT_FALSE(deprecated_at("", "GroupNormalization", 21));  // GroupNormalization-21 in force
  // MaxPool-12's entry replaces libonnx's rule from opset 18 until MaxPool-22.
  EXPECT_EQ(find_rule_beyond_libonnx("", "MaxPool", 21)->since_version, 12);
  EXPECT_EQ(find_rule_beyond_libonnx("", "MaxPool", 22)->since_version, 22);
}

}  // namespace
}  // namespace onnxscript::infer
