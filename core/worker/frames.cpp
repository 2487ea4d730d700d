#include "core/worker/frames.h"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace syncscope::worker {

namespace {

bool write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t put = ::write(fd, data, size);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return false;
    data += put;
    size -= static_cast<size_t>(put);
  }
  return true;
}

// A pipe takes a message of megabytes at about 1.8 GB/s when each 4 KiB is copied into a page of
// its own; spliced, the reader copies straight from the writer's pages. Not a pipe: written.
bool splice_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    iovec piece{const_cast<char*>(data), size};
    const ssize_t put = ::vmsplice(fd, &piece, 1, 0);
    if (put < 0 && errno == EINTR) continue;
    if (put < 0 && (errno == EBADF || errno == EINVAL || errno == ENOSYS)) return write_all(fd, data, size);
    if (put <= 0) return false;
    data += put;
    size -= static_cast<size_t>(put);
  }
  return true;
}
constexpr size_t kSpliceFromBytes = size_t{64} << 10;

bool read_all(int fd, char* data, size_t size) {
  while (size > 0) {
    const ssize_t got = ::read(fd, data, size);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    data += got;
    size -= static_cast<size_t>(got);
  }
  return true;
}

uint32_t length_of(const char* bytes) {
  uint32_t length;
  std::memcpy(&length, bytes, 4);
  return length;
}

}  // namespace

bool write_frame(int fd, char kind, const std::string& payload) {
  const uint32_t length = static_cast<uint32_t>(payload.size() + 1);
  char head[5];
  std::memcpy(head, &length, 4);
  head[4] = kind;
  if (!write_all(fd, head, 5)) return false;
  return payload.size() >= kSpliceFromBytes ? splice_all(fd, payload.data(), payload.size())
                                            : write_all(fd, payload.data(), payload.size());
}

std::optional<Frame> read_frame(int fd, std::string reuse) {
  char head[5];
  if (!read_all(fd, head, 5)) return std::nullopt;
  const uint32_t length = length_of(head);
  if (length == 0 || length > kMaxFrameBytes) return std::nullopt;
  reuse.resize(length - 1);
  Frame frame{head[4], std::move(reuse)};
  if (!read_all(fd, frame.payload.data(), frame.payload.size())) return std::nullopt;
  return frame;
}

bool FrameReader::read_some(int fd) {
  if (head_have_ < sizeof head_) {
    const ssize_t got = ::read(fd, head_ + head_have_, sizeof head_ - head_have_);
    if (got < 0 && errno == EINTR) return true;
    if (got <= 0) return false;
    head_have_ += static_cast<size_t>(got);
    if (head_have_ < sizeof head_) return true;
    const uint32_t length = length_of(head_);
    if (length == 0 || length > kMaxFrameBytes) throw WireError("a frame of " + std::to_string(length) + " bytes");
    frame_.kind = head_[4];
    frame_.payload.clear();
    payload_length_ = length - 1;
    payload_have_ = 0;
    return true;
  }
  if (payload_have_ == payload_length_) return true;
  // The payload grows with what arrives (doubling, never past the header's length): five bytes
  // saying "a gigabyte follows" make no gigabyte of memory before the gigabyte comes. Memory it
  // already holds (an earlier payload's) is used at once.
  if (payload_have_ == frame_.payload.size())
    frame_.payload.resize(
        std::min(payload_length_, std::max({payload_have_ * 2, size_t{64} << 10, frame_.payload.capacity()})));
  const ssize_t got = ::read(fd, frame_.payload.data() + payload_have_, frame_.payload.size() - payload_have_);
  if (got < 0 && errno == EINTR) return true;
  if (got <= 0) return false;
  payload_have_ += static_cast<size_t>(got);
  return true;
}

std::optional<Frame> FrameReader::take() {
  if (head_have_ < sizeof head_ || payload_have_ < payload_length_) return std::nullopt;
  head_have_ = 0;
  payload_have_ = payload_length_ = 0;
  return std::exchange(frame_, Frame{});
}

size_t fault_frame(char (&out)[kFaultFrameBytes], FaultKind kind, int32_t number, uint64_t address,
                   const uint64_t* frames, size_t count) {
  if (count > kMaxFaultFrames) count = kMaxFaultFrames;
  const uint64_t count64 = count;
  const uint32_t length = static_cast<uint32_t>(1 + 1 + 4 + 8 + 8 + 8 * count);
  char* at = out;
  auto put = [&](const void* v, size_t n) {
    std::memcpy(at, v, n);
    at += n;
  };
  put(&length, 4);
  *at++ = 'F';
  *at++ = static_cast<char>(kind);
  put(&number, 4);
  put(&address, 8);
  put(&count64, 8);
  put(frames, 8 * count);
  return static_cast<size_t>(at - out);
}

void progress_frame(char (&out)[kProgressFrameBytes], const sim::RunProgress& progress) {
  const uint32_t length = kProgressFrameBytes - 4;
  const uint32_t launches = progress.launches_started.load(std::memory_order_relaxed);
  const uint64_t counts[3] = {progress.blocks_in_finished_launches.load(std::memory_order_relaxed),
                              progress.launch_blocks.load(std::memory_order_relaxed),
                              progress.launch_blocks_done.load(std::memory_order_relaxed)};
  std::memcpy(out, &length, 4);
  out[4] = 'P';
  std::memcpy(out + 5, &launches, 4);
  std::memcpy(out + 9, counts, sizeof counts);
}

void read_progress(const std::string& payload, sim::RunProgress& into) {
  WireReader r(payload);
  const auto launches = r.get<uint32_t>();
  const auto finished = r.get<uint64_t>();
  const auto blocks = r.get<uint64_t>();
  const auto done = r.get<uint64_t>();
  r.expect_end();
  into.set(launches, finished, blocks, done);
}

WorkerFault decode_fault(const std::string& payload) {
  WireReader r(payload);
  WorkerFault f;
  f.kind = r.get_enum(FaultKind::RefusedCall);
  f.number = r.get<int32_t>();
  f.address = r.get<uint64_t>();
  f.frames = r.get_vector<uint64_t>();
  if (f.frames.size() > kMaxFaultFrames) throw WireError("a fault with " + std::to_string(f.frames.size()) + " frames");
  r.expect_end();
  return f;
}

}  // namespace syncscope::worker
