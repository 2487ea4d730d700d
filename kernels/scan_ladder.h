// The scan ladder, from the class's scan to what CUB does. Rung 1 is hierarchical-scan
// (kernels/hierarchical_scan.h: Kogge-Stone per block, then scan the block sums, then add). Rung 2
// keeps that structure with a work-efficient Brent-Kung block scan whose shared-memory indices are
// padded against bank conflicts. Rung 3 reduces first and scans second, with warp shuffles and
// 16-byte loads (about 3n elements of traffic); rung 4 does it in one pass with decoupled
// look-back (Merrill & Garland, about 2n). Every rung is an inclusive scan of the whole input.
#pragma once

#include <string>

#include "contract/kernel_api.h"
#include "kernels/algorithm.h"
#include "kernels/reference.h"
#include "kernels/warp_primitives.h"

namespace syncscope::kernels {

// ---- rung 2: Brent-Kung with padding ----

// One padding word after every 32 (and one more after every 1024): a stride-2^k tree index then
// lands in a different bank for every lane of a warp.
SYNCSCOPE_HOST_DEVICE constexpr int conflict_free(int i) { return i + (i >> 5) + (i >> 10); }

// Each block scans 2·blockDim elements in shared memory with Blelloch's two sweeps: the up-sweep
// builds partial sums at strides 1, 2, 4, ...; the root is cleared; the down-sweep swaps and adds
// back down, leaving each cell the sum of the cells before it. Adding the thread's own two
// elements makes it inclusive. Both sweeps touch the same index pairs (stride·(2t+1)−1,
// stride·(2t+2)−1), which the padding keeps in distinct banks.
struct BrentKungPaddedKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, Array block_sums, int n) const {
    using T = value_of<Array>;
    const int threads = c.block_dim().x, section = 2 * threads;
    auto s = shared_array<T>(c, conflict_free(section - 1) + 1, "s");
    const int t = c.thread_idx().x;
    const int base = c.block_idx().x * section;
    c.caption("load: thread t copies x[t] and x[t + blockDim] of its section (padded indices)");
    const T first = base + t < n ? T(x[base + t]) : T(0);
    const T second = base + t + threads < n ? T(x[base + t + threads]) : T(0);
    s[conflict_free(t)] = first;
    s[conflict_free(t + threads)] = second;
    for (int stride = 1; stride < section; stride *= 2) {
      c.sync();
      c.caption("up-sweep, stride %d: s[%d(2t+2)-1] += s[%d(2t+1)-1]", stride, stride, stride);
      const int left = stride * (2 * t + 1) - 1, right = stride * (2 * t + 2) - 1;
      if (right < section) s[conflict_free(right)] += s[conflict_free(left)];
    }
    c.sync();
    c.caption("the root holds the section's total: thread 0 keeps it and clears the root");
    if (t == 0) {
      block_sums[c.block_idx().x] = s[conflict_free(section - 1)];
      s[conflict_free(section - 1)] = T(0);
    }
    for (int stride = section / 2; stride > 0; stride /= 2) {
      c.sync();
      c.caption("down-sweep, stride %d: swap s[%d(2t+1)-1] and s[%d(2t+2)-1], adding the left one to the right", stride,
                stride, stride);
      const int left = stride * (2 * t + 1) - 1, right = stride * (2 * t + 2) - 1;
      if (right < section) {
        const T from_left = s[conflict_free(left)];
        s[conflict_free(left)] = s[conflict_free(right)];
        s[conflict_free(right)] += from_left;
      }
    }
    c.sync();
    c.caption("store: each cell holds the sum before it; thread t adds its own two elements");
    if (base + t < n) y[base + t] = s[conflict_free(t)] + first;
    if (base + t + threads < n) y[base + t + threads] = s[conflict_free(t + threads)] + second;
  }
};

// Adds to every element of section b the scanned total of sections 0..b-1.
struct AddSectionOffsetsKernel {
  int section = 0;
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array y, Array scanned_sums, int n) const {
    c.caption("add: every element gets the scanned total of the sections before its own");
    const int b = c.block_idx().x;
    if (b == 0) return;
    const auto offset = value_of<Array>(scanned_sums[b - 1]);
    for (int i = b * section + c.thread_idx().x; i < (b + 1) * section && i < n; i += c.block_dim().x)
      y[i] += offset;
  }
};

// ---- rungs 3 and 4: tiles of 4·Chunks elements per thread, warp-striped 16-byte loads ----

inline constexpr int kScanChunks = 4;        // rung 3's 16-byte chunks per thread: 16 elements
// Rung 4's tile and wait, chosen from n (measured on the H100 beside CUB, 2^20..2^28, int32 and
// float32). Below 2^22 elements, 16 a thread: at 32 a 2^20 scan would be 64 tiles of 512 threads
// for 132 SMs, at 16 it is 128. The wait after publishing is how long the tiles just before have
// yet to go before they publish too: short while all or most tiles run at once, longer when
// thousands queue for the SMs (0 ns: 91-97 % of CUB at 2^25..2^28; 2.5 us there: 103-111 %, but
// 83-92 % at 2^21..2^22).
struct LookbackShape {
  int chunks;  // 16-byte chunks per thread
  unsigned wait_ns;
};
SYNCSCOPE_HOST_DEVICE constexpr LookbackShape lookback_shape(int n) {
  if (n < (1 << 22)) return {4, 500};
  if (n < (1 << 25)) return {8, 1000};
  return {8, 2500};
}

// A tile is 4·Chunks·blockDim elements. Each warp covers 128·Chunks consecutive elements in Chunks
// rounds of 128; in round k lane l holds elements warp_start + 128k + 4l .. +3, so each round's
// load is one coalesced 512-byte access of the warp.
template <int Chunks>
SYNCSCOPE_HOST_DEVICE constexpr int scan_tile_elements(int threads) { return threads * 4 * Chunks; }

template <int Chunks, class Ctx>
SYNCSCOPE_DEVICE int scan_chunk_start(Ctx& c, int tile, int chunk) {
  const int t = c.thread_idx().x;
  const int warp_start = tile * scan_tile_elements<Chunks>(c.block_dim().x) + (t / kWarpSize) * kWarpSize * 4 * Chunks;
  return warp_start + chunk * kWarpSize * 4 + (t % kWarpSize) * 4;
}

template <class Ctx, class Array>
SYNCSCOPE_DEVICE Vec4<value_of<Array>> load_chunk(Ctx& c, Array x, int i, int n) {
  using T = value_of<Array>;
  if (i + 3 < n) return c.load_vec4(x, i);
  Vec4<T> v{T(0), T(0), T(0), T(0)};
  if (i < n) v.x = x[i];
  if (i + 1 < n) v.y = x[i + 1];
  if (i + 2 < n) v.z = x[i + 2];
  return v;
}

template <class Ctx, class Array>
SYNCSCOPE_DEVICE void store_chunk(Ctx& c, Array y, int i, int n, Vec4<value_of<Array>> v) {
  if (i + 3 < n) return c.store_vec4(y, i, v);
  if (i < n) y[i] = v.x;
  if (i + 1 < n) y[i + 1] = v.y;
  if (i + 2 < n) y[i + 2] = v.z;
}

template <class T>
SYNCSCOPE_DEVICE void add_to_each(Vec4<T>& v, T amount) {
  v.x += amount;
  v.y += amount;
  v.z += amount;
  v.w += amount;
}

// This thread's chunks of `tile`, and their store after the scan, plus `before`.
template <class Ctx, class Array, int Chunks>
SYNCSCOPE_DEVICE void load_tile(Ctx& c, Array x, int tile, int n, Vec4<value_of<Array>> (&v)[Chunks]) {
  for (int k = 0; k < Chunks; ++k) v[k] = load_chunk(c, x, scan_chunk_start<Chunks>(c, tile, k), n);
}
template <class Ctx, class Array, int Chunks>
SYNCSCOPE_DEVICE void store_tile(Ctx& c, Array y, int tile, int n, Vec4<value_of<Array>> (&v)[Chunks],
                                 value_of<Array> before) {
  for (int k = 0; k < Chunks; ++k) {
    add_to_each(v[k], before);
    store_chunk(c, y, scan_chunk_start<Chunks>(c, tile, k), n, v[k]);
  }
}

// Each warp's part of the tile scanned in registers, and the part's total (every lane gets it):
// each round is a scan of four in a thread, then a shuffle scan of the lanes' totals. No barrier.
template <class Ctx, class T, int Chunks>
SYNCSCOPE_DEVICE T scan_warp_part(Ctx& c, Vec4<T> (&v)[Chunks]) {
  T carry = T(0);  // the warp's earlier rounds
  for (int k = 0; k < Chunks; ++k) {
    v[k].y += v[k].x;
    v[k].z += v[k].y;
    v[k].w += v[k].z;
    const WarpScan<T> lanes = warp_scan(c, v[k].w);
    add_to_each(v[k], lanes.exclusive + carry);
    carry += c.shfl_idx(lanes.inclusive, kWarpSize - 1);
  }
  return carry;
}

// The tile's inclusive scan, left in `v` without what comes before the tile, and the tile's total:
// the warps' parts, then the first warp scans the warp totals (two barriers).
template <class Ctx, class T, int Chunks, class Shared>
SYNCSCOPE_DEVICE T scan_tile_in_registers(Ctx& c, Vec4<T> (&v)[Chunks], Shared warp_sums) {
  const WarpTotalsScan<T> warps = scan_warp_totals(c, scan_warp_part(c, v), warp_sums);
  for (int k = 0; k < Chunks; ++k) add_to_each(v[k], warps.before);
  return warps.total;
}

// Rung 3, pass 1: each tile's sum.
struct TileSumKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array tile_sums, int n) const {
    using T = value_of<Array>;
    auto warp_sums = shared_array<T, kWarpSize>(c, "warp_sums");
    c.caption("reduce: each tile's sum, 16-byte loads and shuffles (pass 1 reads n)");
    T sum = T(0);
    for (int k = 0; k < kScanChunks; ++k) {
      const Vec4<T> v = load_chunk(c, x, scan_chunk_start<kScanChunks>(c, c.block_idx().x, k), n);
      sum += v.x + v.y + v.z + v.w;
    }
    sum = block_sum(c, sum, warp_sums);
    c.caption("the first warp adds up the warp sums; thread 0 writes the tile's sum to tile_sums[tile]");
    if (c.thread_idx().x == 0) tile_sums[c.block_idx().x] = sum;
  }
};

// Rung 3, pass 3 (and pass 2 when the tile sums fit one tile): scans each tile and adds the scanned
// sums of the tiles before it.
struct ScanTileKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, Array scanned_tile_sums, int n) const {
    using T = value_of<Array>;
    auto warp_sums = shared_array<T, kWarpSize>(c, "warp_sums");
    const int tile = c.block_idx().x;
    c.caption("scan: each tile again, plus the scanned sums of the tiles before it (pass 3 reads n, writes n)");
    Vec4<T> v[kScanChunks];
    load_tile(c, x, tile, n, v);
    scan_tile_in_registers(c, v, warp_sums);
    store_tile(c, y, tile, n, v, tile > 0 ? T(scanned_tile_sums[tile - 1]) : T(0));
  }
};

// Rung 4: one pass. A block takes the next tile number and scans its tile in registers. The first
// warp scans the warp totals, publishes the tile's sum (status "aggregate") and looks back over
// the tiles before it, 32 at a time, adding aggregates until it meets a tile that published its
// inclusive prefix (status "inclusive"); then it publishes its own inclusive prefix. Tile numbers
// are handed out in the order blocks start, so a block only ever waits for blocks already running.
// A tile's status and value are one 8-byte pair (tile_states[2·tile], [2·tile + 1]), published and
// read by one atomic each: a reader never sees a status without its value, so no fence is needed
// and one load per tile suffices. The other warps wait at one barrier for both the warp totals and
// the look-back, so the tile's sum is out one barrier sooner than a block scan would have it. After
// publishing, the first warp sleeps `wait_ns` before its first look: by then the tiles just before
// it have mostly published too, and the look-back costs a poll or two instead of dozens.
// Nothing needs clearing between runs: `tiles_taken` holds the next tile number and the run's
// number. The block that takes the last tile sets the first back to 0, and advances the second
// once its look-back is over (every tile has then published, so read the number). A status is
// stamped with its run (2·run + 1 aggregate, 2·run + 2 inclusive), so a state an earlier run left
// reads as "not published yet".
template <int Chunks>
struct DecoupledLookbackKernel {
  unsigned wait_ns = 0;
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, Array tiles_taken, Array tile_states, int n) const {
    using T = value_of<Array>;
    auto warp_sums = shared_array<T, kWarpSize>(c, "warp_sums");
    auto tile_run_prefix = shared_array<T, 3>(c, "tile_run_prefix");
    const int t = c.thread_idx().x, lane = t % kWarpSize, warp = t / kWarpSize, warps = c.block_dim().x / kWarpSize;
    c.caption("tile number: thread 0 reads the run's number and takes the next tile with atomicAdd");
    if (t == 0) {
      const T tile = c.atomic_add(tiles_taken[0], T(1));
      tile_run_prefix[0] = tile;
      tile_run_prefix[1] = c.atomic_load(tiles_taken[1]);
      if (whole_number(tile) == c.grid_dim().x - 1) c.atomic_store(tiles_taken[0], T(0));  // every number is taken
    }
    c.sync();
    const int tile = whole_number(T(tile_run_prefix[0])), last_tile = c.grid_dim().x - 1;
    const T aggregate_status = T(2) * T(tile_run_prefix[1]) + T(1), inclusive_status = aggregate_status + T(1);
    c.caption("scan: each warp scans its part of the tile in registers (16-byte loads, shuffles)");
    Vec4<T> v[Chunks];
    load_tile(c, x, tile, n, v);
    const T warp_total = scan_warp_part(c, v);
    if (lane == 0) warp_sums[warp] = warp_total;
    c.sync();
    if (warp == 0) {
      c.caption("look-back: the first warp sums the warps, publishes the tile's sum, adds earlier tiles' sums");
      const T aggregate = c.shfl_idx(scan_warp_sums_in_first_warp<T>(c, warp_sums), warps - 1);
      T exclusive = T(0);
      if (tile == 0) {
        if (t == 0) c.atomic_store_pair(tile_states, 0, {inclusive_status, aggregate});
      } else {
        if (t == 0) c.atomic_store_pair(tile_states, 2 * tile, {aggregate_status, aggregate});
        c.nanosleep(wait_ns);
        for (int last = tile - 1;; last -= kWarpSize) {
          const int p = last - lane;
          Pair<T> state{inclusive_status, T(0)};
          if (p >= 0) state = c.atomic_load_pair(tile_states, 2 * p);
          while (c.any(state.first < aggregate_status))
            if (state.first < aggregate_status) state = c.atomic_load_pair(tile_states, 2 * p);
          const unsigned done = c.ballot(state.first == inclusive_status);
          const int first_done = done ? popc((done & (0u - done)) - 1) : kWarpSize;
          const T value = lane > first_done ? T(0) : T(state.second);
          exclusive += c.shfl_idx(warp_sum(c, value), 0);
          if (done) break;
        }
        if (t == 0) c.atomic_store_pair(tile_states, 2 * tile, {inclusive_status, exclusive + aggregate});
      }
      if (t == 0) tile_run_prefix[2] = exclusive;
      // The last tile's look-back ended at an inclusive prefix, so every tile has published, each
      // after reading the run's number: the next run's number can be set now.
      if (t == 0 && tile == last_tile) c.atomic_add(tiles_taken[1], T(1));
    }
    c.sync();
    c.caption("store: every element plus the earlier tiles' and warps' sums, 16-byte stores (n written)");
    store_tile(c, y, tile, n, v, T(tile_run_prefix[2]) + (warp > 0 ? T(warp_sums[warp - 1]) : T(0)));
  }
};

// ---- host code ----

struct ScanRung {
  static AlgoInfo rung(const char* name, const char* title, const char* what_changed, int n, int tpb,
                       bool float_order_depends_on_timing = false) {
    AlgoInfo info{name, "scan ladder", title, what_changed,
                  "Harris, Sengupta & Owens, GPU Gems 3 ch. 39; Merrill & Garland, 'Single-pass Parallel Prefix "
                  "Scan with Decoupled Look-back' (2016)",
                  Problem{n, 1, tpb, DType::Int32}, false, {"kernels/scan_ladder.h", "kernels/warp_primitives.h"}};
    info.float_order_depends_on_timing = float_order_depends_on_timing;
    return info;
  }
  static std::vector<double> reference(const Problem& p, const std::vector<double>& input) {
    return reference::inclusive_scan(p.dtype, input, 0);
  }

 protected:
  // Rungs 2 and 3 scan their sections' sums with the same levels, recursively (Self::level).
  template <class Self, class Runtime>
  static void run_in_levels(Runtime& rt, const Problem& p) {
    auto y = rt.alloc("output", p.n);
    Self::level(rt, rt.input(), y, p.n, p.tpb, 0);
    rt.set_output(y, p.n);
  }
};

struct ScanBrentKungPadded : ScanRung {
  static AlgoInfo info() {
    return rung("scan-2-brent-kung", "Scan 2: Brent-Kung, bank-conflict-free padding",
                "Work-efficient (Blelloch's up-sweep and down-sweep): about 3n additions instead of "
                "Kogge-Stone's n·log2(n), two elements per thread, one barrier per step instead of two. "
                "Shared indices are padded with a word every 32 (and every 1024), so the sweeps' strided "
                "accesses never put two lanes of a warp in one bank. Still three launches and about 4n of "
                "traffic (scan, then add).",
                128, 32);
  }
  static CheckResult check(const Problem& p) {
    if (p.tpb < 2 || p.tpb > 1024 || (p.tpb & (p.tpb - 1)))
      return ProblemError{ProblemField::Tpb, "the Brent-Kung tree needs a power of two from 2 to 1024"};
    return {};
  }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    run_in_levels<ScanBrentKungPadded>(rt, p);
  }

 private:
  friend struct ScanRung;
  template <class Runtime, class Buffer>
  static void level(Runtime& rt, Buffer x, Buffer y, int n, int tpb, int depth) {
    const int section = 2 * tpb, blocks = ceil_div(n, section);
    const std::string l = std::to_string(depth);
    auto sums = rt.alloc("section_sums_" + l, blocks);
    rt.launch("brent_kung_scan (level " + l + ")", BrentKungPaddedKernel{}, Dim3{blocks}, Dim3{tpb},
              shared_bytes_for(conflict_free(section - 1) + 1), x, y, sums, n);
    if (blocks == 1) return;
    auto scanned = rt.alloc("scanned_section_sums_" + l, blocks);
    level(rt, sums, scanned, blocks, tpb, depth + 1);
    rt.launch("add_section_offsets (level " + l + ")", AddSectionOffsetsKernel{section}, Dim3{blocks}, Dim3{tpb}, 0,
              y, scanned, n);
  }
};

struct ScanReduceThenScan : ScanRung {
  static AlgoInfo info() {
    return rung("scan-3-reduce-then-scan", "Scan 3: reduce-then-scan, warp shuffles",
                "Pass 1 only sums each tile of 16·blockDim elements (reads n, writes nothing big); pass 2 "
                "scans the tile sums; pass 3 scans each tile again and adds the tiles before it (reads n, "
                "writes n): about 3n of traffic instead of 4n. Inside a tile each thread scans 4 elements in "
                "registers and warps scan with shuffles, so a tile costs two barriers, not two per step.",
                2048, 32);
  }
  static CheckResult check(const Problem& p) { return whole_warps_check(p); }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    run_in_levels<ScanReduceThenScan>(rt, p);
  }

 private:
  friend struct ScanRung;
  template <class Runtime, class Buffer>
  static void level(Runtime& rt, Buffer x, Buffer y, int n, int tpb, int depth) {
    const int tiles = ceil_div(n, scan_tile_elements<kScanChunks>(tpb));
    const std::string l = std::to_string(depth);
    const int shared = shared_bytes_for(kWarpSize);
    if (tiles == 1) {
      rt.launch("scan_tile (level " + l + ")", ScanTileKernel{}, Dim3{1}, Dim3{tpb}, shared, x, y, y, n);
      return;
    }
    auto sums = rt.alloc("tile_sums_" + l, tiles);
    rt.launch("tile_sum (level " + l + ")", TileSumKernel{}, Dim3{tiles}, Dim3{tpb}, shared, x, sums, n);
    auto scanned = rt.alloc("scanned_tile_sums_" + l, tiles);
    level(rt, sums, scanned, tiles, tpb, depth + 1);
    rt.launch("scan_tile (level " + l + ")", ScanTileKernel{}, Dim3{tiles}, Dim3{tpb}, shared, x, y, scanned, n);
  }
};

struct ScanDecoupledLookback : ScanRung {
  static AlgoInfo info() {
    return rung("scan-4-decoupled-lookback", "Scan 4: single pass, decoupled look-back",
                "One launch reads n and writes n, the least a scan can move. Blocks take tiles of "
                "32·blockDim elements (16·blockDim below 2^22, so that a 2^20 scan at 512 threads is "
                "128 tiles, not 64, for an H100's 132 SMs) in the order they start; each publishes its "
                "tile's sum at once, then looks back over earlier tiles' published sums until it finds an "
                "inclusive prefix, so a tile waits for no chain of predecessors. A tile's status and sum are one 8-byte atomic, so a "
                "look-back costs one load per tile and no fence; and it starts 0.5 to 2.5 us after the "
                "publish (longer the more tiles queue), when its predecessors have mostly published too. "
                "States are stamped with the run's number, so no memset comes before a run. CUB's "
                "DeviceScan works this way.",
                4096, 32, true);
  }
  static CheckResult check(const Problem& p) { return whole_warps_check(p); }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    const LookbackShape shape = lookback_shape(p.n);
    if (shape.chunks == 4) return run_with<4>(rt, p, shape.wait_ns);
    run_with<8>(rt, p, shape.wait_ns);
  }

 private:
  template <int Chunks, class Runtime>
  static void run_with(Runtime& rt, const Problem& p, unsigned wait_ns) {
    const int tiles = std::max(1, ceil_div(p.n, scan_tile_elements<Chunks>(p.tpb)));
    auto y = rt.alloc("output", p.n);
    // Kept together across runs: states stamped by earlier runs are older than tiles_taken's run.
    auto tiles_taken = rt.alloc_zeroed_once("tiles_taken", 2);  // (next tile, run number)
    auto states = rt.alloc_zeroed_once("tile_states", 2 * tiles);  // (status, value) per tile
    rt.launch("decoupled_lookback_scan", DecoupledLookbackKernel<Chunks>{wait_ns}, Dim3{tiles}, Dim3{p.tpb},
              shared_bytes_for(kWarpSize, 3), rt.input(), y, tiles_taken, states, p.n);
    rt.set_output(y, p.n);
  }
};

}  // namespace syncscope::kernels
