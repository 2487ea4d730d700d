// Which source line a machine instruction of a kernel belongs to: the watchdog interrupts a thread
// that never calls the kernel API, and the student wants the line it was stuck on, not an address.
#pragma once

#include <cstdint>
#include <string>

namespace syncscope::sim {

// "runaway_kernel.h:33" from the debug information of the object holding `pc` (kernel files are
// compiled with line tables), or "" when it has none or addr2line is missing.
std::string describe_code_address(uintptr_t pc);

}  // namespace syncscope::sim
