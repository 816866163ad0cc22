#pragma once
// How this build allocates graph pool blocks; see allocate_pool_block.

namespace onnxscript::ir {

/// True when this build maps large pool blocks as huge pages (Linux, not
/// under AddressSanitizer, which must see every block).
bool huge_pool_blocks_enabled();

}  // namespace onnxscript::ir
