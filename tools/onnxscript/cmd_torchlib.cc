// onnxscript torchlib [--list] [--coverage FILE [--missing]]: what torchlib
// registers, and how much of a list of ATen names it covers.
#include <fstream>
#include <iostream>
#include <set>

#include <fmt/format.h>

#include "commands.h"
#include "onnxscript/support/error.h"
#include "onnxscript/torch_lib/registry.h"

namespace onnxscript::cli {

namespace {

// "aten::add.Tensor" -> "aten::add".
std::string base_name(const std::string& qualified) {
  const size_t ns = qualified.find("::");
  const size_t dot = qualified.find('.', ns == std::string::npos ? 0 : ns);
  return dot == std::string::npos ? qualified : qualified.substr(0, dot);
}

std::string emission_name(torch_lib::Emission e) {
  return e == torch_lib::Emission::kInlined ? "inlined" : "function";
}

}  // namespace

int torchlib_command(const TorchlibOptions& options) {
  const torch_lib::Registry& registry = torch_lib::torchlib_registry();
  if (options.coverage.empty()) {
    for (const std::string& name : registry.names()) {
      for (const torch_lib::OpOverload& o : registry.get_op_functions(name)) {
        const torch_lib::Schema& s = o.schema;
        std::vector<std::string> params;
        for (const torch_lib::SchemaParam& p : s.params) params.push_back(p.type + " " + p.name);
        std::cout << fmt::format("{}({}) -> {}  [{}]\n", s.qualified_name, fmt::join(params, ", "),
                                 fmt::join(s.returns, ", "), emission_name(o.emission));
      }
    }
    std::set<std::string> bases;
    for (const std::string& name : registry.names()) bases.insert(base_name(name));
    std::cout << fmt::format("{} names, {} distinct base operators\n", registry.size(),
                             bases.size());
    return 0;
  }
  std::ifstream in(options.coverage);
  if (!in) throw IoError(fmt::format("cannot read {}", options.coverage.string()));
  std::set<std::string> registered_bases;
  for (const std::string& name : registry.names()) registered_bases.insert(base_name(name));
  size_t names = 0, covered = 0;
  std::set<std::string> aten_bases, covered_aten_bases;
  std::vector<std::string> missing;
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    ++names;
    // A listed name is covered when the registry has it exactly; a listed
    // base name (no overload) also when it has any overload of it.
    const bool hit = registry.is_registered_op(line) ||
                     (base_name(line) == line && registered_bases.count(line) > 0);
    if (hit) ++covered;
    if (!hit) missing.push_back(line);
    if (line.starts_with("aten::")) {
      aten_bases.insert(base_name(line));
      if (registered_bases.count(base_name(line))) covered_aten_bases.insert(base_name(line));
    }
  }
  if (options.missing_only)
    for (const std::string& name : missing) std::cout << name << "\n";
  std::cout << fmt::format(
      "torchlib covers {} of {} names in {} ({} of {} distinct aten base operators)\n", covered,
      names, options.coverage.filename().string(), covered_aten_bases.size(), aten_bases.size());
  return 0;
}

}  // namespace onnxscript::cli
