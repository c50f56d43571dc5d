// The viewer's frame loop: a worker thread steps the flock, a second one measures snapshots of
// it, and the main thread draws every frame and hands the worker its next job when it is idle.
#include <glad/gl.h>
// glad before GLFW, so that GLFW does not include the system OpenGL header.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "host/base/errors.h"
#include "host/base/interruption.h"
#include "host/core/value_limits.h"
#include "host/core/viewer_access.h"
#include "host/metrics/metrics.h"
#include "host/model/initial_state.h"
#include "viewer/screenshot.h"
#include "viewer/viewer.h"

namespace boids::viewer {
namespace {

constexpr double kMetricsInterval = 1.0;  // seconds between metric snapshots

void keep_last(std::vector<float>& series, double value) {
  series.push_back(static_cast<float>(value));
  if (series.size() > MetricsHistory::kHistory) series.erase(series.begin());
}

// The colouring after `c` in the order C steps through them.
Colouring next_colouring(Colouring c) {
  const auto at = std::find(std::begin(kViewerColourings), std::end(kViewerColourings), c);
  const auto next = at == std::end(kViewerColourings) ? at : at + 1;
  return next == std::end(kViewerColourings) ? kViewerColourings[0] : *next;
}

}  // namespace

void MetricsHistory::add(double polarization_value, double largest_share_value,
                         double order_value) {
  keep_last(polarization, polarization_value);
  keep_last(largest_share, largest_share_value);
  keep_last(order, order_value);
}

Viewer::Viewer(Surface& surface, const ViewerOptions& options, const SimulationConfig& config,
               std::unique_ptr<Simulation> sim)
    : surface_(surface),
      options_(options),
      config_(config),
      job_config_(config),
      seed_(options.flock.seed),
      count_(sim->count()),
      sim_(std::move(sim)),
      renderer_(count_, config.params.dimensions),
      steps_per_frame_(static_cast<int>(options.steps_per_frame)),
      ui_(config.params) {
  show_ui_ = !options.hide_panel;
  colouring_ = options.colour;
  const World& w = config.params.world;
  predator_radius_ =
      static_cast<float>(std::min(2.5 * config.params.radius, 0.25 * std::min(w.width, w.height)));
  device_ = sim_->device();
  const auto* gl_renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  gl_renderer_ = gl_renderer ? gl_renderer : "?";
  if (config.backend == Backend::kCuda) {
    interop_ = register_gl_buffer(renderer_.buffer(), render_path_);
    if (!interop_) render_path_ = "host copy: " + render_path_;
  } else {
    render_path_ = "host copy (glBufferSubData)";
  }
  if (interop_) render_path_ = "CUDA-OpenGL interop";
  staging_.resize(interop_ ? 0 : renderer_.floats_per_boid() * count_);
  snapshot_.resize(box() ? 0 : 4 * count_);  // 3D: the backend measures itself
  if (!interop_) viewer_access(*sim_).copy_render_data(staging_.data());
  if (config.params.predators > 0) {
    predator_renderer_ = std::make_unique<Renderer>(
        static_cast<std::uint64_t>(config.params.predators), config.params.dimensions);
    copy_predators();
  }
  upload();
  fit_view();
}

Viewer::~Viewer() {
  worker_.wait();
  metrics_worker_.wait();
}

// The view beside the panel: the framebuffer less the panel's width on its left, so that the
// panel never covers the world (the page's layout).
void Viewer::lay_out_view() {
  int width = 1, height = 1, window_w = 1, window_h = 1;
  surface_.framebuffer_size(width, height);
  surface_.pointer_extent(window_w, window_h);
  framebuffer_scale_ = static_cast<double>(std::max(1, width)) / std::max(1, window_w);
  const int panel = show_ui_ ? static_cast<int>(std::lround(kPanelWidth * framebuffer_scale_)) : 0;
  view_.left = std::min(panel, std::max(0, width - 1));
  view_.width = std::max(1, width - view_.left);
  view_.height = std::max(1, height);
}

// The world, or in open space (where the world is only the start's region) the flock as it
// is now: its bounds, at least a radius wide.
void Viewer::fit_view() {
  lay_out_view();
  const World& w = config_.params.world;
  if (!w.open()) {
    view_.center_x = w.width / 2;
    view_.center_y = w.height / 2;
    view_.pixels_per_unit = 0.96 * std::min(view_.width / w.width, view_.height / w.height);
    camera_.fit(w);
    return;
  }
  worker_.wait();  // the flock is the main thread's while the worker is idle
  const FlockState s = sim_->state();
  const std::vector<double>* axes[3] = {&s.x, &s.y, &s.z};
  double low[3] = {0, 0, 0}, high[3] = {0, 0, 0};
  for (int a = 0; a < config_.params.dimensions; ++a) {
    const auto [least, most] = std::minmax_element(axes[a]->begin(), axes[a]->end());
    const double middle = s.size() > 0 ? (*least + *most) / 2 : 0;
    const double half = std::max(s.size() > 0 ? (*most - *least) / 2 : 0, config_.params.radius);
    low[a] = middle - half;
    high[a] = middle + half;
  }
  view_.center_x = (low[0] + high[0]) / 2;
  view_.center_y = (low[1] + high[1]) / 2;
  view_.pixels_per_unit =
      0.96 * std::min(view_.width / (high[0] - low[0]), view_.height / (high[1] - low[1]));
  if (box()) camera_.fit_box(low, high);
}

// Pointer coordinates (GLFW's, y down) to world coordinates (y up), wrapped onto the torus.
void Viewer::world_at(double sx, double sy, double& wx, double& wy) const {
  int window_w = 1, window_h = 1;
  surface_.pointer_extent(window_w, window_h);
  const double fx = framebuffer_scale_;
  const double fy = static_cast<double>(view_.height) / std::max(1, window_h);
  const World& w = config_.params.world;
  wx = view_.center_x + (sx * fx - view_.left - view_.width / 2.0) / view_.pixels_per_unit;
  wy = view_.center_y - (sy * fy - view_.height / 2.0) / view_.pixels_per_unit;
  if (w.torus()) {
    wx -= w.width * std::floor(wx / w.width);
    wy -= w.height * std::floor(wy / w.height);
  }
}

FlockParams Viewer::wanted_params() const {
  FlockParams p = ui_;
  if (!rule_on_[0]) p.separation = 0;
  if (!rule_on_[1]) p.alignment = 0;
  if (!rule_on_[2]) p.cohesion = 0;
  return p;
}

void Viewer::upload() {
  if (!sim_) return;  // nothing new to draw
  if (predator_renderer_ && !predator_staging_.empty()) {
    predator_renderer_->upload(predator_staging_.data());
  }
  if (interop_) {
    try {
      interop_->write(viewer_access(*sim_), count_);
      return;
    } catch (const std::exception& e) {
      interop_.reset();
      render_path_ = std::string("host copy: interop failed (") + e.what() + ")";
      staging_.resize(renderer_.floats_per_boid() * count_);
      viewer_access(*sim_).copy_render_data(staging_.data());
    }
  }
  renderer_.upload(staging_.data());
}

void Viewer::copy_predators() {
  if (!predator_renderer_ || !sim_) return;
  const Particles q = sim_->predators();
  const int d = sim_->config().params.dimensions;
  predator_staging_.assign(2 * static_cast<std::size_t>(d) * q.size(), 0.0f);
  for (std::size_t k = 0; k < q.size(); ++k) {
    const double values[6] = {q.x[k],  q.y[k],  d == 3 ? q.z[k] : 0.0,
                              q.vx[k], q.vy[k], d == 3 ? q.vz[k] : 0.0};
    for (int a = 0; a < d; ++a) {
      predator_staging_[2 * d * k + a] = static_cast<float>(values[a]);
      predator_staging_[2 * d * k + d + a] = static_cast<float>(values[3 + a]);
    }
  }
}

// On the worker. The running flock is freed before the next is built, so that the two never
// hold the GPU's memory at once; if the next cannot be built, the running one comes back from
// its saved state, and failing that the viewer shows the last frame and says why.
void Viewer::reset_flock(const SimulationConfig& next, std::uint64_t seed) {
  const FlockState saved = sim_->state();
  const SimulationConfig previous = job_config_;
  sim_.reset();
  try {
    sim_ = make_simulation(next, make_initial_state(count_, seed, next.params));
  } catch (const std::exception& e) {
    const std::string why = e.what();
    try {
      sim_ = make_simulation(previous, saved);
    } catch (const std::exception& again) {
      throw RuntimeError("reset failed (" + why + "), and the flock could not be restored (" +
                         again.what() + ")");
    }
    throw RuntimeError("reset failed: " + why);
  }
}

void Viewer::service_worker(double now) {
  if (worker_.busy()) return;
  if (job_ran_) {
    job_ran_ = false;
    steps_done_ += job_steps_;
    window_steps_ += job_steps_;
    config_ = job_config_;
    if (!job_error_.empty()) {
      error_ = job_error_;
      job_error_.clear();
    }
    if (job_failed_) {
      job_failed_ = false;
      paused_ = true;  // a failing step is not retried every frame
    } else {
      upload();
      if (job_snapshot_) snapshot_ready_ = true;
    }
  }
  if (!sim_) return;

  const bool stepping = !paused_ || step_once_;
  const bool reset = reset_requested_;
  const bool retune = params_dirty_;
  const bool predator = predator_held_ && stepping;
  if (!stepping && !reset && !retune) return;
  const std::uint64_t steps =
      stepping ? (paused_ ? 1 : static_cast<std::uint64_t>(steps_per_frame_)) : 0;
  const bool snapshot = !snapshot_ready_ && !metrics_running_ && now >= next_snapshot_;
  if (reset) seed_ += 1;
  step_once_ = reset_requested_ = params_dirty_ = false;
  if (reset || retune) error_.clear();

  SimulationConfig next = config_;
  next.params = wanted_params();
  if (reset || retune) {
    // The controls' values pass the options' own checks, or the flock goes on as it was.
    try {
      check_params(next.params, next.precision);
    } catch (const InputError& e) {
      error_ = e.what();
      next.params = config_.params;
    }
  }
  next.seed = seed_;
  const PredatorPush push{predator_x_, predator_y_, predator_radius_, predator_strength_};
  const std::uint64_t seed = seed_;
  const bool in_box = box();
  job_ran_ = true;
  job_steps_ = steps;
  job_snapshot_ = snapshot;
  // Whatever fails in a job is reported in the window; the viewer never stops for it.
  worker_.start([=] {
    try {
      if (reset) {
        reset_flock(next, seed);
      } else if (retune) {
        sim_->set_params(next.params);  // in place, on the backend's own data
      }
      job_config_ = next;
    } catch (const std::exception& e) {
      job_error_ = e.what();  // the running simulation goes on, if there is one
    }
    if (!sim_) {
      job_failed_ = true;
      return;
    }
    try {
      ViewerAccess& access = viewer_access(*sim_);
      // The predator of the steering model's lab listing: boids near the held pointer flee, on the
      // backend's own data.
      if (predator) access.apply_predator(push);
      if (steps > 0) sim_->step(steps);
      if (!interop_) access.copy_render_data(staging_.data());
      copy_predators();
      if (snapshot && in_box) job_metrics_ = sim_->metrics();  // on the backend, in 3D
      if (snapshot && !in_box) access.copy_render_data(snapshot_.data());
    } catch (const std::exception& e) {
      job_error_ = e.what();
      job_failed_ = true;
    }
  });
}

// Polarization, the largest flock and the order parameter, on a second thread from a snapshot
// of the render data, so that even ten million boids never hold up a frame.
void Viewer::service_metrics(double now) {
  if (metrics_worker_.busy()) return;
  if (metrics_running_) {
    metrics_running_ = false;
    polarization_ = result_polarization_;
    largest_share_ = result_share_;
    order_ = result_order_;
    flocks_ = result_flocks_;
    metrics_seconds_ = result_seconds_;
    history_.add(polarization_, largest_share_, order_);
    next_snapshot_ = now + kMetricsInterval;
  }
  // A job writes snapshot_ only when started while no snapshot was ready, so a ready one is
  // safe to take even while the next job runs.
  if (!snapshot_ready_) return;
  snapshot_ready_ = false;
  if (box()) {  // the job measured the flock on its backend
    polarization_ = job_metrics_.polarization;
    order_ = job_metrics_.order;
    flocks_ = job_metrics_.flocks;
    largest_share_ = static_cast<double>(job_metrics_.largest_flock) / static_cast<double>(count_);
    metrics_seconds_ = 0;
    history_.add(polarization_, largest_share_, order_);
    next_snapshot_ = now + kMetricsInterval;
    return;
  }
  metrics_input_.swap(snapshot_);
  if (snapshot_.size() != metrics_input_.size()) snapshot_.resize(metrics_input_.size());
  metrics_params_ = config_.params;
  metrics_running_ = true;
  metrics_worker_.start([this] {
    const double start = surface_.seconds();
    const std::size_t n = metrics_input_.size() / 4;
    FlockState s;
    s.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      s.x[i] = metrics_input_[4 * i];
      s.y[i] = metrics_input_[4 * i + 1];
      s.vx[i] = metrics_input_[4 * i + 2];
      s.vy[i] = metrics_input_[4 * i + 3];
    }
    result_polarization_ = polarization(s);
    result_order_ = order_parameter(s, metrics_params_.max_speed);
    const FlockCount count = count_flocks(s, metrics_params_.radius, metrics_params_.world);
    result_flocks_ = count.flocks;
    result_share_ = static_cast<double>(count.largest) / static_cast<double>(n);
    result_seconds_ = surface_.seconds() - start;
  });
}

void Viewer::on_key(int key, int action) {
  if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
  if (ImGui::GetIO().WantCaptureKeyboard) return;
  switch (key) {
    case GLFW_KEY_SPACE:
      paused_ = !paused_;
      break;
    case GLFW_KEY_N:
    case GLFW_KEY_PERIOD:
      paused_ = true;
      step_once_ = true;
      break;
    case GLFW_KEY_R:
      reset_requested_ = true;
      break;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD:
      steps_per_frame_ = std::min(1000, steps_per_frame_ * 2);
      break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT:
      steps_per_frame_ = std::max(1, steps_per_frame_ / 2);
      break;
    case GLFW_KEY_C:  // (both views)
      colouring_ = next_colouring(colouring_);
      break;
    case GLFW_KEY_0:
    case GLFW_KEY_HOME:
      fit_view();
      break;
    case GLFW_KEY_H:
    case GLFW_KEY_F1:
      show_help_ = !show_help_;
      break;
    case GLFW_KEY_TAB:
      show_ui_ = !show_ui_;
      break;
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_Q:
      surface_.close();
      break;
    default:
      break;
  }
}

void Viewer::on_mouse_button(int button, int action) {
  if (action == GLFW_RELEASE) {
    if (button == GLFW_MOUSE_BUTTON_LEFT) predator_held_ = orbiting_ = false;
    if (button == GLFW_MOUSE_BUTTON_RIGHT || button == GLFW_MOUSE_BUTTON_MIDDLE) panning_ = false;
    return;
  }
  if (ImGui::GetIO().WantCaptureMouse) return;
  if (button == GLFW_MOUSE_BUTTON_LEFT && box()) {
    orbiting_ = true;  // in 3D the left button turns the camera
  } else if (button == GLFW_MOUSE_BUTTON_LEFT && placing_goal_) {
    world_at(cursor_x_, cursor_y_, ui_.goal.x, ui_.goal.y);
    ui_.goal.x = std::clamp(ui_.goal.x, 0.0, ui_.world.width * (1 - 1e-12));
    ui_.goal.y = std::clamp(ui_.goal.y, 0.0, ui_.world.height * (1 - 1e-12));
    ui_.has_goal = true;
    placing_goal_ = false;
    params_dirty_ = true;
  } else if (button == GLFW_MOUSE_BUTTON_LEFT) {
    predator_held_ = true;
    world_at(cursor_x_, cursor_y_, predator_x_, predator_y_);
  } else if (button == GLFW_MOUSE_BUTTON_RIGHT || button == GLFW_MOUSE_BUTTON_MIDDLE) {
    panning_ = true;
  }
}

void Viewer::on_cursor(double x, double y) {
  int window_w = 1, window_h = 1;
  surface_.pointer_extent(window_w, window_h);
  const double fx = framebuffer_scale_;
  const double fy = static_cast<double>(view_.height) / std::max(1, window_h);
  const double dx = (x - cursor_x_) * fx, dy = (y - cursor_y_) * fy;  // framebuffer pixels
  if (box()) {
    if (orbiting_) camera_.orbit(dx, dy);
    if (panning_) camera_.pan(dx, dy, view_.height);
  } else if (panning_) {
    view_.center_x -= dx / view_.pixels_per_unit;
    view_.center_y += dy / view_.pixels_per_unit;
  }
  cursor_x_ = x;
  cursor_y_ = y;
  if (predator_held_) world_at(x, y, predator_x_, predator_y_);
}

void Viewer::on_scroll(double dy) {
  if (ImGui::GetIO().WantCaptureMouse) return;
  if (box()) {
    camera_.zoom(dy);
    return;
  }
  // Zoom about the pointer: the world point under it stays under it.
  int window_w = 1, window_h = 1;
  surface_.pointer_extent(window_w, window_h);
  const double sx = cursor_x_ * framebuffer_scale_ - view_.left - view_.width / 2.0;
  const double sy = cursor_y_ * view_.height / std::max(1, window_h) - view_.height / 2.0;
  const double before = view_.pixels_per_unit;
  const World& w = config_.params.world;
  const double limit = 1e6 / std::max(w.width, w.height);
  view_.pixels_per_unit = std::clamp(before * std::pow(1.2, dy), 1e-3 * limit / 1e6, limit);
  view_.center_x += sx / before - sx / view_.pixels_per_unit;
  view_.center_y -= sy / before - sy / view_.pixels_per_unit;
}

void Viewer::print_summary(double seconds) const {
  std::printf(
      "boids-viewer: %llu boids (%s), %llu frames in %.3f s: %.2f fps; %llu steps, %.2f "
      "steps/s; %s %s %s on %s; %s; OpenGL: %s, %s\n",
      static_cast<unsigned long long>(count_), to_string(config_.params.model).c_str(),
      static_cast<unsigned long long>(frames_), seconds,
      seconds > 0 ? static_cast<double>(frames_) / seconds : 0.0,
      static_cast<unsigned long long>(steps_done_),
      seconds > 0 ? static_cast<double>(steps_done_) / seconds : 0.0,
      to_string(config_.backend).c_str(), to_string(config_.method).c_str(),
      to_string(config_.precision).c_str(), device_.c_str(), render_path_.c_str(),
      gl_renderer_.c_str(), surface_.describe().c_str());
  std::fflush(stdout);
}

// The flock (in 2D or in the box), then the panel over it, into the back buffer.
void Viewer::draw_frame() {
  lay_out_view();
  glClearColor(0.05f, 0.06f, 0.08f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  const FlockParams& p = config_.params;
  const render::SpeedSpan speeds = render::speed_span(p);
  const bool density = colouring_ == Colouring::kDensity;
  if (density) {  // the flock as a picture; the predators over it
    const render::Projection projection = box() ? render::projection_3d(view_, camera_, p.world)
                                                : render::projection_2d(view_, p.world);
    renderer_.draw_density(projection, view_.width, view_.height)
        .show(view_.width, view_.height, view_.left);
  }
  if (box()) {
    const auto length = static_cast<float>(boid_pixels_ / 14.0 * p.radius);
    if (!density)
      renderer_.draw_3d(view_, camera_, p.world, speeds, render::paint_of(colouring_), length);
    if (predator_renderer_) {
      predator_renderer_->draw_3d(view_, camera_, p.world, speeds, render::Paint::kWhite,
                                  2.5f * length);
    }
  } else {
    if (!density)
      renderer_.draw(view_, p.world, speeds, render::paint_of(colouring_), boid_pixels_);
    if (predator_renderer_) {
      predator_renderer_->draw(view_, p.world, speeds, render::Paint::kWhite, 2.5f * boid_pixels_);
    }
  }
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Viewer::run() {
  const double start = surface_.seconds();
  window_start_ = start;
  for (;;) {
    surface_.poll();
    const bool last =
        // SIGINT or SIGTERM closes the window as its close button does.
        surface_.closing() || stop_requested() ||
        (options_.frames > 0 && frames_ + 1 >= options_.frames);
    const double now = surface_.seconds();
    service_worker(now);
    service_metrics(now);

    ImGui_ImplOpenGL3_NewFrame();
    surface_.new_panel_frame();
    ImGui::NewFrame();
    build_ui();
    ImGui::Render();

    draw_frame();
    ++frames_;
    ++window_frames_;
    // The whole framebuffer, the panel beside the view included.
    const int drawn_width = view_.left + view_.width;
    if (last && !options_.screenshot.empty())
      screenshot_png_ = encode_screenshot(drawn_width, view_.height);
    if (!record_path_.empty()) {
      if (!recorder_) {
        recorder_ = std::make_unique<Recorder>(record_path_, drawn_width, view_.height,
                                               options_.record_fps);
      }
      recorder_->add_frame(drawn_width, view_.height);
    }
    surface_.present();

    const double t = surface_.seconds();
    if (t - window_start_ >= 0.5) {
      fps_ = static_cast<double>(window_frames_) / (t - window_start_);
      steps_per_second_ = static_cast<double>(window_steps_) / (t - window_start_);
      window_frames_ = window_steps_ = 0;
      window_start_ = t;
    }
    if (last) break;
  }
  // Frames and the steps completed while they were drawn; a step still running is not counted.
  print_summary(surface_.seconds() - start);
  if (recorder_) recorder_->finish();
  worker_.wait();
  worker_.busy();  // rethrows a failure of the last job
}

}  // namespace boids::viewer
