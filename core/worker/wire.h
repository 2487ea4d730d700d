// The bytes between syncscope and its kernel worker (core/worker/kernel_worker.h): fixed-width
// little-endian numbers, length-prefixed strings and arrays. The reader trusts nothing: every
// length is checked against what is left, every enum against its range, and a short or malformed
// message is a WireError, never a read past the end (fuzzed: tests/fuzz/fuzz_worker_answer.cpp).
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace syncscope::worker {

struct WireError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class WireWriter {
 public:
  // A writer that keeps nothing and counts: a message written to it first tells how long it will
  // be, so the real one is reserved at once (a trace is megabytes: no string grown by doubling).
  WireWriter() = default;
  // Writes into the buffer of an earlier message: a trace is megabytes, and memory already
  // touched costs no page faults (fresh memory was most of what the pipe cost at n = 2^18).
  explicit WireWriter(std::string reuse) : out_(std::move(reuse)) { out_.clear(); }
  static WireWriter counting() {
    WireWriter w;
    w.counting_ = true;
    return w;
  }

  template <class T>
    requires std::is_arithmetic_v<T> || std::is_enum_v<T>
  void put(T v) {
    char bytes[sizeof(T)];
    std::memcpy(bytes, &v, sizeof(T));
    append(bytes, sizeof(T));
  }
  void put(bool v) { put<uint8_t>(v ? 1 : 0); }
  void put(std::string_view s) {
    put<uint64_t>(s.size());
    append(s.data(), s.size());
  }
  void put(const std::string& s) { put(std::string_view(s)); }
  template <class T>
    requires std::is_arithmetic_v<T>
  void put(const std::vector<T>& v) {
    put<uint64_t>(v.size());
    append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  // Bytes as they are, no length: a record of fixed size the reader takes back with get_raw.
  void put_raw(std::string_view bytes) { append(bytes.data(), bytes.size()); }
  // Room for `size` bytes at the end, for the caller to fill; nullptr when only counting.
  char* grow(size_t size) {
    if (counting_) {
      counted_ += size;
      return nullptr;
    }
    const size_t at = out_.size();
    out_.resize(at + size);
    return out_.data() + at;
  }
  void reserve(size_t bytes) {
    if (!counting_) out_.reserve(bytes);
  }
  size_t size() const { return counting_ ? counted_ : out_.size(); }
  size_t capacity() const { return counting_ ? 0 : out_.capacity(); }
  const std::string& bytes() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  void append(const char* data, size_t size) {
    if (counting_) counted_ += size;
    else out_.append(data, size);
  }
  std::string out_;
  bool counting_ = false;
  size_t counted_ = 0;
};

class WireReader {
 public:
  explicit WireReader(std::string_view bytes) : at_(bytes.data()), end_(bytes.data() + bytes.size()) {}
  explicit WireReader(std::string&&) = delete;  // it reads in place: the bytes must outlive it

  template <class T>
    requires std::is_arithmetic_v<T>
  T get() {
    need(sizeof(T));
    T v;
    std::memcpy(&v, at_, sizeof(T));
    at_ += sizeof(T);
    return v;
  }
  bool get_bool() {
    const auto v = get<uint8_t>();
    if (v > 1) throw WireError("a flag is " + std::to_string(v));
    return v == 1;
  }
  // An enum stored as a byte: `last` is its largest enumerator.
  template <class E>
    requires std::is_enum_v<E>
  E get_enum(E last) {
    const auto v = get<uint8_t>();
    if (v > static_cast<uint8_t>(last)) throw WireError("an enumerator is " + std::to_string(v));
    return static_cast<E>(v);
  }
  std::string get_string() {
    const uint64_t size = get_count(1);
    std::string s(at_, size);
    at_ += size;
    return s;
  }
  template <class T>
    requires std::is_arithmetic_v<T>
  std::vector<T> get_vector() {
    const uint64_t count = get_count(sizeof(T));
    // Zeroed, then copied over in one memcpy: 0.07 ms a MiB here, where a loop of push_back (a
    // message's bytes have no alignment for a range of T*) took 0.2.
    std::vector<T> v(count);
    if (count) std::memcpy(v.data(), at_, count * sizeof(T));
    at_ += count * sizeof(T);
    return v;
  }
  // The next `size` bytes, in place (records of a fixed size, read field by field by the caller).
  std::string_view get_raw(size_t size) {
    need(size);
    const std::string_view bytes(at_, size);
    at_ += size;
    return bytes;
  }
  // A count of items of at least `min_bytes` each: no more than what is left can hold.
  uint64_t get_count(size_t min_bytes) {
    const auto count = get<uint64_t>();
    if (min_bytes > 0 && count > left() / min_bytes) throw WireError("a count of " + std::to_string(count) + " runs past the message");
    return count;
  }
  size_t left() const { return static_cast<size_t>(end_ - at_); }
  void expect_end() const {
    if (at_ != end_) throw WireError(std::to_string(left()) + " bytes left over");
  }

 private:
  void need(size_t n) const {
    if (left() < n) throw WireError("the message ends early");
  }
  const char* at_;
  const char* end_;
};

}  // namespace syncscope::worker
