// `boids params`: the table of parameters every front end reads (host/model/param_table.h),
// for people, as the Markdown table of docs/models.md, or as JSON.
#include <iostream>
#include <nlohmann/json.hpp>

#include "host/base/errors.h"
#include "host/cli/commands.h"
#include "host/model/param_table.h"
#include "host/tools/options.h"

namespace boids::cli {
namespace {

// A Markdown cell: a '|' would end it.
std::string cell(const std::string& text) {
  std::string out;
  for (const char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

void print_markdown() {
  std::cout << "| option | JSON key | values | default | models | what it does |\n"
            << "|---|---|---|---|---|---|\n";
  for (const ParamSpec& row : param_table()) {
    const std::string models = describe_models(row);
    std::cout << "| `" << row.flag << " " << cell(row.value_name) << "` | `" << row.key << "` | "
              << cell(describe_values(row)) << " | " << cell(describe_default(row)) << " | "
              << (models.empty() ? "all" : models) << " | " << cell(row.doc) << " |\n";
  }
}

// The models' table of docs/models.md, from the registry.
void print_models() {
  std::cout << "| model | what it is | its example | from |\n|---|---|---|---|\n";
  for (const ModelSpec& m : model_registry()) {
    std::cout << "| `" << m.name << "` | " << cell(m.summary) << " | " << m.example_count << " in "
              << m.example_width << " × " << m.example_height << " | " << cell(m.source) << " |\n";
  }
}

void print_json() {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const ParamSpec& row : param_table()) {
    nlohmann::ordered_json j;
    j["key"] = row.key;
    j["flag"] = row.flag;
    j["keyword"] = row.keyword();
    j["values"] = describe_values(row);
    j["default"] = describe_default(row);
    j["models"] = describe_models(row).empty() ? "all" : describe_models(row);
    j["sweepable"] = row.sweepable;
    j["doc"] = row.doc;
    rows.push_back(j);
  }
  std::cout << rows.dump(2) << std::endl;
}

}  // namespace

int params_command(const std::vector<std::string>& args) {
  bool help = false, markdown = false, json = false, models = false;
  tools::OptionParser parser(
      "Usage: boids params [--markdown | --json | --models]\n"
      "Lists every option of a flock: its values, its default, the models it applies to and\n"
      "what it does, from the one table that the command line, Python, the checkpoints, the\n"
      "browser's page and the viewer all read.");
  parser.add_flag("--markdown", "print the table of docs/models.md",
                  [&markdown] { markdown = true; });
  parser.add_flag("--json", "print one JSON list, an object a parameter", [&json] { json = true; });
  parser.add_flag("--models", "print the table of the models of docs/models.md",
                  [&models] { models = true; });
  parser.add_flag("--help", "show this help", [&help] { help = true; });
  parser.parse(args);
  if (help) {
    std::cout << parser.help();
    return 0;
  }
  if (markdown + json + models > 1) throw InputError("--markdown, --json and --models: give one");
  if (models) {
    print_models();
  } else if (markdown) {
    print_markdown();
  } else if (json) {
    print_json();
  } else {
    for (const ParamSpec& row : param_table()) {
      std::cout << row.flag << " " << row.value_name << "\n    " << describe(row) << "\n";
    }
  }
  return 0;
}

}  // namespace boids::cli
