#include "host/tools/output_record.h"

#include <sys/stat.h>

#include "host/base/version.h"

namespace boids::tools {
namespace {

std::string record_option(const std::string& option) {
  return option + " (record)";
}

}  // namespace

std::string record_path(const std::string& output) {
  return output + ".json";
}

bool gets_record(const std::string& output) {
  struct stat info;
  return stat(output.c_str(), &info) != 0 || S_ISREG(info.st_mode);
}

nlohmann::ordered_json provenance() {
  nlohmann::ordered_json j;
  j["boids_version"] = version();
  const std::string commit = source_commit();
  j["boids_commit"] =
      commit.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(commit);
  return j;
}

nlohmann::ordered_json made_by(const std::string& command, const std::vector<std::string>& args) {
  nlohmann::ordered_json j = provenance();
  std::vector<std::string> words = {"boids", command};
  words.insert(words.end(), args.begin(), args.end());
  j["command"] = words;
  return j;
}

void add_record(OutputFiles& outputs, const std::string& option, const std::string& path) {
  if (gets_record(path)) outputs.add(record_option(option), record_path(path));
}

std::string record_text(const std::string& path, const nlohmann::ordered_json& made,
                        const nlohmann::ordered_json& what) {
  nlohmann::ordered_json j;
  j["file"] = path;
  j["made_by"] = made;
  j.update(what);
  // Strings as given (a path or an argument need not be UTF-8): replaced, not refused.
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

void write_record(OutputFiles& outputs, const std::string& option, const std::string& path,
                  const nlohmann::ordered_json& made, const nlohmann::ordered_json& what) {
  if (outputs.has(record_option(option))) {
    outputs.write(record_option(option), record_text(path, made, what));
  }
}

}  // namespace boids::tools
