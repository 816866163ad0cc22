// `onnxscript-export`'s work: parse the input specifications, make the
// example values, export, and save.

#include "export_args.h"

#include <charconv>
#include <chrono>
#include <iostream>
#include <random>
#include <set>

#include <fmt/format.h>

#include "onnxscript/export/torch.h"
#include "onnxscript/support/float16.h"

namespace onnxscript::export_tool {

namespace {

struct TypeName {
  const char* name;
  ir::DataType dtype;
};

constexpr TypeName kTypes[] = {
    {"float", ir::DataType::kFloat},     {"double", ir::DataType::kDouble},
    {"float16", ir::DataType::kFloat16}, {"int64", ir::DataType::kInt64},
    {"int32", ir::DataType::kInt32},     {"bool", ir::DataType::kBool},
};

// A whole decimal integer (optionally negative) filling `text`, or nullopt.
std::optional<int64_t> parse_int(std::string_view text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::string trimmed(std::string_view s) {
  const size_t first = s.find_first_not_of(' ');
  if (first == std::string_view::npos) return "";
  const size_t last = s.find_last_not_of(' ');
  return std::string(s.substr(first, last - first + 1));
}

}  // namespace

InputSpec parse_input(const std::string& text) {
  auto fail = [&](const std::string& why) {
    return Error(
        fmt::format("--input {}: {} (expected NAME:TYPE[D0,D1,...], e.g. "
                    "image:float[1,3,224,224])",
                    text, why));
  };
  const size_t colon = text.find(':');
  if (colon == std::string::npos) throw fail("no ':' after the input's name");
  InputSpec spec;
  spec.name = text.substr(0, colon);
  if (spec.name.empty()) throw fail("the name is empty");
  const size_t open = text.find('[', colon);
  if (open == std::string::npos || text.back() != ']') throw fail("no [dims] after the type");
  const std::string type = text.substr(colon + 1, open - colon - 1);
  bool known = false;
  for (const TypeName& t : kTypes) {
    if (type == t.name) {
      spec.dtype = t.dtype;
      known = true;
    }
  }
  if (!known) {
    throw fail(fmt::format(
        "unknown element type '{}' (float, double, float16, int64, int32 or bool)", type));
  }
  const std::string dims = text.substr(open + 1, text.size() - open - 2);
  if (trimmed(dims).empty()) return spec;  // a scalar
  size_t start = 0;
  while (true) {
    const size_t comma = dims.find(',', start);
    const std::string item = trimmed(std::string_view(dims).substr(
        start, comma == std::string::npos ? std::string::npos : comma - start));
    const std::optional<int64_t> size = parse_int(item);
    if (!size || *size < 0) {
      throw fail(
          fmt::format("'{}' is not a size (sizes are whole numbers >= 0; name a dimension "
                      "with --dynamic)",
                      item));
    }
    spec.shape.push_back(*size);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return spec;
}

std::pair<size_t, std::map<int64_t, std::string>> parse_dynamic(
    const std::string& text, const std::vector<InputSpec>& inputs) {
  auto fail = [&](const std::string& why) {
    return Error(fmt::format(
        "--dynamic {}: {} (expected NAME:AXIS=DIM[,AXIS=DIM...], e.g. image:0=batch)", text, why));
  };
  const size_t colon = text.find(':');
  if (colon == std::string::npos) throw fail("no ':' after the input's name");
  const std::string name = text.substr(0, colon);
  size_t index = inputs.size();
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].name == name) index = i;
  if (index == inputs.size()) throw fail(fmt::format("no --input is named '{}'", name));
  const auto rank = static_cast<int64_t>(inputs[index].shape.size());
  std::map<int64_t, std::string> axes;
  size_t start = colon + 1;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const size_t eq = item.find('=');
    if (eq == std::string::npos) throw fail(fmt::format("'{}' has no '='", item));
    const std::optional<int64_t> axis = parse_int(trimmed(std::string_view(item).substr(0, eq)));
    const std::string dim = trimmed(std::string_view(item).substr(eq + 1));
    if (!axis) throw fail(fmt::format("'{}' is not an axis", item.substr(0, eq)));
    if (*axis < -rank || *axis >= rank)
      throw fail(fmt::format("input '{}' has rank {}: no axis {}", name, rank, *axis));
    if (dim.empty()) throw fail(fmt::format("axis {} has an empty name", *axis));
    axes[*axis < 0 ? *axis + rank : *axis] = dim;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return {index, axes};
}

ir::Tensor example_value(const InputSpec& spec, size_t index) {
  const ir::Dims shape(spec.shape.begin(), spec.shape.end());
  switch (spec.dtype) {
    case ir::DataType::kFloat:
    case ir::DataType::kDouble:
    case ir::DataType::kFloat16:
      return ir::Tensor::rand(shape, index, spec.dtype);
    default:
      break;
  }
  ir::Tensor t(spec.dtype, shape);
  std::mt19937 random(static_cast<uint32_t>(index));
  for (int64_t i = 0; i < t.numel(); ++i) {
    const uint32_t r = random();
    if (spec.dtype == ir::DataType::kInt64)
      t.data<int64_t>()[i] = r % 10;
    else if (spec.dtype == ir::DataType::kInt32)
      t.data<int32_t>()[i] = static_cast<int32_t>(r % 10);
    else
      t.data<bool>()[i] = (r & 1) != 0;
  }
  return t;
}

int run_export(const ExportArgs& args) {
  std::vector<InputSpec> specs;
  std::set<std::string> names;
  for (const std::string& text : args.inputs) {
    specs.push_back(parse_input(text));
    if (!names.insert(specs.back().name).second)
      throw Error(fmt::format("--input {}: another input is named '{}'", text, specs.back().name));
  }
  torch::ExportOptions options;
  options.opset_version = args.opset;
  for (const std::string& text : args.dynamic) {
    auto [index, axes] = parse_dynamic(text, specs);
    for (auto& [axis, dim] : axes) options.dynamic_shapes[index][axis] = dim;
  }
  const std::filesystem::path out_dir = args.output.parent_path();
  if (!out_dir.empty() && !std::filesystem::is_directory(out_dir))
    throw Error(
        fmt::format("-o {}: the folder {} does not exist", args.output.string(), out_dir.string()));
  if (!args.report_dir.empty()) options.report_dir = args.report_dir;
  options.warnings_as_errors = args.warnings_as_errors;
  options.include_weights = !args.no_weights;
  options.verbosity = args.verbose ? 1 : 0;
  options.progress = [](const std::string& line) {
    std::cerr << "onnxscript-export: " << line << std::endl;
  };
  std::vector<ir::Tensor> examples;
  for (size_t i = 0; i < specs.size(); ++i) examples.push_back(example_value(specs[i], i));

  const auto start = std::chrono::steady_clock::now();
  std::optional<torch::ONNXProgram> program;
  try {
    program.emplace(torch::export_module(args.model, examples, options));
  } catch (const Error& e) {
    // ExporterError lists every diagnostic with its source line; a report,
    // when asked for, was written (its path is in the progress above).
    std::cerr << "onnxscript-export: error: " << e.what() << "\n";
    return 1;
  }
  ir::Model& model = program->model();
  const std::optional<int64_t> opset = model.opset_imports.find("");
  if (opset && *opset != args.opset) {
    std::cerr << fmt::format(
        "onnxscript-export: error: the model came out at ai.onnx opset {}, not {}: torchlib's "
        "functions are written against opset 18 and converting between opsets is not "
        "implemented yet (use --opset 18)\n",
        *opset, args.opset);
    return 1;
  }
  // The graph inputs take the names given (TorchScript's own are often x.1).
  ir::Graph& graph = model.graph();
  std::set<std::string> taken;
  for (const ir::Value* v : graph.initializers()) taken.insert(v->name());
  for (const ir::Node* n : graph.nodes())
    for (const ir::Value* o : n->outputs()) taken.insert(o->name());
  for (size_t i = 0; i < specs.size() && i < graph.inputs().size(); ++i) {
    if (taken.count(specs[i].name)) {
      throw Error(
          fmt::format("--input {}: the model already has a value named '{}'; choose another",
                      args.inputs[i], specs[i].name));
    }
    graph.inputs()[i]->set_name(specs[i].name);
  }
  std::cerr << "onnxscript-export: save: writing " << args.output.string() << std::endl;
  program->save(args.output);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << fmt::format(
      "exported {} to {}: {} nodes, {} initializers{} in {:.2f} s\n", args.model.string(),
      args.output.string(), graph.num_nodes(), graph.initializers().size(),
      args.no_weights ? fmt::format(", {} weights left out (graph inputs to bind at run time)",
                                    program->weights_left_out().size())
                      : "",
      seconds);
  if (args.verbose) {
    for (const ir::Value* v : graph.inputs())
      std::cout << "  input  " << v->name() << ": " << v->type()->to_string() << "\n";
    for (const ir::Value* v : graph.outputs())
      std::cout << "  output " << v->name() << ": "
                << (v->type() ? v->type()->to_string() : std::string("?")) << "\n";
  }
  return 0;
}

const char* const kHelpFooter = R"(
Inputs, in the order forward takes them:
  --input NAME:TYPE[D0,D1,...]  TYPE: float, double, float16, int64, int32 or
                                bool; TYPE[] is a scalar. NAME names the ONNX
                                graph input.
  --dynamic NAME:AXIS=DIM[,AXIS=DIM...]  names axes of input NAME (e.g.
                                image:0=batch): the model takes any size there.

The example values the export traces with are deterministic: floating inputs
uniform in [0, 1) (Tensor::rand seeded with the input's position, 0, 1, ...),
integer inputs uniform in [0, 10) and bool inputs fair coin flips (std::mt19937
seeded with the input's position).

Progress goes to stderr, one line per step. With --report DIR, every export
(failed or not) writes DIR/onnx_export_<UTC time>.md (the steps, the errors
with their Python source lines, operator counts, the TorchScript graph) and a
SARIF 2.1.0 log of the same name (.sarif).

Exit status: 0 exported; 1 the export failed (every problem listed on stderr);
2 bad arguments.

Example:
  onnxscript-export resnet18.pt -o resnet18.onnx --input image:float[1,3,224,224] \
      --dynamic image:0=batch --report reports
)";

}  // namespace onnxscript::export_tool
