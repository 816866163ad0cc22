// SVMClassifier (ai.onnx.ml 1), for L class labels.
// - SVC mode (vectors_per_class given): the support vectors are grouped by
//   class, class c owning vectors_per_class[c] of them (V in all), and
//   coefficients is libsvm's [L - 1, V] dual coefficient matrix. For every
//   pair of classes i < j, in the order (0,1), (0,2), ..., (1,2), ...:
//     s_ij = rho[p] + sum_{v in i} coef[j - 1][v] K(x, sv_v)
//                   + sum_{v in j} coef[i][v] K(x, sv_v)
//   and class i gets a vote when s_ij > 0, class j otherwise. Y is the class
//   with the most votes (the lowest index on ties). Z holds the L(L-1)/2
//   pairwise scores; for two classes it is [-s, s]. When prob_a and prob_b
//   are given (one entry per pair), Z holds class probabilities instead:
//   r_ij = 1 / (1 + exp(s_ij * prob_a[p] + prob_b[p])) (Platt scaling,
//   clamped to [1e-7, 1 - 1e-7]) coupled into L probabilities by the
//   iterative method of Wu, Lin and Weng (2004), as libsvm does; Y still
//   comes from the votes, as in ONNX Runtime and ONNX's reference evaluator.
// - Linear mode (no vectors_per_class): coefficients is [L, F]; class c
//   scores <x, coef_c> + rho[0] (one rho for all, as both runtimes read it),
//   Y is the top score's class and Z the L scores.
// post_transform is applied to each row of Z.
#include <cmath>

#include <fmt/format.h>

#include "eval/kernels/ml/ml_util.h"

namespace onnxscript::eval {
namespace {

// Pairwise coupling (Wu, Lin and Weng 2004, method 2, as in libsvm): finds p
// with sum 1 minimising sum_i sum_{j != i} (r_ji p_i - r_ij p_j)^2, where
// r[i * k + j] estimates P(class i | i or j).
std::vector<double> couple_probabilities(int64_t k, const std::vector<double>& r) {
  std::vector<double> q(static_cast<size_t>(k * k), 0.0), qp(static_cast<size_t>(k));
  std::vector<double> p(static_cast<size_t>(k), 1.0 / static_cast<double>(k));
  for (int64_t t = 0; t < k; ++t) {
    for (int64_t j = 0; j < k; ++j) {
      if (j == t) continue;
      q[t * k + t] += r[j * k + t] * r[j * k + t];
      q[t * k + j] = -r[j * k + t] * r[t * k + j];
    }
  }
  const double eps = 0.005 / static_cast<double>(k);
  const int64_t max_iterations = std::max<int64_t>(100, k);
  for (int64_t iteration = 0; iteration < max_iterations; ++iteration) {
    double pqp = 0;
    for (int64_t t = 0; t < k; ++t) {
      qp[t] = 0;
      for (int64_t j = 0; j < k; ++j) qp[t] += q[t * k + j] * p[j];
      pqp += p[t] * qp[t];
    }
    double max_error = 0;
    for (int64_t t = 0; t < k; ++t) max_error = std::max(max_error, std::fabs(qp[t] - pqp));
    if (max_error < eps) break;
    for (int64_t t = 0; t < k; ++t) {
      const double diff = (-qp[t] + pqp) / q[t * k + t];
      p[t] += diff;
      pqp = (pqp + diff * (diff * q[t * k + t] + 2 * qp[t])) / (1 + diff) / (1 + diff);
      for (int64_t j = 0; j < k; ++j) {
        qp[j] = (qp[j] + diff * q[t * k + j]) / (1 + diff);
        p[j] /= 1 + diff;
      }
    }
  }
  return p;
}

void svm_classifier(KernelContext& ctx) {
  const ml::FeatureMatrix x = ml::read_features(ctx, ctx.input_tensor(0));
  const ml::ClassLabels labels =
      ml::read_class_labels(ctx, "classlabels_ints", "classlabels_strings");
  const ml::PostTransform transform = ml::read_post_transform(ctx);
  const ml::SvmKernel kernel = ml::read_svm_kernel(ctx);
  const std::vector<float> coefficients = ctx.attr_floats("coefficients");
  const std::vector<float> support_vectors = ctx.attr_floats("support_vectors");
  const std::vector<float> rho = ctx.attr_floats("rho");
  const std::vector<float> prob_a = ctx.attr_floats("prob_a");
  const std::vector<float> prob_b = ctx.attr_floats("prob_b");
  const std::vector<int64_t> vectors_per_class = ctx.attr_ints("vectors_per_class");
  const int64_t classes = labels.size();
  const int64_t features = x.features;
  const int64_t pairs = classes * (classes - 1) / 2;
  if (prob_a.size() != prob_b.size())
    ctx.fail(fmt::format("prob_a has {} entries but prob_b has {}", prob_a.size(), prob_b.size()));

  int64_t vectors = 0;
  std::vector<int64_t> first_vector;
  for (int64_t count : vectors_per_class) {
    if (count < 0) ctx.fail(fmt::format("vectors_per_class entry {} is negative", count));
    // Every vector needs at least one coefficient; this also keeps the sums
    // and products below from overflowing.
    if (count > static_cast<int64_t>(coefficients.size()) - vectors)
      ctx.fail(fmt::format("vectors_per_class counts more vectors than there are coefficients ({})",
                           coefficients.size()));
    first_vector.push_back(vectors);
    vectors += count;
  }
  const bool svc = vectors > 0;
  const int64_t n = x.rows;
  Tensor y = labels.make_output(n);

  if (!svc) {
    if (static_cast<int64_t>(coefficients.size()) != classes * features)
      ctx.fail(fmt::format("a linear SVM needs {} coefficients ({} classes x {} features), got {}",
                           classes * features, classes, features, coefficients.size()));
    if (rho.empty()) ctx.fail("rho must have an entry");
    std::vector<double> z(static_cast<size_t>(n * classes));
    for (int64_t r = 0; r < n; ++r) {
      std::span<double> row(z.data() + r * classes, static_cast<size_t>(classes));
      for (int64_t c = 0; c < classes; ++c) {
        double s = rho[0];
        for (int64_t f = 0; f < features; ++f) s += x.row(r)[f] * coefficients[c * features + f];
        row[c] = s;
      }
      labels.write(y, r, ml::top_class(std::span<const double>(row)));
      ml::apply_post_transform(transform, row);
    }
    ctx.set_output(0, y);
    if (ctx.num_outputs() > 1) ctx.set_output(1, ml::float_tensor({n, classes}, z));
    return;
  }

  if (static_cast<int64_t>(vectors_per_class.size()) != classes)
    ctx.fail(fmt::format("vectors_per_class has {} entries for {} class labels",
                         vectors_per_class.size(), classes));
  if (classes < 2) ctx.fail("an SVC model needs at least two classes");
  if (static_cast<int64_t>(support_vectors.size()) != vectors * features)
    ctx.fail(fmt::format("{} support_vectors values for {} vectors of {} features",
                         support_vectors.size(), vectors, features));
  if (static_cast<int64_t>(coefficients.size()) != (classes - 1) * vectors)
    ctx.fail(fmt::format("{} coefficients; an SVC model of {} classes and {} vectors needs {}",
                         coefficients.size(), classes, vectors, (classes - 1) * vectors));
  if (static_cast<int64_t>(rho.size()) != pairs)
    ctx.fail(fmt::format("rho has {} entries; {} classes need one per pair ({})", rho.size(),
                         classes, pairs));
  const bool with_probabilities = !prob_a.empty();
  if (with_probabilities && static_cast<int64_t>(prob_a.size()) != pairs)
    ctx.fail(fmt::format("prob_a has {} entries; {} classes need one per pair ({})", prob_a.size(),
                         classes, pairs));

  const int64_t columns = with_probabilities ? classes : (classes == 2 ? 2 : pairs);
  std::vector<double> z(static_cast<size_t>(n * columns));
  std::vector<double> kernels(static_cast<size_t>(vectors)), scores(static_cast<size_t>(pairs));
  std::vector<int64_t> votes(static_cast<size_t>(classes));
  for (int64_t r = 0; r < n; ++r) {
    for (int64_t v = 0; v < vectors; ++v)
      kernels[v] = kernel(x.row(r), support_vectors.data() + v * features, features);
    std::fill(votes.begin(), votes.end(), 0);
    int64_t p = 0;
    for (int64_t i = 0; i < classes; ++i) {
      for (int64_t j = i + 1; j < classes; ++j, ++p) {
        double s = rho[p];
        for (int64_t v = first_vector[i]; v < first_vector[i] + vectors_per_class[i]; ++v)
          s += coefficients[(j - 1) * vectors + v] * kernels[v];
        for (int64_t v = first_vector[j]; v < first_vector[j] + vectors_per_class[j]; ++v)
          s += coefficients[i * vectors + v] * kernels[v];
        scores[p] = s;
        ++votes[s > 0 ? i : j];
      }
    }
    labels.write(y, r, ml::top_class(std::span<const int64_t>(votes)));

    std::span<double> row(z.data() + r * columns, static_cast<size_t>(columns));
    if (with_probabilities) {
      std::vector<double> pairwise(static_cast<size_t>(classes * classes), 0.0);
      p = 0;
      for (int64_t i = 0; i < classes; ++i) {
        for (int64_t j = i + 1; j < classes; ++j, ++p) {
          const double platt = 1.0 - ml::logistic(scores[p] * prob_a[p] + prob_b[p]);
          const double clamped = std::min(std::max(platt, 1e-7), 1 - 1e-7);
          pairwise[i * classes + j] = clamped;
          pairwise[j * classes + i] = 1 - clamped;
        }
      }
      const std::vector<double> probabilities = couple_probabilities(classes, pairwise);
      std::copy(probabilities.begin(), probabilities.end(), row.begin());
    } else if (classes == 2) {
      row[0] = -scores[0];
      row[1] = scores[0];
    } else {
      std::copy(scores.begin(), scores.end(), row.begin());
    }
    ml::apply_post_transform(transform, row);
  }
  ctx.set_output(0, y);
  if (ctx.num_outputs() > 1) ctx.set_output(1, ml::float_tensor({n, columns}, z));
}

}  // namespace

void register_ml_svm_classifier(KernelRegistry& registry) {
  registry.add("ai.onnx.ml", "SVMClassifier", 1, svm_classifier);
}

}  // namespace onnxscript::eval
