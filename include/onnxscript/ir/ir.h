#pragma once
/// \file
/// Everything of the IR: include this to work with models in memory.

#include "onnxscript/ir/attribute.h"
#include "onnxscript/ir/data_type.h"
#include "onnxscript/ir/graph.h"
#include "onnxscript/ir/model.h"
#include "onnxscript/ir/tensor.h"
#include "onnxscript/ir/type.h"
