#include "viewer/app.h"

#include <glad/gl.h>
// glad before GLFW, so that GLFW does not include the system OpenGL header.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "host/errors.h"
#include "host/initial_state.h"
#include "host/metrics.h"
#include "host/output_file.h"
#include "host/simulation.h"
#include "viewer/gl_interop.h"
#include "viewer/renderer.h"
#include "viewer/screenshot.h"
#include "viewer/stepper.h"

namespace boids::viewer {

cli::OptionParser make_parser(ViewerOptions& o) {
  cli::OptionParser parser(
      "Usage: boids-viewer [options]\n"
      "Shows a flock in a window (OpenGL 4.3). Press H in the window for the controls.");
  cli::add_flock_options(parser, o.flock);
  parser.add_value("--frames", "N",
                   "quit after N frames, >= 1 (default: when the window is closed)",
                   [&o](const std::string& v) { o.frames = cli::parse_whole("--frames", v, 1); });
  parser.add_value("--steps-per-frame", "K", "simulation steps per frame, 1 to 1000 (default 1)",
                   [&o](const std::string& v) {
                     o.steps_per_frame = cli::parse_whole("--steps-per-frame", v, 1, 1000);
                   });
  parser.add_value("--screenshot", "FILE.png", "save the last frame as a PNG",
                   [&o](const std::string& v) {
                     if (v.empty()) throw InputError("--screenshot: the file name is empty");
                     o.screenshot = v;
                   });
  parser.add_value("--vsync", "on|off", "wait for the display's refresh (default on)",
                   [&o](const std::string& v) {
                     if (v != "on" && v != "off") {
                       throw InputError("--vsync: expected on or off, got '" + v + "'");
                     }
                     o.vsync = v == "on";
                   });
  parser.add_flag("--help", "show this help", [&o] { o.help = true; });
  return parser;
}

namespace {

constexpr double kMetricsInterval = 1.0;  // seconds between metric snapshots

std::string glfw_error;
void on_glfw_error(int /*code*/, const char* description) {
  glfw_error = description;
}

class Viewer {
 public:
  Viewer(GLFWwindow* window, const ViewerOptions& options, const SimulationConfig& config,
         std::unique_ptr<Simulation> sim)
      : window_(window),
        options_(options),
        config_(config),
        job_config_(config),
        seed_(options.flock.seed),
        count_(sim->count()),
        sim_(std::move(sim)),
        renderer_(count_),
        steps_per_frame_(static_cast<int>(options.steps_per_frame)) {
    ui_[0] = static_cast<float>(config.params.separation);
    ui_[1] = static_cast<float>(config.params.alignment);
    ui_[2] = static_cast<float>(config.params.cohesion);
    ui_radius_ = static_cast<float>(config.params.radius);
    ui_max_speed_ = static_cast<float>(config.params.max_speed);
    predator_radius_ =
        static_cast<float>(std::min(2.5 * config.params.radius, 0.25 * config.params.world));
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
    staging_.resize(interop_ ? 0 : 4 * count_);
    snapshot_.resize(4 * count_);
    if (!interop_) sim_->viewer_access().copy_render_data(staging_.data());
    upload();
    fit_view();
  }

  ~Viewer() {
    worker_.wait();
    metrics_worker_.wait();
  }

  void run();

  // Input, from GLFW's callbacks (which Dear ImGui chains to).
  void on_key(int key, int action);
  void on_mouse_button(int button, int action);
  void on_cursor(double x, double y);
  void on_scroll(double dy);

 private:
  void fit_view();
  void world_at(double sx, double sy, double& wx, double& wy) const;
  FlockParams wanted_params() const;
  void upload();
  void reset_flock(const SimulationConfig& next, std::uint64_t seed);
  void service_worker(double now);
  void service_metrics(double now);
  void build_ui();
  void print_summary(double seconds) const;

  GLFWwindow* window_;
  ViewerOptions options_;
  SimulationConfig config_;      // the running simulation's, as the main thread sees it
  SimulationConfig job_config_;  // the same, written by jobs
  std::uint64_t seed_;
  const std::uint64_t count_;        // the flock's size, which no reset changes
  std::unique_ptr<Simulation> sim_;  // touched by the main thread only while worker_ is idle;
                                     // null once a failed reset could not restore the flock
  Renderer renderer_;
  std::unique_ptr<GlBufferInterop> interop_;
  std::string render_path_, device_, gl_renderer_;
  std::vector<float> staging_;   // host path: written by jobs, uploaded by the main thread
  std::vector<float> snapshot_;  // render data for the metrics, written by jobs
  std::vector<float> metrics_input_;
  Worker worker_, metrics_worker_;

  // What the last job did (read by the main thread once the worker is idle).
  bool job_ran_ = false, job_snapshot_ = false, job_failed_ = false;
  std::uint64_t job_steps_ = 0;
  std::string job_error_;

  // Metrics.
  bool snapshot_ready_ = false, metrics_running_ = false;
  double next_snapshot_ = 0;
  FlockParams metrics_params_;
  double polarization_ = NAN, largest_share_ = NAN, metrics_seconds_ = 0;
  std::uint64_t flocks_ = 0;
  double result_polarization_ = NAN, result_share_ = NAN, result_seconds_ = 0;
  std::uint64_t result_flocks_ = 0;

  // Controls.
  bool paused_ = false, step_once_ = false, reset_requested_ = false, params_dirty_ = false;
  int steps_per_frame_;
  float ui_[3] = {};
  bool rule_on_[3] = {true, true, true};
  float ui_radius_ = 0, ui_max_speed_ = 0;
  std::string error_;
  bool predator_held_ = false;
  double predator_x_ = 0, predator_y_ = 0;
  float predator_radius_ = 0, predator_strength_ = 1.0f;

  // View.
  View view_;
  ColorMode color_mode_ = ColorMode::kHeading;
  float boid_pixels_ = 7.0f;
  bool show_help_ = false, show_ui_ = true;
  bool panning_ = false;
  double cursor_x_ = 0, cursor_y_ = 0;

  // Statistics.
  std::uint64_t frames_ = 0, steps_done_ = 0;
  double fps_ = 0, steps_per_second_ = 0, window_start_ = 0;
  std::uint64_t window_frames_ = 0, window_steps_ = 0;
};

Viewer* viewer_of(GLFWwindow* window) {
  return static_cast<Viewer*>(glfwGetWindowUserPointer(window));
}

void Viewer::fit_view() {
  glfwGetFramebufferSize(window_, &view_.width, &view_.height);
  view_.width = std::max(1, view_.width);
  view_.height = std::max(1, view_.height);
  view_.center_x = view_.center_y = config_.params.world / 2;
  view_.pixels_per_unit = 0.96 * std::min(view_.width, view_.height) / config_.params.world;
}

// Window coordinates (GLFW's, y down) to world coordinates (y up), wrapped onto the torus.
void Viewer::world_at(double sx, double sy, double& wx, double& wy) const {
  int window_w = 1, window_h = 1;
  glfwGetWindowSize(window_, &window_w, &window_h);
  const double fx = static_cast<double>(view_.width) / std::max(1, window_w);
  const double fy = static_cast<double>(view_.height) / std::max(1, window_h);
  const double world = config_.params.world;
  wx = view_.center_x + (sx * fx - view_.width / 2.0) / view_.pixels_per_unit;
  wy = view_.center_y - (sy * fy - view_.height / 2.0) / view_.pixels_per_unit;
  wx -= world * std::floor(wx / world);
  wy -= world * std::floor(wy / world);
}

FlockParams Viewer::wanted_params() const {
  FlockParams p = config_.params;
  p.separation = rule_on_[0] ? ui_[0] : 0.0;
  p.alignment = rule_on_[1] ? ui_[1] : 0.0;
  p.cohesion = rule_on_[2] ? ui_[2] : 0.0;
  p.radius = ui_radius_;
  p.max_speed = ui_max_speed_;
  return p;
}

void Viewer::upload() {
  if (!sim_) return;  // nothing new to draw
  if (interop_) {
    try {
      interop_->write(sim_->viewer_access(), count_);
      return;
    } catch (const std::exception& e) {
      interop_.reset();
      render_path_ = std::string("host copy: interop failed (") + e.what() + ")";
      staging_.resize(4 * count_);
      sim_->viewer_access().copy_render_data(staging_.data());
    }
  }
  renderer_.upload(staging_.data());
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
  const double px = predator_x_, py = predator_y_;
  const double pr = predator_radius_, ps = predator_strength_;
  const std::uint64_t seed = seed_;
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
      ViewerAccess& access = sim_->viewer_access();
      // The predator of seed 002: boids near the held pointer flee, on the backend's own data.
      if (predator) access.apply_predator({px, py, pr, ps});
      if (steps > 0) sim_->step(steps);
      if (!interop_) access.copy_render_data(staging_.data());
      if (snapshot) access.copy_render_data(snapshot_.data());
    } catch (const std::exception& e) {
      job_error_ = e.what();
      job_failed_ = true;
    }
  });
}

// Polarization and the largest flock, on a second thread from a snapshot of the render data,
// so that even ten million boids never hold up a frame.
void Viewer::service_metrics(double now) {
  if (metrics_worker_.busy()) return;
  if (metrics_running_) {
    metrics_running_ = false;
    polarization_ = result_polarization_;
    largest_share_ = result_share_;
    flocks_ = result_flocks_;
    metrics_seconds_ = result_seconds_;
    next_snapshot_ = now + kMetricsInterval;
  }
  // A job writes snapshot_ only when started while no snapshot was ready, so a ready one is
  // safe to take even while the next job runs.
  if (!snapshot_ready_) return;
  snapshot_ready_ = false;
  metrics_input_.swap(snapshot_);
  if (snapshot_.size() != metrics_input_.size()) snapshot_.resize(metrics_input_.size());
  metrics_params_ = config_.params;
  metrics_running_ = true;
  metrics_worker_.start([this] {
    const double start = glfwGetTime();
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
    const FlockCount count = count_flocks(s, metrics_params_.radius, metrics_params_.world);
    result_flocks_ = count.flocks;
    result_share_ = static_cast<double>(count.largest) / static_cast<double>(n);
    result_seconds_ = glfwGetTime() - start;
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
    case GLFW_KEY_C:
      color_mode_ = color_mode_ == ColorMode::kHeading ? ColorMode::kSpeed : ColorMode::kHeading;
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
      glfwSetWindowShouldClose(window_, GLFW_TRUE);
      break;
    default:
      break;
  }
}

void Viewer::on_mouse_button(int button, int action) {
  if (action == GLFW_RELEASE) {
    if (button == GLFW_MOUSE_BUTTON_LEFT) predator_held_ = false;
    if (button == GLFW_MOUSE_BUTTON_RIGHT || button == GLFW_MOUSE_BUTTON_MIDDLE) panning_ = false;
    return;
  }
  if (ImGui::GetIO().WantCaptureMouse) return;
  if (button == GLFW_MOUSE_BUTTON_LEFT) {
    predator_held_ = true;
    world_at(cursor_x_, cursor_y_, predator_x_, predator_y_);
  } else if (button == GLFW_MOUSE_BUTTON_RIGHT || button == GLFW_MOUSE_BUTTON_MIDDLE) {
    panning_ = true;
  }
}

void Viewer::on_cursor(double x, double y) {
  if (panning_) {
    int window_w = 1;
    glfwGetWindowSize(window_, &window_w, nullptr);
    const double scale =
        static_cast<double>(view_.width) / std::max(1, window_w) / view_.pixels_per_unit;
    view_.center_x -= (x - cursor_x_) * scale;
    view_.center_y += (y - cursor_y_) * scale;
  }
  cursor_x_ = x;
  cursor_y_ = y;
  if (predator_held_) world_at(x, y, predator_x_, predator_y_);
}

void Viewer::on_scroll(double dy) {
  if (ImGui::GetIO().WantCaptureMouse) return;
  // Zoom about the pointer: the world point under it stays under it.
  int window_w = 1, window_h = 1;
  glfwGetWindowSize(window_, &window_w, &window_h);
  const double sx = cursor_x_ * view_.width / std::max(1, window_w) - view_.width / 2.0;
  const double sy = cursor_y_ * view_.height / std::max(1, window_h) - view_.height / 2.0;
  const double before = view_.pixels_per_unit;
  const double limit = 1e6 / config_.params.world;
  view_.pixels_per_unit = std::clamp(before * std::pow(1.2, dy), 1e-3, limit);
  view_.center_x += sx / before - sx / view_.pixels_per_unit;
  view_.center_y -= sy / before - sy / view_.pixels_per_unit;
}

std::string percent(double share) {
  if (std::isnan(share)) return "...";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100 * share);
  return text;
}

void Viewer::build_ui() {
  if (show_ui_) {
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(360, 0), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowBgAlpha(0.8f);
    ImGui::Begin("boids");
    ImGui::Text("%llu boids", static_cast<unsigned long long>(count_));
    ImGui::Text("%.1f fps, %.1f steps/s", fps_, steps_per_second_);
    if (std::isnan(polarization_)) {
      ImGui::Text("polarization ..., largest flock ...");
    } else {
      ImGui::Text("polarization %.3f, largest flock %s", polarization_,
                  percent(largest_share_).c_str());
    }
    ImGui::Text("%s, %s, %s", to_string(config_.backend).c_str(), to_string(config_.method).c_str(),
                to_string(config_.precision).c_str());
    ImGui::TextWrapped("%s", device_.c_str());
    ImGui::TextWrapped("%s", render_path_.c_str());
    ImGui::TextWrapped("OpenGL: %s", gl_renderer_.c_str());
    ImGui::Text("step %llu, seed %llu%s", static_cast<unsigned long long>(steps_done_),
                static_cast<unsigned long long>(seed_), paused_ ? ", paused" : "");
    ImGui::Separator();
    if (ImGui::Button(paused_ ? "Resume" : "Pause")) paused_ = !paused_;
    ImGui::SameLine();
    if (ImGui::Button("Step")) {
      paused_ = true;
      step_once_ = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("Reset (new seed)")) reset_requested_ = true;
    ImGui::SliderInt("steps/frame", &steps_per_frame_, 1, 1000, "%d", ImGuiSliderFlags_Logarithmic);
    ImGui::Separator();
    const char* names[3] = {"separation", "alignment", "cohesion"};
    for (int r = 0; r < 3; ++r) {
      ImGui::PushID(r);
      if (ImGui::Checkbox("##on", &rule_on_[r])) params_dirty_ = true;
      ImGui::SameLine();
      if (ImGui::SliderFloat(names[r], &ui_[r], 0.0f, 5.0f, "%.2f")) params_dirty_ = true;
      ImGui::PopID();
    }
    const auto world = static_cast<float>(config_.params.world);
    if (ImGui::SliderFloat("radius", &ui_radius_, world / 1000, world / 4, "%.3g",
                           ImGuiSliderFlags_Logarithmic)) {
      params_dirty_ = true;
    }
    if (ImGui::SliderFloat("max speed", &ui_max_speed_, 0.01f, 10.0f, "%.3g",
                           ImGuiSliderFlags_Logarithmic)) {
      params_dirty_ = true;
    }
    ImGui::Separator();
    int mode = static_cast<int>(color_mode_);
    ImGui::Combo("colour", &mode, "heading\0speed\0");
    color_mode_ = static_cast<ColorMode>(mode);
    ImGui::SliderFloat("boid size", &boid_pixels_, 1.0f, 30.0f, "%.1f px");
    ImGui::SliderFloat("predator radius", &predator_radius_, world / 1000, world / 2, "%.3g",
                       ImGuiSliderFlags_Logarithmic);
    ImGui::SliderFloat("predator push", &predator_strength_, 0.0f, 4.0f, "%.2f");
    if (!error_.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", error_.c_str());
    ImGui::TextDisabled("H: help");
    ImGui::End();
  }
  if (show_help_) {
    ImGui::SetNextWindowPos(ImVec2(380, 10), ImGuiCond_FirstUseEver);
    ImGui::Begin("help", &show_help_, ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::Text(
        "Space        pause / resume\n"
        "N or .       one step (pauses)\n"
        "R            reset with a new seed\n"
        "+ / -        double / halve steps per frame\n"
        "C            colour by heading / by speed\n"
        "left button  hold: the pointer is a predator\n"
        "right drag   pan (the world wraps around)\n"
        "wheel        zoom about the pointer\n"
        "0 or Home    fit the world\n"
        "Tab          hide / show the panel\n"
        "H or F1      this help\n"
        "Esc or Q     quit");
    ImGui::End();
  }
}

void Viewer::print_summary(double seconds) const {
  std::printf(
      "boids-viewer: %llu boids, %llu frames in %.3f s: %.2f fps; %llu steps, %.2f steps/s; %s %s "
      "%s on %s; %s; OpenGL: %s\n",
      static_cast<unsigned long long>(count_), static_cast<unsigned long long>(frames_), seconds,
      seconds > 0 ? static_cast<double>(frames_) / seconds : 0.0,
      static_cast<unsigned long long>(steps_done_),
      seconds > 0 ? static_cast<double>(steps_done_) / seconds : 0.0,
      to_string(config_.backend).c_str(), to_string(config_.method).c_str(),
      to_string(config_.precision).c_str(), device_.c_str(), render_path_.c_str(),
      gl_renderer_.c_str());
  std::fflush(stdout);
}

void Viewer::run() {
  const double start = glfwGetTime();
  window_start_ = start;
  for (;;) {
    glfwPollEvents();
    const bool last =
        glfwWindowShouldClose(window_) || (options_.frames > 0 && frames_ + 1 >= options_.frames);
    const double now = glfwGetTime();
    service_worker(now);
    service_metrics(now);

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    build_ui();
    ImGui::Render();

    glfwGetFramebufferSize(window_, &view_.width, &view_.height);
    view_.width = std::max(1, view_.width);
    view_.height = std::max(1, view_.height);
    glClearColor(0.05f, 0.06f, 0.08f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    renderer_.draw(view_, config_.params.world, config_.params.max_speed, color_mode_,
                   boid_pixels_);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    ++frames_;
    ++window_frames_;
    if (last && !options_.screenshot.empty())
      save_screenshot(options_.screenshot, view_.width, view_.height);
    glfwSwapBuffers(window_);

    const double t = glfwGetTime();
    if (t - window_start_ >= 0.5) {
      fps_ = static_cast<double>(window_frames_) / (t - window_start_);
      steps_per_second_ = static_cast<double>(window_steps_) / (t - window_start_);
      window_frames_ = window_steps_ = 0;
      window_start_ = t;
    }
    if (last) break;
  }
  // Frames and the steps completed while they were drawn; a step still running is not counted.
  print_summary(glfwGetTime() - start);
  worker_.wait();
  worker_.busy();  // rethrows a failure of the last job
}

}  // namespace

int run_viewer(const ViewerOptions& options) {
  // Everything the user gave is checked before a window opens.
  const SimulationConfig config = cli::resolve_config(options.flock);
  if (!options.screenshot.empty()) check_writable(options.screenshot, "--screenshot");
  std::unique_ptr<Simulation> sim = make_simulation(config, cli::initial_state(options.flock));

  glfwSetErrorCallback(on_glfw_error);
  if (!glfwInit()) throw RuntimeError("cannot open a window (no display?): " + glfw_error);
  struct GlfwSession {
    ~GlfwSession() { glfwTerminate(); }
  } glfw_session;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWwindow* window = glfwCreateWindow(1280, 800, "boids-viewer", nullptr, nullptr);
  if (!window) throw RuntimeError("cannot create a window with OpenGL 4.3 core: " + glfw_error);
  glfwMakeContextCurrent(window);
  if (gladLoadGL(glfwGetProcAddress) == 0) throw RuntimeError("cannot load OpenGL 4.3 functions");
  glfwSwapInterval(options.vsync ? 1 : 0);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini in the working directory
  ImGui::StyleColorsDark();
  {
    auto viewer = std::make_unique<Viewer>(window, options, config, std::move(sim));
    glfwSetWindowUserPointer(window, viewer.get());
    // Ours first; Dear ImGui's backend chains to them.
    glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int, int action, int) {
      viewer_of(w)->on_key(key, action);
    });
    glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int button, int action, int) {
      viewer_of(w)->on_mouse_button(button, action);
    });
    glfwSetCursorPosCallback(
        window, [](GLFWwindow* w, double x, double y) { viewer_of(w)->on_cursor(x, y); });
    glfwSetScrollCallback(window,
                          [](GLFWwindow* w, double, double dy) { viewer_of(w)->on_scroll(dy); });
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 430");
    try {
      viewer->run();
    } catch (...) {
      ImGui_ImplOpenGL3_Shutdown();
      ImGui_ImplGlfw_Shutdown();
      throw;
    }
    viewer.reset();
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  return 0;
}

}  // namespace boids::viewer
