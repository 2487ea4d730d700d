// Which source line a machine instruction of a kernel belongs to: the watchdog interrupts a thread
// that never calls the kernel API, a kernel faults or calls abort(), and the student wants the line,
// not an address. Read from the object's own debug information with elfutils' libdw (kernel files
// are compiled with line tables); no other process runs (the kernel worker may not start one).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace syncscope::sim {

struct CodeLine {
  std::string file;  // as the debug information names it (a kernel file: its absolute path)
  uint32_t line = 0;
  std::string text() const;  // "runaway_kernel.h:33": the file's last component
};

// The line of the instruction at `offset` from where `object` (a shared library or executable)
// is loaded. Inlined calls are followed outwards to the first line outside the simulator's own
// headers and the standard library: the kernel API is inlined into the kernel, and the line wanted
// is the kernel's. nullopt without debug information (or without libdw in this build).
std::optional<CodeLine> line_in_object(const std::string& object, uintptr_t offset);

// The same for an address of this process (dladdr finds its object).
std::optional<CodeLine> line_of_code_address(uintptr_t pc);

// Where a signal interrupted a kernel: the instruction, then the return addresses of the frames
// around it, read from the frame-pointer chain (0: none). A build that inlines little (the
// sanitizers' -O1) can be interrupted inside an out-of-line piece of the simulator; the kernel's
// line is then found at the call into it.
struct InterruptedCode {
  static constexpr int kCallers = 4;
  uintptr_t pc = 0;
  uintptr_t return_addresses[kCallers] = {};
};
// The first kernel line of pc, then of each caller; else pc's own line (the simulator's).
std::optional<CodeLine> line_of_interrupted_code(const InterruptedCode& code);
std::string describe_interrupted_code(const InterruptedCode& code);
// The first kernel line among `count` stack words read as return addresses (words that are no
// code address give none): a stack overflow inside the simulator's own code, whose frames break
// the frame-pointer chain, still names the recursion's line.
std::optional<CodeLine> kernel_line_among_returns(const uintptr_t* words, int count);
// line_of_code_address(pc)->text(), or "".
std::string describe_code_address(uintptr_t pc);

}  // namespace syncscope::sim
