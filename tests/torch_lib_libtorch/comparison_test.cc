// Every registered torchlib overload against LibTorch's own operator of the
// same qualified name: its schema (parameter names, types, defaults) and its
// results on the sample table, computed eagerly, in the Session, and in
// ONNX Runtime. LibTorch's outputs are the expected values.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include "interop/ort_runner.h"
#include "onnxscript/onnxscript.h"
#include "onnxscript/torch_lib/registry.h"
#include "torch_lib_libtorch/compare.h"
#include "torch_lib_libtorch/libtorch_bridge.h"

namespace onnxscript::torch_lib::comparison {
namespace {

// The registered names that no sample compares with LibTorch yet, one per
// line: the families added after the suite (unary, binary, reductions,
// shapes, nn, indexing, upsampling, losses, random, prims) are tested against
// values PyTorch printed (tests/torch_lib), not yet here. The list may only
// shrink: a name that gains a sample must leave it.
std::set<std::string> not_yet_compared() {
  std::set<std::string> names;
  std::ifstream in(std::string(ONNXSCRIPT_TEST_DATA_DIR) + "/torchlib/not_yet_compared.txt");
  std::string line;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') names.insert(line);
  return names;
}

// The names with samples (and any a sample names), sorted.
std::vector<std::string> sampled_names() {
  std::set<std::string> names;
  for (const Sample& s : samples()) names.insert(s.name);
  return {names.begin(), names.end()};
}

// The registered names whose schema LibTorch knows: all but prims::, whose
// schemas Python's torch._prims registers (LibTorch alone has none).
std::vector<std::string> schema_names() {
  std::vector<std::string> names;
  for (const std::string& n : torchlib_registry().names())
    if (!n.starts_with("prims::")) names.push_back(n);
  return names;
}

TEST(TorchlibVsLibTorchTable, EveryRegisteredNameHasSamplesAndEverySampleARegisteredName) {
  std::set<std::string> sampled;
  for (const Sample& s : samples()) {
    if (s.known_failure.empty()) sampled.insert(s.name);
    EXPECT_TRUE(torchlib_registry().is_registered_op(s.name))
        << "sample '" << s.label << "' names " << s.name << ", which torchlib does not register";
  }
  ASSERT_TRUE(std::filesystem::exists(std::string(ONNXSCRIPT_TEST_DATA_DIR) +
                                      "/torchlib/not_yet_compared.txt"))
      << "tests/data/torchlib/not_yet_compared.txt is missing";
  const std::set<std::string> pending = not_yet_compared();
  for (const std::string& name : torchlib_registry().names()) {
    if (pending.count(name)) {
      EXPECT_FALSE(sampled.count(name))
          << name << " has a sample now: remove it from tests/data/torchlib/not_yet_compared.txt";
      continue;
    }
    EXPECT_TRUE(sampled.count(name))
        << name
        << " is registered but has no sample (that is not a known failure) in "
           "tests/torch_lib_libtorch/samples.cc";
  }
  for (const std::string& name : pending)
    EXPECT_TRUE(torchlib_registry().is_registered_op(name))
        << name << " in not_yet_compared.txt is not registered";
}

TEST(TorchlibVsLibTorchTable, OnnxRuntimeIsInstalled) {
  ASSERT_TRUE(testing::onnxruntime_available()) << testing::onnxruntime_unavailable_reason();
}

// One ATen argument in the forms the suite converts, through an IValue of
// the given schema type and back.
TEST(TorchlibVsLibTorchBridge, ArgumentsRoundTripThroughIValues) {
  const Arg tensor = libtorch::round_trip(Arg(Tensor::from<float>({1.5f, -2}, {2, 1})), "Tensor");
  ASSERT_TRUE(tensor.is_tensor());
  EXPECT_EQ(tensor.tensor()->tensor().shape(), (ir::Dims{2, 1}));
  EXPECT_EQ(tensor.tensor()->tensor().data<float>()[1], -2.0f);
  const Arg list = libtorch::round_trip(
      Arg(std::vector<Value>{Value(Tensor::from<int64_t>({7})), Value(Tensor::scalar<bool>(true))}),
      "Tensor[]");
  const auto& values = std::get<std::vector<Value>>(list.storage());
  ASSERT_EQ(values.size(), 2u);
  EXPECT_EQ(values[0].tensor().data<int64_t>()[0], 7);
  EXPECT_EQ(values[1].tensor().dtype(), DataType::kBool);
  EXPECT_EQ(std::get<int64_t>(libtorch::round_trip(Arg(-3), "int").storage()), -3);
  // An int where the schema says float is a float, as TorchScript converts it.
  EXPECT_EQ(std::get<double>(libtorch::round_trip(Arg(2), "float").storage()), 2.0);
  EXPECT_EQ(std::get<double>(libtorch::round_trip(Arg(0.25), "Scalar").storage()), 0.25);
  EXPECT_EQ(std::get<bool>(libtorch::round_trip(Arg(true), "bool").storage()), true);
  EXPECT_EQ(std::get<std::vector<int64_t>>(libtorch::round_trip(Arg({1, -2}), "int[]").storage()),
            (std::vector<int64_t>{1, -2}));
  // A single int for int[N] repeats N times.
  EXPECT_EQ(std::get<std::vector<int64_t>>(libtorch::round_trip(Arg(3), "int[2]").storage()),
            (std::vector<int64_t>{3, 3}));
  EXPECT_TRUE(libtorch::round_trip(Arg(), "int?").is_none());
  EXPECT_EQ(std::get<std::string>(libtorch::round_trip(Arg("tanh"), "str").storage()), "tanh");
  // ScalarType and MemoryFormat travel as their codes.
  EXPECT_EQ(std::get<int64_t>(libtorch::round_trip(Arg(7), "ScalarType?").storage()), 7);
  EXPECT_EQ(
      std::get<int64_t>(libtorch::round_trip(Arg("contiguous_format"), "MemoryFormat").storage()),
      0);
}

TEST(TorchlibVsLibTorchBridge, LibTorchErrorsBecomeOnnxscriptErrors) {
  const std::vector<Arg> args = {Arg(Tensor::from<float>({1, 2})),
                                 Arg(Tensor::from<float>({1, 2, 3}))};
  EXPECT_THROW(libtorch::call("aten::add.Tensor", args, {}), Error);
  EXPECT_THROW(libtorch::call("aten::no_such_operator", {}, {}), Error);
  EXPECT_FALSE(libtorch::schema_text("aten::no_such_operator").has_value());
}

// A schema type with PyTorch 1.13's spelling: later PyTorch (whose schemas
// upstream torchlib copies) writes SymInt where 1.13 still writes int for
// some parameters (padding, normalized_shape, select's index); both are an
// int while exporting.
std::string as_int(std::string type) {
  for (size_t at = type.find("SymInt"); at != std::string::npos; at = type.find("SymInt"))
    type.replace(at, 6, "int");
  return type;
}

// A default as LibTorch's schema prints it: MemoryFormat and Layout
// identifiers are their codes.
Arg as_code(const std::optional<Arg>& a) {
  if (const auto* name = std::get_if<std::string>(&a->storage())) {
    if (*name == "contiguous_format") return Arg(0);
    if (*name == "preserve_format") return Arg(1);
  }
  return *a;
}

// Two schema defaults agree: the same value, with a single int standing for
// an int[N] list of it, and floats equal to printing precision.
bool same_default(const std::optional<Arg>& ours, const std::optional<Arg>& b) {
  if (ours.has_value() != b.has_value()) return false;
  if (!ours) return true;
  const std::optional<Arg> a = as_code(ours);
  if (a->describe() == b->describe()) return true;
  auto number = [](const Arg& x) -> std::optional<double> {
    if (auto* i = std::get_if<int64_t>(&x.storage())) return static_cast<double>(*i);
    if (auto* d = std::get_if<double>(&x.storage())) return *d;
    return std::nullopt;
  };
  if (auto x = number(*a), y = number(*b); x && y) return std::abs(*x - *y) <= 1e-12 * std::abs(*x);
  auto ints = [](const Arg& x) -> std::optional<std::vector<int64_t>> {
    if (auto* l = std::get_if<std::vector<int64_t>>(&x.storage())) return *l;
    return std::nullopt;
  };
  auto repeated = [](const Arg& single, const std::vector<int64_t>& list) {
    const auto* i = std::get_if<int64_t>(&single.storage());
    return i && !list.empty() &&
           std::all_of(list.begin(), list.end(), [&](int64_t v) { return v == *i; });
  };
  if (auto l = ints(*b)) return repeated(*a, *l);
  if (auto l = ints(*a)) return repeated(*b, *l);
  return false;
}

std::string test_name(const std::string& name) {
  std::string out;
  for (char c : name) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

class TorchlibVsLibTorch : public ::testing::TestWithParam<std::string> {};
class TorchlibSchemaVsLibTorch : public ::testing::TestWithParam<std::string> {};

// torchlib's schema is LibTorch's: the same parameters, in order, with the
// same types, keyword-only marks and defaults.
TEST_P(TorchlibSchemaVsLibTorch, SchemaIsLibTorchs) {
  const std::string& name = GetParam();
  const std::span<const OpOverload> overloads = torchlib_registry().get_op_functions(name);
  ASSERT_FALSE(overloads.empty()) << name << " is not registered";
  const std::optional<std::string> text = libtorch::schema_text(name);
  ASSERT_TRUE(text) << "LibTorch has no operator " << name;
  const Schema theirs = Schema::parse(*text);
  for (const OpOverload& o : overloads) {
    const Schema& ours = o.schema;
    ASSERT_EQ(ours.params.size(), theirs.params.size()) << *text;
    for (size_t i = 0; i < ours.params.size(); ++i) {
      const SchemaParam &p = ours.params[i], &q = theirs.params[i];
      EXPECT_EQ(p.name, q.name) << "parameter " << i << " of " << *text;
      EXPECT_EQ(as_int(p.type), as_int(q.type)) << "parameter " << p.name << " of " << *text;
      EXPECT_EQ(p.keyword_only, q.keyword_only) << "parameter " << p.name << " of " << *text;
      EXPECT_TRUE(same_default(p.default_value, q.default_value))
          << "default of " << p.name << ": ours "
          << (p.default_value ? p.default_value->describe() : "none") << ", LibTorch's "
          << (q.default_value ? q.default_value->describe() : "none") << " in " << *text;
    }
    EXPECT_EQ(ours.returns.size(), theirs.returns.size()) << *text;
  }
}

// Each sample: LibTorch's operator gives the expected outputs; torchlib's
// overload must match them eagerly, traced in the Session, and in ONNX Runtime.
TEST_P(TorchlibVsLibTorch, SamplesMatchEagerlyInTheSessionAndInOnnxRuntime) {
  const std::string& name = GetParam();
  int total = 0, libtorch_ok = 0, eager_ok = 0, session_ok = 0, ort_ok = 0, ort_na = 0, known = 0;
  std::vector<const Sample*> mine;
  for (const Sample& s : samples())
    if (s.name == name) mine.push_back(&s);
  const std::vector<SampleResult> results = run_all(mine);
  for (size_t i = 0; i < mine.size(); ++i) {
    const Sample& s = *mine[i];
    const SampleResult& r = results[i];
    ++total;
    SCOPED_TRACE(name + " sample '" + s.label + "'");
    if (!s.known_failure.empty()) {
      ++known;
      const bool agrees =
          r.libtorch_error.empty() && r.eager.empty() && r.session.empty() && r.onnxruntime.empty();
      EXPECT_FALSE(agrees) << "now agrees with LibTorch: remove its known_failure ('"
                           << s.known_failure << "') in samples.cc";
      continue;
    }
    EXPECT_EQ(r.libtorch_error, "") << "LibTorch rejected the sample";
    if (!r.libtorch_error.empty()) continue;
    ++libtorch_ok;
    EXPECT_EQ(r.eager, "") << "eager";
    EXPECT_EQ(r.session, "") << "Session";
    EXPECT_EQ(r.onnxruntime, "") << "ONNX Runtime";
    eager_ok += r.eager.empty();
    session_ok += r.session.empty();
    ort_ok += r.onnxruntime.empty() && !r.onnxruntime_not_applicable;
    ort_na += r.onnxruntime_not_applicable;
  }
  EXPECT_GT(total, 0) << name << " has no sample";
  std::cout << "[per-op] " << name << ": " << total << " samples; LibTorch ran " << libtorch_ok
            << ", eager " << eager_ok << ", Session " << session_ok << ", ONNX Runtime " << ort_ok
            << " agree" << (known ? fmt::format(", {} known failures", known) : "")
            << (ort_na ? fmt::format(" ({} lack an ONNX Runtime kernel)", ort_na) : "") << "\n";
}

INSTANTIATE_TEST_SUITE_P(Sampled, TorchlibVsLibTorch, ::testing::ValuesIn(sampled_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return test_name(info.param);
                         });
INSTANTIATE_TEST_SUITE_P(Registered, TorchlibSchemaVsLibTorch, ::testing::ValuesIn(schema_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return test_name(info.param);
                         });

}  // namespace
}  // namespace onnxscript::torch_lib::comparison
