#include "rewriter/rules/clip_bounds.h"

#include <cmath>
#include <optional>
#include <string>

#include "rewriter/rules/rule_util.h"

namespace onnxscript::rewriter::rules {

bool clip_bounds_ok(const Match& m, std::string_view lo, std::string_view hi) {
  const std::optional<ir::Type> x = m.type("x");
  if (!x || !x->is_tensor() || !x->shape) return m.reject("x's type or rank is unknown");
  std::optional<double> bounds[2];
  const std::string_view names[2] = {lo, hi};
  for (int i = 0; i < 2; ++i) {
    if (names[i].empty()) continue;
    const ir::Tensor* t = m.constant(names[i]);
    if (!t) return m.reject(std::string(names[i]) + " is not a constant");
    if (t->dtype() != x->elem_type) return m.reject(std::string(names[i]) + " has another type");
    if (t->rank() > static_cast<int64_t>(x->shape->size()))
      return m.reject(std::string(names[i]) + " would broadcast x to a higher rank");
    bounds[i] = scalar_value(t);
    if (!bounds[i]) return m.reject(std::string(names[i]) + " is not a one-element number");
    if (std::isnan(*bounds[i])) return m.reject(std::string(names[i]) + " is NaN");
  }
  if (bounds[0] && bounds[1] && *bounds[0] > *bounds[1]) return m.reject("lo > hi");
  return true;
}

Value scalar_bound(const Match& m, std::string_view input) {
  const ir::Tensor* t = m.constant(input);
  if (t->rank() == 0) return Value::traced(m.value(input));
  return Value(t->reshaped(ir::Dims{}));
}

}  // namespace onnxscript::rewriter::rules
