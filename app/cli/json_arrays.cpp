#include "app/cli/json_arrays.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "sim/memory.h"

namespace syncscope::cli {

using nlohmann::json;

namespace {

constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ull;

// FNV-1a, 64 bits, over a word's four bytes, little-endian.
uint64_t fnv1a64_add(uint64_t hash, uint32_t word) {
  for (int byte = 0; byte < 4; ++byte) {
    hash ^= (word >> (8 * byte)) & 0xffu;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

}  // namespace

json element_json(DType t, uint32_t bits, bool poison) {
  if (poison) return nullptr;
  if (t == DType::Int32) return sim::from_bits<int32_t>(bits);
  return sim::from_bits<float>(bits);
}

namespace {

// A value of an input or a reference as the document shows it (float32 rounds, int32 is whole).
json number_json(DType t, double x) {
  if (t == DType::Int32) return static_cast<int64_t>(x);
  return static_cast<float>(x);
}

// {"length", "first", "last", "hash"}: `element(i)` is element i's JSON, `word(i)` its bits.
template <class Element, class Word>
json summary(size_t length, Element element, Word word) {
  json first = json::array(), last = json::array();
  for (size_t i = 0; i < std::min(length, kSummaryEnds); ++i) first.push_back(element(i));
  for (size_t i = length - std::min(length, kSummaryEnds); i < length; ++i) last.push_back(element(i));
  uint64_t hash = kFnvOffset;
  for (size_t i = 0; i < length; ++i) hash = fnv1a64_add(hash, word(i));
  char text[32];
  std::snprintf(text, sizeof text, "fnv1a64:%016llx", static_cast<unsigned long long>(hash));
  return {{"length", length}, {"first", std::move(first)}, {"last", std::move(last)}, {"hash", text}};
}

// Output written as it is made, a megabyte at a time. Values are written by nlohmann's own
// serializer (as dump() writes them, byte for byte) straight into the buffer: a string per element
// cost --full-arrays 25 % more CPU than the whole document in one string did.
class Chunked {
 public:
  // A printed string may hold any bytes: what is not UTF-8 becomes U+FFFD, not an exception.
  explicit Chunked(std::ostream& out)
      : out_(out), values_(nlohmann::detail::output_adapter<char>(text_), ' ', json::error_handler_t::replace) {
    text_.reserve(kFlushAt + 4096);
  }
  ~Chunked() { flush(); }
  Chunked& operator<<(const std::string& s) {
    text_ += s;
    if (text_.size() >= kFlushAt) flush();
    return *this;
  }
  Chunked& operator<<(char c) {
    text_ += c;
    return *this;
  }
  void value(const json& j) {
    values_.dump(j, false, false, 0);
    if (text_.size() >= kFlushAt) flush();
  }
  void indent(int depth) { text_.append(static_cast<size_t>(depth), ' '); }
  void flush() {
    out_.write(text_.data(), static_cast<std::streamsize>(text_.size()));
    text_.clear();
  }

 private:
  static constexpr size_t kFlushAt = size_t{1} << 20;
  std::ostream& out_;
  std::string text_;
  nlohmann::detail::serializer<json> values_;  // appends to text_
};

}  // namespace

json JsonArrays::placeholder(Streamed array) {
  streamed_.push_back(array);
  // A binary value: nothing else in a report is one, so it cannot be mistaken for data.
  return json::binary({}, static_cast<std::uint64_t>(streamed_.size() - 1));
}

json JsonArrays::bits(DType t, const std::vector<uint32_t>& bits, const std::vector<uint8_t>& poison,
                      const std::vector<int>& differing) {
  auto element = [&](size_t i) { return element_json(t, bits[i], !poison.empty() && poison[i]); };
  if (detail_ == ArrayDetail::Whole || bits.size() <= kWholeArrayLimit) {
    json a = json::array();
    for (size_t i = 0; i < bits.size(); ++i) a.push_back(element(i));
    return a;
  }
  // No poison is often a temporary `{}`: not kept.
  if (detail_ == ArrayDetail::Streamed) return placeholder({t, &bits, poison.empty() ? nullptr : &poison, nullptr});
  json s = summary(bits.size(), element, [&](size_t i) { return bits[i]; });
  s["poisoned"] = std::count_if(poison.begin(), poison.end(), [](uint8_t p) { return p != 0; });
  s["differing_indices"] = differing;
  return s;
}

json JsonArrays::elements(size_t length, const std::function<json(size_t)>& element, const std::function<uint32_t(size_t)>& word) {
  if (detail_ != ArrayDetail::Summary || length <= kWholeArrayLimit) {
    json a = json::array();
    for (size_t i = 0; i < length; ++i) a.push_back(element(i));
    return a;
  }
  return summary(length, element, word);
}

json JsonArrays::numbers(DType t, const std::vector<double>& values) {
  if (detail_ == ArrayDetail::Whole || values.size() <= kWholeArrayLimit) {
    json a = json::array();
    for (double x : values) a.push_back(number_json(t, x));
    return a;
  }
  if (detail_ == ArrayDetail::Streamed) return placeholder({t, nullptr, nullptr, &values});
  return summary(
      values.size(), [&](size_t i) { return number_json(t, values[i]); },
      [&](size_t i) { return sim::double_to_bits(t, values[i]); });
}

namespace {

// dump(1)'s layout: one space of indent a level, "key": value, empty containers as {} and [].
template <class Streamer>
void write_value(Chunked& out, const json& j, int depth, Streamer& stream) {
  if (j.is_binary()) return stream(out, j.get_binary().subtype(), depth);
  const bool object = j.is_object();
  if (!object && !j.is_array()) {
    out.value(j);
    return;
  }
  if (j.empty()) {
    out << (object ? "{}" : "[]");
    return;
  }
  out << (object ? "{\n" : "[\n");
  bool first = true;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!first) out << ",\n";
    first = false;
    out.indent(depth + 1);
    if (object) {
      out.value(it.key());
      out << ": ";
    }
    write_value(out, *it, depth + 1, stream);
  }
  out << '\n';
  out.indent(depth);
  out << (object ? '}' : ']');
}

}  // namespace

void JsonArrays::write(std::ostream& out, const json& doc) const {
  auto stream = [&](Chunked& to, uint64_t which, int depth) {
    const Streamed& a = streamed_.at(which);
    const size_t length = a.bits ? a.bits->size() : a.numbers->size();
    to << "[\n";
    for (size_t i = 0; i < length; ++i) {
      to.indent(depth + 1);
      to.value(a.bits ? element_json(a.dtype, (*a.bits)[i], a.poison && (*a.poison)[i]) : number_json(a.dtype, (*a.numbers)[i]));
      to << (i + 1 < length ? ",\n" : "\n");
    }
    to.indent(depth);
    to << ']';
  };
  Chunked chunked(out);
  write_value(chunked, doc, 0, stream);
}

}  // namespace syncscope::cli
