// The app's GPU runs happen in a child process, `syncscope gpu-child`.
//
// Why: a fault inside a kernel (the seed's as-written axis sum reads past its shared array and,
// from TPB 32 on an H100, dies with "an illegal memory access was encountered") leaves the CUDA
// context unusable for the rest of its process; cudaDeviceReset does not bring it back. In a class
// the teacher toggles exactly those bugs, so each GPU job gets a fresh process: a fault costs that
// job's answer, never the app's GPU. The CLI runs built-in kernels in its own process (one command,
// one process) and sends a kernel file to this child: its host code is the student's, built by nvcc.
//
// The request and answer are plain text on the child's stdin and stdout:
//   request:  "syncscope-gpu-request 2\n" ["kernel PATH\n"] "config JSON\n" "runs R\n" "input COUNT\n"
//             then COUNT doubles as 16 hex digits of their bits. JSON is the configuration in the
//             codec's form (core/config_codec.h) without its input, which the bits carry; the child
//             resolves it as the parent did.
//   answer:   per run "ok MILLISECONDS COUNT" and COUNT 8-hex-digit words, or one "error MESSAGE"
//             line, after which the child stops (its context is gone).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "core/cuda/gpu_runner.h"
#include "core/run.h"

namespace syncscope::app {

// This executable, to start as the child.
std::string own_executable();

// Where `config`'s GPU side runs from the CLI: a kernel file's (the student's code, compiled by
// nvcc) in the child, never in syncscope's process; a built-in kernel's in process.
bool gpu_side_in_child(const RunConfig& config);

// Runs `config` on `input` `runs` times on the GPU in a child started from `executable`. Returns one
// GpuRun per run; the last one carries the error when a run failed or the child died (then fewer).
std::vector<GpuRun> run_on_gpu_in_child(const std::string& executable, const RunConfig& config,
                                        const std::vector<double>& input, int runs, int timeout_seconds = 300);

// `syncscope gpu-child`: answers one request. Exit code 0, or 2 for a malformed request.
int gpu_child_main(std::istream& in, std::ostream& out);

}  // namespace syncscope::app
