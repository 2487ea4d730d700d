#include "core/worker/sandbox.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#ifdef SYNCSCOPE_HAVE_SECCOMP
#include <seccomp.h>
#endif

namespace syncscope::worker {

namespace {

constexpr rlim_t kGiB = rlim_t{1} << 30;

// All of this machine's memory, but at least 8 GiB of address space: the simulator reserves a
// stack per simulated thread, most of it never touched.
rlim_t address_space_limit() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  const rlim_t physical = pages > 0 && page > 0 ? static_cast<rlim_t>(pages) * static_cast<rlim_t>(page) : 8 * kGiB;
  return std::max(physical, 8 * kGiB);
}

std::string set_limit(int resource, rlim_t value, const char* name) {
  rlimit now{};
  getrlimit(resource, &now);
  // A hard limit already lower stays: an unprivileged process cannot raise it.
  const rlimit wanted{std::min(value, now.rlim_max), std::min(value, now.rlim_max)};
  if (setrlimit(resource, &wanted) != 0) return std::string("cannot limit ") + name + ": " + std::strerror(errno);
  return "";
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;  // reserves terabytes of shadow: no address-space limit
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

#ifdef SYNCSCOPE_HAVE_SECCOMP
std::string install_filter() {
  scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
  if (!filter) return "cannot create the system call filter";
  int failed = 0;
  auto trap = [&](int call) { failed |= seccomp_rule_add(filter, SCMP_ACT_TRAP, call, 0); };
  for (int call : {SCMP_SYS(fork), SCMP_SYS(vfork), SCMP_SYS(execve), SCMP_SYS(execveat), SCMP_SYS(socket),
                   SCMP_SYS(socketpair), SCMP_SYS(ptrace), SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev),
                   SCMP_SYS(tkill), SCMP_SYS(pidfd_open), SCMP_SYS(pidfd_send_signal), SCMP_SYS(creat),
                   SCMP_SYS(unlink), SCMP_SYS(unlinkat), SCMP_SYS(rename), SCMP_SYS(renameat), SCMP_SYS(renameat2),
                   SCMP_SYS(mkdir), SCMP_SYS(mkdirat), SCMP_SYS(rmdir), SCMP_SYS(link), SCMP_SYS(linkat),
                   SCMP_SYS(symlink), SCMP_SYS(symlinkat), SCMP_SYS(truncate), SCMP_SYS(chmod), SCMP_SYS(fchmodat),
                   SCMP_SYS(chown), SCMP_SYS(fchownat), SCMP_SYS(lchown), SCMP_SYS(mknod), SCMP_SYS(mknodat)})
    trap(call);
  // A thread of this process is a clone with CLONE_THREAD; anything else is a new process.
  failed |= seccomp_rule_add(filter, SCMP_ACT_TRAP, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
  // clone3 passes its flags in memory, out of a filter's sight: "not here" makes glibc use clone.
  failed |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  // Signals to this process only (abort() and the watchdog signal their own threads).
  const auto self = static_cast<scmp_datum_t>(getpid());
  failed |= seccomp_rule_add(filter, SCMP_ACT_TRAP, SCMP_SYS(kill), 1, SCMP_A0(SCMP_CMP_NE, self));
  failed |= seccomp_rule_add(filter, SCMP_ACT_TRAP, SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_NE, self));
  // Files open for reading only.
  for (int flag : {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC}) {
    const auto bit = static_cast<scmp_datum_t>(flag);
    failed |= seccomp_rule_add(filter, SCMP_ACT_TRAP, SCMP_SYS(open), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, bit, bit));
    failed |= seccomp_rule_add(filter, SCMP_ACT_TRAP, SCMP_SYS(openat), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, bit, bit));
  }
  if (failed == 0) failed = seccomp_load(filter);
  seccomp_release(filter);
  return failed == 0 ? "" : std::string("cannot install the system call filter: ") + std::strerror(-failed);
}
#endif

}  // namespace

// Under AddressSanitizer the filter stays off: LeakSanitizer stops the world at exit with a clone
// that is not a thread and with ptrace, both of which the filter refuses.
bool sandbox_filters_system_calls() {
#ifdef SYNCSCOPE_HAVE_SECCOMP
  return !kAddressSanitizer;
#else
  return false;
#endif
}

std::string enter_sandbox(const std::string& empty_folder) {
  if (chdir(empty_folder.c_str()) != 0) return "cannot enter " + empty_folder + ": " + std::strerror(errno);
  for (std::string why : {kAddressSanitizer ? std::string() : set_limit(RLIMIT_AS, address_space_limit(), "the address space"),
                          set_limit(RLIMIT_CPU, 3600, "the CPU time"), set_limit(RLIMIT_CORE, 0, "core dumps"),
                          set_limit(RLIMIT_NOFILE, 256, "open files")})
    if (!why.empty()) return why;
#ifdef SYNCSCOPE_HAVE_SECCOMP
  if (sandbox_filters_system_calls()) return install_filter();
#endif
  return "";
}

std::vector<std::string> worker_environment() {
  std::vector<std::string> environment;
  // The one variable the worker may need to start at all: where this executable's libraries are.
  if (const char* libraries = std::getenv("LD_LIBRARY_PATH"); libraries && *libraries)
    environment.push_back(std::string("LD_LIBRARY_PATH=") + libraries);
  if (kAddressSanitizer) environment.push_back("ASAN_OPTIONS=detect_leaks=0");
  return environment;
}

std::string refused_call_words(int call) {
  switch (call) {
    case SYS_fork: case SYS_vfork: case SYS_clone: return "start another process (fork, system, popen)";
    case SYS_execve: case SYS_execveat: return "run a program (exec)";
    case SYS_socket: case SYS_socketpair: return "open a network socket";
    case SYS_ptrace: case SYS_process_vm_readv: case SYS_process_vm_writev: return "look into another process (ptrace)";
    case SYS_kill: case SYS_tgkill: case SYS_tkill: case SYS_pidfd_open: case SYS_pidfd_send_signal:
      return "send a signal to another process";
    case SYS_open: case SYS_openat: case SYS_creat: return "open a file for writing";
    default: return "change files (system call " + std::to_string(call) + ")";
  }
}

}  // namespace syncscope::worker
