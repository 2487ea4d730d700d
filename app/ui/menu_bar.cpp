// Menu bar: File (scenarios, exports: window PNG, GIF, sheet, step view, Perfetto trace), Timeline
// (the same actions as the keys), View.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <iterator>

#include "app/export/perfetto_trace.h"
#include "app/state/scenario.h"
#include "app/state/session.h"
#include "app/ui/panels.h"
#include "core/words.h"

namespace syncscope::ui {
namespace {

enum class Dialog { None, Open, Save, Export, Gif, Sheet, StepPng, Trace, OpenKernel };

struct DialogState {
  Dialog pending = Dialog::None;
  char path[512] = {};
  // Open CUDA program: how to launch a .cu without main() (`--grid`, `--block`, `--kernel-name`,
  // `--arg`, `--shared-bytes` on the command line).
  char grid[32] = {}, block[32] = {}, kernel[128] = {}, arguments[256] = {}, shared_bytes[16] = {};
  std::string error;
  // The menu bar says "compiling FILE" after Open: once the compile ends, it says how it ended.
  bool message_follows_compile = false;
};

DialogState& dialogs(const MenuBar& menu) { return menu.own<DialogState>(); }

constexpr const char* kOpenKernelItem = "Open CUDA program (.cu) or kernel file...";

// Where the last item drawn is, for the GUI tests.
void remember_item(const MenuBar& menu, const std::string& name, const char* prefix = "menu: ") {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  menu.geometry.rows[prefix + name] = {a.x, a.y, b.x - a.x, b.y - a.y};
}

// Where the shipped scenarios are: next to the working directory, or in the source tree.
std::vector<std::string> scenario_files() {
  std::vector<std::string> out;
  for (const std::filesystem::path& dir : {std::filesystem::path("assets/scenarios"),
                                          std::filesystem::path(SYNCSCOPE_SOURCE_DIR) / "assets/scenarios"}) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) continue;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
      if (e.path().extension() == ".json") out.push_back(e.path().string());
    if (!out.empty()) break;
  }
  std::sort(out.begin(), out.end());
  return out;
}

void set_path(const MenuBar& menu, const std::string& p) {
  std::strncpy(dialogs(menu).path, p.c_str(), sizeof dialogs(menu).path - 1);
  dialogs(menu).path[sizeof dialogs(menu).path - 1] = 0;
}

void clear_launch_fields(DialogState& d) { d.grid[0] = d.block[0] = d.kernel[0] = d.arguments[0] = d.shared_bytes[0] = 0; }

// What a dialog does with its path: "" when it went well (or was handed to the main loop), else why.
std::optional<std::string> act(const MenuBar& menu, Dialog kind, const std::string& path) {
  if (path.empty()) return "path: empty (type a file name)";
  switch (kind) {
    case Dialog::Open: return menu.session.open_scenario(path);
    case Dialog::Save: return menu.session.save_scenario(path);
    case Dialog::Export: menu.requests.export_png = path; return std::nullopt;
    case Dialog::Gif:
    case Dialog::Sheet:
    case Dialog::StepPng: {
      app::HandoutRequest request;
      (kind == Dialog::Gif ? request.gif : kind == Dialog::Sheet ? request.sheet : request.step_png) = path;
      menu.requests.export_handout = request;
      return std::nullopt;
    }
    case Dialog::Trace:
      if (!menu.state.run()) return "no run to write yet";
      return write_file_atomically(path, app::perfetto_trace(*menu.state.run()).dump() + "\n");
    case Dialog::OpenKernel: {
      if (!std::filesystem::is_regular_file(path)) return path + ": no such file";
      const DialogState& d = dialogs(menu);
      // Each field without the spaces around it, which a message would quote unseen.
      const LaunchText typed{trim(d.grid), trim(d.block), trim(d.kernel), split_words(d.arguments), trim(d.shared_bytes)};
      ProgramLaunch launch;
      if (std::string why = parse_launch(typed, kLaunchFields, path, launch); !why.empty()) return why;
      menu.session.open_kernel(path, std::nullopt, launch);
      return std::nullopt;
    }
    case Dialog::None: break;
  }
  return std::nullopt;
}

// A .cu without main() launches one kernel, as `run FILE.cu --grid 4 --block 64` does: the grid,
// the block, which kernel when it has several, and its scalar parameters' values. Empty for a
// program with main() or a kernel file. True when Enter was pressed in one of them.
bool draw_launch_fields(const MenuBar& menu, DialogState& d) {
  ImGui::TextUnformatted("A .cu without main(): launch its kernel with");
  bool enter = false;
  auto field = [&](const char* label, const char* hint, char* text, size_t size, float ems) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * ems);
    enter |= ImGui::InputTextWithHint(label, hint, text, size, ImGuiInputTextFlags_EnterReturnsTrue);
    remember_item(menu, label, "dialog: ");
  };
  field("grid", "4 or 4,2", d.grid, sizeof d.grid, 6);
  ImGui::SameLine();
  field("block", "64 or 16,16", d.block, sizeof d.block, 6);
  ImGui::SameLine();
  field("kernel", "its only one", d.kernel, sizeof d.kernel, 9);
  field("arguments", "n=64 factor=0.5 (NAME=VALUE, no spaces; other scalars are 0)", d.arguments, sizeof d.arguments, 25);
  field("shared bytes", "extern __shared__: 0", d.shared_bytes, sizeof d.shared_bytes, 9);
  return enter;
}

void draw_dialogs(const MenuBar& menu) {
  DialogState& d = dialogs(menu);
  struct Kind {
    const char* title;
    const char* verb;
    const char* done;  // the menu bar's message after it
  };
  static const Kind kinds[] = {{"", "", ""},
                               {"Open scenario", "Open", "opened "},
                               {"Save scenario", "Save", "saved "},
                               {"Export PNG (window)", "Export", "exporting "},
                               {"Export GIF (step view, every step)", "Export", "drawing the GIF "},
                               {"Export sheet (every step stacked)", "Export", "drawing the sheet "},
                               {"Export step view PNG", "Export", "drawing "},
                               {"Export Perfetto trace", "Export", "wrote the trace (open it in ui.perfetto.dev) "},
                               {"Open CUDA program or kernel file", "Open", "compiling "}};
  if (d.pending != Dialog::None) {
    ImGui::OpenPopup(kinds[static_cast<int>(d.pending)].title);
    d.pending = Dialog::None;
  }
  for (int k = 1; k < static_cast<int>(std::size(kinds)); ++k) {
    if (!ImGui::BeginPopupModal(kinds[k].title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) continue;
    const Dialog kind = static_cast<Dialog>(k);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 32);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();  // type the path straight away
    const bool enter = ImGui::InputText("path", d.path, sizeof d.path, ImGuiInputTextFlags_EnterReturnsTrue);
    if (kind == Dialog::Open) {
      ImGui::TextUnformatted("Scenarios shipped for the seeds:");
      for (const auto& f : scenario_files())
        if (ImGui::Selectable(f.c_str())) set_path(menu, f);
    }
    bool enter_in_launch = false;
    if (kind == Dialog::OpenKernel) {
      ImGui::TextDisabled("a .cu as you wrote it (kernels and main(), or kernels alone: see README), or a kernel\n"
                          "file like assets/kernels/*.h; saved again, it is run again");
      enter_in_launch = draw_launch_fields(menu, d);
    }
    if (kind == Dialog::Gif || kind == Dialog::Sheet)
      ImGui::TextDisabled("every step of the launch on show is drawn (the window shows it as it goes)");
    if (!d.error.empty()) {
      ImGui::TextColored(ImColor(menu.theme.bad), "%s", d.error.c_str());
      remember_item(menu, "error", "dialog: ");
    }
    if (ImGui::Button(kinds[k].verb) || enter || enter_in_launch) {
      if (const std::optional<std::string> why = act(menu, kind, d.path)) {
        d.error = *why;
      } else {
        menu.message = kinds[k].done + std::string(d.path);
        d.message_follows_compile = kind == Dialog::OpenKernel;
        d.error.clear();
        ImGui::CloseCurrentPopup();
      }
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
      d.error.clear();
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
}

const PanelSpec* find_panel(const char* name) {
  for (const PanelSpec& spec : panel_table())
    if (std::strcmp(spec.name, name) == 0) return &spec;
  return nullptr;
}

void place_window(const PanelFrame& frame, const PanelPlace& r, bool now) {
  const ImVec2 d = ImGui::GetIO().DisplaySize;
  const float top = ImGui::GetFrameHeight();  // the menu bar
  const float sx = d.x / 1600.0f, sy = (d.y - top) / 1000.0f;
  const ImGuiCond cond = now || frame.arrangement.generation > 0 ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  const float h = r.h < 0 ? 1000.0f - r.y : r.h;
  ImGui::SetNextWindowPos(ImVec2(r.x * sx, top + r.y * sy), cond);
  ImGui::SetNextWindowSize(ImVec2(r.w * sx, h * sy), cond);
  if (cond == ImGuiCond_Always) ImGui::SetNextWindowCollapsed(false, ImGuiCond_Always);
  if (now) ImGui::SetNextWindowFocus();
}

}  // namespace

void toggle_panel(PanelArrangement& arrangement, bool presenter, const PanelSpec& spec) {
  const bool on_demand = (presenter ? spec.presenter : spec.normal).on_demand;
  bool& open = arrangement.open[spec.name];
  open = on_demand ? !open : true;
  arrangement.raise[spec.name] = open;
}

bool begin_panel(const PanelFrame& frame, const char* name) {
  const PanelSpec* spec = find_panel(name);
  const PanelPlace& place = frame.presenter ? spec->presenter : spec->normal;
  bool* open = nullptr;
  if (place.on_demand) {
    open = &frame.arrangement.open[name];
    if (!*open) return false;
  }
  bool raise = false;
  if (auto it = frame.arrangement.raise.find(name); it != frame.arrangement.raise.end()) {
    raise = it->second;
    frame.arrangement.raise.erase(it);
  }
  // Normal mode: the key brings a panel to the front where it is; presenter mode puts it in its place.
  // A hand-out is placed by its exporter.
  if (raise && !frame.presenter) {
    ImGui::SetNextWindowCollapsed(false, ImGuiCond_Always);
    ImGui::SetNextWindowFocus();
  } else if (!frame.handout) {
    place_window(frame, place, raise);
  }
  if (auto it = frame.arrangement.restore.find(name); it != frame.arrangement.restore.end()) {  // after place_window: this wins
    const auto& [x, y, w, h] = it->second;
    ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(w, h), ImGuiCond_Always);
    frame.arrangement.restore.erase(it);
  }
  const ImGuiWindowFlags flags = place.no_title || frame.handout ? ImGuiWindowFlags_NoTitleBar : 0;
  if (!ImGui::Begin(name, open, flags)) {
    ImGui::End();
    return false;
  }
  const ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
  frame.arrangement.rects[name] = {p.x, p.y, s.x, s.y};
  return true;
}

const RunResult* run_to_draw(const PanelFrame& frame, const app::AppState& state, const app::Session& session,
                             bool needs_launches, const char* waiting) {
  const RunResult* run = state.run();
  if (run && !(needs_launches && run->sim.trace.launches.empty())) return run;
  if (waiting && run && run->sim.trace.error && !session.simulating())
    frame.geometry.waiting_for = "the run stopped before its first launch: " + run->sim.trace.error->message;
  else if (waiting && !session.simulating() && !session.simulation_note().empty())
    frame.geometry.waiting_for = "no run to show: " + session.simulation_note();
  else if (waiting)
    frame.geometry.waiting_for = waiting;
  if (waiting) ImGui::TextWrapped("%s", frame.geometry.waiting_for.c_str());
  ImGui::End();
  return nullptr;
}

void handle_keys(UiContext& ui, const std::vector<int>& keys) {
  constexpr int kCtrlKey = 1 << 16;  // gl::Window::kCtrl
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;  // typing in a field
  if (ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel)) return;  // a dialog or menu is up
  app::AppState& s = ui.state;
  for (int key : keys) {
    switch (key) {
      case GLFW_KEY_SPACE: s.toggle_play(); break;
      case GLFW_KEY_RIGHT: s.step_forward(); break;
      case GLFW_KEY_LEFT: s.step_back(); break;
      case GLFW_KEY_HOME: s.first(); break;
      case GLFW_KEY_END: s.last(); break;
      case GLFW_KEY_PERIOD: s.move_replay(1); break;
      case GLFW_KEY_COMMA: s.move_replay(-1); break;
      case GLFW_KEY_F11: ui.requests.toggle_presenter = true; break;
      case GLFW_KEY_ESCAPE:  // hides presenter mode's panels shown over the step view
        for (auto& [name, open] : ui.arrangement.open) open = false;
        break;
      case GLFW_KEY_Q | kCtrlKey: ui.requests.quit = true; break;
      default:
        for (const PanelSpec& spec : panel_table())
          if (spec.function_key && key == GLFW_KEY_F1 + spec.function_key - 1) toggle_panel(ui.arrangement, ui.state.presenter, spec);
        break;
    }
  }
}

// An open menu closes on Esc (ImGui closes it on a click elsewhere only).
static void close_menu_on_escape() {
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false)) ImGui::CloseCurrentPopup();
}

void draw_menu_bar(const MenuBar& menu) {
  app::AppState& s = menu.state;
  if (ImGui::BeginMainMenuBar()) {
    if (ImGui::BeginMenu("File")) {
      if (ImGui::MenuItem("Open scenario...")) {
        dialogs(menu).pending = Dialog::Open;
        set_path(menu, "assets/scenarios/");
      }
      if (ImGui::MenuItem(kOpenKernelItem)) {
        dialogs(menu).pending = Dialog::OpenKernel;
        set_path(menu, "assets/kernels/brent_kung_scan.h");
        clear_launch_fields(dialogs(menu));  // a launch is the .cu's it was typed for
      } else {
        remember_item(menu, kOpenKernelItem);
      }
      if (ImGui::MenuItem("Save scenario...")) {
        dialogs(menu).pending = Dialog::Save;
        set_path(menu, "scenario.json");
      }
      ImGui::Separator();
      struct ExportItem {
        const char* label;
        Dialog dialog;
        const char* path;
      };
      for (const ExportItem& e : {ExportItem{"Export PNG (window)...", Dialog::Export, "syncscope.png"},
                                  ExportItem{"Export GIF (step view)...", Dialog::Gif, "syncscope.gif"},
                                  ExportItem{"Export sheet (all steps)...", Dialog::Sheet, "syncscope-sheet.png"},
                                  ExportItem{"Export step view PNG...", Dialog::StepPng, "syncscope-step.png"},
                                  ExportItem{"Export Perfetto trace...", Dialog::Trace, "syncscope-trace.json"}})
        if (ImGui::MenuItem(e.label)) {
          dialogs(menu).pending = e.dialog;
          set_path(menu, e.path);
        } else {
          remember_item(menu, e.label);
        }
      ImGui::Separator();
      if (ImGui::MenuItem("Quit", "Ctrl+Q")) menu.requests.quit = true;
      close_menu_on_escape();
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Timeline")) {
      if (ImGui::MenuItem(s.playback().playing ? "Pause" : "Play", "Space")) s.toggle_play();
      if (ImGui::MenuItem("Step forward", "Right")) s.step_forward();
      if (ImGui::MenuItem("Step back", "Left")) s.step_back();
      if (ImGui::MenuItem("First step", "Home")) s.first();
      if (ImGui::MenuItem("Last step", "End")) s.last();
      close_menu_on_escape();
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
      if (ImGui::MenuItem("Presenter mode", "F11", s.presenter)) menu.requests.toggle_presenter = true;
      if (ImGui::MenuItem("Reset layout")) ++menu.arrangement.generation;
      ImGui::Separator();
      for (const PanelSpec& spec : panel_table()) {
        if (!spec.function_key) continue;
        std::string key = "F";  // appended: GCC 12 warns falsely (-Wrestrict) on "F" + ...
        key += std::to_string(spec.function_key);
        const bool shown = !(s.presenter ? spec.presenter : spec.normal).on_demand || menu.arrangement.open[spec.name];
        if (ImGui::MenuItem(spec.name, key.c_str(), shown)) toggle_panel(menu.arrangement, menu.presenter, spec);
      }
      close_menu_on_escape();
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
      // Wrapped inside the window (a projector's 1280 px included), on the menu's opaque background.
      const float right = ImGui::GetMainViewport()->WorkSize.x - ImGui::GetWindowPos().x - 2 * ImGui::GetStyle().WindowPadding.x;
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::min(right, ImGui::GetFontSize() * 40));
      ImGui::TextWrapped("Space play/pause · Left/Right step · Home/End first/last · . and , one operation "
                         "forward/back inside the step · F11 presenter mode · Ctrl+Q quit");
      std::string keys;  // from the panel table, so a panel's key is never missing here
      for (const PanelSpec& spec : panel_table()) {
        if (!spec.function_key) continue;
        if (!keys.empty()) keys += " · ";
        keys += "F" + std::to_string(spec.function_key) + " " + spec.name;
      }
      ImGui::TextWrapped("%s (presenter mode: shown or hidden over the step view; Esc hides them)", keys.c_str());
      ImGui::TextWrapped("Hover a cell: who wrote it. Hover a thread: what it did in this step. Esc closes a menu.");
      ImGui::PopTextWrapPos();
      close_menu_on_escape();
      ImGui::EndMenu();
    }
    if (auto notice = menu.session.take_scenario_notice()) menu.message = *notice;  // a scenario's step past the end
    if (DialogState& d = dialogs(menu); d.message_follows_compile && !menu.session.kernel_watch().compiling()) {
      const std::string status = menu.session.kernel_watch().status();
      menu.message = status.substr(0, status.find('\n'));
      d.message_follows_compile = false;
    }
    if (!menu.message.empty()) {
      ImGui::SameLine(0, 30);
      ImGui::TextDisabled("%s", menu.message.c_str());
    }
    ImGui::EndMainMenuBar();
  }
  draw_dialogs(menu);
}

}  // namespace syncscope::ui
