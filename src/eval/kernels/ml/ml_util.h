#pragma once
// Shared pieces of the ai.onnx.ml kernels: reading their list attributes with
// errors that name the operator, the feature matrix every model operator
// takes (1-D [F] is one row, 2-D is [N, F]), class label lists, and the
// post_transform applied to score rows:
//   NONE          scores as they are;
//   LOGISTIC      1 / (1 + exp(-s)) element by element;
//   SOFTMAX       exp(s - max) / sum(exp(s - max)) over the row;
//   SOFTMAX_ZERO  the softmax over the non-zero entries only, zeros stay 0
//                 (a row of zeros stays zeros: there is nothing to normalise);
//   PROBIT        sqrt(2) * erfinv(2s - 1), the inverse of the standard normal
//                 CDF. We compute erfinv to double precision; ONNX Runtime uses
//                 Winitzki's approximation (1.30 gives 1.00017 for
//                 probit(0.8413447) = 1.0 and -1.95905 for probit(0.025) =
//                 -1.95996), so PROBIT outputs differ from it in the fourth
//                 significant digit.

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "eval/util/dispatch.h"
#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval::ml {

/// The index of the first largest score: the predicted class (ties go to
/// the lower class index).
template <typename T>
int64_t top_class(std::span<const T> scores) {
  int64_t best = 0;
  for (size_t c = 1; c < scores.size(); ++c)
    if (scores[c] > scores[static_cast<size_t>(best)]) best = static_cast<int64_t>(c);
  return best;
}

// ---------------------------------------------------------------- attributes

/// A string-list attribute, or empty when absent; a KernelError when it has another type.
inline std::vector<std::string> attr_strings(const KernelContext& ctx, std::string_view name) {
  const ir::Attribute* a = ctx.attribute(name);
  if (!a) return {};
  if (a->type != ir::AttributeType::kStrings)
    ctx.fail(fmt::format("attribute '{}' must be a list of strings", name));
  return a->as_strings();
}

/// True when the attribute is present (with any value, even an empty list).
inline bool has_attr(const KernelContext& ctx, std::string_view name) {
  return ctx.attribute(name) != nullptr;
}

/// Floats given either as `name` (floats) or as `name`_as_tensor (a float or
/// double tensor, ai.onnx.ml opset 3), widened to double. Empty when neither
/// is present; a KernelError when both are.
inline std::vector<double> attr_floats_or_tensor(const KernelContext& ctx,
                                                 const std::string& name) {
  const ir::Attribute* plain = ctx.attribute(name);
  const ir::Attribute* tensor = ctx.attribute(name + "_as_tensor");
  if (plain && tensor) ctx.fail(fmt::format("give '{}' or '{}_as_tensor', not both", name, name));
  if (tensor) {
    if (tensor->type != ir::AttributeType::kTensor)
      ctx.fail(fmt::format("attribute '{}_as_tensor' must be a tensor", name));
    const Tensor& t = tensor->as_tensor();
    std::vector<double> out(static_cast<size_t>(t.numel()));
    if (t.dtype() == DataType::kDouble) {
      for (int64_t i = 0; i < t.numel(); ++i) out[i] = t.data<double>()[i];
    } else if (t.dtype() == DataType::kFloat) {
      for (int64_t i = 0; i < t.numel(); ++i) out[i] = t.data<float>()[i];
    } else {
      ctx.fail(fmt::format("attribute '{}_as_tensor' must hold float or double, not {}", name,
                           ir::data_type_name(t.dtype())));
    }
    return out;
  }
  std::vector<float> floats = ctx.attr_floats(name);
  return std::vector<double>(floats.begin(), floats.end());
}

// ---------------------------------------------------------------- features

/// The input of a model operator as N rows of F features, widened to double.
struct FeatureMatrix {
  int64_t rows = 0;
  int64_t features = 0;
  std::vector<double> values;  // row-major, rows * features
  const double* row(int64_t r) const { return values.data() + r * features; }
};

/// Reads X (float, double, int32 or int64; 1-D is one row, 2-D is [N, F]).
inline FeatureMatrix read_features(const KernelContext& ctx, const Tensor& x) {
  if (x.rank() != 1 && x.rank() != 2)
    ctx.fail(fmt::format("X must be 1-D [F] or 2-D [N, F], got rank {}", x.rank()));
  FeatureMatrix m;
  m.rows = x.rank() == 1 ? 1 : x.shape()[0];
  m.features = x.shape().back();
  m.values.resize(static_cast<size_t>(x.numel()));
  dispatch<TypeList<DataType::kFloat, DataType::kDouble, DataType::kInt32, DataType::kInt64>>(
      x.dtype(), ctx, [&]<typename T>() {
        const T* p = x.data<T>();
        for (int64_t i = 0; i < x.numel(); ++i) m.values[i] = static_cast<double>(p[i]);
      });
  return m;
}

// ---------------------------------------------------------------- class labels

/// The class labels of a classifier: exactly one of an int64 and a string list.
struct ClassLabels {
  bool use_strings = false;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;

  int64_t size() const { return static_cast<int64_t>(use_strings ? strings.size() : ints.size()); }
  /// A 1-D label tensor of `n` elements (int64 or string).
  Tensor make_output(int64_t n) const {
    return Tensor(use_strings ? DataType::kString : DataType::kInt64, {n});
  }
  /// Writes the label of class `index` at position `i` of `out`.
  void write(Tensor& out, int64_t i, int64_t index) const {
    if (use_strings)
      out.data<std::string>()[i] = strings[static_cast<size_t>(index)];
    else
      out.data<int64_t>()[i] = ints[static_cast<size_t>(index)];
  }
};

/// Reads the label lists `ints_name`/`strings_name`; exactly one must be non-empty.
inline ClassLabels read_class_labels(const KernelContext& ctx, std::string_view ints_name,
                                     std::string_view strings_name) {
  ClassLabels labels;
  labels.ints = ctx.attr_ints(ints_name);
  labels.strings = attr_strings(ctx, strings_name);
  if (labels.ints.empty() == labels.strings.empty())
    ctx.fail(fmt::format("exactly one of '{}' and '{}' must be given", ints_name, strings_name));
  labels.use_strings = !labels.strings.empty();
  return labels;
}

// ---------------------------------------------------------------- post_transform

enum class PostTransform { kNone, kLogistic, kSoftmax, kSoftmaxZero, kProbit };

/// The `post_transform` attribute (default NONE); other names are a KernelError.
inline PostTransform read_post_transform(const KernelContext& ctx) {
  const std::string name = ctx.attr_string("post_transform", "NONE");
  if (name == "NONE") return PostTransform::kNone;
  if (name == "LOGISTIC") return PostTransform::kLogistic;
  if (name == "SOFTMAX") return PostTransform::kSoftmax;
  if (name == "SOFTMAX_ZERO") return PostTransform::kSoftmaxZero;
  if (name == "PROBIT") return PostTransform::kProbit;
  ctx.fail(fmt::format(
      "post_transform '{}' is not one of NONE, LOGISTIC, SOFTMAX, SOFTMAX_ZERO, PROBIT", name));
}

/// 1 / (1 + exp(-x)), computed without overflow for large |x|.
inline double logistic(double x) {
  const double e = std::exp(-std::fabs(x));
  return x >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
}

/// The inverse error function on [-1, 1] (±inf at ±1, NaN outside): Winitzki's
/// closed form as a first guess, refined by Newton steps on erf(x) - y.
inline double erf_inverse(double y) {
  if (std::isnan(y) || y < -1 || y > 1) return std::numeric_limits<double>::quiet_NaN();
  if (y == 1) return std::numeric_limits<double>::infinity();
  if (y == -1) return -std::numeric_limits<double>::infinity();
  if (y == 0) return 0;
  constexpr double kA = 0.147;
  constexpr double kPi = 3.14159265358979323846;
  const double ln = std::log((1 - y) * (1 + y));
  const double t = 2 / (kPi * kA) + ln / 2;
  double x = std::copysign(std::sqrt(std::sqrt(t * t - ln / kA) - t), y);
  const double two_over_sqrt_pi = 2 / std::sqrt(kPi);
  for (int step = 0; step < 4; ++step) {
    const double slope = two_over_sqrt_pi * std::exp(-x * x);
    if (slope == 0) break;
    x -= (std::erf(x) - y) / slope;
  }
  return x;
}

/// sqrt(2) * erfinv(2p - 1): the standard normal quantile of p.
inline double probit(double p) { return std::sqrt(2.0) * erf_inverse(2 * p - 1); }

/// Applies `transform` to one row of scores in place.
inline void apply_post_transform(PostTransform transform, std::span<double> row) {
  switch (transform) {
    case PostTransform::kNone:
      return;
    case PostTransform::kLogistic:
      for (double& v : row) v = logistic(v);
      return;
    case PostTransform::kProbit:
      for (double& v : row) v = probit(v);
      return;
    case PostTransform::kSoftmax: {
      if (row.empty()) return;
      double max = -std::numeric_limits<double>::infinity();
      for (double v : row) max = std::max(max, v);
      double sum = 0;
      for (double& v : row) sum += (v = std::exp(v - max));
      for (double& v : row) v /= sum;
      return;
    }
    case PostTransform::kSoftmaxZero: {
      double max = -std::numeric_limits<double>::infinity();
      for (double v : row)
        if (v != 0) max = std::max(max, v);
      double sum = 0;
      for (double& v : row)
        if (v != 0) sum += (v = std::exp(v - max));
      if (sum > 0)
        for (double& v : row) v /= sum;
      return;
    }
  }
}

// ---------------------------------------------------------------- SVM kernels

/// The kernel function of SVMClassifier and SVMRegressor, from `kernel_type`
/// and `kernel_params` = [gamma, coef0, degree] (all 0 when absent):
///   LINEAR   <x, v>
///   POLY     (gamma <x, v> + coef0)^degree
///   RBF      exp(-gamma |x - v|^2)
///   SIGMOID  tanh(gamma <x, v> + coef0)
struct SvmKernel {
  enum class Type { kLinear, kPoly, kRbf, kSigmoid };
  Type type = Type::kLinear;
  double gamma = 0, coef0 = 0;
  int64_t degree = 0;

  double operator()(const double* x, const float* v, int64_t n) const {
    if (type == Type::kRbf) {
      double sum = 0;
      for (int64_t i = 0; i < n; ++i) sum += (x[i] - v[i]) * (x[i] - v[i]);
      return std::exp(-gamma * sum);
    }
    double dot = 0;
    for (int64_t i = 0; i < n; ++i) dot += x[i] * v[i];
    switch (type) {
      case Type::kPoly:
        return std::pow(gamma * dot + coef0, static_cast<double>(degree));
      case Type::kSigmoid:
        return std::tanh(gamma * dot + coef0);
      default:
        return dot;
    }
  }
};

/// Reads `kernel_type` (default LINEAR) and `kernel_params` (3 entries or none).
inline SvmKernel read_svm_kernel(const KernelContext& ctx) {
  SvmKernel k;
  const std::string name = ctx.attr_string("kernel_type", "LINEAR");
  if (name == "LINEAR")
    k.type = SvmKernel::Type::kLinear;
  else if (name == "POLY")
    k.type = SvmKernel::Type::kPoly;
  else if (name == "RBF")
    k.type = SvmKernel::Type::kRbf;
  else if (name == "SIGMOID")
    k.type = SvmKernel::Type::kSigmoid;
  else
    ctx.fail(fmt::format("kernel_type '{}' is not one of LINEAR, POLY, RBF, SIGMOID", name));
  const std::vector<float> params = ctx.attr_floats("kernel_params");
  if (!params.empty()) {
    if (params.size() != 3)
      ctx.fail(fmt::format("kernel_params has {} entries; it needs [gamma, coef0, degree]",
                           params.size()));
    k.gamma = params[0];
    k.coef0 = params[1];
    if (!(std::fabs(params[2]) < 1e9))
      ctx.fail(fmt::format("kernel_params degree {} is not a usable integer", params[2]));
    k.degree = static_cast<int64_t>(params[2]);
  }
  return k;
}

/// A float tensor of `shape` from doubles (the score outputs are tensor(float)).
inline Tensor float_tensor(ir::Dims shape, std::span<const double> values) {
  Tensor out(DataType::kFloat, std::move(shape));
  float* p = out.data<float>();
  for (size_t i = 0; i < values.size(); ++i) p[i] = static_cast<float>(values[i]);
  return out;
}

}  // namespace onnxscript::eval::ml
