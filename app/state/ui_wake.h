// The window's loop sleeps while nothing on screen moves (app/frame_loop.cpp); work that finishes
// off the UI thread (a run, a compile, GPU runs) wakes it at once instead of at its next timeout.
#pragma once

#include <atomic>

namespace syncscope::app {

inline std::atomic<void (*)()> ui_wake_hook{nullptr};

// The window sets it (glfwPostEmptyEvent, safe from any thread); without a window, nothing.
inline void set_ui_wake(void (*wake)()) { ui_wake_hook.store(wake); }
inline void wake_ui() {
  if (void (*wake)() = ui_wake_hook.load()) wake();
}

}  // namespace syncscope::app
