#include "bench/report.h"

#include <cmath>
#include <cstdio>
#include <tuple>

#include "bench/model.h"
#include "host/model/variants.h"

namespace boids::bench {
namespace {

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

std::string number(double value) {
  return std::isfinite(value) ? format("%.6g", value) : "";
}

nlohmann::ordered_json json_number(double value) {
  return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
}

// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

double spread_percent(const Row& row) {
  return 100.0 * (row.ms_max - row.ms_min) / (2.0 * row.ms_per_step);
}

std::string series_name(Backend b, Method m, Precision p, StartState s, const std::string& v) {
  return boids::to_string(b) + " " + boids::to_string(m) + " " + boids::to_string(p) + " " +
         to_string(s) + (v == "seed" ? "" : " " + v);
}

using SeriesKey = std::tuple<Backend, Method, Precision, StartState, std::string>;

std::map<SeriesKey, std::vector<std::pair<double, double>>> series_points(
    const std::vector<Row>& rows) {
  std::map<SeriesKey, std::vector<std::pair<double, double>>> series;
  for (const Row& r : rows) {
    series[{r.backend, r.method, r.precision, r.state, r.variant}].emplace_back(
        static_cast<double>(r.count), r.ms_per_step * 1e-3);
  }
  return series;
}

nlohmann::ordered_json fit_json(const PowerFit& fit) {
  nlohmann::ordered_json j;
  j["exponent"] = json_number(fit.exponent);
  j["r2"] = json_number(fit.r2);
  j["points"] = fit.points;
  return j;
}

// The stages' columns (kernels/stages.h), in the pipeline's order.
const std::vector<std::string>& stage_names() {
  static const std::vector<std::string> names = {"hash",    "sort", "cell starts",
                                                 "reorder", "step", "other"};
  return names;
}

double stage_ms(const Row& r, const std::string& stage) {
  for (const auto& [name, ms] : r.stage_ms) {
    if (name == stage) return ms;
  }
  return 0;
}

// "  by stage: sort 3.1 ms, ..., step 30 ms", the stages with time, under a row.
std::string stage_line(const Row& r) {
  if (r.stage_ms.empty()) return "";
  std::string line = "        by stage (ms):";
  for (const std::string& stage : stage_names()) {
    const double ms = stage_ms(r, stage);
    if (ms <= 0) continue;
    char part[64];
    std::snprintf(part, sizeof part, " %s %.3g,", stage.c_str(), ms);
    line += part;
  }
  line.back() = '\n';
  return line;
}

}  // namespace

std::string describe_limits(Backend backend, const Limits& l) {
  const bool gpu = backend == Backend::kCuda;
  return (gpu ? "GPU " : "CPU ") + l.name + " (" + std::to_string(l.threads) +
         (gpu ? " SMs" : " threads") + "): memory " + format("%.1f", l.memory_bytes_per_s * 1e-9) +
         " GB/s, peak " + format("%.1f", l.float_flops * 1e-9) + " GFLOP/s float, " +
         format("%.1f", l.double_flops * 1e-9) +
         " GFLOP/s double\n  bandwidth: " + l.bandwidth_method + "\n  peak: " + l.flops_method +
         "\n";
}

std::string table_header() {
  char line[320];
  std::snprintf(line, sizeof line,
                "%-7s %-6s %-6s %-7s %-9s %10s %11s %6s %12s %10s %9s %9s %6s %6s  %s\n", "backend",
                "method", "prec", "state", "variant", "boids", "ms/step", "+-%", "boid-steps/s",
                "pairs/s", "cand/boid", "nbrs/boid", "mem B", "B/step", "of limit (time at limit)");
  return line;
}

std::string table_row(const Row& r) {
  char line[400];
  std::snprintf(line, sizeof line,
                "%-7s %-6s %-6s %-7s %-9s %10llu %11.4g %5.1f%% %12.4g %10.4g %9.1f %9.1f %6.1f "
                "%6.0f  %4.1f%% %s (%.3g ms)\n",
                boids::to_string(r.backend).c_str(), boids::to_string(r.method).c_str(),
                boids::to_string(r.precision).c_str(), to_string(r.state).c_str(),
                r.variant.substr(0, 9).c_str(), static_cast<unsigned long long>(r.count),
                r.ms_per_step, spread_percent(r), r.boid_steps_per_second,
                r.pair_interactions_per_second, r.candidates_per_boid, r.neighbors_per_boid,
                r.bytes_per_boid, r.traffic_bytes_per_boid, 100.0 * r.fraction_of_limit,
                r.limit == "memory" ? "of memory bw" : "of peak flops", r.limit_ms_per_step);
  return line + stage_line(r);
}

std::string table_skip(const Skip& s) {
  char line[320];
  std::snprintf(line, sizeof line,
                "%-7s %-6s %-6s %-7s %-9s %10llu   skipped: about %.3g s per step\n",
                boids::to_string(s.backend).c_str(), boids::to_string(s.method).c_str(),
                boids::to_string(s.precision).c_str(), to_string(s.state).c_str(),
                s.variant.substr(0, 9).c_str(), static_cast<unsigned long long>(s.count),
                s.estimated_seconds_per_step);
  return line;
}

std::map<Method, PowerFit> method_fits(const std::vector<Row>& rows) {
  std::map<Method, std::vector<std::vector<std::pair<double, double>>>> by_method;
  for (const auto& [key, points] : series_points(rows))
    by_method[std::get<1>(key)].push_back(points);
  std::map<Method, PowerFit> fits;
  for (const auto& [method, series] : by_method) fits[method] = fit_power_law(series);
  return fits;
}

std::vector<SeriesFit> series_fits(const std::vector<Row>& rows) {
  std::vector<SeriesFit> fits;
  for (const auto& [key, points] : series_points(rows)) {
    const auto& [b, m, p, s, v] = key;
    fits.push_back({b, m, p, s, v, fit_power_law({points})});
  }
  return fits;
}

std::string describe_fits(const std::vector<Row>& rows) {
  std::string text = "\nFits of log time against log boids (time ~ boids^exponent):\n";
  for (const auto& [method, fit] : method_fits(rows)) {
    text += "  " + boids::to_string(method) + (method == Method::kNaive ? "  " : " ") +
            " exponent " + format("%.3f", fit.exponent) + ", r2 " + format("%.4f", fit.r2) + " (" +
            std::to_string(fit.points) + " rows, all series)\n";
  }
  for (const SeriesFit& f : series_fits(rows)) {
    if (f.fit.points < 2) continue;
    char line[200];
    std::snprintf(line, sizeof line, "    %-30s exponent %.3f, r2 %.4f\n",
                  series_name(f.backend, f.method, f.precision, f.state, f.variant).c_str(),
                  f.fit.exponent, f.fit.r2);
    text += line;
  }
  return text;
}

std::string describe_variant_costs(const std::vector<Row>& rows) {
  std::map<std::tuple<Backend, Method, Precision, StartState, std::uint64_t>, double> seed;
  for (const Row& r : rows) {
    if (r.variant == "seed")
      seed[{r.backend, r.method, r.precision, r.state, r.count}] = r.ms_per_step;
  }
  std::string text;
  for (const Row& r : rows) {
    if (r.variant == "seed") continue;
    const auto found = seed.find({r.backend, r.method, r.precision, r.state, r.count});
    if (found == seed.end()) continue;
    if (text.empty()) text = "\nVariants against the published step (time per step, same row):\n";
    char line[200];
    std::snprintf(line, sizeof line, "    %-36s %10llu  %-18s %5.2fx  (%s)\n",
                  series_name(r.backend, r.method, r.precision, r.state, "seed").c_str(),
                  static_cast<unsigned long long>(r.count), r.variant.c_str(),
                  r.ms_per_step / found->second, find_variant(r.variant)->summary);
    text += line;
  }
  return text;
}

std::string csv_text(const SweepResult& result) {
  std::string csv =
      "backend,method,precision,state,count,ms_per_step,boid_steps_per_second,pair_interactions_"
      "per_second,"
      "candidates_per_boid,neighbors_per_boid,bytes_per_boid,device,hardware,world,repeats,steps_"
      "per_repeat,"
      "ms_min,ms_max,limit,limit_ms_per_step,fraction_of_limit,traffic_bytes_per_boid,variant,"
      "dimensions,hash_ms,sort_ms,cell_starts_ms,reorder_ms,step_ms,other_ms\n";
  for (const Row& r : result.rows) {
    std::vector<std::string> fields = {boids::to_string(r.backend),
                                       boids::to_string(r.method),
                                       boids::to_string(r.precision),
                                       to_string(r.state),
                                       std::to_string(r.count),
                                       number(r.ms_per_step),
                                       number(r.boid_steps_per_second),
                                       number(r.pair_interactions_per_second),
                                       number(r.candidates_per_boid),
                                       number(r.neighbors_per_boid),
                                       number(r.bytes_per_boid),
                                       r.device,
                                       result.limits.at(r.backend).name,
                                       number(r.world),
                                       std::to_string(r.seconds_per_step.size()),
                                       std::to_string(r.steps_per_repeat),
                                       number(r.ms_min),
                                       number(r.ms_max),
                                       r.limit,
                                       number(r.limit_ms_per_step),
                                       number(r.fraction_of_limit),
                                       number(r.traffic_bytes_per_boid),
                                       r.variant,
                                       std::to_string(r.dimensions)};
    for (const std::string& stage : stage_names()) {
      fields.push_back(r.stage_ms.empty() ? "" : number(stage_ms(r, stage)));
    }
    for (std::size_t i = 0; i < fields.size(); ++i) csv += (i ? "," : "") + csv_field(fields[i]);
    csv += "\n";
  }
  return csv;
}

nlohmann::ordered_json json_report(const SweepSettings& s, const SweepResult& result,
                                   const RunInfo& info) {
  using json = nlohmann::ordered_json;
  json j;
  j["tool"] = "boids-bench";
  j["version"] = info.version;
  j["date"] = info.date;
  j["commit"] = info.commit.empty() ? json(nullptr) : json(info.commit);
  j["busy"] = info.busy;
  j["omp_wait_policy"] = info.wait_policy;

  json machine = json::object();
  for (const auto& [backend, l] : result.limits) {
    json m;
    m["name"] = l.name;
    m[backend == Backend::kCuda ? "multiprocessors" : "threads"] = l.threads;
    m["memory_bytes_per_second"] = l.memory_bytes_per_s;
    m["bandwidth_method"] = l.bandwidth_method;
    m["peak_flops"] = {{"float", l.float_flops}, {"double", l.double_flops}};
    m["peak_method"] = l.flops_method;
    machine[backend == Backend::kCuda ? "gpu" : "cpu"] = m;
  }
  j["machine"] = machine;

  json settings;
  json counts = json::object();
  for (const auto& [backend, list] : s.counts) counts[boids::to_string(backend)] = list;
  settings["counts"] = counts;
  settings["density"] = s.density;
  settings["dimensions"] = s.dimensions;
  settings["radius"] = s.radius;
  settings["seed"] = s.seed;
  settings["repeats"] = s.repeats;
  settings["min_repeat_seconds"] = s.min_repeat_seconds;
  settings["flock_steps"] = s.flock_steps;
  settings["naive_limit_seconds"] = s.naive_limit_seconds;
  j["settings"] = settings;

  j["model"] = {
      {"flops_per_pair", flops_per_pair(s.dimensions)},
      {"bytes_per_boid", "memory the flock holds per boid (Simulation::bytes_allocated)"},
      {"hashed_traffic_bytes_per_boid",
       "bytes a hashed step moves per boid, B = 2 * dimensions * sizeof(Real): on CPUs 4B + 32 + "
       "12 * cells / "
       "count (counting sort); on CUDA 4B + 24 + 16 * passes (+ 8 when passes are odd) + 16 * "
       "cells / count, passes = ceil(key bits / 8) (CUB onesweep); see bench/model.h"},
      {"naive_traffic_bytes_per_boid", "2B: read the boid, write it; candidates come from cache"}};

  json rows = json::array();
  for (const Row& r : result.rows) {
    json row;
    row["backend"] = boids::to_string(r.backend);
    row["method"] = boids::to_string(r.method);
    row["precision"] = boids::to_string(r.precision);
    row["state"] = to_string(r.state);
    row["variant"] = r.variant;
    row["count"] = r.count;
    row["ms_per_step"] = r.ms_per_step;
    row["boid_steps_per_second"] = r.boid_steps_per_second;
    row["pair_interactions_per_second"] = r.pair_interactions_per_second;
    row["candidates_per_boid"] = r.candidates_per_boid;
    row["neighbors_per_boid"] = r.neighbors_per_boid;
    row["bytes_per_boid"] = r.bytes_per_boid;
    row["device"] = r.device;
    row["hardware"] = result.limits.at(r.backend).name;
    row["world"] = r.world;
    row["dimensions"] = r.dimensions;
    row["steps_per_repeat"] = r.steps_per_repeat;
    json repeats = json::array();
    for (double seconds : r.seconds_per_step) repeats.push_back(seconds * 1e3);
    row["ms_per_step_repeats"] = repeats;
    json stages = json::object();
    for (const auto& [name, ms] : r.stage_ms) stages[name] = ms;
    row["ms_per_step_by_stage"] = stages;
    row["ms_min"] = r.ms_min;
    row["ms_max"] = r.ms_max;
    row["limit"] = r.limit;
    row["limit_ms_per_step"] = r.limit_ms_per_step;
    row["fraction_of_limit"] = json_number(r.fraction_of_limit);
    row["traffic_bytes_per_boid"] = r.traffic_bytes_per_boid;
    rows.push_back(row);
  }
  j["rows"] = rows;

  json skipped = json::array();
  for (const Skip& k : result.skipped) {
    skipped.push_back({{"backend", boids::to_string(k.backend)},
                       {"method", boids::to_string(k.method)},
                       {"precision", boids::to_string(k.precision)},
                       {"state", to_string(k.state)},
                       {"variant", k.variant},
                       {"count", k.count},
                       {"estimated_seconds_per_step", k.estimated_seconds_per_step}});
  }
  j["skipped"] = skipped;

  json fits = json::object();
  for (const auto& [method, fit] : method_fits(result.rows))
    fits[boids::to_string(method)] = fit_json(fit);
  j["fits"] = fits;
  json per_series = json::array();
  for (const SeriesFit& f : series_fits(result.rows)) {
    json entry = {{"backend", boids::to_string(f.backend)},
                  {"method", boids::to_string(f.method)},
                  {"precision", boids::to_string(f.precision)},
                  {"state", to_string(f.state)},
                  {"variant", f.variant}};
    entry.update(fit_json(f.fit));
    per_series.push_back(entry);
  }
  j["series_fits"] = per_series;
  return j;
}

}  // namespace boids::bench
