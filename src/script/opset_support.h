#pragma once
/// \file
/// Helpers for the generated operator definitions (build/generated/opsets/*.cc).
/// Internal to the script layer.

#include <cstddef>
#include <optional>
#include <source_location>
#include <span>
#include <string_view>

#include "onnxscript/script/op_api.h"
#include "onnxscript/script/op_call.h"

namespace onnxscript::detail {

/// `inputs` without trailing omitted (Value()) inputs past the first
/// `required`, so that a call that passes Value() for a trailing optional input
/// builds the same node as one that leaves it out.
std::span<const Value> trim_omitted(std::span<const Value> inputs, size_t required);

/// The number of elements of `value` when it is known while the graph is
/// built: a concrete tensor, or a traced value that is an initializer or the
/// output of a Constant node. Used to deduce Split-13's output count.
std::optional<size_t> static_length(const Value& value);

/// Throws ScriptError: the output count of `signature` cannot be deduced from
/// this call; `why` says what would have told it.
[[noreturn]] void throw_unknown_output_count(const OpSignature& signature, std::string_view why,
                                             std::source_location location);

}  // namespace onnxscript::detail
