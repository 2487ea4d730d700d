// Every file the app writes (scenarios, traces, screenshots, hand-outs, perf results) is written
// through here: to a temporary file in the target's folder, flushed to the disk, then renamed over
// the target. A reader sees the old file or the new one, never half of one, and a write that fails
// (a full disk, a file-size limit, a folder without write permission) leaves the old file as it was.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace syncscope {

// nullopt, or why not, naming the target (never the temporary file) and the reason in the
// system's words: "out.png: cannot write (No space left on device)". A new file gets the usual
// permissions (0666 less the umask); a file written over keeps its own.
std::optional<std::string> write_file_atomically(const std::string& path, std::string_view bytes);

}  // namespace syncscope
