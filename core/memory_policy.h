// How syncscope's processes use the C library's heap. A session simulates the same sizes again
// and again (every change in Controls, every save of a kernel file), and a kernel file's outcome
// is decoded from the worker's answer into megabytes of fresh arrays each time: with glibc's
// defaults the arrays freed by one run go back to the system and the next run faults every page
// in again (at n = 2^18 that was half of what the worker's answer cost: 7 ms of 15).
#pragma once

namespace syncscope {

// Blocks below 32 MiB come from the heap, and up to 128 MiB of freed heap stays with the process
// for the next run. Called first thing in main() by syncscope (app, CLI, worker) and the benches.
void keep_freed_memory_for_the_next_run();

}  // namespace syncscope
