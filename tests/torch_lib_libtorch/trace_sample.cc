// Turns a sample into torchlib's arguments and traces it into a model. No
// LibTorch here: the tracing benchmark (bench/torchlib_trace.cc) uses it too.

#include <fmt/format.h>

#include <algorithm>
#include <source_location>

#include "onnxscript/serde/serde.h"
#include "onnxscript/support/error.h"
#include "onnxscript/torch_lib/registry.h"
#include "script/graph_outputs.h"
#include "torch_lib_libtorch/compare.h"

namespace onnxscript::torch_lib::comparison {
namespace {

const Schema& schema_of(const Sample& sample) {
  const std::span<const OpOverload> overloads = torchlib_registry().get_op_functions(sample.name);
  if (overloads.empty()) throw Error(fmt::format("torchlib does not register {}", sample.name));
  return overloads.front().schema;
}

}  // namespace

const OpOverload& overload_for(const Sample& sample, std::span<const Arg> args) {
  const OpOverload* o = torchlib_registry().choose(sample.name, args);
  if (!o)
    throw Error(fmt::format("torchlib has no overload of {} for these arguments", sample.name));
  return *o;
}

std::vector<Arg> torchlib_arguments(const Sample& sample) {
  const Schema& schema = schema_of(sample);
  std::vector<Arg> args = sample.args;
  size_t end = args.size();
  for (const libtorch::KeywordArg& kw : sample.keywords) {
    const auto it = std::find_if(schema.params.begin(), schema.params.end(),
                                 [&](const SchemaParam& p) { return p.name == kw.name; });
    if (it == schema.params.end()) {
      throw Error(
          fmt::format("torchlib's schema of {} has no parameter '{}'", sample.name, kw.name));
    }
    end = std::max(end, static_cast<size_t>(it - schema.params.begin()) + 1);
  }
  for (size_t i = args.size(); i < end; ++i) {
    const SchemaParam& p = schema.params[i];
    const auto kw = std::find_if(sample.keywords.begin(), sample.keywords.end(),
                                 [&](const libtorch::KeywordArg& k) { return k.name == p.name; });
    if (kw != sample.keywords.end()) {
      args.push_back(kw->value);
    } else if (p.default_value) {
      args.push_back(*p.default_value);
    } else {
      throw Error(
          fmt::format("{}: parameter '{}' has no value and no default", sample.name, p.name));
    }
  }
  return args;
}

ir::Model trace(const Sample& sample, std::vector<Tensor>& inputs) {
  ir::Model model;
  model.producer_name = "torchlib-comparison";
  {
    TraceScope scope(model.graph(), model.opset_imports);
    std::vector<Arg> args = torchlib_arguments(sample);
    auto as_input = [&](const Value& v) {
      const Tensor& t = v.tensor();
      inputs.push_back(t);
      const ir::Shape shape(std::vector<ir::Dim>(t.shape().begin(), t.shape().end()));
      return Value::traced(model.graph().add_input(fmt::format("input{}", inputs.size() - 1),
                                                   ir::Type::tensor(t.dtype(), shape)));
    };
    for (Arg& a : args) {
      if (const Value* v = a.tensor(); v && v->is_concrete()) {
        a = Arg(as_input(*v));
      } else if (const auto* list = std::get_if<std::vector<Value>>(&a.storage())) {
        std::vector<Value> traced;
        for (const Value& x : *list) traced.push_back(as_input(x));
        a = Arg(std::move(traced));
      }
    }
    const std::vector<Value> outputs = overload_for(sample, args)(args);
    detail::set_graph_outputs(scope, outputs, {}, "torchlib comparison",
                              std::source_location::current());
  }
  model.ir_version = std::max<int64_t>(8, serde::required_ir_version(model));
  return model;
}

}  // namespace onnxscript::torch_lib::comparison
