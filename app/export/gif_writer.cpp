#include "app/export/gif_writer.h"

#include <gif_lib.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "core/atomic_file.h"

namespace syncscope::app {
namespace {

std::string gif_error(const char* what, int code) {
  const char* text = GifErrorString(code);
  return std::string(what) + ": " + (text ? text : "giflib error " + std::to_string(code));
}

struct Box {
  int left = 0, top = 0, width = 0, height = 0;
};

// Colours this close look the same on a slide: a pixel within it of what is shown stays (so the
// palette's rounding does not make every later frame redraw it).
bool looks_same(const uint8_t* a, const uint8_t* b) {
  for (int c = 0; c < 3; ++c)
    if (std::abs(static_cast<int>(a[c]) - static_cast<int>(b[c])) > 8) return false;
  return true;
}

// The smallest rectangle holding every pixel that looks different; width 0 when none does.
Box changed_box(const RgbaImage& shown, const RgbaImage& next) {
  int x0 = shown.width, y0 = shown.height, x1 = -1, y1 = -1;
  for (int y = 0; y < shown.height; ++y)
    for (int x = 0; x < shown.width; ++x) {
      const size_t at = (static_cast<size_t>(y) * shown.width + x) * 4;
      if (looks_same(&shown.pixels[at], &next.pixels[at])) continue;
      x0 = std::min(x0, x);
      x1 = std::max(x1, x);
      y0 = std::min(y0, y);
      y1 = y;
    }
  if (x1 < 0) return {};
  return {x0, y0, x1 - x0 + 1, y1 - y0 + 1};
}

// giflib's writer appends to the GifWriter's bytes: the file is written in one piece when it is
// complete, so a failure midway leaves the old file as it was.
int append_to_bytes(GifFileType* gif, const GifByteType* data, int size) {
  static_cast<std::string*>(gif->UserData)->append(reinterpret_cast<const char*>(data), static_cast<size_t>(size));
  return size;
}

}  // namespace

std::unique_ptr<GifWriter> GifWriter::create(const std::string& path, int width, int height, std::string* why) {
  std::unique_ptr<GifWriter> w(new GifWriter());
  int error = 0;
  GifFileType* gif = EGifOpen(&w->bytes_, append_to_bytes, &error);
  if (!gif) {
    *why = gif_error(("cannot start " + path).c_str(), error);
    return nullptr;
  }
  w->gif_ = gif;
  w->path_ = path;
  w->width_ = width;
  w->height_ = height;
  EGifSetGifVersion(gif, true);
  if (EGifPutScreenDesc(gif, width, height, 8, 0, nullptr) == GIF_ERROR) {
    *why = gif_error("cannot write the GIF header", gif->Error);
    return nullptr;
  }
  // Loop forever (the NETSCAPE2.0 application extension).
  static const unsigned char kLoopForever[3] = {1, 0, 0};
  if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
      EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") == GIF_ERROR || EGifPutExtensionBlock(gif, 3, kLoopForever) == GIF_ERROR ||
      EGifPutExtensionTrailer(gif) == GIF_ERROR) {
    *why = gif_error("cannot write the GIF loop extension", gif->Error);
    return nullptr;
  }
  return w;
}

GifWriter::~GifWriter() {
  if (gif_) {
    int error = 0;
    EGifCloseFile(gif_, &error);
  }
}

std::string GifWriter::add(const RgbaImage& frame, int delay_cs) {
  if (frame.width != width_ || frame.height != height_ ||
      frame.pixels.size() != static_cast<size_t>(width_) * static_cast<size_t>(height_) * 4)
    return "GIF frame of " + std::to_string(frame.width) + "x" + std::to_string(frame.height) + ": the animation is " +
           std::to_string(width_) + "x" + std::to_string(height_);
  if (pending_ && pending_->pixels == frame.pixels) {
    pending_delay_ += delay_cs;
    return "";
  }
  if (pending_) {
    if (std::string e = write(*pending_, pending_delay_); !e.empty()) return e;
  }
  pending_ = frame;
  pending_delay_ = delay_cs;
  return "";
}

std::string GifWriter::write(const RgbaImage& frame, int delay_cs) {
  const Box box = previous_ ? changed_box(*previous_, frame) : Box{0, 0, width_, height_};
  const Box b = box.width > 0 ? box : Box{0, 0, 1, 1};  // nothing changed: a one-pixel frame holds the time
  // Inside the rectangle, pixels equal to the previous frame are transparent (the previous frame
  // shows through, and runs of them compress to almost nothing); the others get a palette of
  // their own.
  constexpr int kTransparent = 255;
  const size_t n = static_cast<size_t>(b.width) * static_cast<size_t>(b.height);
  std::vector<GifByteType> r, g, bl;
  std::vector<size_t> changed;
  r.reserve(n);
  g.reserve(n);
  bl.reserve(n);
  for (int y = 0; y < b.height; ++y)
    for (int x = 0; x < b.width; ++x) {
      const size_t at = (static_cast<size_t>(b.top + y) * width_ + b.left + x) * 4;
      const uint8_t* p = &frame.pixels[at];
      if (previous_ && box.width > 0 && looks_same(p, &previous_->pixels[at])) continue;
      changed.push_back(static_cast<size_t>(y) * b.width + x);
      r.push_back(p[0]);
      g.push_back(p[1]);
      bl.push_back(p[2]);
    }
  std::vector<GifByteType> indices(n, kTransparent), quantised(std::max<size_t>(1, changed.size()));
  GifColorType palette[256] = {};
  if (!changed.empty()) {
    int colours = 128;
    if (GifQuantizeBuffer(static_cast<unsigned>(changed.size()), 1, &colours, r.data(), g.data(), bl.data(), quantised.data(),
                          palette) == GIF_ERROR)
      return "cannot reduce a GIF frame to 128 colours";
    for (size_t k = 0; k < changed.size(); ++k) indices[changed[k]] = quantised[k];
  }
  ColorMapObject* map = GifMakeMapObject(256, palette);
  GraphicsControlBlock control{};
  control.DisposalMode = DISPOSE_DO_NOT;
  control.DelayTime = std::max(2, delay_cs);  // browsers treat 0-1 as 10
  control.TransparentColor = kTransparent;
  GifByteType extension[4];
  const size_t length = EGifGCBToExtension(&control, extension);
  bool ok = EGifPutExtension(gif_, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(length), extension) != GIF_ERROR &&
            EGifPutImageDesc(gif_, b.left, b.top, b.width, b.height, false, map) != GIF_ERROR;
  for (int y = 0; ok && y < b.height; ++y) ok = EGifPutLine(gif_, &indices[static_cast<size_t>(y) * b.width], b.width) != GIF_ERROR;
  GifFreeMapObject(map);
  if (!ok) return gif_error("cannot write a GIF frame", gif_->Error);
  // What a viewer shows now: the previous picture with this frame's pixels in their palette colours.
  if (!previous_) previous_ = frame;
  for (size_t k = 0; k < changed.size(); ++k) {
    const size_t at = (static_cast<size_t>(b.top) + changed[k] / b.width) * width_ + b.left + changed[k] % b.width;
    const GifColorType& c = palette[indices[changed[k]]];
    uint8_t* p = &previous_->pixels[at * 4];
    p[0] = c.Red;
    p[1] = c.Green;
    p[2] = c.Blue;
  }
  ++frames_;
  return "";
}

std::string GifWriter::finish() {
  if (!gif_) return "";
  std::string e;
  if (pending_) e = write(*pending_, pending_delay_);
  pending_.reset();
  int error = 0;
  if (EGifCloseFile(gif_, &error) == GIF_ERROR && e.empty()) e = gif_error("cannot finish the GIF", error);
  gif_ = nullptr;
  if (e.empty()) e = write_file_atomically(path_, bytes_).value_or("");
  bytes_.clear();
  return e;
}

}  // namespace syncscope::app
