// libFuzzer target: bytes as they could arrive from a kernel worker that a student's code has
// corrupted (core/worker/): the frames on the pipe, read by the FrameReader syncscope reads its
// worker with, then each answer decoded as an outcome, a description, a fault. Anything may be
// refused with a WireError; nothing may crash, hang or allocate past what the bytes hold.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/worker/frames.h"
#include "core/worker/worker_codec.h"

namespace {

using namespace syncscope::worker;

void decode(const Frame& frame) {
  try {
    WireReader r(frame.payload);
    switch (frame.kind) {
      // A tighter bound on what the snapshots may stand for than syncscope's: the fuzzer's 4 GB.
      case 'S': read_outcome(r, uint64_t{1} << 24); break;
      case 'H': read_algo_info(r); break;
      case 'F': decode_fault(frame.payload); break;
      case 'R': read_doubles(r); break;
      case 'C': read_check(r); break;
      default: read_sim_options(r); read_problem(r); break;
    }
  } catch (const WireError&) {
  }
}

// The bytes behind a descriptor, as the worker's pipe would hold them: a memfd, which unlike a
// pipe takes a megabyte without a reader on the other side.
int descriptor_holding(const uint8_t* data, size_t size) {
  const int fd = memfd_create("worker-answer", MFD_CLOEXEC);
  if (fd < 0) return -1;
  for (size_t put = 0; put < size;) {
    const ssize_t n = write(fd, data + put, size - put);
    if (n <= 0) {
      close(fd);
      return -1;
    }
    put += static_cast<size_t>(n);
  }
  lseek(fd, 0, SEEK_SET);
  return fd;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1 << 20)) return -1;
  const int fd = descriptor_holding(data, size);
  if (fd < 0) return -1;
  FrameReader reader;
  try {
    // One frame's header can ask for up to a gigabyte: the reader sizes the payload from it, and
    // the end of the bytes ends the reading (read_some is false), as a dead worker's pipe would.
    while (reader.read_some(fd))
      if (std::optional<Frame> frame = reader.take()) decode(*frame);
  } catch (const WireError&) {
  }
  close(fd);
  return 0;
}
