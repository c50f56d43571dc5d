// The subcommands of `boids`. Each takes its arguments (after the subcommand's name) and
// returns the process exit code; bad input is thrown as InputError.
#pragma once

#include <string>
#include <vector>

namespace boids::cli {

int run_command(const std::vector<std::string>& args);
int validate_command(const std::vector<std::string>& args);
int info_command(const std::vector<std::string>& args);
int sweep_command(const std::vector<std::string>& args);
int convert_command(const std::vector<std::string>& args);
int serve_command(const std::vector<std::string>& args);
int params_command(const std::vector<std::string>& args);
int analyse_command(const std::vector<std::string>& args);

}  // namespace boids::cli
