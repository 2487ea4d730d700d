// The kernel worker's walls, set by the platform rather than checked by hand: resource limits
// (address space, CPU time, open files, no core dump) and a seccomp filter (libseccomp) that traps
// every system call a kernel has no business making — starting a process or a program, opening a
// socket, tracing or signalling another process, creating, changing or removing files. A trapped
// call raises SIGSYS in the thread that made it; the worker reports it with the kernel's line
// (core/worker/worker_main.cpp). Threads of the worker's own pool stay allowed.
#pragma once

#include <string>
#include <vector>

namespace syncscope::worker {

// "" once the walls are up, else what could not be set (the worker then refuses to run a kernel).
// `empty_folder` becomes the working directory.
std::string enter_sandbox(const std::string& empty_folder);

// What a trapped system call was trying to do, in the student's words: "start a process (fork)".
std::string refused_call_words(int syscall_number);

// The worker's whole environment: nothing of the user's (no HOME, no PATH) but LD_LIBRARY_PATH,
// without which the executable may not start where the user's own did. Under
// AddressSanitizer, no leak check at its exit: the student's code is not ours to check, and a
// report would fail the sanitizer run that started it.
std::vector<std::string> worker_environment();

// Whether this build has the seccomp filter (Debian libseccomp-dev): without it only the limits hold.
bool sandbox_filters_system_calls();

}  // namespace syncscope::worker
