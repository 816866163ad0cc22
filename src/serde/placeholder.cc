#include "onnxscript/serde/serde.h"
