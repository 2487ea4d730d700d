// Where compiled kernel files live, and why syncscope trusts what it finds there. A library in the
// cache is code that will run as the user, so the cache is the user's own: a per-user folder made
// with mode 0700 (XDG_CACHE_HOME, else HOME/.cache, else a private folder for this process — never
// a shared /tmp path), and a library is loaded only if it and every folder of the cache above it
// belong to the user and are writable by no one else (as ssh and gpg check their files).
// A kernel file is read once, as a bounded snapshot: the bytes hashed are the bytes compiled.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

namespace syncscope {

// $XDG_CACHE_HOME/syncscope/kernels, else ~/.cache/syncscope/kernels, else a private folder of
// this process; SYNCSCOPE_CACHE_DIR overrides it. Nothing is created.
std::string kernel_cache_path();
// The kernel cache, created (mode 0700) and checked; or why it cannot be used.
std::variant<std::string, std::string> trusted_kernel_cache();  // index 0: the folder, 1: why not
// "" when `path` (a file or folder in the cache) may be trusted, else why not.
std::string untrusted_because(const std::string& path);
// Removes build folders and copies left behind by syncscope processes that no longer run.
void remove_stale_builds(const std::string& cache);

// FNV-1a, 64 bits, and its hex spelling: a cache key's name, not a defence against anyone (the
// cache's trust comes from its owner and modes).
inline constexpr uint64_t kFnv1aOffset = 14695981039346656037ull;  // FNV's 64-bit offset basis
uint64_t fnv1a(const std::string& text, uint64_t h = kFnv1aOffset);
std::string hex(uint64_t v);
// `text` as a C string literal, quotes and backslashes escaped: a file name in the #line and
// #define lines written before a compiled snapshot.
std::string c_string_literal(const std::string& text);

inline constexpr size_t kMaxKernelFileBytes = size_t{1} << 20;

struct KernelText {
  std::string path;  // absolute
  std::string text;
};
// The file at `path`, read once (core/regular_file.h: FIFOs and devices are refused without
// blocking) of at most kMaxKernelFileBytes, text (no NUL byte, valid UTF-8). Index 1: the
// message, naming the file and, for a bad byte, its line.
std::variant<KernelText, std::string> read_kernel_text(const std::string& path);

}  // namespace syncscope
