// A run as Chrome / Perfetto trace-event JSON (opens in ui.perfetto.dev and chrome://tracing):
// one process per launch, one track per warp of each recorded block, one slice per step (named by
// its caption, else its barrier) and an instant event per access in the order the schedule ran
// them. Time is the schedule's order, not a clock: 1 µs per operation.
#pragma once

#include <nlohmann/json.hpp>

#include "core/run.h"

namespace syncscope::app {

nlohmann::json perfetto_trace(const RunResult& run);

}  // namespace syncscope::app
