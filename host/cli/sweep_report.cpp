#include "host/cli/sweep_report.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>

#include "host/base/message_text.h"
#include "host/cli/sweep_csv.h"
#include "host/tools/python_script.h"

namespace boids::cli {
namespace {

// A point's value as JSON: a whole number as such, else a double (as the option read it).
nlohmann::ordered_json json_number(const std::string& text) {
  if (text.size() < 20 && text.find_first_not_of("0123456789") == std::string::npos) {
    return std::strtoull(text.c_str(), nullptr, 10);
  }
  return std::strtod(text.c_str(), nullptr);
}

}  // namespace

void print_sweep_json(const nlohmann::ordered_json& head, const std::vector<SweepParam>& params,
                      const std::vector<GridPoint>& grid, const std::vector<PointResult>& results) {
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const PointResult& r : results) {
    nlohmann::ordered_json row;
    const std::vector<std::string> values = point_values(params, grid[r.index].point);
    for (std::size_t i = 0; i < params.size(); ++i) {
      row[params[i].name] = json_number(values[i]);
    }
    const EnsembleStatistics& s = r.statistics;
    row["boids"] = r.count;
    row["replicas"] = s.replicas;
    row["samples"] = s.samples;
    for (const auto& [name, value] : statistic_columns(s)) row[name] = value;
    row["kept"] = r.kept;
    points.push_back(row);
  }
  nlohmann::ordered_json j = head;
  j["points"] = points;
  std::cout << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << std::endl;
}

// Every point of the grid, kept or flown; kept points are marked.
void print_sweep_table(const std::vector<SweepParam>& params, const std::vector<GridPoint>& grid,
                       const std::vector<PointResult>& results, const std::string& csv_file) {
  for (const SweepParam& p : params) std::printf("%-12s ", p.name.c_str());
  std::printf("%8s %10s %9s %8s %9s %11s %9s %8s\n", "boids", "phi", "+-sem", "U", "+-sem", "chi",
              "+-sem", "flocks");
  std::size_t kept = 0;
  for (const PointResult& r : results) {
    for (const std::string& v : point_values(params, grid[r.index].point)) {
      std::printf("%-12s ", v.c_str());
    }
    const EnsembleStatistics& s = r.statistics;
    std::printf("%8llu %10.6f %9.2e %8.4f %9.2e %11.4g %9.2e %8.2f%s\n",
                static_cast<unsigned long long>(r.count), s.polarization_mean, s.polarization_sem,
                s.binder, s.binder_sem, s.susceptibility, s.susceptibility_sem, s.flocks_mean,
                r.kept ? " *" : "");
    kept += r.kept ? 1 : 0;
  }
  if (kept > 0) {
    std::printf("* %zu of %zu points kept from %s (--resume), not flown again\n", kept,
                results.size(), quoted_path(csv_file).c_str());
  }
}

// Draws the sweep with host/cli/plot_sweep.py: every point of the grid, kept or flown.
void plot_sweep(const std::vector<SweepParam>& params, const std::string& title,
                const std::vector<GridPoint>& grid, const std::vector<PointResult>& results,
                OutputFiles& outputs) {
  ScratchFile rows(".csv");
  std::vector<std::string> names;
  for (const SweepParam& p : params) names.push_back(p.name);
  std::string text = sweep_csv_header(names) + "\n";
  for (const PointResult& r : results) {
    text += sweep_csv_row(point_values(params, grid[r.index].point), r.count, r.statistics,
                          r.flight, r.seconds) +
            "\n";
  }
  rows.write(text);
  tools::run_plot_script(
      "--plot", tools::sweep_plot_script(),
      {rows.path(), std::to_string(params.size()), title, outputs.file_to_write("--plot")});
  outputs.written_externally("--plot");
}

}  // namespace boids::cli
