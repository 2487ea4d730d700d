// What a block's warps did as warps: its lockstep trace cut into warp instructions (the accesses
// the lanes of one warp made together, marked by kWarpInstructionStart), with each shared-memory
// instruction's bank conflict and whether the warp was divergent there. Shared memory has 32 banks
// of 4-byte words (bank = word address mod 32); an instruction whose lanes touch d distinct words
// of one bank takes d passes ("d-way conflict"; lanes reading the same word share it). 8-byte
// accesses are served by half warps and 16-byte ones by quarter warps, each group on its own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/trace.h"

namespace syncscope::sim {

struct WarpInstruction {
  std::vector<int> events;  // indices into the step's events (a lane's barrier arrival may sit between them)
  int warp = 0;
  int lanes = 0;             // lanes that executed it
  bool divergent = false;    // fewer lanes than the warp had running (not exited)
  bool shared = false;       // a shared-memory access
  int conflict_degree = 0;   // shared: the most distinct words in one bank (1 = no conflict), per lane group
  int extra_passes = 0;      // shared: passes beyond one per lane group (8-byte accesses: two half warps)
};

// The warp instructions of one step (memory accesses, shuffles, votes; barriers and exits are not
// instructions here). `exited` holds each thread's exit so far, updated with the step's exits.
std::vector<WarpInstruction> warp_instructions(const StepTrace& step, const Trace& trace, int launch,
                                               std::vector<bool>& exited);

// Counts over some warp instructions: a step's, a block's, a run's.
struct WarpCounts {
  uint64_t instructions = 0, divergent = 0;
  uint64_t shared_instructions = 0, conflicted = 0;
  uint64_t extra_passes = 0;  // sum over shared instructions of their extra passes
  int worst_degree = 0;       // 0: no shared instruction; 1: shared instructions without a conflict
  void add(const WarpInstruction& w);
  void merge(const WarpCounts& other);
};

// "12 warp instructions, 2 divergent; 4 shared-memory, 1 with a bank conflict (worst 4-way, 3 extra
// passes)", "...; 4 shared-memory, no bank conflict": the reports' one wording of these counts.
std::string describe_warp_counts(const WarpCounts& w);

// A block's totals over all its steps, and each step's.
struct WarpMetrics : WarpCounts {
  bool available = false;  // the block was recorded under lockstep (other schedules have no warp instructions)
  std::vector<int> worst_degree_per_step;
  std::vector<WarpCounts> per_step;
};
WarpMetrics warp_metrics(const BlockTrace& block, const Trace& trace, int launch);
// Every recorded block of every launch together (per_step left empty): what `run` reports for the run.
WarpMetrics run_warp_metrics(const Trace& trace);

// Word offset of each shared array of `launch` in the block's shared memory (Trace::arrays index ->
// offset; -1 for arrays that are not the launch's shared arrays): arrays are carved in order,
// each starting 16-byte aligned (contract/kernel_api.h).
std::vector<int> shared_word_offsets(const Trace& trace, int launch);
// The bytes of shared memory a block of `launch` declared (its arrays, carved as above): what it
// uses, where the launch offers more (a .cu's static arrays are offered the most a block may have).
int shared_bytes_declared(const Trace& trace, int launch);

}  // namespace syncscope::sim
