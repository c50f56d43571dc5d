// Writes the boids package's type stub: the template python/boids/__init__.pyi.in with the
// keywords of Flock() and Flock.set_params, one for each row of the table of parameters
// (host/model/param_table.h), where it says @FLOCK_KEYWORDS@ and @SET_PARAMS_KEYWORDS@.
//   make_stub TEMPLATE OUT
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "host/model/param_table.h"

namespace {

using boids::ParamKind;
using boids::ParamSpec;

// Flock()'s own parameters before its keywords, and those a flock keeps for its life.
const std::set<std::string> kPositional = {"count", "seed", "backend", "method", "precision"};
const std::set<std::string> kFixed = {"count",     "seed", "backend",    "method",
                                      "precision", "init", "dimensions", "model"};

std::string literal_of(const ParamSpec& row) {
  std::string list;
  for (const std::string& c : row.choices) list += (list.empty() ? "\"" : ", \"") + c + "\"";
  return "Literal[" + list + "]";
}

// The Python type of a row's value.
std::string type_of(const ParamSpec& row) {
  const std::string key = row.key;
  switch (row.kind) {
    case ParamKind::kNumber:
      return "_Number";
    case ParamKind::kWhole:
      return "int";
    case ParamKind::kChoice:
    case ParamKind::kRunChoice:
      return literal_of(row);
    case ParamKind::kDimensions:
      return "Literal[2, 3]";
    case ParamKind::kWorld:
      return "Union[_Number, _Pair, _Triple]";
    case ParamKind::kPoint:
    case ParamKind::kVector:
      return "Union[_Pair, _Triple]";
    case ParamKind::kRows:
      return key == "path" ? "_Path" : "_Obstacles";
    case ParamKind::kRunNumber:
      return key == "density" ? "_Number" : "int";
    case ParamKind::kRunFile:
      return "Union[str, PathLike]";
  }
  return "Any";
}

std::string keywords(const std::set<std::string>& left_out) {
  std::string lines;
  for (const ParamSpec& row : boids::param_table()) {
    const std::string keyword = row.keyword();
    if (left_out.count(keyword)) continue;
    lines += "        " + keyword + ": Optional[" + type_of(row) + "] = None,\n";
  }
  lines.pop_back();  // the template's line ends it
  return lines;
}

void replace(std::string& text, const std::string& marker, const std::string& with) {
  const auto at = text.find(marker);
  if (at == std::string::npos) throw std::runtime_error("the template has no " + marker);
  text.replace(at, marker.size(), with);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: make_stub TEMPLATE OUT\n";
    return 2;
  }
  try {
    std::ifstream in(argv[1]);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) throw std::runtime_error(std::string("cannot read ") + argv[1]);
    std::string stub = text.str();
    replace(stub, "@FLOCK_KEYWORDS@", keywords(kPositional));
    replace(stub, "@SET_PARAMS_KEYWORDS@", keywords(kFixed));
    std::ofstream out(argv[2]);
    out << stub;
    if (!out.flush()) throw std::runtime_error(std::string("cannot write ") + argv[2]);
  } catch (const std::exception& e) {
    std::cerr << "make_stub: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
