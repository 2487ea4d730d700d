// Peak resident memory of one command, per element of its input: the child's ru_maxrss from
// wait4 (getrusage of the child alone), so what is counted is that process's own high-water mark.
//   syncscope_peak_memory ELEMENTS [--budget BYTES] -- COMMAND [ARGS...]
// Exits 1 when a budget is given and the command used more bytes an element, else the command's
// own exit status.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
  auto usage = [] {
    std::fprintf(stderr, "usage: syncscope_peak_memory ELEMENTS [--budget BYTES] -- COMMAND [ARGS...]\n");
    return 2;
  };
  if (argc < 4) return usage();
  const double elements = std::strtod(argv[1], nullptr);
  double budget = 0;
  int k = 2;
  if (std::strcmp(argv[k], "--budget") == 0 && k + 1 < argc) {
    budget = std::strtod(argv[k + 1], nullptr);
    k += 2;
  }
  if (k >= argc || std::strcmp(argv[k], "--") != 0 || k + 1 >= argc || elements <= 0) return usage();
  char** command = argv + k + 1;
  std::string shown;
  for (char** w = command; *w; ++w) shown += (shown.empty() ? "" : " ") + std::string(*w);

  const pid_t child = fork();
  if (child < 0) {
    std::perror("fork");
    return 2;
  }
  if (child == 0) {
    if (!std::freopen("/dev/null", "w", stdout)) _exit(127);  // the report is not what is measured
    execvp(command[0], command);
    std::fprintf(stderr, "cannot run %s: %s\n", command[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  rusage usage_of_child{};
  while (wait4(child, &status, 0, &usage_of_child) < 0) {
    if (errno != EINTR) {
      std::perror("wait4");
      return 2;
    }
  }
  const double bytes = static_cast<double>(usage_of_child.ru_maxrss) * 1024.0;  // Linux: kilobytes
  const double per_element = bytes / elements;
  const double seconds = static_cast<double>(usage_of_child.ru_utime.tv_sec + usage_of_child.ru_stime.tv_sec) +
                         (usage_of_child.ru_utime.tv_usec + usage_of_child.ru_stime.tv_usec) / 1e6;
  std::printf("%-60s peak RSS %7.1f MB, %6.1f bytes/element (CPU %.1f s)%s\n", shown.c_str(), bytes / 1e6, per_element,
              seconds, budget > 0 ? (per_element <= budget ? "  within budget" : "  OVER BUDGET") : "");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "%s: exit status %d\n", shown.c_str(), WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  }
  return budget > 0 && per_element > budget ? 1 : 0;
}
