// A kernel file's code runs in a worker process (`syncscope worker`, core/worker/worker_main.h),
// never in syncscope's: the GUI and the CLI survive whatever it does. One worker serves one loaded
// library for as long as it is loaded; calls are serialized; a worker that died is started again on
// the next call. A call the worker did not answer comes back as a KernelWorkerDied naming what
// happened and, where the kernel's debug information has it, its line.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "core/registry.h"

namespace syncscope::worker {

struct KernelWorkerDied : std::runtime_error {
  KernelWorkerDied(std::string message, std::vector<sim::LineId> lines, bool cancelled)
      : std::runtime_error(std::move(message)), lines(std::move(lines)), cancelled(cancelled) {}
  std::vector<sim::LineId> lines;  // the kernel's line, when known
  bool cancelled = false;          // the caller's cancel flag stopped it
};

struct WorkerPlaces {
  std::string executable;    // syncscope itself
  std::string library;       // the compiled kernel
  std::string kernel_path;   // the kernel file, as its source locations name it
  std::string empty_folder;  // the worker's working directory
};

class KernelWorker {
 public:
  // Starts the worker and loads the library: the algorithm's entry, whose every function calls the
  // worker, or why it could not load.
  static std::variant<AlgorithmEntry, std::string> load(const WorkerPlaces& places);
  ~KernelWorker();

  CheckResult check(const Problem& p);
  int first_launch_blocks(const Problem& p);
  std::vector<double> reference(const Problem& p, const std::vector<double>& input);
  SimOutcome simulate(const Problem& p, const std::vector<double>& input, const sim::SimOptions& options);

 private:
  explicit KernelWorker(WorkerPlaces places) : places_(std::move(places)) {}
  // The worker's A answer to `request`; throws KernelWorkerDied, or std::runtime_error for an E answer.
  // `progress`: where the worker's P frames go while it simulates (may be null).
  std::string call(char kind, const std::string& request, const sim::RunBudget* budget,
                   sim::RunProgress* progress = nullptr);
  std::string ask_about(char kind, const Problem& p);  // call() with just the problem
  std::string start();  // "" or why not; sends the hello and reads the description
  std::string exchange(char kind, const std::string& request, const sim::RunBudget* budget,
                       sim::RunProgress* progress = nullptr);
  // Buffers of earlier messages, used again (wire.h: fresh memory is what a message costs most);
  // one of more than kMaxSpareBytes is let go rather than kept for the next run.
  std::string take_spare(std::string KernelWorker::*which);
  void keep_spare(std::string KernelWorker::*which, std::string buffer);
  void stop();
  // Waits up to `grace` for the worker to end, then kills it; its wait status. Clears pid_.
  int reap(std::chrono::milliseconds grace);
  [[noreturn]] void died(bool cancelled);

  WorkerPlaces places_;
  std::mutex mutex_;
  int pid_ = -1;
  int request_fd_ = -1, answer_fd_ = -1, output_fd_ = -1, program_fd_ = -1;
  std::string hello_answer_;
  std::string spare_request_, spare_answer_;  // under mutex_
  std::string fault_;  // an F frame's payload, when the worker sent one
  std::string output_tail_;  // the end of what the worker wrote on stderr during this request
  bool starting_ = false;  // between the spawn and the description: a death is a failed start
};

// `syncscope worker`'s path: this executable.
std::string own_executable_path();

// Where a CUDA program's own stdout goes (1, ours, by default; 2 while stdout carries a JSON document).
void send_program_output_to(int fd);

}  // namespace syncscope::worker
