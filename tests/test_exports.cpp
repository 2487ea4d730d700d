// Hand-out writers: the GIF encoder (decoded back with giflib) and the Perfetto trace (counted
// against the run's own counters).
#include <gif_lib.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "app/export/gif_writer.h"
#include "app/export/perfetto_trace.h"
#include "core/registry.h"
#include "test_util.h"

namespace syncscope::app {
namespace {

RgbaImage filled(int w, int h, uint8_t r, uint8_t g, uint8_t b) {
  RgbaImage im{w, h, std::vector<uint8_t>(static_cast<size_t>(w) * h * 4)};
  for (size_t i = 0; i < im.pixels.size(); i += 4) {
    im.pixels[i] = r;
    im.pixels[i + 1] = g;
    im.pixels[i + 2] = b;
    im.pixels[i + 3] = 255;
  }
  return im;
}

TEST(GifWriter, EqualFramesMergeAndChangedRectanglesDecodeToThePictures) {
  const std::string path = (std::filesystem::temp_directory_path() / "syncscope_test.gif").string();
  std::string why;
  auto gif = GifWriter::create(path, 40, 30, &why);
  ASSERT_TRUE(gif) << why;
  RgbaImage dark = filled(40, 30, 10, 10, 20), marked = dark;
  for (int y = 5; y < 9; ++y)
    for (int x = 20; x < 25; ++x) marked.pixels[(static_cast<size_t>(y) * 40 + x) * 4] = 250;  // a red patch
  EXPECT_EQ(gif->add(dark, 10), "");
  EXPECT_EQ(gif->add(dark, 10), "");  // the same picture: one frame shown twice as long
  EXPECT_EQ(gif->add(marked, 10), "");
  EXPECT_NE(gif->add(filled(10, 10, 0, 0, 0), 10), "");  // wrong size: refused with a message
  EXPECT_EQ(gif->finish(), "");
  int error = 0;
  GifFileType* in = DGifOpenFileName(path.c_str(), &error);
  ASSERT_TRUE(in);
  ASSERT_EQ(DGifSlurp(in), GIF_OK);
  ASSERT_EQ(in->ImageCount, 2);
  GraphicsControlBlock first{}, second{};
  DGifSavedExtensionToGCB(in, 0, &first);
  DGifSavedExtensionToGCB(in, 1, &second);
  EXPECT_EQ(first.DelayTime, 20);
  EXPECT_EQ(second.DelayTime, 10);
  // The second frame is the changed rectangle only, and its pixels are red.
  const SavedImage& patch = in->SavedImages[1];
  EXPECT_EQ(patch.ImageDesc.Left, 20);
  EXPECT_EQ(patch.ImageDesc.Top, 5);
  EXPECT_EQ(patch.ImageDesc.Width, 5);
  EXPECT_EQ(patch.ImageDesc.Height, 4);
  const GifColorType c = patch.ImageDesc.ColorMap->Colors[patch.RasterBits[0]];
  EXPECT_GT(c.Red, 200);
  EXPECT_LT(c.Green, 40);
  DGifCloseFile(in, &error);
  std::filesystem::remove(path);
}

TEST(PerfettoTrace, HasEveryLaunchStepAndAccessOfTheRun) {
  const RunResult run = test::run_algorithm({.algorithm = "hierarchical-scan", .n = 64, .tpb = 8});
  const nlohmann::json trace = perfetto_trace(run);
  int processes = 0, reads = 0, writes = 0;
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "process_name") ++processes;
    if (e["ph"] == "i" && e["cat"] == "read") ++reads;
    if (e["ph"] == "i" && e["cat"] == "write") ++writes;
  }
  EXPECT_EQ(processes, static_cast<int>(run.sim.trace.launches.size()));
  uint64_t want_reads = 0, want_writes = 0;
  for (const auto& l : run.sim.trace.launches)
    for (const auto& b : l.blocks)
      for (const auto& st : b.steps)
        for (const auto& e : st.events) {
          want_reads += e.is_read();
          want_writes += e.is_write();
        }
  EXPECT_GT(want_reads, 0u);
  EXPECT_EQ(reads, static_cast<int>(want_reads));
  EXPECT_EQ(writes, static_cast<int>(want_writes));
  // Round trip: what is written parses back to the same document.
  EXPECT_EQ(nlohmann::json::parse(trace.dump()), trace);
}

}  // namespace
}  // namespace syncscope::app
