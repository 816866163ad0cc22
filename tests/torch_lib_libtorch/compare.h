#pragma once
/// \file
/// The comparison suite's sample table and the four ways it runs a sample:
/// LibTorch's own operator (the expected values), torchlib's overload
/// eagerly, the overload traced into a model and run in the Session, and the
/// same model in ONNX Runtime.

#include <optional>
#include <string>
#include <vector>

#include "onnxscript/ir/model.h"
#include "onnxscript/ir/tensor.h"
#include "onnxscript/torch_lib/arg.h"
#include "onnxscript/torch_lib/registry.h"
#include "torch_lib_libtorch/libtorch_bridge.h"

namespace onnxscript::torch_lib::comparison {

/// One sample call of a registered overload.
struct Sample {
  std::string name;                            ///< Qualified name: "aten::add.Tensor".
  std::string label;                           ///< What the sample exercises.
  std::vector<Arg> args;                       ///< Positional arguments.
  std::vector<libtorch::KeywordArg> keywords;  ///< Keyword arguments, by parameter name.
  /// Absolute and relative tolerance for floating outputs; 0 takes the
  /// element type's (float 1e-5, double 1e-10, float16 1e-3, as upstream's
  /// float16 tests). Integer and bool outputs
  /// compare exactly.
  double tolerance = 0;
  /// Non-empty when ONNX Runtime has no kernel for what the model needs
  /// (why, e.g. "no double Conv"): its "Could not find an implementation"
  /// then counts as not applicable; any other failure still fails.
  std::string onnxruntime_lacks;
  /// Non-empty for a sample torchlib gets wrong today: why (a true reason).
  /// The suite then expects a disagreement and fails once the sample
  /// agrees, so that the fix also removes the mark.
  std::string known_failure;
  /// The LibTorch operator that gives the expected values, when it is not
  /// `name` itself: for prims::, which LibTorch lacks (Python registers
  /// them), the aten:: operator that computes the same on the same
  /// arguments.
  std::string reference;
  /// True for a random operator: its outputs are draws, so only their element
  /// types and shapes are compared with LibTorch's.
  bool random = false;
  /// True when the sample's tensor arguments are complex numbers in
  /// torchlib's representation (a trailing dimension of 2: real, imaginary):
  /// LibTorch receives them as complex tensors (view_as_complex). Complex
  /// outputs of LibTorch always compare in that representation (view_as_real).
  bool complex = false;
};

/// Every sample, grouped by qualified name (samples.cc).
const std::vector<Sample>& samples();

/// The four results of one sample: LibTorch's outputs, and for each way of
/// running torchlib, an empty string when it agrees or why it does not.
struct SampleResult {
  std::vector<Tensor> expected;  ///< LibTorch's outputs.
  std::string libtorch_error;    ///< Non-empty when LibTorch rejected the call.
  std::string eager;             ///< The overload called on concrete tensors.
  std::string session;           ///< The traced model in the Session.
  std::string onnxruntime;       ///< The traced model in ONNX Runtime.
  /// True when ONNX Runtime lacked a kernel the sample expected it to lack.
  bool onnxruntime_not_applicable = false;
};

/// Runs each sample in all four ways, with all their ONNX Runtime runs in one
/// process (its start-up dominates a small model's run).
std::vector<SampleResult> run_all(const std::vector<const Sample*>& samples);

/// torchlib's overload of `sample.name` for `args` (the registry's dtype-aware
/// choice); throws Error when there is none.
const OpOverload& overload_for(const Sample& sample, std::span<const Arg> args);

/// The positional arguments torchlib's overload receives for `sample`:
/// the positional ones, then for each later parameter up to the last
/// keyword given, the keyword's value or the schema's default (trailing
/// defaults the overload fills itself).
std::vector<Arg> torchlib_arguments(const Sample& sample);

/// Traces the overload of `sample` into a model whose graph inputs are its
/// tensor arguments (each element of a tensor list an input), in order, with
/// their element types and shapes; the other arguments are known while
/// tracing, as when exporting. `inputs` receives the tensors to feed.
ir::Model trace(const Sample& sample, std::vector<Tensor>& inputs);

/// Empty when `actual` matches `expected` (same element type and shape,
/// values within `tolerance`, see Sample::tolerance); otherwise what differs.
std::string compare(const Tensor& expected, const Tensor& actual, double tolerance = 0);

/// Compares lists of outputs with compare(), naming the first that differs.
/// With `layout_only`, only element types and shapes are compared.
std::string compare_all(const std::vector<Tensor>& expected, const std::vector<Tensor>& actual,
                        double tolerance = 0, bool layout_only = false);

}  // namespace onnxscript::torch_lib::comparison
