// Opening a file the user named (an input's @FILE, a scenario, a layout, saved perf results)
// without trusting the name: only a regular file is opened. A FIFO would block the open or the
// read forever (the window would never come up), a device may never end (/dev/zero) or have side
// effects, and a directory has no contents; each of them is refused with what it is, before any
// byte is read and without waiting.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <variant>

namespace syncscope {

// "is a FIFO, not a file", "is a directory", "is a device, not a file", "is a socket, not a file";
// nullopt for a regular file.
std::optional<std::string> not_a_regular_file(unsigned mode);

// A descriptor open for reading on the regular file at `path`, or why not, without the path:
// "is a FIFO, not a file", "cannot open (No such file or directory)". The file is examined
// before it is opened (stat) and again once open (fstat, in case it was swapped in between), and
// it is opened with O_NONBLOCK, so nothing here waits. The caller closes the descriptor.
std::variant<int, std::string> open_regular_file(const std::string& path);

// The whole regular file, or why not, without the path: what open_regular_file says, or
// "is 12.5 MB; at most 10.0 MB is read", "cannot read (Input/output error)".
std::variant<std::string, std::string> read_regular_file(const std::string& path, size_t max_bytes);

// "12.5 MB": a size as the messages above write it.
std::string megabytes(size_t bytes);

}  // namespace syncscope
