// Results panel: CPU reference, simulator and GPU side by side, element by element, with the
// verdicts and the GPU's status (its device, or why no GPU is usable, in the driver's words).
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "app/state/workers.h"
#include "core/run.h"

namespace syncscope::app {

struct ResultRowView {
  int index = 0;
  std::string cpu, sim, gpu;
  bool sim_differs = false;          // from the CPU reference
  bool gpu_differs = false;          // from the CPU reference
  bool gpu_differs_from_sim = false;  // bit for bit
};

struct ResultsModel {
  int row_count = 0;                 // one per output element
  std::vector<ResultRowView> rows;  // those asked for
  std::string sim_verdict;  // "simulator = CPU reference" / "simulator: 3 of 8 elements differ"
  std::string gpu_verdict;  // "GPU = simulator, bit for bit" / ...
  std::string gpu_status;   // "GPU: NVIDIA H100 ... (sm_90), 0.012 ms" / "GPU unavailable: <reason>" / "GPU: running…"
  bool sim_ok = false;
  bool gpu_ok = false;
  bool has_gpu_column = false;
  bool can_run_gpu = true;  // false for a .cu program (the CLI's --gpu runs it)
};

// gpu: the answer for this very run, if any; running: a GPU job is under way. Rows are made for
// elements [first_row, first_row + rows): a frame formats only those it shows (n reaches 2^24).
ResultsModel build_results(const RunResult& run, const GpuAnswer* gpu, bool running, const GpuStatus* status,
                           int first_row = 0, int rows = std::numeric_limits<int>::max());
std::vector<ResultRowView> result_rows(const RunResult& run, const GpuAnswer* gpu, int first_row, int end_row);

}  // namespace syncscope::app
