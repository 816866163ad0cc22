// The TorchScript front end of the exporter: the only translation unit of
// the library that includes LibTorch's headers.
//
// `forward`'s graph is inlined and cleaned by LibTorch's own passes
// (mutation removal, constant propagation, tuple lowering); the module is not
// frozen. Freezing (`torch::jit::freeze`) would clone the module and copy
// every weight, fold batch norms into new tensors that no longer carry their
// parameter's name, and cost as much time as the whole translation; instead
// the exporter reads the module's attributes itself, as freezing would:
// `prim::GetAttr` on the module object (the graph's first input) walks to a
// submodule, a tensor (a weight: an initializer named by its path, as
// `state_dict` names it, `layer1.0.conv1.weight`) or a Python value.
// Initializers view LibTorch's tensors without copying them (as upstream's
// TorchTensor wraps torch tensors), so an export holds the weights once.
//
// Then each node of the graph, in order, becomes ONNX:
//   - prim::Constant: a Python value (an Arg) or, for a tensor, an
//     initializer named after the TorchScript value;
//   - prim::ListConstruct / ListUnpack / TupleConstruct / TupleUnpack /
//     NumToTensor: bookkeeping on Args, no ONNX node;
//   - aten::<op>: the registry's overload for "aten::<op>.<overload>" (or
//     the bare name), called with the node's inputs as Args while a trace
//     records into the model's graph;
//   - prim::If: the branch taken when the condition is known while
//     exporting (a Python bool), otherwise an ONNX If whose branches are the
//     blocks traced into subgraphs (the eDSL's If);
//   - prim::Loop: an ONNX Loop whose body is the block (the eDSL's loop),
//     with TorchScript's "while" trip count (INT64_MAX) left out and a
//     constant true condition dropped.
// A node that cannot be exported is recorded (with its source line) and its
// outputs are marked failed; nodes that only depend on failed values are
// skipped without a second message. The export fails at the end with every
// diagnostic.

#include <torch/csrc/jit/passes/constant_propagation.h>
#include <torch/csrc/jit/passes/dead_code_elimination.h>
#include <torch/csrc/jit/passes/inliner.h>
#include <torch/csrc/jit/passes/lower_tuples.h>
#include <torch/csrc/jit/passes/remove_mutation.h>
#include <torch/script.h>

#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <source_location>
#include <span>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "onnxscript/export/torch_module.h"
#include "onnxscript/infer/infer.h"
#include "onnxscript/onnxscript.h"
#include "onnxscript/optimizer/passes.h"
#include "onnxscript/serde/serde.h"
#include "report.h"

namespace onnxscript::torch {

namespace {

namespace jit = ::torch::jit;
using torch_lib::Arg;

DataType onnx_type_of(c10::ScalarType t) {
  switch (t) {
    case c10::ScalarType::Float:
      return DataType::kFloat;
    case c10::ScalarType::Double:
      return DataType::kDouble;
    case c10::ScalarType::Half:
      return DataType::kFloat16;
    case c10::ScalarType::BFloat16:
      return DataType::kBfloat16;
    case c10::ScalarType::Long:
      return DataType::kInt64;
    case c10::ScalarType::Int:
      return DataType::kInt32;
    case c10::ScalarType::Short:
      return DataType::kInt16;
    case c10::ScalarType::Char:
      return DataType::kInt8;
    case c10::ScalarType::Byte:
      return DataType::kUint8;
    case c10::ScalarType::Bool:
      return DataType::kBool;
    default:
      throw TypeError(
          fmt::format("tensors of {} have no ONNX element type here", c10::toString(t)));
  }
}

// A LibTorch tensor as one of ours over the same memory: the view keeps the
// LibTorch tensor alive and copies nothing (a non-contiguous or non-CPU
// tensor is made contiguous on the CPU first, which copies it once).
Tensor view_of(const at::Tensor& t) {
  const at::Tensor c = t.detach().cpu().contiguous();
  const auto sizes = c.sizes();
  const DataType dtype = onnx_type_of(c.scalar_type());
  std::vector<int64_t> dims(sizes.begin(), sizes.end());
  if (c.numel() == 0) return Tensor(dtype, std::move(dims));
  auto owner = std::make_shared<const at::Tensor>(c);
  return Tensor(dtype, std::move(dims), ir::borrow_storage(c.data_ptr(), c.nbytes(), owner));
}

// A one-element constant (a folded scalar) as a LibTorch tensor of the same
// shape, for evaluate_statically; nullopt for element types it does not need.
std::optional<at::Tensor> to_aten_scalar(const Tensor& t) {
  const std::vector<int64_t> sizes(t.shape().begin(), t.shape().end());
  switch (t.dtype()) {
    case DataType::kInt64:
      return at::full(sizes, t.data<int64_t>()[0], at::kLong);
    case DataType::kFloat:
      return at::full(sizes, t.data<float>()[0], at::kFloat);
    case DataType::kDouble:
      return at::full(sizes, t.data<double>()[0], at::kDouble);
    case DataType::kBool:
      return at::full(sizes, t.data<bool>()[0], at::kBool);
    default:
      return std::nullopt;
  }
}

// The user's Python line TorchScript kept for a node ("file:line: text"),
// if any: the whole line, not only the call's own range.
std::string source_of(const jit::Node* node) {
  jit::SourceRange range = node->sourceRange();
  if (const auto original = range.findSourceRangeThatGenerated()) range = *original;
  const auto& source = range.source();
  if (!source) return "";
  std::string text = source->get_line(source->lineno_for_offset(range.start())).str();
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  text.erase(0, text.find_first_not_of(' '));
  if (const auto file_line = range.file_line_col()) {
    const auto& [file, line, col] = *file_line;
    if (!file.empty()) return fmt::format("{}:{}: {}", file, line, text);
  }
  return text;
}

// The registry has no function for an operator (the report's
// "unsupported-operator", apart from other failures).
class MissingFunction : public NotImplementedError {
 public:
  using NotImplementedError::NotImplementedError;
};

// The kind of a failure while translating a node (ExportDiagnostic::rule).
std::string rule_of_failure(const std::exception& e) {
  if (dynamic_cast<const MissingFunction*>(&e)) return "unsupported-operator";
  if (dynamic_cast<const NotImplementedError*>(&e)) return "unsupported-construct";
  if (dynamic_cast<const TypeError*>(&e)) return "type-error";
  return "translation-error";
}

// TorchScript operator -> nodes, in sub-blocks too (for the report).
void count_nodes(const jit::Block* block, std::map<std::string, size_t>& counts) {
  for (const jit::Node* node : block->nodes()) {
    ++counts[node->kind().toQualString()];
    for (const jit::Block* sub : node->blocks()) count_nodes(sub, counts);
  }
}

class GraphExporter {
 public:
  GraphExporter(const torch_lib::Registry& registry, const ExportOptions& options)
      : registry_(registry), options_(options) {}

  // Names the module's parameters and buffers as its state_dict does, by
  // tensor: a weight reached through a list (an LSTM's flat weights) or
  // shared by two modules gets its parameter's name, not its path.
  void learn_parameter_names(const jit::Module& module) {
    for (const auto& p : module.named_parameters(/*recurse=*/true))
      names_by_impl_.emplace(p.value.unsafeGetTensorImpl(), p.name);
    for (const auto& b : module.named_buffers(/*recurse=*/true))
      names_by_impl_.emplace(b.value.unsafeGetTensorImpl(), b.name);
  }

  // The weights exported without their data (ExportOptions::include_weights
  // false), in graph input order.
  const std::vector<std::string>& weights_left_out() const { return weights_left_out_; }

  ir::Model run(jit::Graph& graph, const jit::Module& module,
                const std::vector<Tensor>& example_inputs, report::ExportRecorder& recorder) {
    ir::Model model;
    main_graph_ = &model.graph();
    model.producer_name = "onnxscript-cpp torch exporter";
    model.graph().set_name("main_graph");
    ir::OpsetImports opsets;
    std::vector<Function> called;  // script functions the graph calls (user registrations)
    {
      TraceScope scope(model.graph(), opsets);
      // The model's ai.onnx version is torchlib's (18), settled before
      // anything is traced: the eDSL's own helpers (constants, casts) would
      // otherwise open it at their default, which a subgraph traced first
      // cannot change later. Another ExportOptions::opset_version shows in
      // the result, which callers check (there is no conversion yet).
      scope.use_opset("", 18);
      detail::CalleeCollector collector(called);
      recorder.begin("inputs");
      bind_inputs(graph, module, example_inputs, model.graph());
      recorder.end();
      recorder.begin("translate");
      for (jit::Node* node : graph.nodes()) export_node(node);
      bind_outputs(graph, model.graph());
    }
    if (!diagnostics_.empty()) throw ExporterError(std::move(diagnostics_));
    for (const auto& [domain, version] : opsets.entries()) model.opset_imports.set(domain, version);
    if (!model.opset_imports.find("")) model.opset_imports.set("", options_.opset_version);
    Function::add_model_local_functions(model, called);
    // Outputs computed by a user's Function are untyped while tracing (a
    // model-local call is typed only once the function is in the model).
    for (const ir::Value* out : model.graph().outputs()) {
      if (!out->type()) {
        infer::infer_model_output_types(model);
        break;
      }
    }
    model.ir_version = std::max<int64_t>(8, serde::required_ir_version(model));
    recorder.end(fmt::format("{} ONNX nodes", model.graph().num_nodes()));
    return model;
  }

 private:
  // A value failed to export: later nodes reading it are skipped quietly.
  struct Failed {};

  void bind_inputs(jit::Graph& graph, const jit::Module& module,
                   const std::vector<Tensor>& examples, ir::Graph& out) {
    const auto inputs = graph.inputs();
    // The first input of a method is the module itself.
    const size_t first = !inputs.empty() && inputs[0]->type()->kind() == c10::TypeKind::ClassType;
    if (first) objects_.emplace(inputs[0], ObjectPath{module._ivalue(), ""});
    if (inputs.size() - first != examples.size()) {
      throw TypeError(fmt::format("forward takes {} inputs, {} example inputs were given",
                                  inputs.size() - first, examples.size()));
    }
    for (size_t i = first; i < inputs.size(); ++i) {
      const size_t k = i - first;
      const Tensor& example = examples[k];
      std::vector<ir::Dim> dims(example.shape().begin(), example.shape().end());
      if (const auto it = options_.dynamic_shapes.find(k); it != options_.dynamic_shapes.end()) {
        for (const auto& [axis, name] : it->second) {
          const int64_t rank = static_cast<int64_t>(dims.size());
          const int64_t a = axis < 0 ? axis + rank : axis;
          if (a < 0 || a >= rank)
            throw TypeError(fmt::format("dynamic_shapes: input {} has no axis {}", k, axis));
          dims[a] = ir::Dim(name);
        }
      }
      std::string name = inputs[i]->hasDebugName() ? inputs[i]->debugNameBase() : "";
      if (name.empty()) name = fmt::format("input_{}", k);
      ir::Value* v = out.add_input(name, ir::Type::tensor(example.dtype(), ir::Shape(dims)));
      env_.emplace(inputs[i], Arg(Value::traced(v)));
    }
  }

  void bind_outputs(jit::Graph& graph, ir::Graph& out) {
    std::vector<Arg> results;
    for (const jit::Value* v : graph.outputs()) {
      try {
        flatten(lookup(v), results);
      } catch (const Failed&) {
        return;  // what made it fail is already reported
      }
    }
    for (size_t i = 0; i < results.size(); ++i) {
      const Value* value = results[i].tensor();
      if (!value) {
        if (diagnostics_.empty()) {
          diagnostics_.push_back(
              {"output", fmt::format("output {} is {}, not a tensor", i, results[i].describe()), "",
               "invalid-output"});
        }
        continue;
      }
      Value traced = *value;
      // A graph output must be a value of the graph: a constant or an input
      // passed straight through gets an Identity.
      if (!traced.is_traced() || is_graph_input(traced, out)) traced = identity(traced);
      traced.named(fmt::format("output_{}", i));
      out.outputs().push_back(traced.ir_value());
    }
  }

  static bool is_graph_input(const Value& v, const ir::Graph& g) {
    for (const ir::Value* in : g.inputs())
      if (in == v.ir_value()) return true;
    return false;
  }

  static Value identity(const Value& v) { return onnxscript::opset18::Identity(v); }

  void flatten(const Arg& a, std::vector<Arg>& out) {
    if (const auto* list = std::get_if<std::vector<Value>>(&a.storage())) {
      for (const Value& v : *list) out.emplace_back(v);
      return;
    }
    out.push_back(a);
  }

  Arg lookup(const jit::Value* v) {
    if (failed_.count(v)) throw Failed{};
    const auto it = env_.find(v);
    if (it == env_.end()) throw Error(fmt::format("value %{} was never defined", v->debugName()));
    return it->second;
  }

  void export_node(jit::Node* node) {
    try {
      convert(node);
    } catch (const Failed&) {
      fail_outputs(node);
    } catch (const std::exception& e) {
      diagnostics_.push_back(
          {node->kind().toQualString(), e.what(), source_of(node), rule_of_failure(e)});
      if (options_.verbosity > 0)
        std::cerr << "export: " << node->kind().toQualString() << ": " << e.what() << "\n";
      fail_outputs(node);
    }
  }

  void fail_outputs(jit::Node* node) {
    for (const jit::Value* o : node->outputs()) failed_.insert(o);
  }

  void convert(jit::Node* node) {
    const c10::Symbol kind = node->kind();
    if (kind == c10::prim::Constant) return constant(node);
    if (kind == c10::prim::ListConstruct) return list_construct(node);
    if (kind == c10::prim::ListUnpack || kind == c10::prim::TupleUnpack) return unpack(node);
    if (kind == c10::prim::TupleConstruct) return list_construct(node);
    if (kind == c10::prim::NumToTensor) {
      env_[node->output()] = lookup(node->input());
      return;
    }
    if (kind == c10::prim::dtype) return dtype_of(node);
    if (kind == c10::prim::device) {
      env_[node->output()] = Arg(std::string("cpu"));  // the exported model's device
      return;
    }
    if (kind == c10::prim::GetAttr) return get_attr(node);
    if (kind == c10::prim::SetAttr) {
      throw NotImplementedError(fmt::format(
          "prim::SetAttr: forward assigns the module attribute '{}'; a module that changes its "
          "own state cannot be exported",
          node->s(c10::attr::name)));
    }
    if (kind == c10::prim::If) return if_node(node);
    if (kind == c10::prim::Loop) return loop_node(node);
    if (kind.is_aten()) return aten(node);
    throw NotImplementedError(
        fmt::format("{} is not supported by the exporter yet", kind.toQualString()));
  }

  // `x.dtype`: PyTorch's ScalarType code of the element type inference gives x.
  void dtype_of(jit::Node* node) {
    const Arg input = lookup(node->input());
    const Value* v = input.tensor();
    const std::optional<DataType> type = v ? v->dtype() : std::nullopt;
    if (!type) throw TypeError("prim::dtype: the element type of its input is not known");
    for (c10::ScalarType t :
         {c10::ScalarType::Float, c10::ScalarType::Double, c10::ScalarType::Half,
          c10::ScalarType::BFloat16, c10::ScalarType::Long, c10::ScalarType::Int,
          c10::ScalarType::Short, c10::ScalarType::Char, c10::ScalarType::Byte,
          c10::ScalarType::Bool}) {
      if (onnx_type_of(t) == *type) {
        env_[node->output()] = Arg(static_cast<int64_t>(t));
        return;
      }
    }
    throw NotImplementedError("prim::dtype: the element type of its input has no PyTorch dtype");
  }

  // A value a subgraph can return or a Loop can carry: tensors as they are,
  // Python numbers as constants of PyTorch's types (int64, float32 for a
  // float, as PyTorch's wrapped numbers default to, bool).
  static Value as_tensor_value(const Arg& a, const char* what) {
    if (const Value* v = a.tensor()) return *v;
    const Arg::Storage& st = a.storage();
    if (const int64_t* n = std::get_if<int64_t>(&st)) return Value(Tensor::scalar<int64_t>(*n));
    if (const double* d = std::get_if<double>(&st))
      return Value(Tensor::scalar<float>(static_cast<float>(*d)));
    if (const bool* b = std::get_if<bool>(&st)) return Value(Tensor::scalar<bool>(*b));
    throw NotImplementedError(
        fmt::format("{} is {}, which ONNX control flow cannot pass (tensors "
                    "and numbers only)",
                    what, a.describe()));
  }

  // Exports a block's nodes in order and reads its outputs.
  std::vector<Arg> export_block(jit::Block* block) {
    for (jit::Node* n : block->nodes()) export_node(n);
    std::vector<Arg> outputs;
    for (const jit::Value* o : block->outputs()) outputs.push_back(lookup(o));
    return outputs;
  }

  void if_node(jit::Node* node) {
    const Arg cond = lookup(node->input());
    const auto outputs = node->outputs();
    if (const bool* taken = std::get_if<bool>(&cond.storage())) {
      // Known now (sizes of a static input, a flag of the module): only the
      // branch taken exists in the model, as with Python's `if`.
      const std::vector<Arg> results = export_block(node->blocks()[*taken ? 0 : 1]);
      for (size_t i = 0; i < outputs.size(); ++i) env_[outputs[i]] = results[i];
      return;
    }
    const Value* c = cond.tensor();
    if (!c) throw TypeError(fmt::format("prim::If: the condition is {}", cond.describe()));
    Value condition =
        c->dtype() == DataType::kBool ? *c : onnxscript::opset18::Cast(*c, {.to = DataType::kBool});
    auto branch = [&](jit::Block* block) {
      return [this, block](detail::BodyResult& out) {
        for (const Arg& a : export_block(block))
          out.values.push_back(as_tensor_value(a, "a branch's result"));
      };
    };
    auto run_then = branch(node->blocks()[0]);
    auto run_else = branch(node->blocks()[1]);
    const std::vector<Value> results = detail::if_impl(
        condition, run_then, run_else, outputs.size(), std::source_location::current());
    for (size_t i = 0; i < outputs.size(); ++i)
      env_[outputs[i]] = as_python_value(results[i], outputs[i]);
  }

  // prim::Loop(max_trip_count, initial_condition, carried...) with a block
  // (iteration, carried...) -> (condition, carried...): `for` loops have a
  // constant true condition, `while` loops an INT64_MAX trip count.
  void loop_node(jit::Node* node) {
    const Arg trip = lookup(node->input(0));
    const Arg cond = lookup(node->input(1));
    const auto outputs = node->outputs();
    std::vector<Value> carried;
    for (size_t i = 2; i < node->inputs().size(); ++i)
      carried.push_back(as_tensor_value(lookup(node->input(i)), "a loop-carried value"));
    if (const bool* b = std::get_if<bool>(&cond.storage()); b && !*b) {
      for (size_t i = 0; i < outputs.size(); ++i) env_[outputs[i]] = lookup(node->input(i + 2));
      return;  // never entered
    }
    Value trip_count;
    if (const int64_t* n = std::get_if<int64_t>(&trip.storage())) {
      if (*n != std::numeric_limits<int64_t>::max())
        trip_count = Value(Tensor::scalar<int64_t>(*n));
    } else {
      trip_count = as_tensor_value(trip, "the trip count");
    }
    Value condition;
    if (!std::holds_alternative<bool>(cond.storage()))
      condition = as_tensor_value(cond, "the loop condition");
    jit::Block* block = node->blocks()[0];
    auto body = [&](std::span<const Value> args, detail::BodyResult& out) {
      for (size_t i = 0; i < block->inputs().size(); ++i) env_[block->inputs()[i]] = Arg(args[i]);
      std::vector<Arg> results = export_block(block);
      if (const bool* keep_going = std::get_if<bool>(&results[0].storage());
          !keep_going || !*keep_going) {
        out.condition = as_tensor_value(results[0], "the loop condition");
        out.has_condition = true;
      }
      for (size_t i = 1; i < results.size(); ++i)
        out.values.push_back(as_tensor_value(results[i], "a loop-carried value"));
    };
    const std::vector<Value> results = detail::loop_impl(
        trip_count, condition, std::move(carried), /*with_iteration=*/true, block->inputs().size(),
        outputs.size(), body, std::source_location::current());
    for (size_t i = 0; i < outputs.size(); ++i)
      env_[outputs[i]] = as_python_value(results[i], outputs[i]);
  }

  // prim::GetAttr on the module or on an object reached from it: a
  // submodule is followed, a tensor (or a list of them) becomes a weight, any
  // other attribute its Python value. `training` reads false: the model is
  // exported for inference, as freezing an eval-mode module would.
  void get_attr(jit::Node* node) {
    const auto owner = objects_.find(node->input());
    if (owner == objects_.end()) {
      lookup(node->input());  // a failed input: skipped quietly
      throw NotImplementedError("prim::GetAttr on a value that is not the module or a submodule");
    }
    const std::string& field = node->s(c10::attr::name);
    const std::string path = owner->second.path.empty() ? field : owner->second.path + "." + field;
    const c10::IValue value = owner->second.object->getAttr(field);
    if (value.isObject()) {
      objects_[node->output()] = ObjectPath{value.toObject(), path};
    } else if (field == "training" && value.isBool()) {
      env_[node->output()] = Arg(false);
    } else if (value.isTensor()) {
      env_[node->output()] = Arg(weight(value.toTensor(), path));
    } else if (value.isTensorList()) {
      std::vector<Value> weights;
      for (const at::Tensor& t : value.toTensorVector())
        weights.push_back(weight(t, fmt::format("{}.{}", path, weights.size())));
      env_[node->output()] = Arg(std::move(weights));
    } else {
      env_[node->output()] = from_ivalue(value, nullptr);
    }
  }

  // A tensor of the module: one graph value per tensor however often it is
  // read, named as the state_dict names it (else by its attribute path). It
  // lives in the main graph even when first read inside a branch or a loop
  // body, which see it from there. With its data, an initializer viewing
  // LibTorch's memory; without (ExportOptions::include_weights false), a
  // graph input of its type that apply_weights turns into an initializer.
  Value weight(const at::Tensor& t, const std::string& path) {
    const c10::TensorImpl* impl = t.unsafeGetTensorImpl();
    if (const auto it = weights_.find(impl); it != weights_.end()) return it->second;
    const auto named = names_by_impl_.find(impl);
    const std::string name = unique_name(named != names_by_impl_.end() ? named->second : path);
    std::vector<ir::Dim> dims(t.sizes().begin(), t.sizes().end());
    const ir::Type type = ir::Type::tensor(onnx_type_of(t.scalar_type()), ir::Shape(dims));
    ir::Value* v = nullptr;
    if (options_.include_weights) {
      v = main_graph_->add_initializer(name, view_of(t));
      v->set_type(type);
    } else {
      v = main_graph_->add_input(name, type);
      weights_left_out_.push_back(name);
    }
    return weights_.emplace(impl, Value::traced(v)).first->second;
  }

  void constant(jit::Node* node) {
    const jit::Value* out = node->output();
    const c10::IValue iv = *jit::toIValue(out);
    env_[out] = from_ivalue(iv, out);
  }

  Arg from_ivalue(const c10::IValue& iv, const jit::Value* named) {
    if (iv.isNone()) return Arg();
    if (iv.isBool()) return Arg(iv.toBool());
    if (iv.isInt()) return Arg(iv.toInt());
    if (iv.isDouble()) return Arg(iv.toDouble());
    if (iv.isString()) return Arg(iv.toStringRef());
    if (iv.isIntList()) return Arg(iv.toIntVector());
    if (iv.isDoubleList()) return Arg(iv.toDoubleVector());
    if (iv.isBoolList()) {
      std::vector<int64_t> ints;
      for (bool b : iv.toBoolList()) ints.push_back(b);
      return Arg(ints);
    }
    if (iv.isDevice()) return Arg(iv.toDevice().str());
    if (iv.isTensor()) return tensor_arg(iv.toTensor(), named);
    if (iv.isTensorList()) {
      // LSTM's flat weights, for one: each an initializer named after its
      // parameter.
      std::vector<Value> values;
      for (const at::Tensor& t : iv.toTensorVector())
        values.push_back(*tensor_arg(t, nullptr).tensor());
      return Arg(values);
    }
    throw NotImplementedError(
        fmt::format("a constant of type {} is not supported", iv.type()->str()));
  }

  // A tensor constant of the graph (weights come through get_attr): an
  // initializer named after the TorchScript value; small unnamed constants
  // (scalars TorchScript folded) stay Constant nodes.
  Arg tensor_arg(const at::Tensor& t, const jit::Value* named) {
    std::string name;
    if (named && named->hasDebugName()) name = named->debugNameBase();
    // A 0-D constant is how tracing records a Python number (`x / 8.0`):
    // as a number again, it takes the element type of the tensor it meets,
    // as PyTorch's wrapped numbers do, instead of widening it to double.
    if (t.dim() == 0 && name.empty()) {
      if (t.is_floating_point()) return Arg(t.item<double>());
      if (t.scalar_type() == at::kBool) return Arg(t.item<bool>());
      return Arg(t.item<int64_t>());
    }
    if (t.numel() <= 1 && name.empty()) return Arg(Value(view_of(t)));
    return Arg(initializer(view_of(t), unique_name(name)));
  }

  std::string unique_name(std::string name) {
    if (name.empty()) return {};
    std::string candidate = name;
    for (int i = 1; !used_names_.insert(candidate).second; ++i)
      candidate = fmt::format("{}_{}", name, i);
    return candidate;
  }

  void list_construct(jit::Node* node) {
    std::vector<Arg> items;
    for (const jit::Value* v : node->inputs()) items.push_back(lookup(v));
    env_[node->output()] = make_list(items);
  }

  // A list of static ints stays an int list; of tensors, a tensor list; a
  // list that mixes ints known now with ints computed at run time (sizes
  // read from a shape) becomes a 1-D int64 tensor.
  static Arg make_list(const std::vector<Arg>& items) {
    bool all_ints = true, all_floats = true, all_tensors = true;
    for (const Arg& a : items) {
      all_ints = all_ints && std::holds_alternative<int64_t>(a.storage());
      all_floats = all_floats && (std::holds_alternative<double>(a.storage()) ||
                                  std::holds_alternative<int64_t>(a.storage()));
      all_tensors = all_tensors && a.is_tensor();
    }
    if (all_ints) {
      std::vector<int64_t> ints;
      for (const Arg& a : items) ints.push_back(std::get<int64_t>(a.storage()));
      return Arg(ints);
    }
    if (all_floats && !items.empty()) {
      std::vector<double> floats;
      for (const Arg& a : items) {
        if (const auto* i = std::get_if<int64_t>(&a.storage()))
          floats.push_back(static_cast<double>(*i));
        else
          floats.push_back(std::get<double>(a.storage()));
      }
      return Arg(floats);
    }
    // Tensors: a tensor list, unless every item is a 0-D int standing for a
    // size, which the dynamic-int branch below handles.
    std::vector<Value> values;
    bool sizes = true;
    for (const Arg& a : items) {
      if (const int64_t* i = std::get_if<int64_t>(&a.storage())) {
        values.push_back(Value(Tensor::from<int64_t>({*i}, {1})));
      } else if (const Value* v = a.tensor()) {
        sizes = sizes && v->dtype() == DataType::kInt64 && v->rank() == 0;
        values.push_back(*v);
      } else {
        throw NotImplementedError(fmt::format("a list holding {} is not supported", a.describe()));
      }
    }
    if (all_tensors && !sizes) return Arg(values);
    std::vector<Value> pieces;
    for (const Value& v : values) {
      pieces.push_back(v.rank() == 0
                           ? onnxscript::opset18::Reshape(v, Value(Tensor::from<int64_t>({1}, {1})))
                           : v);
    }
    return Arg(onnxscript::opset18::Concat(pieces, {.axis = 0}));
  }

  void unpack(jit::Node* node) {
    const Arg list = lookup(node->input());
    const auto* values = std::get_if<std::vector<Value>>(&list.storage());
    if (!values || values->size() != node->outputs().size()) {
      throw NotImplementedError(
          fmt::format("cannot unpack {} into {} values", list.describe(), node->outputs().size()));
    }
    for (size_t i = 0; i < values->size(); ++i) env_[node->output(i)] = Arg((*values)[i]);
  }

  void aten(jit::Node* node) {
    const std::string base = node->kind().toQualString();
    std::string name = base;
    if (const c10::FunctionSchema* schema = node->maybeSchema();
        schema && !schema->overload_name().empty())
      name = base + "." + schema->overload_name();
    std::vector<Arg> args;
    for (const jit::Value* v : node->inputs()) args.push_back(lookup(v));
    if (evaluate_statically(node, args)) return;
    const torch_lib::OpOverload* overload = registry_.choose(name, args);
    if (!overload && name != base) overload = registry_.choose(base, args);
    if (!overload) {
      throw MissingFunction(
          fmt::format("{} has no function in the registry (register one with register_op)", name));
    }
    const std::vector<Value> results = (*overload)(args);
    const auto outputs = node->outputs();
    if (outputs.size() == 1 && outputs[0]->type()->kind() == c10::TypeKind::ListType) {
      env_[outputs[0]] = list_result(results, outputs[0]);
      return;
    }
    if (results.size() < outputs.size()) {
      throw Error(
          fmt::format("{} gave {} outputs, the node has {}", name, results.size(), outputs.size()));
    }
    for (size_t i = 0; i < outputs.size(); ++i)
      env_[outputs[i]] = as_python_value(results[i], outputs[i]);
  }

  // A list output: a tensor list as it is; an int[] (aten::size's sizes) as
  // Python ints when torchlib computed them while exporting, else the 1-D
  // int64 tensor that holds them at run time.
  static Arg list_result(const std::vector<Value>& results, const jit::Value* output) {
    const auto list = output->type()->cast<c10::ListType>();
    if (!list || list->getElementType()->kind() != c10::TypeKind::IntType || results.size() != 1)
      return Arg(results);
    const Value& v = results[0];
    if (v.is_concrete() && v.concrete().is_tensor() && v.tensor().dtype() == DataType::kInt64 &&
        v.tensor().shape().size() == 1) {
      const Tensor& t = v.tensor();
      return Arg(std::vector<int64_t>(t.data<int64_t>(), t.data<int64_t>() + t.numel()));
    }
    return Arg(v);
  }

  // Arithmetic on Python values known while exporting (sizes of a static
  // input: `h // 2`, `n * c`) runs in LibTorch itself, as TorchScript's
  // constant propagation would have had the sizes been constants; its
  // results are Python values again. False when an input is a tensor or an
  // output is not a number or a list of them.
  bool evaluate_statically(jit::Node* node, const std::vector<Arg>& args) {
    for (const jit::Value* out : node->outputs()) {
      const c10::TypeKind k = out->type()->kind();
      if (k != c10::TypeKind::IntType && k != c10::TypeKind::FloatType &&
          k != c10::TypeKind::BoolType && k != c10::TypeKind::ListType &&
          k != c10::TypeKind::TensorType)
        return false;
    }
    // A traced graph passes sizes as 0-D tensors (NumToTensor), which this
    // exporter keeps as numbers: they go back in as LibTorch scalars.
    auto number = [&](size_t i, c10::IValue v) -> c10::IValue {
      if (node->input(i)->type()->kind() != c10::TypeKind::TensorType) return v;
      if (v.isInt()) return at::scalar_tensor(v.toInt(), at::kLong);
      if (v.isDouble()) return at::scalar_tensor(v.toDouble(), at::kDouble);
      return at::scalar_tensor(v.toBool(), at::kBool);
    };
    jit::Stack stack;
    for (size_t i = 0; i < args.size(); ++i) {
      const Arg::Storage& st = args[i].storage();
      if (const int64_t* n = std::get_if<int64_t>(&st)) {
        stack.push_back(number(i, *n));
      } else if (const double* d = std::get_if<double>(&st)) {
        stack.push_back(number(i, *d));
      } else if (const bool* b = std::get_if<bool>(&st)) {
        stack.push_back(number(i, *b));
      } else if (const auto* ints = std::get_if<std::vector<int64_t>>(&st)) {
        stack.emplace_back(c10::List<int64_t>(*ints));
      } else if (args[i].is_none()) {
        stack.emplace_back();
      } else if (const auto* str = std::get_if<std::string>(&st)) {
        stack.emplace_back(*str);
      } else if (const Value* v = args[i].tensor();
                 v && v->is_concrete() && v->concrete().is_tensor() && v->tensor().numel() <= 1) {
        if (std::optional<at::Tensor> t = to_aten_scalar(v->tensor())) {
          stack.emplace_back(*t);
        } else {
          return false;
        }
      } else {
        return false;
      }
    }
    if (!node->maybeOperator()) return false;
    try {
      node->getOperation()(stack);
    } catch (const c10::Error&) {
      return false;  // not computable here (a device given as a string, say): torchlib emits it
    }
    if (stack.size() != node->outputs().size()) return false;
    for (size_t i = 0; i < stack.size(); ++i) {
      const c10::IValue& v = stack[i];
      if (v.isTensor() && v.toTensor().dim() == 0) {
        // Back to a number, as NumToTensor's input was.
        const at::Tensor& t = v.toTensor();
        if (t.is_floating_point())
          env_[node->output(i)] = Arg(t.item<double>());
        else if (t.scalar_type() == at::kBool)
          env_[node->output(i)] = Arg(t.item<bool>());
        else
          env_[node->output(i)] = Arg(t.item<int64_t>());
        continue;
      }
      env_[node->output(i)] = from_ivalue(v, nullptr);
    }
    return true;
  }

  // An int, float or bool output that torchlib computed while exporting (a
  // concrete one-element tensor: a size known from the example) becomes the
  // Python number, so that lists built from it stay static.
  static Arg as_python_value(const Value& v, const jit::Value* output) {
    const c10::TypeKind kind = output->type()->kind();
    const bool number = kind == c10::TypeKind::IntType || kind == c10::TypeKind::FloatType ||
                        kind == c10::TypeKind::BoolType;
    if (!number || !v.is_concrete() || !v.concrete().is_tensor() || v.tensor().numel() != 1)
      return Arg(v);
    const Tensor& t = v.tensor();
    switch (t.dtype()) {
      case DataType::kInt64:
        return Arg(t.data<int64_t>()[0]);
      case DataType::kBool:
        return Arg(t.data<bool>()[0]);
      case DataType::kFloat:
        return Arg(static_cast<double>(t.data<float>()[0]));
      case DataType::kDouble:
        return Arg(t.data<double>()[0]);
      default:
        return Arg(v);
    }
  }

  // A module (or other object) and its attribute path from the top module
  // ("layer1.0"; empty for the module itself).
  struct ObjectPath {
    c10::intrusive_ptr<c10::ivalue::Object> object;
    std::string path;
  };

  const torch_lib::Registry& registry_;
  const ExportOptions& options_;
  ir::Graph* main_graph_ = nullptr;
  std::unordered_map<const jit::Value*, ObjectPath> objects_;
  std::unordered_map<const c10::TensorImpl*, std::string> names_by_impl_;
  std::unordered_map<const c10::TensorImpl*, Value> weights_;
  std::vector<std::string> weights_left_out_;
  std::unordered_map<const jit::Value*, Arg> env_;
  std::unordered_set<const jit::Value*> failed_;
  std::unordered_set<std::string> used_names_;
  std::vector<ExportDiagnostic> diagnostics_;
};

}  // namespace

namespace {

// Inlines the methods and functions `block` calls with their graphs as
// written; returns whether it inlined any. The inserted nodes go before the
// call, out of this walk's way: the caller walks again until none is left
// (once per level of module nesting). LibTorch's Inline inserts each
// callee's *optimized* graph instead, which it makes on first use by
// running its whole pre-optimization (alias analysis, peephole, constant
// propagation) on every method of every submodule type: 63% of exporting a
// traced densenet121 (measured with perf), where a traced model has a type
// per submodule. The exporter's own passes over the inlined whole do what of
// that matters.
bool inline_calls(jit::Block* block) {
  bool inlined = false;
  for (auto it = block->nodes().begin(); it != block->nodes().end();) {
    jit::Node* node = *it++;
    jit::GraphFunction* callee = nullptr;
    if (node->kind() == c10::prim::CallMethod) {
      if (const auto type = node->input(0)->type()->cast<c10::ClassType>())
        callee = jit::tryToGraphFunction(type->getMethod(node->s(c10::attr::name)));
    } else if (node->kind() == c10::prim::CallFunction) {
      jit::Node* constant = node->input(0)->node();
      if (const auto type = node->input(0)->type()->cast<c10::FunctionType>();
          type && constant->kind() == c10::prim::Constant) {
        callee = jit::tryToGraphFunction(*type->function());
        if (callee) node->removeInput(0);  // the function itself is not an argument
      }
    }
    if (callee) {
      jit::inlineCallTo(node, callee, callee->graph().get());
      inlined = true;
      continue;
    }
    for (jit::Block* sub : node->blocks()) inlined = inline_calls(sub) || inlined;
  }
  return inlined;
}

// The export of a loaded module, each step recorded.
ONNXProgram export_loaded(const jit::Module& module, const std::vector<Tensor>& example_inputs,
                          const ExportOptions& options, report::ExportRecorder& recorder) {
  const torch_lib::Registry& registry =
      options.registry ? *options.registry : torch_lib::torchlib_registry();
  GraphExporter exporter(registry, options);
  exporter.learn_parameter_names(module);
  recorder.begin("passes");
  std::shared_ptr<jit::Graph> graph = module.get_method("forward").graph()->copy();
  while (inline_calls(graph->block())) {
  }
  jit::Inline(*graph);  // whatever inline_calls left (calls of non-graph functions)
  jit::RemoveListMutation(graph);
  jit::RemoveTensorMutation(graph);
  // Constant propagation and dead code elimination without alias analysis:
  // with it (the graph overloads) they cost most of exporting a 32-layer
  // encoder and grew faster than the graph (perf). Tensors need no folding
  // here (torchlib and the optimizer fold what is constant), and dead code
  // that mutates is kept and dropped after translation with the ONNX graph's.
  jit::ConstantPropagationImmutableTypes(graph);
  jit::LowerSimpleTuples(graph->block());  // the graph overload ends with an alias-analysed DCE
  jit::EliminateDeadCode(graph->block());
  if (recorder.wants_details()) {
    count_nodes(graph->block(), recorder.record().node_counts);
    recorder.record().graph_text = graph->toString();
  }
  recorder.end();
  ir::Model model = exporter.run(*graph, module, example_inputs, recorder);
  // A torchlib function may compute what its caller does not use (a
  // multi-output operator's other outputs, a size read for a branch not
  // taken): the model keeps only what reaches an output.
  optimizer::make_dead_code_elimination()->run(model);
  return ONNXProgram(std::move(model), exporter.weights_left_out());
}

}  // namespace

ONNXProgram export_module(const ::torch::jit::Module& module,
                          const std::vector<Tensor>& example_inputs, const ExportOptions& options) {
  report::ExportRecorder recorder(options, "TorchScript module " + module.type()->str(),
                                  /*loads_file=*/false, example_inputs);
  return recorder.run([&] { return export_loaded(module, example_inputs, options, recorder); });
}

std::map<std::string, Tensor> state_dict(const ::torch::jit::Module& module) {
  std::map<std::string, Tensor> tensors;
  for (const auto& p : module.named_parameters(/*recurse=*/true))
    tensors.emplace(p.name, view_of(p.value));
  for (const auto& b : module.named_buffers(/*recurse=*/true))
    tensors.emplace(b.name, view_of(b.value));
  return tensors;
}

ONNXProgram export_module(const std::filesystem::path& pt_file,
                          const std::vector<Tensor>& example_inputs, const ExportOptions& options) {
  report::ExportRecorder recorder(options, pt_file.string(), /*loads_file=*/true, example_inputs);
  return recorder.run([&] {
    recorder.begin("load");
    jit::Module module;
    try {
      module = jit::load(pt_file.string());
    } catch (const c10::Error& e) {
      throw IoError(fmt::format("cannot load the TorchScript module {}: {}", pt_file.string(),
                                e.what_without_backtrace()));
    }
    recorder.end();
    return export_loaded(module, example_inputs, options, recorder);
  });
}

}  // namespace onnxscript::torch
