#pragma once
/// \file
/// Everything a script author needs: values and typed values, script() and
/// Function, control flow (If, for_range, while_loop, graph()), operator
/// overloads, the typed operators of every opset (`namespace op =
/// onnxscript::opset18;`, opset1 to opset28, ml::opset1 to 5), eager tensors,
/// Session, and model
/// files. Heavier pieces (libonnx interop, the conformance runner) have their
/// own headers.

#include "onnxscript/eval/session.h"
#include "onnxscript/eval/tensor_io.h"
#include "onnxscript/infer/infer.h"
#include "onnxscript/ir/ir.h"
#include "onnxscript/opsets/all.h"
#include "onnxscript/opsets/latest.h"
#include "onnxscript/script/control_flow.h"
#include "onnxscript/script/function.h"
#include "onnxscript/script/indexing.h"
#include "onnxscript/script/initializer.h"
#include "onnxscript/script/operators.h"
#include "onnxscript/script/typed.h"
#include "onnxscript/serde/serde.h"
#include "onnxscript/serde/text.h"
