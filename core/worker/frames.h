// The kernel worker's pipes carry frames: a 4-byte length, a one-letter kind, the payload
// (core/worker/wire.h). Requests (syncscope → worker) and answers (worker → syncscope):
//
//   H  hello: library, kernel file, empty folder  → A AlgoInfo, or E why it cannot load
//   C  check(Problem)                             → A string
//   B  first_launch_blocks(Problem)               → A int32
//   R  reference(Problem, input)                  → A doubles
//   S  simulate(Problem, input, SimOptions)       → A SimOutcome (core/worker/worker_codec.h)
//   any request                                   → E message: the kernel's host code threw
//   (unasked, before the worker dies)             → F WorkerFault: a signal, exit() or a refused
//                                                   system call, with the kernel's return addresses
//   (unasked, while S runs, every 100 ms)         → P progress: the simulator's counters
//                                                   (sim/run_progress.h), for the progress line
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/worker/wire.h"
#include "sim/run_progress.h"

namespace syncscope::worker {

struct Frame {
  char kind = 0;
  std::string payload;
};

// Frames are at most this long: a trace of a few detailed blocks is megabytes, not gigabytes.
inline constexpr uint32_t kMaxFrameBytes = 1u << 30;

// False when the other side is gone. A long payload is handed to a pipe as the pages it lies in
// (vmsplice), not copied into the pipe's own: the reader's read() is then the one copy. Until the
// reader has read it, the payload's memory may not change: a request stays as it is until its
// answer comes, an answer until the next request.
bool write_frame(int fd, char kind, const std::string& payload);
// nullopt at the end of the pipe or on a frame that is not one (too long, cut short). The payload
// is read into `reuse`'s memory (an earlier frame's), grown only where it is too short.
std::optional<Frame> read_frame(int fd, std::string reuse = {});

// Frames read as they come from a descriptor that poll() said is readable: the payload is read
// straight into its own string, which grows by doubling with the bytes that arrive, up to the
// length the frame's header announced (a trace is megabytes: no byte-by-byte gathering; and a
// header that lies costs no more memory than the bytes that came).
class FrameReader {
 public:
  // `reuse`: an earlier payload, whose memory the first frame is read into.
  explicit FrameReader(std::string reuse = {}) { frame_.payload = std::move(reuse); }
  // One read: false at the end of the pipe or on an error; throws WireError on a bad header.
  bool read_some(int fd);
  std::optional<Frame> take();  // the frame read, once it is whole
  // A taken frame's payload, done with: the next frame is read into its memory.
  void give_back(std::string payload) {
    if (head_have_ == 0 && payload.capacity() > frame_.payload.capacity()) frame_.payload = std::move(payload);
  }

 private:
  char head_[5] = {};
  size_t head_have_ = 0;
  Frame frame_;
  size_t payload_length_ = 0;  // what the header announced
  size_t payload_have_ = 0;
};

// What the worker says just before it dies (kind F).
enum class FaultKind : uint8_t { Signal, Exit, RefusedCall };
struct WorkerFault {
  FaultKind kind = FaultKind::Signal;
  int32_t number = 0;          // the signal, the exit status, or the system call
  uint64_t address = 0;        // the faulting data address (signals)
  std::vector<uint64_t> frames;  // return addresses inside the kernel's library, as offsets from its start
};
WorkerFault decode_fault(const std::string& payload);

// The F frame, whole (length, kind, payload), built without allocating: the worker writes it from
// a signal handler. Returns its length (at most kFaultFrameBytes).
inline constexpr size_t kMaxFaultFrames = 32;
inline constexpr size_t kFaultFrameBytes = 4 + 1 + 1 + 4 + 8 + 8 + 8 * kMaxFaultFrames;
size_t fault_frame(char (&out)[kFaultFrameBytes], FaultKind kind, int32_t number, uint64_t address,
                   const uint64_t* frames, size_t count);

// The P frame, whole, for one write() (shorter than PIPE_BUF, so it never interleaves with an F
// frame written from a signal handler); read_progress sets `into` from its payload.
inline constexpr size_t kProgressFrameBytes = 4 + 1 + 4 + 8 + 8 + 8;
void progress_frame(char (&out)[kProgressFrameBytes], const sim::RunProgress& progress);
void read_progress(const std::string& payload, sim::RunProgress& into);

}  // namespace syncscope::worker
