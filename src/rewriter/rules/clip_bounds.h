#pragma once
// The conditions and bounds shared by the Min/Max -> Clip rules.

#include <string_view>

#include "onnxscript/rewriter/rule.h"

namespace onnxscript::rewriter::rules {

/// True when the bounds bound to pattern inputs `lo` and `hi` (either name
/// empty: no such bound) make Clip compute what Max/Min do: each a constant
/// one-element tensor of x's element type, not NaN, whose broadcast leaves
/// x's shape alone, and lo <= hi.
bool clip_bounds_ok(const Match& m, std::string_view lo, std::string_view hi);

/// The constant bound to `input` as a scalar (rank 0), as Clip wants it.
Value scalar_bound(const Match& m, std::string_view input);

}  // namespace onnxscript::rewriter::rules
