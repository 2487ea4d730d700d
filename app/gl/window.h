// The app's window: GLFW, an OpenGL 3.3 core context loaded with glad, Dear ImGui on top. A hidden
// window renders into an offscreen framebuffer instead (screenshots, frame benchmarks).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

struct GLFWwindow;
struct ImFont;

namespace syncscope::gl {

struct WindowOptions {
  int width = 1600;
  int height = 1000;
  bool visible = true;
  bool vsync = true;
  std::string title = "syncscope";
  std::string layout_file;  // ImGui's window layout; empty: do not persist
};

class Window {
 public:
  // nullptr, with *why, when no window can be opened (no display, no OpenGL 3.3).
  static std::unique_ptr<Window> open(const WindowOptions& options, std::string* why);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  bool should_close() const;
  void close();
  void begin_frame();
  // Sleeps until an input event arrives or `seconds` pass; true if it was an event (or close to it).
  bool wait_events(double seconds);
  // Makes a wait_events in progress return (safe from any thread).
  static void wake();
  // Renders ImGui's frame; when a capture was asked for, grabs the pixels before presenting.
  void end_frame();
  // Saves the next rendered frame as PNG; the result is reported by take_capture_result().
  void capture_next_frame(std::string path);
  // nullopt while nothing finished; "" after success, else why it failed.
  std::optional<std::string> take_capture_result();
  // Keeps the next rendered frame's pixels (RGBA, top row first) for take_pixels().
  void keep_next_frame_pixels() { keep_pixels_ = true; }
  std::optional<std::vector<unsigned char>> take_pixels();

  // Keys pressed (or auto-repeated) since the last call, in order, as GLFW key codes, with kCtrl
  // added when Control was held. Queued by a callback, so a tap shorter than a frame is not lost
  // (ImGui 1.86 only samples key state once per frame).
  static constexpr int kCtrl = 1 << 16;
  std::vector<int> take_pressed_keys();
  // Whether a key, a mouse button or wheel, the pointer or typed text came since the last call:
  // the frame loop stays awake a few frames after any (a popup opens and takes focus over frames).
  bool take_input_seen();

  void set_title(const std::string& title);
  // A new size: the offscreen framebuffer is made again at it; a visible window asks the window
  // manager (the frame after sees the new size).
  void resize(int width, int height);
  // Presenter mode: a font sized to the window (a thirtieth of its height, so a back row reads it
  // at 1280x720 and 3840x2160 alike), rebuilt when the window is resized; DejaVu Sans Mono when
  // installed.
  void set_presenter(bool on);
  // The default font's size in pixels now (the normal one, or presenter mode's).
  float font_size() const;
  bool has_dejavu() const { return dejavu_; }
  int width() const;
  int height() const;
  // Triangles the last frame sent to OpenGL (what software rendering pays for, beside pixels).
  int last_frame_triangles() const { return last_triangles_; }

 private:
  Window() = default;
  GLFWwindow* window_ = nullptr;
  bool offscreen_ = false;
  unsigned framebuffer_ = 0, colour_ = 0;
  int fb_width_ = 0, fb_height_ = 0;
  ImFont* font_normal_ = nullptr;
  ImFont* font_large_ = nullptr;
  float large_px_ = 0;  // font_large_'s size
  bool dejavu_ = false;
  void build_fonts(float large_px);
  bool size_offscreen(int width, int height);
  float wanted_large_px() const;
  bool presenter_ = false;
  std::string layout_file_;
  std::string layout_error_;  // the last failed save's message, said once
  void save_layout();  // the layout to layout_file_, atomically
  std::string capture_path_;
  std::optional<std::string> capture_result_;
  bool keep_pixels_ = false;
  int last_triangles_ = 0;
  std::optional<std::vector<unsigned char>> kept_pixels_;
  std::vector<int> pressed_keys_;
  bool input_seen_ = false;
  friend void on_key(GLFWwindow*, int, int, int, int);
  friend void note_input(GLFWwindow*);
};

// Saves RGBA pixels (top row first) as PNG, atomically (core/atomic_file.h): nullopt, or why not,
// naming the file ("out.png: cannot write (No space left on device)").
std::optional<std::string> write_png(const std::string& path, int width, int height, const std::vector<unsigned char>& rgba);

// $XDG_CONFIG_HOME/syncscope (or ~/.config/syncscope), created if missing.
std::string config_dir();

}  // namespace syncscope::gl
