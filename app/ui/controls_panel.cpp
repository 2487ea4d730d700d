// Controls: algorithm (grouped: scans, reductions), n, rows (2D), TPB, dtype, input, schedule. A
// change re-simulates at once (off the UI thread); an invalid value shows its message under the
// field and the last good run stays on screen.
#include <imgui.h>

#include <algorithm>
#include <cstring>

#include "app/ui/panels.h"
#include "app/view/controls_model.h"

namespace syncscope::ui {
namespace {

void field_error(const ControlsPanel& panel, const app::FormCheck& check, ConfigField field) {
  auto it = check.errors.find(field);
  if (it == check.errors.end()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImColor(panel.theme.bad).Value);
  ImGui::TextWrapped("%s", it->second.c_str());
  ImGui::PopStyleColor();
}

// The value a combo shows: cut by the one rule when the box is narrow (whole on hover).
std::string preview(const ControlsPanel& panel, const std::string& full) {
  const ImGuiStyle& style = ImGui::GetStyle();
  return fit_label(full, ImGui::CalcItemWidth() - ImGui::GetFrameHeight() - style.FramePadding.x * 2, &panel.geometry);
}

void whole_on_hover(const std::string& shown, const std::string& full) {
  if (shown != full && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", full.c_str());
}

// A combo of fixed choices; true when another was picked.
bool choice(const ControlsPanel& panel, const char* label, int* current, std::initializer_list<const char*> items) {
  const std::string full = *(items.begin() + *current), shown = preview(panel, full);
  bool picked = false;
  if (ImGui::BeginCombo(label, shown.c_str())) {
    int k = 0;
    for (const char* item : items) {
      if (ImGui::Selectable(item, k == *current) && k != *current) {
        *current = k;
        picked = true;
      }
      ++k;
    }
    ImGui::EndCombo();
  }
  whole_on_hover(shown, full);
  return picked;
}

// A whole number with its -/+ buttons while the number fits beside them; a wider one (n = 1048576
// in a narrow panel) gets the whole field: a number on screen is never shown cut.
bool int_field(const char* label, int* value, int step, int step_fast) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float buttons = 2 * (ImGui::GetFrameHeight() + style.ItemInnerSpacing.x);
  const float needed = ImGui::CalcTextSize(std::to_string(*value).c_str()).x + 2 * style.FramePadding.x + 2;
  const bool room = ImGui::CalcItemWidth() - buttons >= needed;
  return ImGui::InputInt(label, value, room ? step : 0, room ? step_fast : 0);
}

}  // namespace

void draw_controls_panel(const ControlsPanel& panel) {
  if (!begin_panel(panel, "Controls")) return;
  app::ControlsForm f = panel.session.form();
  const app::FormCheck& check = panel.session.check();
  const app::ControlsModel model = app::build_controls_model(panel.session.registry(), f, panel.state.run());
  bool changed = false;
  // The labels' column as wide as the longest label, the fields the rest.
  ImGui::PushItemWidth(-(ImGui::CalcTextSize("threads/block").x + ImGui::GetStyle().ItemInnerSpacing.x * 2));

  const std::string algorithm_shown = preview(panel, f.algorithm);
  if (ImGui::BeginCombo("algorithm", algorithm_shown.c_str())) {
    for (const auto& group : model.groups) {
      ImGui::TextDisabled("%s", group.title.c_str());
      for (const auto& name : group.algorithms)
        if (ImGui::Selectable(("  " + name).c_str(), name == f.algorithm) && name != f.algorithm) {
          f = f.with_algorithm(*panel.session.registry().find(name));
          changed = true;
        }
    }
    ImGui::EndCombo();
  }
  whole_on_hover(algorithm_shown, f.algorithm);
  field_error(panel, check, ConfigField::Algorithm);

  if (!model.bugs.empty()) {
    const std::string bug_full = f.bug == "none" ? "none (correct)" : f.bug, bug_shown = preview(panel, bug_full);
    if (ImGui::BeginCombo("bug", bug_shown.c_str())) {
      if (ImGui::Selectable("none (correct)", f.bug == "none")) {
        f.bug = "none";
        changed = true;
      }
      for (const BugInfo& b : model.bugs) {
        if (ImGui::Selectable(b.name.c_str(), b.name == f.bug)) {
          f.bug = b.name;
          changed = true;
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", b.shows.c_str());
      }
      ImGui::EndCombo();
    }
    whole_on_hover(bug_shown, bug_full);
    field_error(panel, check, ConfigField::Bug);
  }

  // A .cu's main() chooses its sizes and its input: no boxes that would change nothing.
  if (model.program) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("sizes and input: the program's main() chooses them");
    ImGui::PopStyleColor();
  }
  const bool values = f.input == app::InputChoice::Values;
  if (!model.program) {
  if (values) ImGui::BeginDisabled();
  changed |= int_field(model.two_dimensional ? "n per row" : "n", &f.n, 1, 64);
  if (values) ImGui::EndDisabled();
  field_error(panel, check, ConfigField::N);
  if (model.two_dimensional) {
    changed |= int_field("rows", &f.rows, 1, 4);
    field_error(panel, check, ConfigField::Rows);
  }
  changed |= int_field("threads/block", &f.tpb, 1, 32);
  field_error(panel, check, ConfigField::Tpb);

  int dtype = f.dtype == DType::Int32 ? 1 : 0;
  if (choice(panel, "dtype", &dtype, {"float32", "int32"})) {
    f.dtype = dtype ? DType::Int32 : DType::Float32;
    changed = true;
  }
  field_error(panel, check, ConfigField::Dtype);

  int input = static_cast<int>(f.input);
  if (choice(panel, "input", &input, {"iota (0, 1, 2, ...)", "ones", "random", "typed values"})) {
    f.input = static_cast<app::InputChoice>(input);
    changed = true;
  }
  if (f.input == app::InputChoice::Random) changed |= int_field("input seed", &f.input_seed, 1, 100);
  if (f.input == app::InputChoice::Values) {
    char buffer[4096];
    std::strncpy(buffer, f.values.c_str(), sizeof buffer - 1);
    buffer[sizeof buffer - 1] = 0;
    if (ImGui::InputText("values", buffer, sizeof buffer)) {
      f.values = buffer;
      changed = true;
    }
  }
  field_error(panel, check, ConfigField::Input);
  }

  int schedule = static_cast<int>(f.schedule);
  if (choice(panel, "schedule", &schedule, {"lockstep", "forward", "reverse", "random"})) {
    f.schedule = static_cast<app::ScheduleChoice>(schedule);
    changed = true;
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("lockstep: a warp's lanes take turns access by access (how a GPU hides many races)\n"
                      "forward: thread 0 runs to its barrier, then thread 1, ...\n"
                      "reverse: the highest thread first\nrandom: a random thread at every access");
  if (f.schedule == app::ScheduleChoice::Random) changed |= int_field("schedule seed", &f.schedule_seed, 1, 100);
  field_error(panel, check, ConfigField::Schedule);
  field_error(panel, check, ConfigField::Blocks);
  field_error(panel, check, ConfigField::TimeLimit);  // from the command line or a scenario: the form has no box for it
  ImGui::PopItemWidth();

  if (changed) panel.session.edit(f);

  ImGui::Separator();
  if (!check.errors.empty()) ImGui::TextColored(ImColor(panel.theme.warning), "showing the last valid run");
  if (panel.session.simulating()) {
    // A runaway kernel stops by itself within its time budget; Cancel is for not waiting that long.
    ImGui::TextColored(ImColor(panel.theme.warning), "simulating... %.1f s", panel.session.simulating_for());
    if (const std::optional<ProgressSnapshot> progress = panel.session.simulation_progress()) {
      const float cancel_w = ImGui::CalcTextSize("Cancel").x + 2 * ImGui::GetStyle().FramePadding.x;
      progress_bar(panel, *progress, std::max(ImGui::GetContentRegionAvail().x - cancel_w - ImGui::GetStyle().ItemSpacing.x, 1.0f));
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("Cancel")) panel.session.cancel_simulation();
  } else {
    if (!panel.session.simulation_note().empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImColor(panel.theme.warning).Value);
      ImGui::TextWrapped("%s", panel.session.simulation_note().c_str());
      ImGui::PopStyleColor();
    }
    text_fitted(panel, model.shape, true);
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImColor(panel.theme.dim_text).Value);
  ImGui::TextWrapped("%s", model.description.c_str());
  ImGui::PopStyleColor();
  ImGui::End();
}

}  // namespace syncscope::ui
