#pragma once
/// \file
/// Eager evaluation of single operators: the path the eDSL takes for concrete
/// values. No proto, no session, no shape inference: a registry lookup and a
/// kernel call.

#include <span>
#include <string_view>
#include <vector>

#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval {

/// Runs one operator on concrete inputs and returns its `num_outputs` outputs.
/// Throws KernelError (missing kernel, bad inputs) naming the operator, its
/// version and the input types.
std::vector<RuntimeValue> run_op(std::string_view op_type, std::span<const RuntimeValue> inputs,
                                 std::span<const ir::Attribute> attributes = {},
                                 size_t num_outputs = 1, int64_t version = 17,
                                 std::string_view domain = "", GraphRunner* runner = nullptr);

/// The allocation-free form the eDSL uses: inputs are pointed to (null for
/// an omitted input) and the outputs are written to `outputs`, whose size is
/// the operator's output count.
void run_op_into(std::string_view op_type, std::span<const RuntimeValue* const> inputs,
                 std::span<RuntimeValue> outputs, std::span<const ir::Attribute> attributes,
                 int64_t version, std::string_view domain);

/// Convenience for tests: run_op with an initializer list of inputs.
inline std::vector<RuntimeValue> run_op(std::string_view op_type,
                                        std::initializer_list<RuntimeValue> inputs,
                                        std::initializer_list<ir::Attribute> attributes = {},
                                        size_t num_outputs = 1, int64_t version = 17) {
  return run_op(op_type, std::span<const RuntimeValue>(inputs.begin(), inputs.size()),
                std::span<const ir::Attribute>(attributes.begin(), attributes.size()), num_outputs,
                version);
}

}  // namespace onnxscript::eval
