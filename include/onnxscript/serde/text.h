#pragma once
/// \file
/// The ONNX textual syntax: print models, graphs and functions from the IR,
/// and parse text back into the IR. print(parse(print(x))) == print(x).

#include <memory>
#include <string>
#include <string_view>

#include "onnxscript/ir/model.h"

namespace onnxscript::text {

/// The model in ONNX textual syntax, including its model-local functions.
std::string print_model(const ir::Model& model);
/// A graph in ONNX textual syntax.
std::string print_graph(const ir::Graph& graph);
/// A function in ONNX textual syntax.
std::string print_function(const ir::Function& function);

/// Parses a model. Throws ParseError with line and column, naming `source_name`.
ir::Model parse_model(std::string_view text, std::string_view source_name = "<text>");
/// Parses a function.
std::unique_ptr<ir::Function> parse_function(std::string_view text,
                                             std::string_view source_name = "<text>");

}  // namespace onnxscript::text
