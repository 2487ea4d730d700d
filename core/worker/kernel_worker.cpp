#include "core/worker/kernel_worker.h"

#include <atomic>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>

#include "core/cuda_in/device_addresses.h"
#include "core/worker/frames.h"
#include "core/worker/sandbox.h"
#include "core/worker/worker_codec.h"
#include "sim/code_address.h"

namespace syncscope::worker {

namespace {

using Clock = std::chrono::steady_clock;
// After a cancel, how long the worker has to stop by itself before it is killed.
constexpr auto kCancelGrace = std::chrono::seconds(5);

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::atomic<int> program_output_to{1};

// A CUDA program's stdout goes on to ours, as its printf would on a machine with a GPU.
void forward_program_output(int fd) {
  char buffer[4096];
  const ssize_t got = ::read(fd, buffer, sizeof buffer);
  if (got > 0) (void)!::write(program_output_to.load(), buffer, static_cast<size_t>(got));
}

// The worker's stderr (a kernel file's printf, a sanitizer's report) goes on to ours; its last
// kilobyte is kept in `tail`, where the C library's last words before an abort() are.
void forward_output(int fd, std::string& tail) {
  char buffer[4096];
  const ssize_t got = ::read(fd, buffer, sizeof buffer);
  if (got <= 0) return;
  (void)!::write(2, buffer, static_cast<size_t>(got));
  tail.append(buffer, static_cast<size_t>(got));
  if (tail.size() > 1024) tail.erase(0, tail.size() - 1024);
}

// Whether the C library said, before it called abort(), that it found its heap damaged
// ("free(): invalid pointer", "malloc(): corrupted top size", "double free or corruption (out)"):
// memory written outside an allocation, not an abort() or assert of the kernel's own.
bool heap_damage_reported(const std::string& tail) {
  for (const char* words : {"malloc(): ", "free(): ", "realloc(): ", "malloc_consolidate(): ", "munmap_chunk(): ",
                            "double free or corruption", "corrupted size vs. prev_size", "corrupted double-linked list"})
    if (tail.find(words) != std::string::npos) return true;
  return false;
}

// The kernel's own line among the fault's frames: the first whose innermost kernel-file line is
// in `kernel_path` (frames in the simulator's code inlined into the library are passed over).
std::optional<sim::CodeLine> kernel_line(const WorkerPlaces& places, const WorkerFault& fault) {
  for (uint64_t offset : fault.frames) {
    std::optional<sim::CodeLine> line = sim::line_in_object(places.library, offset);
    if (line && line->file == places.kernel_path) return line;
  }
  return std::nullopt;
}

std::string signal_words(int sig, bool cancelled) {
  switch (sig) {
    case SIGABRT: return "the kernel called abort() (a failed assert?)";
    case SIGSEGV: case SIGBUS: return "the kernel wrote outside its memory and the simulation died";
    case SIGFPE: return "integer division by zero outside a simulated thread";
    case SIGXCPU: return "the kernel used an hour of CPU time, the worker's limit";
    case SIGKILL: return cancelled ? "stopped" : "the kernel's worker was killed (out of memory?)";
    default: return std::string("the kernel's worker died of ") + strsignal(sig);
  }
}

}  // namespace

void send_program_output_to(int fd) { program_output_to = fd; }

std::string own_executable_path() {
  char path[PATH_MAX];
  const ssize_t size = readlink("/proc/self/exe", path, sizeof path - 1);
  return size > 0 ? std::string(path, static_cast<size_t>(size)) : std::string();
}

std::variant<AlgorithmEntry, std::string> KernelWorker::load(const WorkerPlaces& places) {
  std::shared_ptr<KernelWorker> worker(new KernelWorker(places));
  AlgorithmEntry entry;
  try {
    std::lock_guard lock(worker->mutex_);
    if (std::string why = worker->start(); !why.empty()) return why;
    WireReader r(worker->hello_answer_);
    entry.info = read_algo_info(r);
    r.expect_end();
  } catch (const std::exception& e) {
    return std::string("the kernel could not be loaded: ") + e.what();
  }
  entry.check = [worker](const Problem& p) { return worker->check(p); };
  entry.reference = [worker](const Problem& p, const std::vector<double>& in) { return worker->reference(p, in); };
  entry.simulate = [worker](const Problem& p, const std::vector<double>& in, const sim::SimOptions& o) {
    return worker->simulate(p, in, o);
  };
  entry.first_launch_blocks = [worker](const Problem& p) { return worker->first_launch_blocks(p); };
  return entry;
}

KernelWorker::~KernelWorker() { stop(); }

void KernelWorker::stop() {
  close_fd(request_fd_);  // the worker's loop ends at the end of its requests
  close_fd(answer_fd_);
  close_fd(output_fd_);
  close_fd(program_fd_);
  if (pid_ > 0) reap(std::chrono::seconds(1));  // a second on, it is busy with a kernel: no more waiting
}

int KernelWorker::reap(std::chrono::milliseconds grace) {
  int status = 0;
  // Woken the moment the worker ends (a pidfd is readable then), not at the next tick of a sleep:
  // every `run --kernel` waits for this.
  if (waitpid(pid_, &status, WNOHANG) == 0) {
    const int ended = static_cast<int>(syscall(SYS_pidfd_open, pid_, 0));
    if (ended >= 0) {
      pollfd exited{ended, POLLIN, 0};
      while (poll(&exited, 1, static_cast<int>(grace.count())) < 0 && errno == EINTR) {
      }
      ::close(ended);
    } else {  // a kernel older than Linux 5.3: look every millisecond
      for (auto deadline = Clock::now() + grace; Clock::now() < deadline && waitpid(pid_, &status, WNOHANG) == 0;)
        usleep(1000);
    }
    if (waitpid(pid_, &status, WNOHANG) == 0) {
      kill(pid_, SIGKILL);
      while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
    }
  }
  pid_ = -1;
  return status;
}

std::string KernelWorker::start() {
  signal(SIGPIPE, SIG_IGN);  // a worker that died mid-request must not take us with it
  int request[2], answer[2], output[2], program[2];
  if (pipe2(request, O_CLOEXEC) != 0) return std::string("cannot start the kernel's worker: ") + std::strerror(errno);
  if (pipe2(answer, O_CLOEXEC) != 0 || pipe2(output, O_CLOEXEC) != 0 || pipe2(program, O_CLOEXEC) != 0)
    return std::string("cannot start the kernel's worker: ") + std::strerror(errno);
  // A trace or an input is megabytes: through the default 64 KiB pipe it would take a switch
  // between the two processes every 64 KiB. 1 MiB is what an unprivileged user may ask (a refusal
  // leaves the default, slower but as good).
  for (int fd : {request[1], answer[0]}) fcntl(fd, F_SETPIPE_SZ, 1 << 20);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, request[0], 0);
  posix_spawn_file_actions_adddup2(&actions, answer[1], 1);
  posix_spawn_file_actions_adddup2(&actions, output[1], 2);
  posix_spawn_file_actions_adddup2(&actions, program[1], 3);  // a CUDA program's stdout (worker_main.cpp)
  std::string executable = places_.executable, command = "worker";
  char* argv[] = {executable.data(), command.data(), nullptr};
  std::vector<std::string> environment = worker_environment();
  std::vector<char*> envp;
  for (std::string& e : environment) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, executable.c_str(), &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  for (int fd : {request[0], answer[1], output[1], program[1]}) ::close(fd);
  request_fd_ = request[1], answer_fd_ = answer[0], output_fd_ = output[0], program_fd_ = program[0];
  if (spawned != 0) {
    stop();
    return "cannot start the kernel's worker " + executable + ": " + std::strerror(spawned);
  }
  pid_ = pid;
  WireWriter hello;
  for (const std::string* s : {&places_.library, &places_.kernel_path, &places_.empty_folder}) hello.put(*s);
  starting_ = true;
  struct Started {
    bool& starting;
    ~Started() { starting = false; }
  } started{starting_};
  try {
    hello_answer_ = exchange('H', hello.take(), nullptr);
  } catch (const KernelWorkerDied& e) {
    return e.what();
  } catch (const std::runtime_error& e) {  // an E answer: it could not load
    stop();
    return e.what();
  }
  return "";
}

std::string KernelWorker::exchange(char kind, const std::string& request, const sim::RunBudget* budget,
                                   sim::RunProgress* progress) {
  fault_.clear();
  output_tail_.clear();
  if (!write_frame(request_fd_, kind, request)) died(false);
  FrameReader answers(std::move(spare_answer_));
  bool cancelled = false;
  Clock::time_point cancelled_at;
  // A pipe whose writer has closed reports POLLHUP at every poll: once drained it is left out
  // (a negative descriptor), or the loop would spin and take a core from the simulation (a
  // kernel file's run cost 1.7 times the built-in's, 17 600 polls in half a second).
  bool output_open = true, program_open = true;
  auto hung_up = [](const pollfd& p) { return (p.revents & (POLLHUP | POLLERR | POLLNVAL)) && !(p.revents & POLLIN); };
  for (;;) {
    if (budget && budget->cancelled() && !cancelled) {
      cancelled = true;
      cancelled_at = Clock::now();
      kill(pid_, SIGUSR2);  // the worker's own cancel flag: the run ends as Cancelled
    }
    if (cancelled && Clock::now() - cancelled_at > kCancelGrace) kill(pid_, SIGKILL);
    pollfd watched[3] = {{answer_fd_, POLLIN, 0},
                         {output_open ? output_fd_ : -1, POLLIN, 0},
                         {program_open ? program_fd_ : -1, POLLIN, 0}};
    if (poll(watched, 3, 50) < 0 && errno != EINTR) died(cancelled);
    if (watched[1].revents & POLLIN) forward_output(output_fd_, output_tail_);
    if (watched[2].revents & POLLIN) forward_program_output(program_fd_);
    if (hung_up(watched[1])) output_open = false;
    if (hung_up(watched[2])) program_open = false;
    if (!(watched[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    if (!answers.read_some(answer_fd_)) died(cancelled);
    if (std::optional<Frame> frame = answers.take()) {
      if (frame->kind == 'F') fault_ = std::move(frame->payload);
      else if (frame->kind == 'P') {
        if (progress) read_progress(frame->payload, *progress);
        answers.give_back(std::move(frame->payload));
      }
      else if (frame->kind == 'A') {
        // All the program printed before it answered, before the answer's report.
        for (pollfd out{program_fd_, POLLIN, 0}; poll(&out, 1, 0) > 0 && (out.revents & POLLIN);)
          forward_program_output(program_fd_);
        return std::move(frame->payload);
      }
      else if (frame->kind == 'E') throw std::runtime_error(frame->payload);
      else throw WireError(std::string("an answer of kind ") + frame->kind);
    }
  }
}

void KernelWorker::died(bool cancelled) {
  for (pollfd out{output_fd_, POLLIN, 0}; poll(&out, 1, 0) > 0 && (out.revents & POLLIN);)
    forward_output(output_fd_, output_tail_);
  for (pollfd out{program_fd_, POLLIN, 0}; poll(&out, 1, 0) > 0 && (out.revents & POLLIN);) forward_program_output(program_fd_);
  close_fd(request_fd_);
  // Two seconds to end by itself (it is dying, or it sees the end of its requests), then killed.
  const int status = pid_ > 0 ? reap(std::chrono::seconds(2)) : 0;
  stop();  // the descriptors; the worker is gone
  std::optional<WorkerFault> fault;
  try {
    if (!fault_.empty()) fault = decode_fault(fault_);
  } catch (const WireError&) {
  }
  const std::optional<sim::CodeLine> line = fault ? kernel_line(places_, *fault) : std::nullopt;
  const std::string at = line ? " at " + line->text() : "";
  std::string message;
  if (starting_ && !fault)
    message = "syncscope's kernel worker (" + places_.executable + " worker) did not start" +
              (WIFEXITED(status) ? " (exit " + std::to_string(WEXITSTATUS(status)) + ")" : "") + "; its messages are above";
  else if (fault && fault->kind == FaultKind::RefusedCall)
    message = "the kernel tried to " + refused_call_words(fault->number) + at + ": not allowed (kernel files run in a sandbox)";
  else if (WIFEXITED(status))
    message = "the kernel called exit(" + std::to_string(WEXITSTATUS(status)) + ")" + at;
  else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV && fault && fault->address >= cu::kFirstDeviceAddress &&
           fault->address < cu::kDeviceAddressesEnd)
    // Outside every simulated thread: a CUDA program's host code, with a cudaMalloc'ed pointer.
    message = "host code read or wrote device memory through a pointer cudaMalloc returned" +
              (line ? " at " + line->text() : std::string()) +
              ", and the program died: device memory is the GPU's; copy it to the host with cudaMemcpy first";
  else if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGSEGV || WTERMSIG(status) == SIGBUS))
    message = signal_words(WTERMSIG(status), cancelled) + (line ? "; last line executed: " + line->text() : "");
  else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT && heap_damage_reported(output_tail_))
    message = signal_words(SIGSEGV, cancelled) + " (the C library found its heap damaged)" +
              (line ? "; last line executed: " + line->text() : "");
  else if (WIFSIGNALED(status))
    message = signal_words(WTERMSIG(status), cancelled) + at;
  else
    message = "the kernel's worker stopped answering";
  std::vector<sim::LineId> lines;
  if (line) lines.push_back(sim::LineTable::intern(line->file, line->line, ""));
  throw KernelWorkerDied(message, std::move(lines), cancelled);
}

std::string KernelWorker::call(char kind, const std::string& request, const sim::RunBudget* budget,
                               sim::RunProgress* progress) {
  std::lock_guard lock(mutex_);
  if (pid_ < 0)
    if (std::string why = start(); !why.empty()) throw KernelWorkerDied(why, {}, false);
  return exchange(kind, request, budget, progress);
}

std::string KernelWorker::ask_about(char kind, const Problem& p) {
  WireWriter w;
  write_problem(w, p);
  return call(kind, w.take(), nullptr);
}

CheckResult KernelWorker::check(const Problem& p) {
  try {
    const std::string answer = ask_about('C', p);
    WireReader r(answer);
    return read_check(r);
  } catch (const std::exception& e) {
    return ProblemError{ProblemField::N, std::string("the kernel's check() did not answer: ") + e.what(), true};
  }
}

int KernelWorker::first_launch_blocks(const Problem& p) {
  try {
    const std::string answer = ask_about('B', p);
    WireReader r(answer);
    return r.get<int32_t>();
  } catch (const std::exception&) {
    return 0;  // unknown: the caller works it out another way, and the run names the failure
  }
}

std::vector<double> KernelWorker::reference(const Problem& p, const std::vector<double>& input) {
  WireWriter w;
  write_problem(w, p);
  write_doubles(w, input);
  const std::string answer = call('R', w.take(), nullptr);
  WireReader r(answer);
  std::vector<double> out = read_doubles(r);
  r.expect_end();
  return out;
}

std::string KernelWorker::take_spare(std::string KernelWorker::*which) {
  std::lock_guard lock(mutex_);
  return std::move(this->*which);
}

void KernelWorker::keep_spare(std::string KernelWorker::*which, std::string buffer) {
  constexpr size_t kMaxSpareBytes = size_t{64} << 20;
  if (buffer.capacity() > kMaxSpareBytes) return;
  std::lock_guard lock(mutex_);
  this->*which = std::move(buffer);
}

SimOutcome KernelWorker::simulate(const Problem& p, const std::vector<double>& input, const sim::SimOptions& options) {
  WireWriter w(take_spare(&KernelWorker::spare_request_));
  write_problem(w, p);
  write_doubles(w, input);
  write_sim_options(w, options);
  SimOutcome failed;
  try {
    std::string request = w.take();
    std::string answer = call('S', request, &options.budget, options.progress.get());
    keep_spare(&KernelWorker::spare_request_, std::move(request));
    SimOutcome outcome;
    {
      WireReader r(answer);
      outcome = read_outcome(r);
    }
    keep_spare(&KernelWorker::spare_answer_, std::move(answer));
    return outcome;
  } catch (const KernelWorkerDied& d) {
    failed.trace.error = sim::SimError{d.cancelled ? sim::SimErrorKind::Cancelled : sim::SimErrorKind::Kernel, d.what(), 0, 0,
                                       0, d.lines};
  } catch (const WireError& e) {
    failed.trace.error = sim::SimError{sim::SimErrorKind::Kernel, std::string("the kernel's worker answered nonsense: ") + e.what(),
                                       0, 0, 0, {}};
  } catch (const std::exception& e) {
    failed.trace.error = sim::SimError{sim::SimErrorKind::Kernel, e.what(), 0, 0, 0, {}};
  }
  return failed;
}

}  // namespace syncscope::worker
