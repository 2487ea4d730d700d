// `syncscope run --json`'s arrays of elements (input, output, expected, the GPU's, the race lab's
// outputs, shared memory in --steps). At 2^24 elements whole arrays made a 755 MB document that took
// 3.94 GB to build, so an array longer than kWholeArrayLimit is summarized:
//   {"length", "first": [16 elements], "last": [16 elements], "hash": "fnv1a64:<16 hex digits>" (FNV-1a,
//    64 bits, over each element's int32 or float32 pattern, 4 bytes little-endian),
//    "poisoned" (output arrays: elements never written, null when whole),
//    "differing_indices" (where a comparison exists: the first 64 that differ)}
// and with --full-arrays it is written whole, element by element, straight to the output (the
// document around it is small; no string of the whole is ever made).
#pragma once

#include <cstdint>
#include <ostream>
#include <functional>
#include <vector>

#include <nlohmann/json.hpp>

#include "contract/dtype.h"

namespace syncscope::cli {

inline constexpr size_t kWholeArrayLimit = 4096;  // elements; longer arrays are summarized
inline constexpr size_t kSummaryEnds = 16;        // elements kept from each end

// One element as JSON: an int32 or float32 value, null for a poisoned one.
nlohmann::json element_json(DType t, uint32_t bits, bool poison);

enum class ArrayDetail {
  Whole,     // every array whole, in the document (run_json's callers in this process)
  Summary,   // long arrays summarized (run --json)
  Streamed,  // long arrays whole, written by write() element by element (run --json --full-arrays)
};

class JsonArrays {
 public:
  explicit JsonArrays(ArrayDetail detail = ArrayDetail::Whole) : detail_(detail) {}

  // The array's JSON: itself, its summary, or a placeholder write() fills in. Streamed arrays are
  // read when write() runs: they must live until then. `differing`: where a comparison found the
  // elements different (listed in a summary).
  nlohmann::json bits(DType t, const std::vector<uint32_t>& bits, const std::vector<uint8_t>& poison,
                      const std::vector<int>& differing = {});
  nlohmann::json numbers(DType t, const std::vector<double>& values);
  // An array of `length` elements that take several cells each (a struct's object, an 8-byte number:
  // sim/element_layout.h), `element(i)` its JSON and `word(i)` a 32-bit digest of its cells: whole, or
  // summarized like any long array (streamed arrays are written whole too: a block's shared memory
  // is small).
  nlohmann::json elements(size_t length, const std::function<nlohmann::json(size_t)>& element,
                          const std::function<uint32_t(size_t)>& word);

  // `doc` as dump(1) writes it, each placeholder replaced by its whole array.
  void write(std::ostream& out, const nlohmann::json& doc) const;

 private:
  struct Streamed {
    DType dtype;
    const std::vector<uint32_t>* bits = nullptr;  // or
    const std::vector<uint8_t>* poison = nullptr;  // null: none poisoned
    const std::vector<double>* numbers = nullptr;
  };
  nlohmann::json placeholder(Streamed array);
  ArrayDetail detail_;
  std::vector<Streamed> streamed_;
};

}  // namespace syncscope::cli
