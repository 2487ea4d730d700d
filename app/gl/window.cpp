#include "app/gl/window.h"

// glad first: it provides the GL declarations GLFW would otherwise look for.
#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <stb_image_write.h>

#include "core/atomic_file.h"
#include "core/regular_file.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace syncscope::gl {

namespace {
std::atomic<bool> window_open{false};  // GLFW is initialized and a window exists to wake
}  // namespace
namespace {

constexpr float kFontSize = 15.0f;
constexpr const char* kDejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";

std::string& glfw_error() {
  static std::string message;
  return message;
}

void on_glfw_error(int, const char* description) { glfw_error() = description; }

}  // namespace

void note_input(GLFWwindow* glfw) {
  if (auto* w = static_cast<Window*>(glfwGetWindowUserPointer(glfw))) w->input_seen_ = true;
}

void on_key(GLFWwindow* glfw, int key, int, int action, int mods) {
  note_input(glfw);
  auto* w = static_cast<Window*>(glfwGetWindowUserPointer(glfw));
  if (w && (action == GLFW_PRESS || action == GLFW_REPEAT))
    w->pressed_keys_.push_back(key | ((mods & GLFW_MOD_CONTROL) ? Window::kCtrl : 0));
}

bool Window::take_input_seen() {
  const bool seen = input_seen_;
  input_seen_ = false;
  return seen;
}

std::vector<int> Window::take_pressed_keys() {
  std::vector<int> keys;
  keys.swap(pressed_keys_);
  return keys;
}

std::string config_dir() {
  std::filesystem::path dir;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) dir = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home) dir = std::filesystem::path(home) / ".config";
  else return "";
  dir /= "syncscope";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  return ec ? "" : dir.string();
}

std::unique_ptr<Window> Window::open(const WindowOptions& o, std::string* why) {
  glfwSetErrorCallback(on_glfw_error);
  if (!glfwInit()) {
    *why = "cannot start GLFW: " + (glfw_error().empty() ? std::string("no display?") : glfw_error());
    return nullptr;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, o.visible ? GLFW_TRUE : GLFW_FALSE);
  std::unique_ptr<Window> w(new Window());
  w->window_ = glfwCreateWindow(o.width, o.height, o.title.c_str(), nullptr, nullptr);
  if (!w->window_) {
    *why = "cannot open an OpenGL 3.3 window: " + glfw_error();
    glfwTerminate();
    return nullptr;
  }
  glfwMakeContextCurrent(w->window_);
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
    *why = "cannot load OpenGL 3.3 functions";
    glfwDestroyWindow(w->window_);
    w->window_ = nullptr;
    glfwTerminate();
    return nullptr;
  }
  glfwSwapInterval(o.vsync ? 1 : 0);

  w->offscreen_ = !o.visible;
  if (w->offscreen_) {
    // A hidden window's own framebuffer may never be drawn; render into ours.
    glGenFramebuffers(1, &w->framebuffer_);
    glGenRenderbuffers(1, &w->colour_);
    if (!w->size_offscreen(o.width, o.height)) {
      *why = "cannot create an offscreen framebuffer";
      return nullptr;
    }
  }

  window_open = true;
  // Ours first: ImGui's GLFW backend chains to callbacks installed before it.
  glfwSetWindowUserPointer(w->window_, w.get());
  glfwSetKeyCallback(w->window_, on_key);
  glfwSetMouseButtonCallback(w->window_, [](GLFWwindow* g, int, int, int) { note_input(g); });
  glfwSetCursorPosCallback(w->window_, [](GLFWwindow* g, double, double) { note_input(g); });
  glfwSetScrollCallback(w->window_, [](GLFWwindow* g, double, double) { note_input(g); });
  glfwSetCharCallback(w->window_, [](GLFWwindow* g, unsigned) { note_input(g); });

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  w->layout_file_ = o.layout_file;
  // The layout is read here and written by save_layout(), atomically: Dear ImGui's own writer
  // would truncate the file in place, and its reader would wait on a FIFO. With no IniFilename,
  // ImGui says when the layout changed (io.WantSaveIniSettings).
  io.IniFilename = nullptr;
  if (!w->layout_file_.empty()) {
    constexpr size_t kLargestLayout = 10u << 20;
    if (auto ini = read_regular_file(w->layout_file_, kLargestLayout); ini.index() == 0)
      ImGui::LoadIniSettingsFromMemory(std::get<0>(ini).data(), std::get<0>(ini).size());
  }
  if (w->offscreen_) io.DisplaySize = ImVec2(static_cast<float>(o.width), static_cast<float>(o.height));
  w->build_fonts(w->wanted_large_px());
  ImGui_ImplGlfw_InitForOpenGL(w->window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  return w;
}

bool Window::size_offscreen(int width, int height) {
  fb_width_ = width;
  fb_height_ = height;
  glBindRenderbuffer(GL_RENDERBUFFER, colour_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_);
  return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
}

void Window::resize(int width, int height) {
  if (offscreen_) size_offscreen(width, height);
  else glfwSetWindowSize(window_, width, height);
}

float Window::wanted_large_px() const {
  return std::clamp(std::round(static_cast<float>(height()) / 30.0f), 20.0f, 96.0f);
}

void Window::build_fonts(float large_px) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  large_px_ = large_px;
  dejavu_ = false;
  if (std::filesystem::exists(kDejaVu)) {
    // Latin-1 plus the few symbols the panels use (− ≠ … → ‖).
    static ImVector<ImWchar> ranges;
    if (ranges.empty()) {
      ImFontGlyphRangesBuilder builder;
      builder.AddRanges(io.Fonts->GetGlyphRangesDefault());
      builder.AddText("−≠…→←↑↓‖≤≥");
      builder.BuildRanges(&ranges);
    }
    font_normal_ = io.Fonts->AddFontFromFileTTF(kDejaVu, kFontSize, nullptr, ranges.Data);
    font_large_ = io.Fonts->AddFontFromFileTTF(kDejaVu, large_px, nullptr, ranges.Data);
    dejavu_ = font_normal_ && font_large_;
  }
  if (!dejavu_) {
    io.Fonts->Clear();
    ImFontConfig normal;
    normal.SizePixels = 13.0f;
    font_normal_ = io.Fonts->AddFontDefault(&normal);
    ImFontConfig large;
    large.SizePixels = large_px;
    font_large_ = io.Fonts->AddFontDefault(&large);
  }
  io.FontDefault = presenter_ ? font_large_ : font_normal_;
}

float Window::font_size() const { return presenter_ ? large_px_ : font_normal_->FontSize; }

void Window::save_layout() {
  ImGui::GetIO().WantSaveIniSettings = false;
  if (layout_file_.empty()) return;
  size_t size = 0;
  const char* ini = ImGui::SaveIniSettingsToMemory(&size);
  if (auto failed = write_file_atomically(layout_file_, std::string_view(ini, size)); failed && *failed != layout_error_) {
    std::cerr << "syncscope: " << *failed << " (the window layout)\n";  // said once, not every few seconds
    layout_error_ = *failed;
  }
}

Window::~Window() {
  window_open = false;
  if (!window_) return;
  save_layout();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
  if (colour_) glDeleteRenderbuffers(1, &colour_);
  glfwDestroyWindow(window_);
  glfwTerminate();
}

bool Window::should_close() const { return glfwWindowShouldClose(window_); }
void Window::close() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }
void Window::set_title(const std::string& title) { glfwSetWindowTitle(window_, title.c_str()); }

int Window::width() const {
  if (offscreen_) return fb_width_;
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  return w;
}

int Window::height() const {
  if (offscreen_) return fb_height_;
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  return h;
}

void Window::set_presenter(bool on) {
  if (on == presenter_) return;
  presenter_ = on;
  ImGui::GetIO().FontDefault = on ? font_large_ : font_normal_;
}

// Called before ImGui's frame begins: the atlas cannot change inside a frame.
static void rebuild_font_texture() {
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

void Window::wake() {
  if (window_open.load()) glfwPostEmptyEvent();
}

bool Window::wait_events(double seconds) {
  const double before = glfwGetTime();
  glfwWaitEventsTimeout(seconds);
  return glfwGetTime() - before < seconds * 0.9;
}

void Window::begin_frame() {
  glfwPollEvents();
  if (presenter_ && wanted_large_px() != large_px_) {
    build_fonts(wanted_large_px());
    rebuild_font_texture();
  }
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  if (offscreen_) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(fb_width_), static_cast<float>(fb_height_));
    io.DisplayFramebufferScale = ImVec2(1, 1);
  }
  ImGui::NewFrame();
}

void Window::capture_next_frame(std::string path) { capture_path_ = std::move(path); }

std::optional<std::vector<unsigned char>> Window::take_pixels() {
  auto p = std::move(kept_pixels_);
  kept_pixels_.reset();
  return p;
}

std::optional<std::string> write_png(const std::string& path, int width, int height, const std::vector<unsigned char>& rgba) {
  // Encoded in memory, then written in one piece: stb's own file writer neither reports a full
  // disk nor keeps the old picture.
  std::string png;
  auto append = [](void* to, void* data, int size) { static_cast<std::string*>(to)->append(static_cast<char*>(data), size); };
  if (stbi_write_png_to_func(append, &png, width, height, 4, rgba.data(), width * 4) == 0)
    return path + ": cannot encode a " + std::to_string(width) + "x" + std::to_string(height) + " PNG";
  return write_file_atomically(path, png);
}

std::optional<std::string> Window::take_capture_result() {
  auto r = std::move(capture_result_);
  capture_result_.reset();
  return r;
}

void Window::end_frame() {
  ImGui::Render();
  if (ImGui::GetIO().WantSaveIniSettings) save_layout();
  const int w = width(), h = height();
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glViewport(0, 0, w, h);
  glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  last_triangles_ = ImGui::GetDrawData()->TotalIdxCount / 3;
  if (keep_pixels_ || !capture_path_.empty()) {
    std::vector<unsigned char> pixels(static_cast<size_t>(w) * h * 4), flipped(pixels.size());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    if (!offscreen_) glReadBuffer(GL_BACK);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    const size_t row = static_cast<size_t>(w) * 4;
    for (int y = 0; y < h; ++y)  // GL's rows start at the bottom
      std::copy_n(&pixels[static_cast<size_t>(h - 1 - y) * row], row, &flipped[static_cast<size_t>(y) * row]);
    if (!capture_path_.empty()) {
      capture_result_ = write_png(capture_path_, w, h, flipped).value_or("");
      capture_path_.clear();
    }
    if (keep_pixels_) kept_pixels_ = std::move(flipped);
    keep_pixels_ = false;
  }
  if (!offscreen_) glfwSwapBuffers(window_);
  else glFinish();
}

}  // namespace syncscope::gl
