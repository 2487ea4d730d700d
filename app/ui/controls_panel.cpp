// Controls: algorithm (grouped: scans, reductions), n, rows (2D), TPB, dtype, input, schedule. A
// change re-simulates at once (off the UI thread); an invalid value shows its message under the
// field and the last good run stays on screen.
#include <imgui.h>

#include <cstring>

#include "app/ui/panels.h"
#include "app/view/controls_model.h"

namespace syncscope::ui {
namespace {

void field_error(const UiContext& ui, const app::FormCheck& check, const char* field) {
  auto it = check.errors.find(field);
  if (it == check.errors.end()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImColor(ui.theme.bad).Value);
  ImGui::TextWrapped("%s", it->second.c_str());
  ImGui::PopStyleColor();
}

}  // namespace

void draw_controls_panel(UiContext& ui) {
  if (!begin_panel(ui, "Controls")) return;
  app::ControlsForm f = ui.session.form();
  const app::FormCheck& check = ui.session.check();
  const app::ControlsModel model = app::build_controls_model(ui.session.registry(), f, ui.state.run());
  bool changed = false;
  ImGui::PushItemWidth(-110);

  if (ImGui::BeginCombo("algorithm", f.algorithm.c_str())) {
    for (const auto& group : model.groups) {
      ImGui::TextDisabled("%s", group.title.c_str());
      for (const auto& name : group.algorithms)
        if (ImGui::Selectable(("  " + name).c_str(), name == f.algorithm) && name != f.algorithm) {
          f = f.with_algorithm(*ui.session.registry().find(name));
          changed = true;
        }
    }
    ImGui::EndCombo();
  }
  field_error(ui, check, "algorithm");

  if (!model.bugs.empty()) {
    if (ImGui::BeginCombo("bug", f.bug == "none" ? "none (correct)" : f.bug.c_str())) {
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
    field_error(ui, check, "bug");
  }

  const bool values = f.input == app::InputChoice::Values;
  if (values) ImGui::BeginDisabled();
  changed |= ImGui::InputInt(model.two_dimensional ? "n per row" : "n", &f.n, 1, 64);
  if (values) ImGui::EndDisabled();
  field_error(ui, check, "n");
  if (model.two_dimensional) {
    changed |= ImGui::InputInt("rows", &f.rows, 1, 4);
    field_error(ui, check, "rows");
  }
  changed |= ImGui::InputInt("threads/block", &f.tpb, 1, 32);
  field_error(ui, check, "tpb");

  int dtype = f.dtype == DType::Int32 ? 1 : 0;
  if (ImGui::Combo("dtype", &dtype, "float32\0int32\0")) {
    f.dtype = dtype ? DType::Int32 : DType::Float32;
    changed = true;
  }
  field_error(ui, check, "dtype");

  int input = static_cast<int>(f.input);
  if (ImGui::Combo("input", &input, "iota (0, 1, 2, ...)\0ones\0random\0typed values\0")) {
    f.input = static_cast<app::InputChoice>(input);
    changed = true;
  }
  if (f.input == app::InputChoice::Random) changed |= ImGui::InputInt("input seed", &f.input_seed);
  if (f.input == app::InputChoice::Values) {
    char buffer[4096];
    std::strncpy(buffer, f.values.c_str(), sizeof buffer - 1);
    buffer[sizeof buffer - 1] = 0;
    if (ImGui::InputText("values", buffer, sizeof buffer)) {
      f.values = buffer;
      changed = true;
    }
  }
  field_error(ui, check, "input");

  int schedule = static_cast<int>(f.schedule);
  if (ImGui::Combo("schedule", &schedule, "lockstep\0forward\0reverse\0random\0")) {
    f.schedule = static_cast<app::ScheduleChoice>(schedule);
    changed = true;
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("lockstep: a warp's lanes take turns access by access (how a GPU hides many races)\n"
                      "forward: thread 0 runs to its barrier, then thread 1, ...\n"
                      "reverse: the highest thread first\nrandom: a random thread at every access");
  if (f.schedule == app::ScheduleChoice::Random) changed |= ImGui::InputInt("schedule seed", &f.schedule_seed);
  field_error(ui, check, "schedule");
  field_error(ui, check, "blocks");
  ImGui::PopItemWidth();

  if (changed) ui.session.edit(f);

  ImGui::Separator();
  if (!check.errors.empty()) ImGui::TextColored(ImColor(ui.theme.warning), "showing the last valid run");
  if (ui.session.simulating()) ImGui::TextColored(ImColor(ui.theme.warning), "simulating...");
  else ImGui::TextDisabled("%s", model.shape.c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, ImColor(ui.theme.dim_text).Value);
  ImGui::TextWrapped("%s", model.description.c_str());
  ImGui::PopStyleColor();
  ImGui::End();
}

}  // namespace syncscope::ui
