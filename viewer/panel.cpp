// The viewer's control panel (every model and variant), its live plots of the flock's order,
// and the world's overlays (walls, obstacles, goal, path) drawn over the boids.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "host/base/errors.h"
#include "host/core/controls.h"
#include "host/model/param_table.h"
#include "viewer/viewer.h"

namespace boids::viewer {
namespace {

std::string percent(double share) {
  if (std::isnan(share)) return "...";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100 * share);
  return text;
}

// A slider's bound as a float ImGui can hold, whatever the world's scale: finite, and within
// +-1e30, so that a range never exceeds ImGui's limit of FLT_MAX / 2.
float bound(double value) {
  if (!std::isfinite(value)) value = value > 0 ? 1e30 : (value < 0 ? -1e30 : 0.0);
  return static_cast<float>(std::clamp(value, -1e30, 1e30));
}

// A slider over a double, in float: true when it moved.
bool slider(const char* label, double& value, double low, double high, const char* format,
            bool logarithmic = false) {
  float v = bound(value);
  const float lo = bound(low), hi = bound(std::max(high, low));
  if (!ImGui::SliderFloat(label, &v, lo, hi, format,
                          logarithmic ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None)) {
    return false;
  }
  value = std::clamp(static_cast<double>(v), low, std::max(high, low));
  return true;
}

void plot(const char* label, const std::vector<float>& series, const char* overlay) {
  ImGui::PlotLines(label, series.data(), static_cast<int>(series.size()), 0, overlay, 0.0f, 1.0f,
                   ImVec2(0, 40));
}

}  // namespace

void Viewer::build_ui() {
  draw_overlays();
  if (show_ui_) {
    // Docked at the left, the window's height, beside the view (lay_out_view): it never
    // covers the world. Its sliders leave their labels room to be read whole.
    ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(static_cast<float>(kPanelWidth), ImGui::GetIO().DisplaySize.y),
                             ImGuiCond_Always);
    ImGui::Begin("boids", nullptr,
                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                     ImGuiWindowFlags_NoTitleBar);
    ImGui::PushItemWidth(-ImGui::GetFontSize() * 10);
    ImGui::Text("%llu boids, %s model", static_cast<unsigned long long>(count_),
                to_string(config_.params.model).c_str());
    ImGui::Text("%.1f fps, %.1f steps/s", fps_, steps_per_second_);
    if (std::isnan(polarization_)) {
      ImGui::Text("polarization ..., order ...");
      ImGui::Text("largest flock ...");
    } else {
      ImGui::Text("polarization %.3f, order %.3f", polarization_, order_);
      ImGui::Text("largest flock %s", percent(largest_share_).c_str());
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
    if (ImGui::CollapsingHeader("Model", ImGuiTreeNodeFlags_DefaultOpen)) model_controls();
    if (ImGui::CollapsingHeader("Variants", ImGuiTreeNodeFlags_DefaultOpen)) variant_controls();
    if (ImGui::CollapsingHeader("Plots", ImGuiTreeNodeFlags_DefaultOpen)) plots();
    if (ImGui::CollapsingHeader("View")) view_controls();
    if (!error_.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", error_.c_str());
    ImGui::TextDisabled("H: help; Tab: the panel");
    ImGui::PopItemWidth();
    ImGui::End();
  }
  if (show_help_) help_window();
}

// The model and its rules. A new model is a new flock: the model's defaults, at the density of
// its own example, with the same number of boids.
void Viewer::model_controls() {
  int model = static_cast<int>(ui_.model);
  const auto name_of = [](void*, int k, const char** name) {
    *name = model_registry()[static_cast<std::size_t>(k)].name;
    return true;
  };
  if (ImGui::Combo("model", &model, name_of, nullptr, static_cast<int>(model_registry().size()))) {
    const FlockParams defaults = model_defaults(static_cast<Model>(model), count_);
    FlockParams next = defaults;
    if (box()) {  // a box keeps its sides
      next.dimensions = 3;
      next.world = ui_.world;
    }
    next.world.boundary = ui_.world.boundary;
    next.noise = ui_.noise;
    next.fov = ui_.fov;
    ui_ = next;
    rule_on_ = {true, true, true};
    reset_requested_ = true;
  }
  int rule = 0;
  for (const Control& c : controls_of(ui_)) {
    if (c.section != ParamSection::kModel) continue;
    const ParamSpec* row = find_param_by_flag("--" + c.name);
    if (row && row->scale == Scale::kWeight && rule < 3) {  // a rule's weight may be switched off
      ImGui::PushID(rule);
      if (ImGui::Checkbox("##on", &rule_on_[static_cast<std::size_t>(rule)])) params_dirty_ = true;
      ImGui::PopID();
      ImGui::SameLine();
      ++rule;
    }
    control_slider(c);
  }
}

void Viewer::variant_controls() {
  // The table's choices, in Boundary's order: torus, walls, open.
  static const std::vector<std::string>& boundaries = find_param_by_key("boundary")->choices;
  const auto name_of = [](void*, int k, const char** name) {
    *name = boundaries[static_cast<std::size_t>(k)].c_str();
    return true;
  };
  int boundary = static_cast<int>(ui_.world.boundary);
  if (ImGui::Combo("boundary", &boundary, name_of, nullptr, static_cast<int>(boundaries.size()))) {
    ui_.world.boundary = static_cast<Boundary>(boundary);
    reset_unneeded(ui_);
    reset_requested_ = true;  // a new flock in the new world
  }
  if (ImGui::Checkbox("goal", &ui_.has_goal)) {
    reset_unneeded(ui_);  // the goal's weight and arrival go with it
    params_dirty_ = true;
  }
  if (!box()) {  // placed with the pointer in the plane
    ImGui::SameLine();
    if (ImGui::Button(placing_goal_ ? "click in the world..." : "place")) placing_goal_ = true;
  }
  for (const Control& c : controls_of(ui_)) {
    if (c.section != ParamSection::kModel) control_slider(c);
  }
  if (!ui_.obstacles.empty()) ImGui::Text("%zu obstacles", ui_.obstacles.size());
}

// A control of the table (host/core/controls.h) as a slider over its range for the flock as it
// is; a value the flight's rules refuse leaves the flock as it was and says why.
void Viewer::control_slider(const Control& c) {
  std::string label = c.name;
  std::replace(label.begin(), label.end(), '-', ' ');
  double value = c.value;
  bool moved = false;
  if (c.whole) {
    int v = static_cast<int>(value);
    moved = ImGui::SliderInt(label.c_str(), &v, static_cast<int>(c.low), static_cast<int>(c.high),
                             v == 0 ? "off" : "%d");
    value = v;
  } else {
    moved = slider(label.c_str(), value, c.low, c.high, "%.3g", c.logarithmic);
  }
  if (!moved) return;
  try {
    ui_ = with_control(ui_, config_.precision, c.name, value);
    params_dirty_ = true;
  } catch (const InputError& e) {
    error_ = e.what();
  }
}

void Viewer::plots() {
  char text[64];
  std::snprintf(text, sizeof text, "%.3f", std::isnan(polarization_) ? 0.0 : polarization_);
  plot("polarization", history_.polarization, text);
  std::snprintf(text, sizeof text, "%s", percent(largest_share_).c_str());
  plot("largest flock", history_.largest_share, text);
  std::snprintf(text, sizeof text, "%.3f", std::isnan(order_) ? 0.0 : order_);
  plot("order", history_.order, text);
}

void Viewer::view_controls() {
  const auto shown =
      std::find(std::begin(kViewerColourings), std::end(kViewerColourings), colouring_);
  int choice = static_cast<int>(shown - std::begin(kViewerColourings));
  const auto name = [](void*, int k, const char** text) {
    *text = render::colouring_name(kViewerColourings[k]);
    return true;
  };
  ImGui::Combo("colour", &choice, name, nullptr, static_cast<int>(std::size(kViewerColourings)));
  colouring_ = kViewerColourings[choice];
  if (box()) {  // in radii: boids are boid_pixels_ / 14 radii long
    float radii = boid_pixels_ / 14.0f;
    if (ImGui::SliderFloat("boid size", &radii, 1.0f / 14, 30.0f / 14, "%.2f r")) {
      boid_pixels_ = radii * 14.0f;
    }
    return;  // no predator in a box
  }
  ImGui::SliderFloat("boid size", &boid_pixels_, 1.0f, 30.0f, "%.1f px");
  const double side = std::min(config_.params.world.width, config_.params.world.height);
  double radius = predator_radius_;
  if (slider("predator radius", radius, side / 1000, side / 2, "%.3g", true)) {
    predator_radius_ = static_cast<float>(radius);
  }
  ImGui::SliderFloat("predator push", &predator_strength_, 0.0f, 4.0f, "%.2f");
}

// Walls, obstacles, the goal and the path, over the boids, at their image nearest the view's
// centre.
void Viewer::draw_overlays() {
  const FlockParams& p = config_.params;
  if (box() || (!p.world.walled() && p.obstacles.empty() && !p.has_goal && p.path.empty())) return;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
  const auto screen = [&](double x, double y) {
    if (p.world.torus()) {
      x -= p.world.width * std::round((x - view_.center_x) / p.world.width);
      y -= p.world.height * std::round((y - view_.center_y) / p.world.height);
    }
    const double px = view_.left + (x - view_.center_x) * view_.pixels_per_unit + view_.width / 2.0;
    const double py = view_.height / 2.0 - (y - view_.center_y) * view_.pixels_per_unit;
    return ImVec2(static_cast<float>(px / scale.x), static_cast<float>(py / scale.y));
  };
  const float ppu = static_cast<float>(view_.pixels_per_unit / scale.x);
  if (p.world.walled()) {  // open space has no walls: its world is only the start's region
    draw->AddRect(screen(0, p.world.height), screen(p.world.width, 0), IM_COL32(200, 200, 200, 160),
                  0, 0, 2);
  }
  for (const Obstacle& o : p.obstacles) {
    draw->AddCircle(screen(o.x, o.y), static_cast<float>(o.radius) * ppu,
                    IM_COL32(230, 120, 90, 200), 0, 2);
  }
  // Each segment straight from its first point's image, as the boids follow it.
  for (std::size_t k = 0; k + 1 < p.path.size(); ++k) {
    const Vec3 &a = p.path[k], &b = p.path[k + 1];
    const ImVec2 from = screen(a.x, a.y);
    const ImVec2 to(from.x + static_cast<float>(b.x - a.x) * ppu,
                    from.y - static_cast<float>(b.y - a.y) * ppu);
    draw->AddLine(from, to, IM_COL32(110, 170, 240, 200), 2);
  }
  if (p.has_goal) {
    const ImVec2 g = screen(p.goal.x, p.goal.y);
    draw->AddLine(ImVec2(g.x - 8, g.y), ImVec2(g.x + 8, g.y), IM_COL32(120, 230, 120, 230), 2);
    draw->AddLine(ImVec2(g.x, g.y - 8), ImVec2(g.x, g.y + 8), IM_COL32(120, 230, 120, 230), 2);
    if (p.arrival_radius > 0) {  // where the boids slow down
      draw->AddCircle(g, static_cast<float>(p.arrival_radius) * ppu, IM_COL32(120, 230, 120, 120),
                      0, 1);
    }
  }
}

void Viewer::help_window() {
  ImGui::SetNextWindowPos(ImVec2(static_cast<float>(kPanelWidth) + 10, 10), ImGuiCond_FirstUseEver);
  ImGui::Begin("help", &show_help_, ImGuiWindowFlags_AlwaysAutoResize);
  const char* mouse = box() ? "left drag    turn the camera about its target\n"
                              "right drag   pan\n"
                              "wheel        zoom\n"
                              "0 or Home    frame the box (open space: the flock)\n"
                            : "left button  hold: the pointer is a predator\n"
                              "             (after 'place': sets the goal)\n"
                              "right drag   pan (a torus wraps around)\n"
                              "wheel        zoom about the pointer\n"
                              "0 or Home    fit the world (open space: the flock)\n";
  ImGui::Text(
      "Space        pause / resume\n"
      "N or .       one step (pauses)\n"
      "R            reset with a new seed\n"
      "+ / -        double / halve steps per frame\n"
      "C            colour by heading / speed / density\n"
      "%s"
      "Tab          hide / show the panel\n"
      "H or F1      this help\n"
      "Esc or Q     quit",
      mouse);
  ImGui::End();
}

}  // namespace boids::viewer
