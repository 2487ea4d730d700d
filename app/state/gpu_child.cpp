#include "app/state/gpu_child.h"

#include "core/config_codec.h"
#include "core/kernel_file.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cinttypes>
#include <cstring>
#include <iomanip>
#include <istream>
#include <ostream>
#include <sstream>

extern char** environ;

namespace syncscope::app {
namespace {

constexpr const char* kMagic = "syncscope-gpu-request 2";
constexpr long long kMaxInput = 1LL << 28;

std::string request_text(const RunConfig& config, const std::vector<double>& input, int runs) {
  // The input's values travel as bits: a file or standard input is not read again in the child, and
  // a double's text would not always read back the same.
  RunOptions options = options_of(config);
  options.input.reset();
  std::string s;
  s.reserve(input.size() * 17 + 256);
  s += kMagic;
  if (const std::string path = loaded_kernel_path(config.algorithm->info.name); !path.empty()) s += "\nkernel " + path;
  s += "\nconfig " + options_to_json(options).dump() + "\nruns " + std::to_string(runs) + "\ninput " +
       std::to_string(input.size()) + "\n";
  char word[20];
  for (double v : input) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    std::snprintf(word, sizeof word, "%016" PRIx64 " ", bits);
    s += word;
  }
  s += "\n";
  return s;
}

std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

std::string exit_description(int status) {
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("killed by signal ") + strsignal(WTERMSIG(status));
  return "status " + std::to_string(status);
}

struct Exchange {
  std::string answer;
  std::string failure;  // the child could not be started, or did not answer in time
  int status = 0;
};

// Sends the request and reads the answer at the same time, so neither side can block the other,
// under one deadline.
Exchange exchange_with_child(const std::string& executable, const std::string& request, int timeout_seconds) {
  Exchange ex;
  int to_child[2], from_child[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, to_child) != 0) {
    ex.failure = std::string("cannot create a socket for the GPU helper: ") + std::strerror(errno);
    return ex;
  }
  if (pipe2(from_child, O_CLOEXEC) != 0) {
    ex.failure = std::string("cannot create a pipe for the GPU helper: ") + std::strerror(errno);
    close(to_child[0]);
    close(to_child[1]);
    return ex;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, to_child[1], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, from_child[1], STDOUT_FILENO);
  std::string arg0 = executable, arg1 = "gpu-child";
  char* argv[] = {arg0.data(), arg1.data(), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, executable.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(to_child[1]);
  close(from_child[1]);
  if (spawned != 0) {
    ex.failure = "cannot start the GPU helper " + executable + ": " + std::strerror(spawned);
    close(to_child[0]);
    close(from_child[0]);
    return ex;
  }

  int writer = to_child[0];
  const int reader = from_child[0];
  fcntl(writer, F_SETFL, O_NONBLOCK);
  size_t sent = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  for (bool reading = true; reading;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      kill(pid, SIGKILL);
      ex.failure = "the GPU helper gave no answer within " + std::to_string(timeout_seconds) + " s; stopped it";
      break;
    }
    pollfd fds[2] = {{reader, POLLIN, 0}, {writer, POLLOUT, 0}};
    const int polled = poll(fds, writer >= 0 ? 2 : 1, static_cast<int>(left.count()));
    if (polled < 0 && errno != EINTR) break;
    if (writer >= 0 && fds[1].revents) {
      // MSG_NOSIGNAL: a child that died early gives EPIPE here instead of killing the app.
      const ssize_t w = send(writer, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
      if (w > 0) sent += static_cast<size_t>(w);
      if ((w < 0 && errno != EAGAIN && errno != EINTR) || sent == request.size()) {
        close(writer);  // the child sees the end of its input
        writer = -1;
      }
    }
    if (fds[0].revents) {
      char buffer[1 << 16];
      const ssize_t r = read(reader, buffer, sizeof buffer);
      if (r > 0) ex.answer.append(buffer, static_cast<size_t>(r));
      else if (r == 0 || (errno != EINTR && errno != EAGAIN)) reading = false;
    }
  }
  if (writer >= 0) close(writer);
  close(reader);
  // A child that closed its output but lingers gets until the deadline, then is stopped.
  for (;;) {
    const pid_t done = waitpid(pid, &ex.status, WNOHANG);
    if (done == pid || (done < 0 && errno != EINTR)) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(pid, SIGKILL);
      if (ex.failure.empty())
        ex.failure = "the GPU helper did not exit within " + std::to_string(timeout_seconds) + " s; stopped it";
      waitpid(pid, &ex.status, 0);
      break;
    }
    usleep(2000);
  }
  return ex;
}

}  // namespace

std::string own_executable() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<size_t>(n)) : std::string("syncscope");
}

bool gpu_side_in_child(const RunConfig& config) { return !loaded_kernel_path(config.algorithm->info.name).empty(); }

std::vector<GpuRun> run_on_gpu_in_child(const std::string& executable, const RunConfig& config,
                                        const std::vector<double>& input, int runs, int timeout_seconds) {
  const Exchange ex = exchange_with_child(executable, request_text(config, input, runs), timeout_seconds);
  std::vector<GpuRun> results;
  std::istringstream answer(ex.answer);
  for (std::string line; std::getline(answer, line);) {
    std::istringstream fields(line);
    std::string word;
    fields >> word;
    GpuRun g;
    if (word == "error") {
      std::getline(fields >> std::ws, g.error);
      results.push_back(std::move(g));
      return results;
    }
    size_t count = 0;
    if (word != "ok" || !(fields >> g.milliseconds >> count) || count > static_cast<size_t>(kMaxInput)) break;
    g.output_bits.resize(count);
    bool complete = true;
    for (uint32_t& bits : g.output_bits) complete &= static_cast<bool>(fields >> std::hex >> bits);
    if (!complete) break;
    g.ok = true;
    results.push_back(std::move(g));
  }
  if (static_cast<int>(results.size()) < runs) {
    GpuRun g;
    g.error = !ex.failure.empty()
                  ? ex.failure
                  : "the GPU helper ended after " + std::to_string(results.size()) + " of " + std::to_string(runs) +
                        " runs: " + exit_description(ex.status);
    results.push_back(std::move(g));
  }
  return results;
}

int gpu_child_main(std::istream& in, std::ostream& out) {
  auto malformed = [&](const std::string& what) {
    out << "error malformed GPU request: " << what << "\n";
    return 2;
  };
  std::string line, key;
  if (!std::getline(in, line) || line != kMagic) return malformed("expected '" + std::string(kMagic) + "'");
  if (!(in >> key)) return malformed("expected 'config {...}'");
  Registry registry = builtin_registry();
  if (key == "kernel") {  // a kernel file the parent loaded: load it here too (from the cache)
    std::string path;
    std::getline(in >> std::ws, path);
    auto loaded = load_kernel_file(path);
    if (auto* e = std::get_if<KernelFileError>(&loaded)) {
      out << "error " << one_line(e->message) << "\n";
      return 0;
    }
    auto with_kernel = registry_with(std::get<KernelFile>(loaded).entry);
    if (auto* taken = std::get_if<std::string>(&with_kernel)) return malformed(path + ": " + *taken);
    registry = std::move(std::get<Registry>(with_kernel));
    if (!(in >> key)) return malformed("expected 'config {...}'");
  }
  std::string config_json;
  if (key != "config" || !std::getline(in >> std::ws, config_json)) return malformed("expected 'config {...}'");
  const nlohmann::json parsed = nlohmann::json::parse(config_json, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return malformed("the configuration is not JSON");
  auto options = options_from_json(parsed);
  if (auto* why = std::get_if<std::string>(&options)) return malformed(*why);
  auto resolved = resolve(registry, std::get<RunOptions>(options));
  if (auto* e = std::get_if<ConfigError>(&resolved)) return malformed(e->json_text());
  const RunConfig& config = std::get<RunConfig>(resolved);
  int runs = 0;
  long long count = 0;
  if (!(in >> key >> runs) || key != "runs" || runs < 1) return malformed("expected 'runs R' with R >= 1");
  if (!(in >> key >> count) || key != "input" || count != config.problem.input_count())
    return malformed("expected 'input " + std::to_string(config.problem.input_count()) + "', the configuration's count");
  std::vector<double> input(static_cast<size_t>(count));
  for (double& v : input) {
    uint64_t bits = 0;
    if (!(in >> std::hex >> bits)) return malformed("fewer than " + std::to_string(count) + " input values");
    std::memcpy(&v, &bits, sizeof v);
  }
  for (int r = 0; r < runs; ++r) {
    const GpuRun g = run_on_gpu(config.algorithm->info.name, config.problem, input);
    if (!g.ok) {
      out << "error " << one_line(g.error) << "\n";
      break;
    }
    out << "ok " << std::setprecision(9) << g.milliseconds << " " << std::dec << g.output_bits.size() << std::hex;
    for (uint32_t bits : g.output_bits) out << " " << bits;
    out << std::dec << "\n";
  }
  out.flush();
  return 0;
}

}  // namespace syncscope::app
