#include "onnxscript/eval/conformance.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstring>
#include <numeric>
#include <ostream>
#include <set>
#include <span>

#include <fmt/format.h>

#include "eval/util/stacking.h"
#include "onnxscript/eval/session.h"
#include "onnxscript/eval/tensor_io.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/support/file_io.h"

namespace onnxscript::eval {
namespace fs = std::filesystem;

namespace {

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return s;
}

std::string index_string(std::span<const int64_t> shape, int64_t flat) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = shape[d] == 0 ? 0 : flat % shape[d];
    flat = shape[d] == 0 ? 0 : flat / shape[d];
  }
  return fmt::format("[{}]", fmt::join(index, ","));
}

bool within_tolerance(double expected, double actual, const Tolerance& tol) {
  if (std::isnan(expected) || std::isnan(actual)) return std::isnan(expected) && std::isnan(actual);
  if (expected == actual) return true;  // also equal infinities
  if (std::isinf(expected) || std::isinf(actual)) return false;
  return std::fabs(actual - expected) <= tol.atol + tol.rtol * std::fabs(expected);
}

// An integer or bool element, exactly (int64 and uint64 do not fit a double).
std::string exact_string(const Tensor& t, int64_t i) {
  if (t.dtype() == DataType::kInt64) return fmt::format("{}", t.data<int64_t>()[i]);
  if (t.dtype() == DataType::kUint64) return fmt::format("{}", t.data<uint64_t>()[i]);
  if (t.dtype() == DataType::kBool) return t.data<bool>()[i] ? "true" : "false";
  return fmt::format("{}", element_as_double(t, i));
}

bool is_float_like(DataType dtype) { return ir::is_floating_point(dtype); }

std::string compare_tensors(const Tensor& expected, const Tensor& actual, const Tolerance& tol,
                            std::string_view what) {
  if (expected.dtype() != actual.dtype())
    return fmt::format("{}: expected element type {}, got {}", what,
                       ir::data_type_name(expected.dtype()), ir::data_type_name(actual.dtype()));
  if (expected.shape() != actual.shape())
    return fmt::format("{}: expected shape [{}], got [{}]", what, fmt::join(expected.shape(), ","),
                       fmt::join(actual.shape(), ","));
  const int64_t n = expected.numel();
  int64_t mismatches = 0, first = -1;
  double max_diff = 0;
  std::string first_expected, first_actual;
  auto record = [&](int64_t i, std::string e, std::string a) {
    if (mismatches++ == 0) {
      first = i;
      first_expected = std::move(e);
      first_actual = std::move(a);
    }
  };
  const DataType dtype = expected.dtype();
  if (dtype == DataType::kString) {
    for (int64_t i = 0; i < n; ++i) {
      const std::string& e = expected.data<std::string>()[i];
      const std::string& a = actual.data<std::string>()[i];
      if (e != a) record(i, fmt::format("'{}'", e), fmt::format("'{}'", a));
    }
  } else if (dtype == DataType::kComplex64 || dtype == DataType::kComplex128) {
    for (int64_t i = 0; i < n; ++i) {
      std::complex<double> e, a;
      if (dtype == DataType::kComplex64) {
        e = expected.data<std::complex<float>>()[i];
        a = actual.data<std::complex<float>>()[i];
      } else {
        e = expected.data<std::complex<double>>()[i];
        a = actual.data<std::complex<double>>()[i];
      }
      if (!within_tolerance(e.real(), a.real(), tol) || !within_tolerance(e.imag(), a.imag(), tol))
        record(i, fmt::format("{}{:+}j", e.real(), e.imag()),
               fmt::format("{}{:+}j", a.real(), a.imag()));
    }
  } else if (is_float_like(dtype)) {
    for (int64_t i = 0; i < n; ++i) {
      const double e = element_as_double(expected, i), a = element_as_double(actual, i);
      if (!within_tolerance(e, a, tol)) {
        if (std::isfinite(e) && std::isfinite(a)) max_diff = std::max(max_diff, std::fabs(a - e));
        record(i, fmt::format("{}", e), fmt::format("{}", a));
      }
    }
  } else if (ir::is_sub_byte(dtype)) {  // int4/uint4, int2/uint2: exact, by value
    for (int64_t i = 0; i < n; ++i) {
      const double e = element_as_double(expected, i), a = element_as_double(actual, i);
      if (e != a) record(i, fmt::format("{}", e), fmt::format("{}", a));
    }
  } else {
    // Integers and bools: exact, compared bytewise element by element so the
    // message can name the element.
    const size_t width = static_cast<size_t>(ir::bit_width(dtype) / 8);
    const auto* e = static_cast<const unsigned char*>(expected.raw_data());
    const auto* a = static_cast<const unsigned char*>(actual.raw_data());
    for (int64_t i = 0; i < n; ++i) {
      if (std::memcmp(e + i * width, a + i * width, width) != 0)
        record(i, exact_string(expected, i), exact_string(actual, i));
    }
  }
  if (mismatches == 0) return "";
  std::string s = fmt::format("{}: element {} expected {}, got {}", what,
                              index_string(expected.shape(), first), first_expected, first_actual);
  if (mismatches > 1) s += fmt::format(" ({} of {} elements differ", mismatches, n);
  if (mismatches > 1 && max_diff > 0) s += fmt::format(", max abs diff {:g}", max_diff);
  if (mismatches > 1) s += ")";
  return s;
}

// A map with its entries in ascending key order (int64 or string keys; other
// key types keep their order), so that maps compare as sets of pairs: ONNX
// maps have no order, and writers differ in the one they store.
MapValue sorted_by_key(const MapValue& map) {
  const int64_t n = map.keys.numel();
  const DataType key_type = map.keys.dtype();
  if (n < 2 || (key_type != DataType::kString && key_type != DataType::kInt64)) return map;
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    if (key_type == DataType::kString)
      return map.keys.data<std::string>()[a] < map.keys.data<std::string>()[b];
    return map.keys.data<int64_t>()[a] < map.keys.data<int64_t>()[b];
  });
  std::vector<Tensor> keys, values;
  for (int64_t i : order) {
    keys.push_back(take_slice(map.keys, 0, i));
    values.push_back(take_slice(map.values, 0, i));
  }
  return MapValue{stack(keys, 0, "map"), stack(values, 0, "map")};
}

}  // namespace

std::string compare_values(const RuntimeValue& expected, const RuntimeValue& actual,
                           const Tolerance& tol, std::string_view what) {
  if (expected.kind() != actual.kind()) {
    // An optional holding a value matches that value only as an optional.
    return fmt::format("{}: expected {}, got {}", what, expected.describe(), actual.describe());
  }
  switch (expected.kind()) {
    case RuntimeValue::Kind::kNone:
      return "";
    case RuntimeValue::Kind::kTensor:
      return compare_tensors(expected.tensor(), actual.tensor(), tol, what);
    case RuntimeValue::Kind::kSequence: {
      const auto& e = expected.sequence().items;
      const auto& a = actual.sequence().items;
      if (e.size() != a.size())
        return fmt::format("{}: expected a sequence of {} elements, got {}", what, e.size(),
                           a.size());
      for (size_t i = 0; i < e.size(); ++i) {
        std::string d = compare_values(e[i], a[i], tol, fmt::format("{}[{}]", what, i));
        if (!d.empty()) return d;
      }
      return "";
    }
    case RuntimeValue::Kind::kOptional: {
      const auto& e = expected.optional().value;
      const auto& a = actual.optional().value;
      if (!e || !a) {
        if (!e && !a) return "";
        return fmt::format("{}: expected {}, got {}", what, expected.describe(), actual.describe());
      }
      return compare_values(*e, *a, tol, what);
    }
    case RuntimeValue::Kind::kMap: {
      const MapValue e = sorted_by_key(expected.map());
      const MapValue a = sorted_by_key(actual.map());
      std::string d = compare_tensors(e.keys, a.keys, tol, fmt::format("{} keys", what));
      if (!d.empty()) return d;
      return compare_tensors(e.values, a.values, tol, fmt::format("{} values", what));
    }
  }
  return "";
}

// ---------------------------------------------------------------- manifest

Manifest Manifest::parse(std::string_view text, std::string_view source) {
  Manifest m;
  size_t line_no = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++line_no;
    if (const size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    const size_t start = line.find_first_not_of(" \t\r");
    if (start == std::string_view::npos) continue;
    line = line.substr(start);
    const size_t last = line.find_last_not_of(" \t\r");
    line = line.substr(0, last + 1);
    const size_t space = line.find_first_of(" \t");
    const std::string name(line.substr(0, space));
    if (space == std::string_view::npos)
      throw ParseError(
          fmt::format("{}:{}: '{}' needs a reason after the case name", source, line_no, name));
    std::string_view reason = line.substr(space);
    reason = reason.substr(reason.find_first_not_of(" \t"));
    if (!m.expected_failures.emplace(name, std::string(reason)).second)
      throw ParseError(fmt::format("{}:{}: '{}' is listed twice", source, line_no, name));
  }
  return m;
}

Manifest Manifest::load(const fs::path& path) { return parse(read_file(path), path.string()); }

// ---------------------------------------------------------------- cases

std::vector<fs::path> find_cases(std::span<const fs::path> roots) {
  std::vector<fs::path> cases;
  for (const fs::path& root : roots) {
    std::error_code ec;
    if (!fs::is_directory(root, ec))
      throw IoError(fmt::format("{}: not a directory", root.string()));
    if (fs::exists(root / "model.onnx", ec)) {
      cases.push_back(root);
      continue;
    }
    std::vector<fs::path> found;
    for (const auto& entry : fs::directory_iterator(root, ec))
      if (entry.is_directory() && fs::exists(entry.path() / "model.onnx"))
        found.push_back(entry.path());
    std::sort(found.begin(), found.end());
    cases.insert(cases.end(), found.begin(), found.end());
  }
  return cases;
}

namespace {

std::vector<fs::path> numbered_files(const fs::path& dir, std::string_view prefix) {
  std::vector<fs::path> files;
  for (int i = 0;; ++i) {
    fs::path p = dir / fmt::format("{}_{}.pb", prefix, i);
    if (!fs::exists(p)) break;
    files.push_back(p);
  }
  return files;
}

// The ONNX 1.12 test data store bfloat16 tensors as uint16 (numpy has no
// bfloat16); read them as the bfloat16 the model declares. Same bits.
RuntimeValue as_declared(RuntimeValue value, const ir::Value* declared) {
  if (!declared || !declared->type() || !declared->type()->is_tensor() || !value.is_tensor())
    return value;
  const Tensor& t = value.tensor();
  if (declared->type()->elem_type == DataType::kBfloat16 && t.dtype() == DataType::kUint16)
    return Tensor(DataType::kBfloat16, t.shape(), t.storage(), t.byte_offset());
  return value;
}

// Runs one data set; returns "" on success or the reason of the failure.
std::string run_data_set(const Session& session, const fs::path& data_dir, const Tolerance& tol) {
  const ir::Graph& graph = session.model().graph();
  const auto inputs = graph.inputs();
  // Test data binds to the inputs without initializers, by name when the
  // file names one, else by position.
  std::vector<size_t> feedable;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!inputs[i]->const_value()) feedable.push_back(i);
  std::map<std::string, RuntimeValue, std::less<>> feed;
  const std::vector<fs::path> input_files = numbered_files(data_dir, "input");
  for (size_t k = 0; k < input_files.size(); ++k) {
    const ir::Value* positional =
        k < feedable.size() ? inputs[feedable[k]] : (k < inputs.size() ? inputs[k] : nullptr);
    std::string name;
    RuntimeValue value =
        load_value_pb(input_files[k], positional ? proto_kind_hint(positional->type()) : "", &name);
    const bool named = std::any_of(inputs.begin(), inputs.end(),
                                   [&](const ir::Value* v) { return v->name() == name; });
    if (!named) {
      if (!positional)
        return fmt::format("{} has no matching model input", input_files[k].filename().string());
      name = positional->name();
    }
    const ir::Value* target = positional;
    for (const ir::Value* v : inputs)
      if (v->name() == name) target = v;
    feed[name] = as_declared(std::move(value), target);
  }
  std::vector<RuntimeValue> actual = session.run(feed);
  const std::vector<fs::path> output_files = numbered_files(data_dir, "output");
  if (output_files.size() != actual.size())
    return fmt::format("the model has {} outputs but {} expects {}", actual.size(),
                       data_dir.filename().string(), output_files.size());
  for (size_t k = 0; k < output_files.size(); ++k) {
    const ir::Value* out = graph.outputs()[k];
    RuntimeValue expected =
        as_declared(load_value_pb(output_files[k], proto_kind_hint(out->type())), out);
    std::string diff =
        compare_values(expected, actual[k], tol, fmt::format("output '{}'", out->name()));
    if (!diff.empty()) return diff;
  }
  return "";
}

}  // namespace

CaseResult run_case(const fs::path& case_dir, const ConformanceOptions& options) {
  CaseResult result;
  result.dir = case_dir;
  result.name = case_dir.filename().string();
  const auto start = std::chrono::steady_clock::now();
  try {
    std::vector<fs::path> data_sets;
    for (const auto& entry : fs::directory_iterator(case_dir))
      if (entry.is_directory() && entry.path().filename().string().starts_with("test_data_set_"))
        data_sets.push_back(entry.path());
    std::sort(data_sets.begin(), data_sets.end());
    if (data_sets.empty()) {
      result.status = CaseStatus::kSkipped;
      result.reason = "no test_data_set_* folder";
    } else {
      SessionOptions session_options;
      session_options.check_input_shapes = false;  // some test data disagree with declared shapes
      ir::Model model = serde::load_model(case_dir / "model.onnx");
      if (options.prepare_model) options.prepare_model(model);
      Session session(std::move(model), session_options);
      result.status = CaseStatus::kPassed;
      for (const fs::path& data : data_sets) {
        std::string reason = run_data_set(session, data, options.tolerance);
        if (!reason.empty()) {
          result.status = CaseStatus::kFailed;
          result.reason = data_sets.size() > 1
                              ? fmt::format("{}: {}", data.filename().string(), reason)
                              : reason;
          break;
        }
      }
    }
  } catch (const std::exception& e) {
    result.status = CaseStatus::kFailed;
    result.reason = e.what();
  }
  result.reason = one_line(result.reason);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

namespace {

// Runs a case in a child process and reads its result from a pipe: a status
// byte, then the reason. A child that dies or hangs fails the case.
CaseResult run_case_isolated(const fs::path& case_dir, const ConformanceOptions& options) {
  int fds[2];
  if (pipe(fds) != 0) return run_case(case_dir, options);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return run_case(case_dir, options);
  }
  if (pid == 0) {
    close(fds[0]);
    CaseResult r = run_case(case_dir, options);
    std::string message(1, static_cast<char>('0' + static_cast<int>(r.status)));
    message += r.reason;
    size_t written = 0;
    while (written < message.size()) {
      const ssize_t w = write(fds[1], message.data() + written, message.size() - written);
      if (w <= 0) break;
      written += static_cast<size_t>(w);
    }
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  CaseResult result;
  result.dir = case_dir;
  result.name = case_dir.filename().string();
  std::string message;
  bool timed_out = false;
  char buffer[4096];
  while (true) {
    int wait_ms = -1;
    if (options.timeout_seconds > 0) {
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const double left = options.timeout_seconds - elapsed;
      if (left <= 0) {
        timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(left * 1000) + 1;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      timed_out = true;
      break;
    }
    const ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    message.append(buffer, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (timed_out) {
    result.status = CaseStatus::kFailed;
    result.reason = fmt::format("timed out after {:g} s", options.timeout_seconds);
  } else if (WIFSIGNALED(status)) {
    result.status = CaseStatus::kFailed;
    result.reason =
        fmt::format("crashed with signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
  } else if (message.empty() || message[0] < '0' || message[0] > '2') {
    result.status = CaseStatus::kFailed;
    result.reason = fmt::format("the case process exited with status {} without a result",
                                WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  } else {
    result.status = static_cast<CaseStatus>(message[0] - '0');
    result.reason = message.substr(1);
  }
  return result;
}

}  // namespace

ConformanceReport run_conformance(std::span<const fs::path> cases, const Manifest& manifest,
                                  const ConformanceOptions& options) {
  ConformanceReport report;
  report.results.reserve(cases.size());
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < cases.size(); ++i) {
    report.results.push_back(options.isolate ? run_case_isolated(cases[i], options)
                                             : run_case(cases[i], options));
    if (options.progress && ((i + 1) % 100 == 0 || i + 1 == cases.size())) {
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      *options.progress << fmt::format("conformance: {}/{} cases ({:.1f} s)\n", i + 1, cases.size(),
                                       elapsed)
                        << std::flush;
    }
  }
  for (const CaseResult& r : report.results) {
    const bool listed = manifest.expected_failures.count(r.name) != 0;
    switch (r.status) {
      case CaseStatus::kPassed:
        ++report.passed;
        if (listed) report.stale.push_back(&r);
        break;
      case CaseStatus::kFailed:
        ++report.failed;
        if (!listed) report.unexpected.push_back(&r);
        break;
      case CaseStatus::kSkipped:
        ++report.skipped;
        break;
    }
  }
  return report;
}

void print_report(const ConformanceReport& report, const Manifest& manifest, std::ostream& out) {
  for (const CaseResult& r : report.results) {
    if (r.status != CaseStatus::kFailed) continue;
    const bool listed = manifest.expected_failures.count(r.name) != 0;
    out << (listed ? "XFAIL " : "FAIL ") << r.name << ": " << r.reason << '\n';
  }
  for (const CaseResult& r : report.results)
    if (r.status == CaseStatus::kSkipped) out << "SKIP " << r.name << ": " << r.reason << '\n';
  for (const CaseResult* r : report.stale)
    out << "STALE " << r->name << ": passes, but the manifest expects a failure ("
        << manifest.expected_failures.find(r->name)->second << ")\n";
  if (!report.unexpected.empty())
    out << report.unexpected.size()
        << " unexpected failure(s) (FAIL above): fix them or add them to the manifest\n";
  if (!report.stale.empty())
    out << report.stale.size() << " stale manifest entr" << (report.stale.size() == 1 ? "y" : "ies")
        << " (STALE above): remove them from the manifest\n";
  out << report.passed << " passed, " << report.failed << " failed, " << report.skipped
      << " skipped\n";
}

std::string format_manifest(const ConformanceReport& report) {
  std::string out =
      "# Conformance cases expected to fail, one per line: <case_name> <reason>.\n"
      "# Regenerate with: onnxscript conformance DIR... --write-manifest FILE\n";
  std::vector<const CaseResult*> failed;
  for (const CaseResult& r : report.results)
    if (r.status == CaseStatus::kFailed) failed.push_back(&r);
  std::sort(failed.begin(), failed.end(),
            [](const CaseResult* a, const CaseResult* b) { return a->name < b->name; });
  std::set<std::string> seen;
  for (const CaseResult* r : failed)
    if (seen.insert(r->name).second)
      out += fmt::format("{} {}\n", r->name, r->reason.empty() ? "failed" : r->reason);
  return out;
}

}  // namespace onnxscript::eval
