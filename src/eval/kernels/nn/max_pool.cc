// MaxPool: the maximum over each window (pool_common.h). v8 adds the
// optional Indices output (flat indices into X, row-major or, with
// storage_order=1, column-major over the spatial axes), v10 ceil_mode and
// dilations, v11 refines auto_pad docs, v12 adds int8/uint8.
#include "pool_common.h"

namespace onnxscript::eval {

using MaxPoolTypes = TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16,
                              DataType::kInt8, DataType::kUint8>;

void register_nn_max_pool(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 8, 10, 11, 12, 22})
    registry.add("", "MaxPool", v, pool_kernel<PoolKind::kMax, MaxPoolTypes>);
}

}  // namespace onnxscript::eval
