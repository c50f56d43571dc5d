#include "python/flock.h"

#include <algorithm>
#include <chrono>

#include "host/base/errors.h"
#include "host/core/flight_cost.h"
#include "host/core/flight_rules.h"
#include "host/core/particles_view.h"
#include "host/core/value_limits.h"
#include "host/io/checkpoint.h"
#include "host/io/flight_params.h"
#include "host/io/output_file.h"
#include "host/model/initial_state.h"
#include "host/model/param_table.h"
#include "host/tools/reports.h"

namespace boids::python {
namespace {

// Options fixed for a flock's life, refused by set_params: its boids, where they run, and the
// model and the dimensions they fly.
constexpr const char* kFixed[] = {"count",     "seed", "backend",    "method",
                                  "precision", "init", "dimensions", "model"};

// The stretch a step call runs between checks for signals: long enough that the checks cost
// nothing, short enough that Ctrl-C answers at once.
constexpr double kStretchSeconds = 0.05;
// A served flock's stretch while a page waits for a frame: a frame every sixtieth of a second.
constexpr double kServedStretchSeconds = 1.0 / 60;

bool same_obstacles(const std::vector<Obstacle>& a, const std::vector<Obstacle>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const Obstacle& p, const Obstacle& q) {
                      return p.x == q.x && p.y == q.y && p.z == q.z && p.radius == q.radius;
                    });
}

std::string shape_of(std::uint64_t count, int dimensions) {
  return "(" + std::to_string(count) + ", " + std::to_string(2 * dimensions) + ")";
}

// A change is resolved in the flock's own dimensions and world, not in the defaults they came
// from: a 3D flock's default world follows its radius, and a flock from an array of rows of six
// is 3D without `dimensions` given. A change that names the world is checked as given (a world
// cannot change while boids are in it).
void in_the_flocks_world(FlockOptions& options, const GivenOptions& changes,
                         const FlockParams& now) {
  options.values.dimensions = now.dimensions;
  options.named.insert("--dimensions");
  for (const char* world : {"world", "density", "boundary"}) {
    if (changes.texts.count(world) || changes.cleared.count(world)) return;
  }
  options.density.reset();
  options.values.world = now.world;
  options.world_sides = now.dimensions;
  options.named.insert("--world");
  options.named.insert("--boundary");
}

}  // namespace

PythonFlock::PythonFlock(const py::dict& keywords, const py::object& state)
    : given_(given_options(keywords)) {
  FlockOptions options = parse_flock_options(given_);
  if (!state.is_none()) {
    for (const char* fixed : {"count", "init"}) {
      if (given_.texts.count(fixed)) {
        throw InputError(std::string(fixed) +
                         ": from_state takes the flock from the array; give no " + fixed);
      }
    }
    // The array's size before the world: a world given by --density depends on it.
    // Rows of six are boids in three dimensions, unless `dimensions` says otherwise.
    const py::array rows = py::array::ensure(state);
    if (rows && rows.ndim() == 2 && rows.shape(0) > 0) {
      if (!options.given("--dimensions") && rows.shape(1) == 6) {
        options.values.dimensions = 3;
        options.named.insert("--dimensions");
      }
      const int dimensions = options.given("--dimensions") ? options.values.dimensions : 2;
      if (rows.shape(1) == 2 * dimensions) {
        options.count = static_cast<std::uint64_t>(rows.shape(0));
      }
    }
  }
  const SimulationConfig config = resolve_config(options);
  FlockState initial;
  if (!state.is_none()) {
    initial = checked_state(state, config);
    initial.predators = make_initial_predators(config.seed, config.params);  // boids given alone
  }
  std::string slow;
  {
    py::gil_scoped_release release;
    if (state.is_none()) {
      // A random start is checked before it is drawn; a state file once it is read.
      if (options.init_file.empty()) check_memory(config, resolve_count(options));
      initial = initial_state(options, config.params);
    }
    check_memory(config, initial.size());
    slow = slow_flight_warning(config, initial.size());
  }
  // Said before the flock is made, as the command line says it (host/core/flight_cost.h).
  if (!slow.empty() && PyErr_WarnEx(PyExc_RuntimeWarning, slow.c_str(), 2) < 0) {
    throw py::error_already_set();
  }
  py::gil_scoped_release release;
  sim_ = make_simulation(config, initial);
  settle_given();
}

void PythonFlock::settle_given() {
  // Files are read once, when the flock is made: a later set_params keeps what they held.
  given_.texts.erase("init");
  if (given_.texts.erase("obstacles") > 0) {
    given_.obstacles = sim_->config().params.obstacles;
    given_.obstacle_dimensions = sim_->config().params.dimensions;
  }
  if (given_.texts.erase("path") > 0) {
    given_.path = sim_->config().params.path;
    given_.path_dimensions = sim_->config().params.dimensions;
  }
}

SimulationConfig PythonFlock::config() const {
  py::gil_scoped_release release;
  const std::lock_guard<std::mutex> lock(mutex_);
  tell_server_still();
  return sim_->config();
}

std::uint64_t PythonFlock::steps_taken() const {
  py::gil_scoped_release release;
  const std::lock_guard<std::mutex> lock(mutex_);
  tell_server_still();
  return sim_->steps_taken();
}

FlockState PythonFlock::checked_state(const py::object& array, const SimulationConfig& config) {
  FlockState state = state_of_array(array, config.params.world, "state", config.params.dimensions);
  check_state_values(state, config.precision,
                     [](std::size_t i, int) { return "state, row " + std::to_string(i); });
  try {
    check_start(state, config.params, start_tolerance(config.precision));
  } catch (const InputError& e) {
    throw InputError(std::string("state: ") + e.what());
  }
  return state;
}

std::uint64_t PythonFlock::steps_of(const py::object& n) const {
  const std::string given = py::repr(n).cast<std::string>();
  const py::object integral = py::module_::import("numbers").attr("Integral");
  if (py::isinstance<py::bool_>(n) || !py::isinstance(n, integral)) {
    throw py::type_error("step: n must be a whole number (int), got " + given);
  }
  const py::int_ steps(n);
  if (steps < py::int_(0)) throw InputError("step: n must be >= 0, got " + given);
  const std::uint64_t taken = steps_taken();
  if (steps > py::int_(kMaxSteps - taken)) {
    throw InputError("step: n = " + given + " would take the flock past " +
                     std::to_string(kMaxSteps) + " steps (10^18, the most a flight takes); it " +
                     "has taken " + std::to_string(taken));
  }
  return steps.cast<std::uint64_t>();
}

void PythonFlock::step(const py::object& count) {
  const std::uint64_t n = steps_of(count);
  std::uint64_t done = 0, stretch = 1;
  while (done < n) {
    const std::uint64_t steps = std::min(stretch, n - done);
    double seconds = 0;
    bool watched = false;
    {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(mutex_);
      const auto start = std::chrono::steady_clock::now();
      sim_->step(steps);
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      tell_server_changed();
      watched = server_ && server_->watched();
    }
    done += steps;
    if (done < n && PyErr_CheckSignals() != 0) throw py::error_already_set();
    const double aim = watched ? kServedStretchSeconds : kStretchSeconds;
    if (seconds < aim) {
      stretch *= 2;
    } else if (seconds > 2 * aim && stretch > 1) {
      stretch /= 2;
    }
  }
}

py::array_t<double> PythonFlock::state() {
  const int dimensions = config().params.dimensions;
  py::array_t<double> out({static_cast<py::ssize_t>(count()), py::ssize_t{2 * dimensions}});
  double* data = out.mutable_data();
  py::gil_scoped_release release;
  const std::lock_guard<std::mutex> lock(mutex_);
  sim_->state_into(StateView::rows(data, dimensions));
  tell_server_still();
  return out;
}

py::array_t<double> PythonFlock::predators() {
  const int dimensions = config().params.dimensions;
  Particles q;
  {
    py::gil_scoped_release release;
    const std::lock_guard<std::mutex> lock(mutex_);
    q = sim_->predators();
  }
  py::array_t<double> out({static_cast<py::ssize_t>(q.size()), py::ssize_t{2 * dimensions}});
  copy_particles(q, StateView::rows(out.mutable_data(), dimensions));
  return out;
}

void PythonFlock::set_state(const py::object& array) {
  const py::array rows = py::array::ensure(array);
  const int dimensions = config().params.dimensions;
  if (rows && rows.ndim() == 2 && rows.shape(1) == 2 * dimensions &&
      static_cast<std::uint64_t>(rows.shape(0)) != count()) {
    throw InputError("set_state: expected shape " + shape_of(count(), dimensions) +
                     " for this flock of " + std::to_string(count()) + " boids, got " +
                     shape_of(rows.shape(0), dimensions) +
                     "; Flock.from_state makes a flock of another size");
  }
  FlockState state = checked_state(array, config());
  py::gil_scoped_release release;
  const std::lock_guard<std::mutex> lock(mutex_);
  // In input order, as a new flock starts; the steps taken go on, and so does the noise; the
  // predators fly on where they are.
  state.predators = sim_->predators();
  sim_->resume(state, input_order(count()), sim_->steps_taken());
  tell_server_changed();
}

py::dict PythonFlock::metrics() {
  FlockMetrics m;
  {
    py::gil_scoped_release release;
    const std::lock_guard<std::mutex> lock(mutex_);
    m = sim_->metrics();
    tell_server_still();
  }
  return to_python(tools::metrics_json(m, config().params.predators > 0));
}

py::dict PythonFlock::params() const {
  return to_python(params_to_json(config().params, ParamForm::kReport));
}

// Options given before that need what this change turns off (predator_speed once predators=0)
// go back to their defaults, as the change means; given with it, they are refused as given.
void PythonFlock::drop_unneeded(GivenOptions& given, const GivenOptions& changes) const {
  GivenOptions without = given;
  std::vector<const ParamSpec*> earlier;
  for (const ParamSpec& row : param_table()) {
    const std::string keyword = row.keyword();
    if (!row.needs.on || changes.texts.count(keyword) || !without.texts.count(keyword)) continue;
    without.texts.erase(keyword);
    earlier.push_back(&row);
  }
  if (earlier.empty()) return;
  FlockParams after;
  try {
    FlockOptions options = parse_flock_options(without);
    options.count = count();
    in_the_flocks_world(options, changes, sim_->config().params);
    after = resolve_params(options);
  } catch (const InputError&) {
    return;  // the change is refused for itself, as set_params says next
  }
  for (const ParamSpec* row : earlier) {
    if (!row->needs.on(after)) given.texts.erase(row->keyword());
  }
}

void PythonFlock::set_params(const py::dict& keywords) {
  for (const char* fixed : kFixed) {
    if (keywords.contains(fixed)) {
      throw InputError(std::string(fixed) + ": fixed for a flock's life; make a new Flock");
    }
  }
  const GivenOptions changes = given_options(keywords);
  py::gil_scoped_release release;
  // The options given so far are read, changed and stored under the lock, so that two threads
  // changing one flock each keep their change.
  const std::lock_guard<std::mutex> lock(mutex_);
  GivenOptions given = merged(given_, changes);
  drop_unneeded(given, changes);
  FlockOptions options = parse_flock_options(given);
  options.count = count();
  in_the_flocks_world(options, changes, sim_->config().params);
  SimulationConfig changed = sim_->config();
  changed.params = resolve_params(options);
  check_flight(changed);  // as the command line and a checkpoint check it, backend included
  if (!same_obstacles(changed.params.obstacles, sim_->config().params.obstacles)) {
    // New obstacles must leave every boid outside, as a start's must.
    const auto held =
        first_boid_in_an_obstacle(sim_->state(), changed.params, flight_tolerance(changed).edge);
    if (held) {
      throw InputError("obstacles: boid " + std::to_string(*held) +
                       " would lie inside an obstacle (set_state can move the boids first)");
    }
  }
  sim_->set_params(changed.params);
  given_ = std::move(given);
  tell_server_changed();
}

void PythonFlock::tell_server_changed() {
  if (server_) server_->changed(*sim_);
}

void PythonFlock::tell_server_still() const {
  if (server_) server_->still(*sim_);
}

std::string PythonFlock::serve(const ServeRequest& request) {
  py::gil_scoped_release release;
  const std::lock_guard<std::mutex> lock(mutex_);
  server_.reset();  // first, so that its port is free to listen on again
  server_ = std::make_unique<FlockServer>(
      *sim_, request, [this](const std::function<void(const Simulation&)>& use) {
        const std::unique_lock<std::mutex> held(mutex_, std::try_to_lock);
        if (held) use(*sim_);
        return held.owns_lock();
      });
  return server_->address();
}

void PythonFlock::stop_serving() {
  py::gil_scoped_release release;
  const std::lock_guard<std::mutex> lock(mutex_);
  server_.reset();
}

py::object PythonFlock::serving() const {
  std::string address;
  {
    py::gil_scoped_release release;
    const std::lock_guard<std::mutex> lock(mutex_);
    if (server_) address = server_->address();
  }
  if (address.empty()) return py::none();
  return py::str(address);
}

py::tuple PythonFlock::device_state() {
  DeviceState d;
  {
    py::gil_scoped_release release;
    const std::lock_guard<std::mutex> lock(mutex_);
    d = sim_->device_state();
  }
  if (!d.boids && config().params.dimensions == 3) {
    throw RuntimeError("device_state: not yet for flocks in three dimensions; read flock.state");
  }
  if (!d.boids) {
    throw RuntimeError("device_state: this flock lives in host memory (the " + backend() +
                       " backend); read flock.state instead");
  }
  return py::make_tuple(reinterpret_cast<std::uintptr_t>(d.boids),
                        reinterpret_cast<std::uintptr_t>(d.ids), d.count, to_string(d.precision),
                        reinterpret_cast<std::uintptr_t>(d.stream), d.device);
}

void PythonFlock::checkpoint(const std::string& path) {
  if (path.empty()) throw InputError("path: expected a file name, got ''");
  OutputFiles file;  // a temporary file beside it, renamed once whole
  file.add("--checkpoint", path);
  py::gil_scoped_release release;
  const std::lock_guard<std::mutex> lock(mutex_);
  write_checkpoint(file, "--checkpoint", checkpoint_of(*sim_));
  file.commit();
}

void PythonFlock::open_trajectory(const std::string& path, std::uint64_t every, std::uint64_t last,
                                  int layout) {
  py::gil_scoped_release release;
  const std::lock_guard<std::mutex> lock(mutex_);
  recording_ = std::make_unique<FlockRecording>(path, every, last, layout, *sim_);
}

py::object PythonFlock::record_frame(bool always) {
  FlockMetrics m;
  bool recorded = false;
  {
    py::gil_scoped_release release;
    const std::lock_guard<std::mutex> lock(mutex_);
    if (recording_) recorded = recording_->record(*sim_, always, m);
  }
  if (!recorded) return py::none();
  return to_python(tools::metrics_json(m, config().params.predators > 0));
}

void PythonFlock::close_trajectory() {
  py::gil_scoped_release release;
  const std::lock_guard<std::mutex> lock(mutex_);
  if (!recording_) return;
  const std::unique_ptr<FlockRecording> closing = std::move(recording_);
  closing->finish();
}

py::dict PythonFlock::flight() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return to_python(flight_record(*sim_));
}

}  // namespace boids::python
