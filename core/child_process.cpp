#include "core/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace syncscope {
namespace {

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// The environment the child gets: ours, with `extra` set (replacing a variable of the same name).
std::vector<std::string> child_environment(const std::vector<std::pair<std::string, std::string>>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry = *e;
    bool replaced = false;
    for (const auto& [name, value] : extra) replaced = replaced || entry.rfind(name + "=", 0) == 0;
    if (!replaced) env.push_back(entry);
  }
  for (const auto& [name, value] : extra) env.push_back(name + "=" + value);
  return env;
}

}  // namespace

ChildResult run_child(const std::vector<std::string>& args, const ChildOptions& o) {
  ChildResult r;
  if (args.empty()) {
    r.failure = "no program to run";
    return r;
  }
  int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || (!o.merge_stderr && pipe2(err, O_CLOEXEC) != 0)) {
    r.failure = std::string("cannot create a pipe: ") + std::strerror(errno);
    for (int* fd : {&in[0], &in[1], &out[0], &out[1], &err[0], &err[1]}) close_fd(*fd);
    return r;
  }
  // Everything the child needs is made before fork: after it, only async-signal-safe calls.
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<std::string> env_text = child_environment(o.environment);
  std::vector<char*> envp;
  for (auto& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  const rlimit cpu{static_cast<rlim_t>(o.cpu_seconds), static_cast<rlim_t>(o.cpu_seconds)};
  const rlimit memory{static_cast<rlim_t>(o.address_space), static_cast<rlim_t>(o.address_space)}, core{0, 0};
  const pid_t pid = fork();
  if (pid < 0) {
    r.failure = std::string("cannot start ") + args[0] + ": " + std::strerror(errno);
    for (int* fd : {&in[0], &in[1], &out[0], &out[1], &err[0], &err[1]}) close_fd(*fd);
    return r;
  }
  if (pid == 0) {
    setpgid(0, 0);  // its own group: the deadline ends whatever it started (nvcc runs several tools)
    setrlimit(RLIMIT_CPU, &cpu);
#if !defined(__SANITIZE_ADDRESS__)
    if (o.address_space > 0) setrlimit(RLIMIT_AS, &memory);
#endif
    setrlimit(RLIMIT_CORE, &core);
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(o.merge_stderr ? out[1] : err[1], 2);
    if (!o.working_directory.empty() && chdir(o.working_directory.c_str()) != 0) _exit(126);
    execvpe(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  setpgid(pid, pid);  // also here: whichever runs first, the group exists before a kill
  r.started = true;
  close_fd(in[0]), close_fd(out[1]), close_fd(err[1]);
  if (o.input.empty()) close_fd(in[1]);
  // A closed reader of stdin must not kill this process.
  struct sigaction ignore {}, previous {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &previous);
  const auto start = std::chrono::steady_clock::now();
  size_t written = 0;
  char buffer[65536];
  while (out[0] >= 0 || err[0] >= 0) {
    pollfd fds[3];
    int count = 0, out_at = -1, err_at = -1, in_at = -1;
    if (out[0] >= 0) out_at = count, fds[count++] = {out[0], POLLIN, 0};
    if (err[0] >= 0) err_at = count, fds[count++] = {err[0], POLLIN, 0};
    if (in[1] >= 0) in_at = count, fds[count++] = {in[1], POLLOUT, 0};
    int wait_ms = -1;
    if (o.wall_seconds > 0) {
      const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
      wait_ms = static_cast<int>(std::max<long long>(0, o.wall_seconds * 1000LL - spent));
    }
    const int ready = poll(fds, count, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      r.timed_out = ready == 0;
      break;
    }
    if (out_at >= 0 && (fds[out_at].revents & (POLLIN | POLLHUP | POLLERR))) {
      const ssize_t got = read(out[0], buffer, sizeof buffer);
      if (got > 0) r.output.append(buffer, static_cast<size_t>(got));
      else close_fd(out[0]);
      if (r.output.size() > o.max_output) {
        r.too_much_output = true;
        break;
      }
    }
    if (err_at >= 0 && (fds[err_at].revents & (POLLIN | POLLHUP | POLLERR))) {
      const ssize_t got = read(err[0], buffer, sizeof buffer);
      if (got > 0 && r.errors.size() < (size_t{1} << 20)) r.errors.append(buffer, static_cast<size_t>(got));
      else if (got <= 0) close_fd(err[0]);
    }
    if (in_at >= 0 && (fds[in_at].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t put = write(in[1], o.input.data() + written, o.input.size() - written);
      if (put > 0) written += static_cast<size_t>(put);
      if (put <= 0 || written == o.input.size()) close_fd(in[1]);
    }
  }
  if (r.timed_out || r.too_much_output) kill(-pid, SIGKILL);
  for (int* fd : {&in[1], &out[0], &err[0]}) close_fd(*fd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  sigaction(SIGPIPE, &previous, nullptr);
  if (WIFEXITED(status) && !r.timed_out && !r.too_much_output) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  if (r.exit_code == 127) r.failure = "could not run " + args[0];
  return r;
}

std::string describe_end(const ChildResult& r, const ChildOptions& o) {
  if (!r.started) return r.failure;
  if (r.timed_out) return "stopped after " + std::to_string(o.wall_seconds) + " s";
  if (r.too_much_output) return "stopped after printing more than " + std::to_string(o.max_output >> 20) + " MiB";
  if (r.signal == SIGXCPU) return "stopped after " + std::to_string(o.cpu_seconds) + " s of CPU time";
  if (r.signal) return std::string("killed by signal ") + strsignal(r.signal);
  return "exit status " + std::to_string(r.exit_code);
}

}  // namespace syncscope
