// Constant: the tensor held by exactly one of its value attributes (value,
// sparse_value, value_float(s), value_int(s), value_string(s)).
#include <fmt/format.h>

#include "eval/util/stacking.h"
#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval {
namespace {

template <typename T>
Tensor list_tensor(const std::vector<T>& values) {
  return Tensor::from_span<T>(std::span<const T>(values.data(), values.size()));
}

void constant(KernelContext& ctx) {
  static constexpr const char* kNames[] = {"value",        "sparse_value", "value_float",
                                           "value_floats", "value_int",    "value_ints",
                                           "value_string", "value_strings"};
  const ir::Attribute* found = nullptr;
  for (const char* name : kNames) {
    if (const ir::Attribute* a = ctx.attribute(name)) {
      if (found)
        ctx.fail(fmt::format("has both '{}' and '{}'; exactly one value attribute is allowed",
                             found->name, name));
      found = a;
    }
  }
  if (!found) ctx.fail("has no value attribute");
  const std::string& name = found->name;
  try {
    if (name == "value") {
      ctx.set_output(0, found->as_tensor());
    } else if (name == "sparse_value") {
      const auto* sparse = std::get_if<ir::SparseTensor>(&found->value);
      if (!sparse) ctx.fail("sparse_value must hold a sparse tensor");
      ctx.set_output(0, densify(*sparse));
    } else if (name == "value_float") {
      ctx.set_output(0, Tensor::scalar<float>(found->as_float()));
    } else if (name == "value_floats") {
      ctx.set_output(0, list_tensor(found->as_floats()));
    } else if (name == "value_int") {
      ctx.set_output(0, Tensor::scalar<int64_t>(found->as_int()));
    } else if (name == "value_ints") {
      ctx.set_output(0, list_tensor(found->as_ints()));
    } else if (name == "value_string") {
      ctx.set_output(0, Tensor::scalar<std::string>(found->as_string()));
    } else {
      ctx.set_output(0, list_tensor(found->as_strings()));
    }
  } catch (const TypeError& e) {
    ctx.fail(e.what());
  } catch (const ValidationError& e) {
    ctx.fail(e.what());
  }
}

}  // namespace

void register_generator_constant(KernelRegistry& registry) {
  // 19-25 only widen the element types (float8, int4, and types the IR lacks), which this kernel
  // handles or rejects by type.
  for (int64_t v : {1, 9, 11, 12, 13, 19, 21, 23, 24, 25})
    registry.add("", "Constant", v, constant);
}

}  // namespace onnxscript::eval
