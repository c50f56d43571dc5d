// The viewer's window: one Viewer per run, driven by its frame loop (viewer.cpp), with its
// control panel, live plots and world overlays (panel.cpp). Internal to boids-viewer.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host/core/controls.h"
#include "host/core/simulation.h"
#include "host/render/camera.h"
#include "host/render/renderer.h"
#include "viewer/app.h"
#include "viewer/gl_interop.h"
#include "viewer/recorder.h"
#include "viewer/stepper.h"
#include "viewer/surface.h"

namespace boids::viewer {

// The renderer every screen shares (host/render), as the viewer names it.
using render::Camera;
using render::Colouring;
using render::Renderer;
using render::View;

// The last `kHistory` samples of the flock's metrics, for the live plots.
struct MetricsHistory {
  static constexpr std::size_t kHistory = 240;
  std::vector<float> polarization, largest_share, order;

  void add(double polarization_value, double largest_share_value, double order_value);
};

class Viewer {
 public:
  Viewer(Surface& surface, const ViewerOptions& options, const SimulationConfig& config,
         std::unique_ptr<Simulation> sim);
  ~Viewer();

  void run();

  // The last frame as a PNG, when --screenshot asked for it (empty before the last frame).
  const std::string& screenshot_png() const { return screenshot_png_; }
  // Records every frame into `path` (--record), from the first frame on.
  void record_to(const std::string& path) { record_path_ = path; }

  // Input, from GLFW's callbacks (which Dear ImGui chains to).
  void on_key(int key, int action);
  void on_mouse_button(int button, int action);
  void on_cursor(double x, double y);
  void on_scroll(double dy);

 private:
  // viewer.cpp
  void fit_view();
  void lay_out_view();
  void world_at(double sx, double sy, double& wx, double& wy) const;
  FlockParams wanted_params() const;
  void upload();
  void reset_flock(const SimulationConfig& next, std::uint64_t seed);
  void service_worker(double now);
  void service_metrics(double now);
  void print_summary(double seconds) const;
  bool box() const { return config_.params.dimensions == 3; }
  void draw_frame();
  void copy_predators();  // into predator_staging_, on the worker

  // panel.cpp
  void build_ui();
  void model_controls();
  void variant_controls();
  void control_slider(const Control& control);
  void view_controls();
  void plots();
  void draw_overlays();
  void help_window();

  Surface& surface_;
  ViewerOptions options_;
  SimulationConfig config_;      // the running simulation's, as the main thread sees it
  SimulationConfig job_config_;  // the same, written by jobs
  std::uint64_t seed_;
  const std::uint64_t count_;        // the flock's size, which no reset changes
  std::unique_ptr<Simulation> sim_;  // touched by the main thread only while worker_ is idle;
                                     // null once a failed reset could not restore the flock
  Renderer renderer_;
  // The predators (--predators), drawn larger and white over the flock; null without them.
  std::unique_ptr<Renderer> predator_renderer_;
  std::vector<float> predator_staging_;  // written by jobs, uploaded by the main thread
  std::unique_ptr<GlBufferInterop> interop_;
  std::string render_path_, device_, gl_renderer_;
  std::vector<float> staging_;   // host path: written by jobs, uploaded by the main thread
  std::vector<float> snapshot_;  // render data for the metrics, written by jobs
  std::vector<float> metrics_input_;
  Worker worker_, metrics_worker_;

  // What the last job did (read by the main thread once the worker is idle). In 3D a snapshot
  // is the backend's own metrics (job_metrics_), measured by the job.
  bool job_ran_ = false, job_snapshot_ = false, job_failed_ = false;
  FlockMetrics job_metrics_;
  std::uint64_t job_steps_ = 0;
  std::string job_error_;

  // Metrics.
  bool snapshot_ready_ = false, metrics_running_ = false;
  double next_snapshot_ = 0;
  FlockParams metrics_params_;
  double polarization_ = NAN, largest_share_ = NAN, order_ = NAN, metrics_seconds_ = 0;
  std::uint64_t flocks_ = 0;
  double result_polarization_ = NAN, result_share_ = NAN, result_order_ = NAN;
  double result_seconds_ = 0;
  std::uint64_t result_flocks_ = 0;
  MetricsHistory history_;

  // Controls: the parameters the panel edits, and what a change asks of the worker.
  bool paused_ = false, step_once_ = false, reset_requested_ = false, params_dirty_ = false;
  int steps_per_frame_;
  FlockParams ui_;
  std::array<bool, 3> rule_on_ = {true, true, true};
  std::string error_;
  bool predator_held_ = false;
  double predator_x_ = 0, predator_y_ = 0;
  float predator_radius_ = 0, predator_strength_ = 1.0f;
  bool placing_goal_ = false;

  // View.
  // The panel's width in the window's units (ImGui's): the view lies beside it.
  static constexpr double kPanelWidth = 400;
  View view_;
  double framebuffer_scale_ = 1;               // framebuffer pixels a window unit
  Camera camera_;                              // 3D
  Colouring colouring_ = Colouring::kHeading;  // one of kViewerColourings
  float boid_pixels_ = 7.0f;                   // in 3D, boids are boid_pixels_ / 14 radii long
  bool show_help_ = false, show_ui_ = true;
  bool panning_ = false, orbiting_ = false;
  std::string record_path_;
  std::unique_ptr<Recorder> recorder_;
  double cursor_x_ = 0, cursor_y_ = 0;

  // Statistics.
  std::uint64_t frames_ = 0, steps_done_ = 0;
  std::string screenshot_png_;
  double fps_ = 0, steps_per_second_ = 0, window_start_ = 0;
  std::uint64_t window_frames_ = 0, window_steps_ = 0;
};

}  // namespace boids::viewer
