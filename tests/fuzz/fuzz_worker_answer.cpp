// libFuzzer target: bytes as they could arrive from a kernel worker that a student's code has
// corrupted (core/worker/): the frames on the pipe, then each answer decoded as an outcome, a
// description, a fault. Anything may be refused with a WireError; nothing may crash, hang or
// allocate past what the bytes hold.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/worker/frames.h"
#include "core/worker/worker_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1 << 20)) return -1;
  std::string pipe(reinterpret_cast<const char*>(data), size);
  using namespace syncscope::worker;
  try {
    while (std::optional<Frame> frame = take_frame(pipe)) {
      try {
        WireReader r(frame->payload);
        switch (frame->kind) {
          case 'S': read_outcome(r); break;
          case 'H': read_algo_info(r); break;
          case 'F': decode_fault(frame->payload); break;
          case 'R': read_doubles(r); break;
          case 'C': read_check(r); break;
          default: read_sim_options(r); read_problem(r); break;
        }
      } catch (const WireError&) {
      }
    }
  } catch (const WireError&) {
  }
  return 0;
}
