#include "core/worker/worker_main.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "core/worker/frames.h"
#include "core/worker/sandbox.h"
#include "core/worker/worker_codec.h"
#include "sim/fault_guard.h"

namespace syncscope::worker {

namespace {

// What the signal handlers and the exit hook need, set before the kernel's code first runs.
int answer_fd = -1;
uintptr_t library_start = 0, library_end = 0;
std::atomic<bool> serving{false};  // a request is being answered: exit() now is the kernel's
std::atomic<bool> cancel_flag{false};

void on_cancel(int) { cancel_flag.store(true, std::memory_order_relaxed); }

uintptr_t interrupted_pc(void* context) {
#if defined(__x86_64__)
  return context ? static_cast<uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]) : 0;
#elif defined(__aarch64__)
  return context ? static_cast<uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.pc) : 0;
#else
  (void)context;
  return 0;
#endif
}

// Writes the F frame: the interrupted instruction (when a signal gives one) and the return
// addresses on this thread's stack, those inside the kernel's library as offsets from its start.
// Async-signal-safe but for backtrace(), whose first call (made at start-up) did the allocating.
void report_fault(FaultKind kind, int number, uint64_t address, uintptr_t pc) {
  uint64_t frames[kMaxFaultFrames];
  size_t count = 0;
  auto keep = [&](uintptr_t a, uintptr_t adjust) {
    if (a >= library_start && a < library_end && count < kMaxFaultFrames) frames[count++] = a - library_start - adjust;
  };
  keep(pc, 0);
  void* stack[64];
  const int depth = backtrace(stack, 64);
  for (int k = 0; k < depth; ++k) keep(reinterpret_cast<uintptr_t>(stack[k]), 1);  // return address → the call
  char frame[kFaultFrameBytes];
  const size_t size = fault_frame(frame, kind, number, address, frames, count);
  for (size_t put = 0; put < size;) {
    const ssize_t n = ::write(answer_fd, frame + put, size - put);
    if (n <= 0) break;
    put += static_cast<size_t>(n);
  }
}

void on_fatal_signal(int sig, siginfo_t* info, void* context) {
  report_fault(FaultKind::Signal, sig, info ? reinterpret_cast<uint64_t>(info->si_addr) : 0, interrupted_pc(context));
  signal(sig, SIG_DFL);
  raise(sig);
}

void on_refused_call(int, siginfo_t* info, void* context) {
  report_fault(FaultKind::RefusedCall, info ? info->si_syscall : -1, 0, interrupted_pc(context));
  _exit(111);
}

void on_exit_during_request() {
  if (serving.load()) report_fault(FaultKind::Exit, -1, 0, 0);
}

void handle(int sig, void (*handler)(int, siginfo_t*, void*)) {
  struct sigaction action {};
  action.sa_sigaction = handler;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaction(sig, &action, nullptr);
}

// [start, end) of the loaded library holding `symbol`.
void find_library_range(void* symbol) {
  Dl_info info{};
  if (dladdr(symbol, &info) == 0) return;
  library_start = reinterpret_cast<uintptr_t>(info.dli_fbase);
  dl_iterate_phdr(
      [](dl_phdr_info* object, size_t, void*) {
        if (object->dlpi_addr != library_start) return 0;
        for (int k = 0; k < object->dlpi_phnum; ++k) {
          const ElfW(Phdr)& segment = object->dlpi_phdr[k];
          if (segment.p_type == PT_LOAD)
            library_end = std::max<uintptr_t>(library_end, object->dlpi_addr + segment.p_vaddr + segment.p_memsz);
        }
        return 1;
      },
      nullptr);
}

// While a simulation runs, a P frame every 100 ms with its counters (the parent's progress line),
// and the last counts when it ends; stopped before the answer is written, so a P frame never lands
// inside the answer.
class ProgressSender {
 public:
  explicit ProgressSender(const sim::RunProgress& progress)
      : progress_(progress), thread_([this] {
          std::unique_lock lock(mutex_);
          while (!wake_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stopping_; }))
            if (!send()) return;
        }) {}
  ~ProgressSender() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
    send();
  }

 private:
  // One write of the whole frame (shorter than PIPE_BUF: whole beside a fault's frame).
  bool send() const {
    char frame[kProgressFrameBytes];
    progress_frame(frame, progress_);
    return ::write(answer_fd, frame, sizeof frame) == static_cast<ssize_t>(sizeof frame);
  }

  const sim::RunProgress& progress_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;  // last: starts after everything it uses exists
};

// `reuse`: an earlier answer's buffer, written over. A simulation's outcome is left in `written`,
// to be freed once the answer is on its way (megabytes of arrays: freeing them is no reason to
// keep syncscope waiting).
std::string answer_of(const AlgorithmEntry& entry, const Frame& request, std::string reuse, SimOutcome& written) {
  WireReader r(request.payload);
  WireWriter w(std::move(reuse));
  const Problem problem = read_problem(r);
  switch (request.kind) {
    case 'C': write_check(w, entry.check(problem)); break;
    case 'B': w.put<int32_t>(entry.first_launch_blocks ? entry.first_launch_blocks(problem) : 0); break;
    case 'R': write_doubles(w, entry.reference(problem, read_doubles(r))); break;
    case 'S': {
      const std::vector<double> input = read_doubles(r);
      sim::SimOptions options = read_sim_options(r);
      static const std::shared_ptr<const std::atomic<bool>> cancel(&cancel_flag, [](const std::atomic<bool>*) {});
      cancel_flag = false;
      options.budget.cancel = cancel;
      options.progress = std::make_shared<sim::RunProgress>();
      SimOutcome outcome;
      {
        const ProgressSender sender(*options.progress);
        outcome = entry.simulate(problem, input, options);
      }
      write_outcome(w, outcome);
      written = std::move(outcome);
      break;
    }
    default: throw WireError(std::string("no request of kind ") + request.kind);
  }
  return w.take();
}

bool in_worker = false;

// The process-starting calls that block every signal before they clone (system, popen,
// posix_spawn): a trapped clone there would kill the worker without a word, so inside the
// worker they are refused here, with the kernel's line. This executable defines them, so the
// kernel's library binds to these; everywhere else they are the C library's.
[[noreturn]] void refuse_process_start() {
  report_fault(FaultKind::RefusedCall, SYS_clone, 0, 0);
  _exit(111);
}

// The C library's own `name` called with `args`, outside the worker; inside, refused.
template <class Function, class... Args>
auto started_outside_worker(const char* name, Args... args) {
  if (in_worker) refuse_process_start();
  return reinterpret_cast<Function>(dlsym(RTLD_NEXT, name))(args...);
}

using Spawn = int (*)(pid_t*, const char*, const posix_spawn_file_actions_t*, const posix_spawnattr_t*, char* const[],
                      char* const[]);

}  // namespace

}  // namespace syncscope::worker

using syncscope::worker::started_outside_worker;
extern "C" int system(const char* command) { return started_outside_worker<int (*)(const char*)>("system", command); }
extern "C" FILE* popen(const char* command, const char* mode) {
  return started_outside_worker<FILE* (*)(const char*, const char*)>("popen", command, mode);
}
extern "C" int posix_spawn(pid_t* pid, const char* path, const posix_spawn_file_actions_t* actions,
                           const posix_spawnattr_t* attributes, char* const argv[], char* const envp[]) {
  return started_outside_worker<syncscope::worker::Spawn>("posix_spawn", pid, path, actions, attributes, argv, envp);
}
extern "C" int posix_spawnp(pid_t* pid, const char* file, const posix_spawn_file_actions_t* actions,
                            const posix_spawnattr_t* attributes, char* const argv[], char* const envp[]) {
  return started_outside_worker<syncscope::worker::Spawn>("posix_spawnp", pid, file, actions, attributes, argv, envp);
}

namespace syncscope::worker {

int kernel_worker_main() {
  in_worker = true;
  // The answers get a descriptor of their own: a kernel's printf goes to stdout, which becomes
  // stderr (the parent collects both).
  answer_fd = fcntl(1, F_DUPFD_CLOEXEC, 10);
  const int request_fd = fcntl(0, F_DUPFD_CLOEXEC, 10);
  dup2(2, 1);
  if (const int none = open("/dev/null", O_RDONLY); none >= 0) dup2(none, 0), close(none);
  if (answer_fd < 0 || request_fd < 0) return 2;

  const std::optional<Frame> hello = read_frame(request_fd);
  if (!hello || hello->kind != 'H') return 2;
  std::string library, kernel_path, empty_folder;
  try {
    WireReader r(hello->payload);
    library = r.get_string();
    kernel_path = r.get_string();
    empty_folder = r.get_string();
  } catch (const WireError&) {
    return 2;
  }
  // A CUDA program's printf is its output (descriptor 3: the parent's stdout); a kernel file's
  // printf stays with the diagnostics on stderr.
  if (kernel_path.size() > 3 && kernel_path.compare(kernel_path.size() - 3, 3, ".cu") == 0) dup2(3, 1);
  close(3);
  void* warm[1];
  backtrace(warm, 1);  // loads the unwinder now, not in a signal handler
  handle(SIGABRT, on_fatal_signal);
  handle(SIGSYS, on_refused_call);
  signal(SIGUSR2, on_cancel);
  sim::enable_fault_guard();  // a fault in a simulated thread fails its run; elsewhere, the hook reports it
  sim::set_unguarded_fault_hook([](int sig, siginfo_t* info, void* context) {
    report_fault(FaultKind::Signal, sig, info ? reinterpret_cast<uint64_t>(info->si_addr) : 0, interrupted_pc(context));
  });
  std::atexit(on_exit_during_request);

  if (std::string walls = enter_sandbox(empty_folder); !walls.empty()) {
    write_frame(answer_fd, 'E', walls);
    return 1;
  }
  serving = true;  // the library's static initializers are the kernel's code too
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    serving = false;
    write_frame(answer_fd, 'E', std::string("cannot load the compiled kernel: ") + dlerror());
    return 1;
  }
  using Entry = AlgorithmEntry (*)();
  auto entry_of = reinterpret_cast<Entry>(dlsym(handle, "syncscope_kernel_file_entry"));
  if (!entry_of) {
    serving = false;
    write_frame(answer_fd, 'E', "the compiled kernel has no entry (SYNCSCOPE_KERNEL_FILE missing?)");
    return 1;
  }
  find_library_range(reinterpret_cast<void*>(entry_of));
  AlgorithmEntry entry = entry_of();
  entry.info.sources = {kernel_path};  // as its source locations name it
  // The buffers of the last request and answer are read and written into again: memory already
  // touched costs no page faults, and a run's messages are megabytes. An answer is kept until the
  // next request comes (write_frame: the app may still be reading its pages).
  std::string spare_request, spare_answer;
  {
    WireWriter w;
    write_algo_info(w, entry.info);
    serving = false;
    spare_answer = w.take();
    if (!write_frame(answer_fd, 'A', spare_answer)) return 0;
  }
  SimOutcome written;
  for (std::optional<Frame> request; (request = read_frame(request_fd, std::move(spare_request)));) {
    char kind = 'A';
    std::string answer;
    serving = true;
    try {
      answer = answer_of(entry, *request, std::move(spare_answer), written);
    } catch (const WireError& e) {
      serving = false;
      write_frame(answer_fd, 'E', std::string("a malformed request: ") + e.what());
      return 2;
    } catch (const std::bad_alloc&) {
      kind = 'E', answer = "the kernel ran out of memory (std::bad_alloc)";
    } catch (const std::exception& e) {
      kind = 'E', answer = std::string("the kernel's host code threw: ") + e.what();
    } catch (...) {
      kind = 'E', answer = "the kernel's host code threw something that is not a std::exception";
    }
    serving = false;
    if (!write_frame(answer_fd, kind, answer)) return 0;
    written = SimOutcome{};
    spare_request = std::move(request->payload);
    spare_answer = std::move(answer);
  }
  // No more requests: syncscope waits for this process to end, so it ends now. The simulator's
  // static destructors would hand back a thousand fiber stacks one by one, and the kernel ends
  // the address space at once; only the kernel's printf output must still be written out.
  std::fflush(nullptr);
  _exit(0);
}

}  // namespace syncscope::worker
