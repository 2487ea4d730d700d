// Animated GIF through giflib, small enough for slides: each frame stores only the rectangle that
// changed since the previous one (the rest stays), with its own 256-colour palette; a frame equal
// to the previous one lengthens it instead of adding one. Loops forever.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct GifFileType;  // giflib's

namespace syncscope::app {

struct RgbaImage {
  int width = 0, height = 0;
  std::vector<uint8_t> pixels;  // RGBA, top row first
};

class GifWriter {
 public:
  // nullptr, with *why, when the file cannot be created.
  static std::unique_ptr<GifWriter> create(const std::string& path, int width, int height, std::string* why);
  ~GifWriter();
  GifWriter(const GifWriter&) = delete;
  GifWriter& operator=(const GifWriter&) = delete;

  // A frame shown for delay_cs hundredths of a second; it must have the writer's size.
  // "" on success, else why it failed.
  std::string add(const RgbaImage& frame, int delay_cs);
  // Writes what is pending and then the file, atomically (core/atomic_file.h): "" on success, else
  // why not, naming the file ("out.gif: cannot write (No space left on device)").
  std::string finish();
  int frames_written() const { return frames_; }

 private:
  GifWriter() = default;
  std::string write(const RgbaImage& frame, int delay_cs);
  ::GifFileType* gif_ = nullptr;
  std::string path_;
  std::string bytes_;  // the file so far, written over path_ by finish()
  int width_ = 0, height_ = 0, frames_ = 0;
  std::optional<RgbaImage> pending_, previous_;
  int pending_delay_ = 0;
};

}  // namespace syncscope::app
