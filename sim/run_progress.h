// How far one simulation got, read by another thread while it runs (the CLI's progress line, the
// app's bar; core/progress.h turns it into a fraction and a time left). The simulator touches it
// once per launch and once per finished block, a relaxed atomic add: a block is thousands of
// kernel operations, so nothing measurable. A reader may see the fields a moment apart; each is
// right on its own, and the fraction made of them is an estimate anyway.
#pragma once

#include <atomic>
#include <cstdint>

namespace syncscope::sim {

struct RunProgress {
  std::atomic<uint32_t> launches_started{0};
  std::atomic<uint64_t> blocks_in_finished_launches{0};
  std::atomic<uint64_t> launch_blocks{0};       // of the launch running now
  std::atomic<uint64_t> launch_blocks_done{0};  // of them

  void start_launch(uint64_t blocks) {
    launch_blocks_done.store(0, std::memory_order_relaxed);
    launch_blocks.store(blocks, std::memory_order_relaxed);
    launches_started.fetch_add(1, std::memory_order_relaxed);
  }
  void block_done() { launch_blocks_done.fetch_add(1, std::memory_order_relaxed); }
  // A parallel attempt was rolled back: its blocks run again in order.
  void restart_launch() { launch_blocks_done.store(0, std::memory_order_relaxed); }
  // Counts the blocks that were done: all of them, unless the launch failed.
  void finish_launch() {
    blocks_in_finished_launches.fetch_add(launch_blocks_done.load(std::memory_order_relaxed), std::memory_order_relaxed);
    launch_blocks.store(0, std::memory_order_relaxed);
    launch_blocks_done.store(0, std::memory_order_relaxed);
  }
  uint64_t blocks_done() const {
    return blocks_in_finished_launches.load(std::memory_order_relaxed) + launch_blocks_done.load(std::memory_order_relaxed);
  }
  // Blocks this run is known to have: those of the launches so far (later launches are not known yet).
  uint64_t blocks_known() const {
    return blocks_in_finished_launches.load(std::memory_order_relaxed) + launch_blocks.load(std::memory_order_relaxed);
  }
  // What a worker process reports (core/worker/): the four counters, set from its frame.
  void set(uint32_t launches, uint64_t finished, uint64_t blocks, uint64_t done) {
    blocks_in_finished_launches.store(finished, std::memory_order_relaxed);
    launch_blocks.store(blocks, std::memory_order_relaxed);
    launch_blocks_done.store(done, std::memory_order_relaxed);
    launches_started.store(launches, std::memory_order_relaxed);
  }
};

}  // namespace syncscope::sim
