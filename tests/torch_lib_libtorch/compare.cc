// Runs a sample in LibTorch, eagerly through torchlib, traced into a model
// in the Session, and in ONNX Runtime, and compares the outputs.

#include "torch_lib_libtorch/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>

#include "interop/ort_runner.h"
#include "onnxscript/eval/session.h"
#include "onnxscript/support/error.h"
#include "onnxscript/torch_lib/registry.h"

namespace onnxscript::torch_lib::comparison {
namespace {

double element(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DataType::kFloat:
      return t.data<float>()[i];
    case DataType::kDouble:
      return t.data<double>()[i];
    case DataType::kFloat16:
      return static_cast<float>(t.data<float16>()[i]);
    case DataType::kInt64:
      return static_cast<double>(t.data<int64_t>()[i]);
    case DataType::kInt32:
      return t.data<int32_t>()[i];
    case DataType::kBool:
      return t.data<bool>()[i] ? 1.0 : 0.0;
    case DataType::kUint8:
      return t.data<uint8_t>()[i];
    case DataType::kInt8:
      return t.data<int8_t>()[i];
    case DataType::kInt16:
      return t.data<int16_t>()[i];
    default:
      throw Error(
          fmt::format("comparison: element type {} is not compared", static_cast<int>(t.dtype())));
  }
}

std::string dims_text(const ir::Dims& d) {
  return fmt::format("[{}]", fmt::join(std::vector<int64_t>(d.begin(), d.end()), ", "));
}

std::vector<Tensor> tensors_of(const std::vector<eval::RuntimeValue>& values) {
  std::vector<Tensor> out;
  for (const eval::RuntimeValue& v : values) out.push_back(v.tensor());
  return out;
}

Tensor to_tensor(const Value& v, size_t index) {
  if (v.is_concrete()) return v.tensor();
  throw Error(fmt::format("output {} is not a concrete tensor: {}", index, v.describe()));
}

}  // namespace

std::string compare(const Tensor& expected, const Tensor& actual, double tolerance) {
  if (expected.dtype() != actual.dtype()) {
    return fmt::format("element type {} where LibTorch gives {}", static_cast<int>(actual.dtype()),
                       static_cast<int>(expected.dtype()));
  }
  if (expected.shape() != actual.shape()) {
    return fmt::format("shape {} where LibTorch gives {}", dims_text(actual.shape()),
                       dims_text(expected.shape()));
  }
  const bool floating = expected.dtype() == DataType::kFloat ||
                        expected.dtype() == DataType::kDouble ||
                        expected.dtype() == DataType::kFloat16;
  if (tolerance == 0) {
    tolerance = expected.dtype() == DataType::kDouble    ? 1e-10
                : expected.dtype() == DataType::kFloat16 ? 1e-3
                                                         : 1e-5;
  }
  for (int64_t i = 0; i < expected.numel(); ++i) {
    const double e = element(expected, i), a = element(actual, i);
    const bool same = floating ? ((std::isnan(e) && std::isnan(a)) || e == a ||
                                  std::abs(a - e) <= tolerance * (1 + std::abs(e)))
                               : e == a;
    if (!same) return fmt::format("element {} is {} where LibTorch gives {}", i, a, e);
  }
  return "";
}

std::string compare_all(const std::vector<Tensor>& expected, const std::vector<Tensor>& actual,
                        double tolerance, bool layout_only) {
  if (expected.size() != actual.size()) {
    return fmt::format("{} outputs where LibTorch gives {}", actual.size(), expected.size());
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    std::string why;
    if (!layout_only) {
      why = compare(expected[i], actual[i], tolerance);
    } else if (expected[i].dtype() != actual[i].dtype() ||
               expected[i].shape() != actual[i].shape()) {
      why = fmt::format("element type {} and shape {} where LibTorch gives {} and {}",
                        static_cast<int>(actual[i].dtype()), dims_text(actual[i].shape()),
                        static_cast<int>(expected[i].dtype()), dims_text(expected[i].shape()));
    }
    if (!why.empty()) return fmt::format("output {}: {}", i, why);
  }
  return "";
}

namespace {

// A sample run everywhere but in ONNX Runtime, with the traced model and its
// inputs kept for ONNX Runtime (no model when tracing failed).
struct PartialRun {
  SampleResult result;
  std::shared_ptr<const ir::Model> model;
  std::vector<Tensor> inputs;
};

PartialRun run_before_onnxruntime(const Sample& sample) {
  PartialRun run;
  SampleResult& r = run.result;
  try {
    r.expected = libtorch::call(sample.reference.empty() ? sample.name : sample.reference,
                                sample.args, sample.keywords, sample.complex);
  } catch (const std::exception& e) {
    r.libtorch_error = e.what();
    return run;
  }
  try {
    const std::vector<Arg> args = torchlib_arguments(sample);
    const std::vector<Value> outputs = overload_for(sample, args)(args);
    std::vector<Tensor> actual;
    for (size_t i = 0; i < outputs.size(); ++i) actual.push_back(to_tensor(outputs[i], i));
    r.eager = compare_all(r.expected, actual, sample.tolerance, sample.random);
  } catch (const std::exception& e) {
    r.eager = std::string("threw: ") + e.what();
  }
  try {
    run.model = std::make_shared<const ir::Model>(trace(sample, run.inputs));
  } catch (const std::exception& e) {
    r.session = r.onnxruntime = std::string("tracing threw: ") + e.what();
    return run;
  }
  try {
    const eval::Session session(run.model);
    const std::vector<eval::RuntimeValue> feed(run.inputs.begin(), run.inputs.end());
    r.session =
        compare_all(r.expected, tensors_of(session.run(feed)), sample.tolerance, sample.random);
  } catch (const std::exception& e) {
    r.session = std::string("threw: ") + e.what();
  }
  return run;
}

// Fills `r.onnxruntime` from ONNX Runtime's outcome for the sample's model.
void judge_onnxruntime(const Sample& sample, const testing::OnnxRuntimeOutcome& outcome,
                       SampleResult& r) {
  if (outcome.error.empty()) {
    try {
      r.onnxruntime =
          compare_all(r.expected, tensors_of(outcome.outputs), sample.tolerance, sample.random);
    } catch (const std::exception& e) {
      r.onnxruntime = std::string("threw: ") + e.what();
    }
  } else if (!sample.onnxruntime_lacks.empty() &&
             outcome.error.find("Could not find an implementation") != std::string::npos) {
    r.onnxruntime_not_applicable = true;
  } else {
    r.onnxruntime = "threw: " + outcome.error;
  }
}

}  // namespace

std::vector<SampleResult> run_all(const std::vector<const Sample*>& samples) {
  std::vector<PartialRun> runs;
  std::vector<testing::OnnxRuntimeJob> jobs;
  std::vector<size_t> job_of_run;
  for (const Sample* sample : samples) {
    runs.push_back(run_before_onnxruntime(*sample));
    if (runs.back().model) {
      job_of_run.push_back(jobs.size());
      jobs.push_back({runs.back().model.get(), runs.back().inputs});
    } else {
      job_of_run.push_back(SIZE_MAX);
    }
  }
  std::vector<testing::OnnxRuntimeOutcome> outcomes;
  std::string batch_error;
  try {
    if (!jobs.empty()) outcomes = testing::run_many_in_onnxruntime(jobs);
  } catch (const std::exception& e) {
    batch_error = e.what();
  }
  std::vector<SampleResult> results;
  for (size_t i = 0; i < runs.size(); ++i) {
    SampleResult& r = runs[i].result;
    if (job_of_run[i] != SIZE_MAX) {
      if (!batch_error.empty()) {
        r.onnxruntime = "threw: " + batch_error;
      } else {
        judge_onnxruntime(*samples[i], outcomes[job_of_run[i]], r);
      }
    }
    results.push_back(std::move(r));
  }
  return results;
}

}  // namespace onnxscript::torch_lib::comparison
