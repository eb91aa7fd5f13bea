// Row summary encodings: bytes and warm single-lookup latency of each set kind and order form.
//   sets   — 1M ids uniform over 10M (the published-row-summaries design's shape), dense,
//            clustered and tiny sets: encoded bytes of Roaring, Elias-Fano, Sorted and the
//            picked kind, against the entropy bound log2(C(universe, n)); mean ns per Rank of a
//            random member; best-of-5 ms to decode the picked kind and Roaring (checks included).
//   orders — one million rows laid out as k = 2, 10, 100 runs of ascending ids (an update
//            rewrite's or a merge's shape) and as a random permutation: body bytes of the Runs
//            form and of bit-packing, against n·log2(k) bits; mean ns per position of a random
//            rank, from the Runs body, from the packed body, and from a resident u32 array.
// Usage: bench_rowsum_forms [queries=2000000]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "rowid/bit_packing.h"
#include "rowid/rowsum_format.h"
#include "rowid/run_order.h"
#include "tarn/rowid.h"

namespace tarn {
namespace {

using rowid_internal::OrderForm;
using rowid_internal::RowsumHeader;
using rowid_internal::RunOrderIndex;

double EntropyBytes(uint64_t n, uint64_t universe) {
  const double bits = (std::lgamma(universe + 1.0) - std::lgamma(n + 1.0) - std::lgamma(universe - n + 1.0)) /
                      std::log(2.0);
  return bits / 8;
}

// Mean ns per call of fn(i) over `queries` calls; the results are summed so none is skipped.
template <typename Fn>
double NsPerCall(size_t queries, uint64_t* sink, Fn&& fn) {
  const auto t0 = std::chrono::steady_clock::now();
  uint64_t sum = 0;
  for (size_t i = 0; i < queries; ++i) sum += fn(i);
  const auto t1 = std::chrono::steady_clock::now();
  *sink += sum;
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(queries);
}

const char* KindName(RowIdSet::Kind kind) {
  switch (kind) {
    case RowIdSet::Kind::kRange: return "Range";
    case RowIdSet::Kind::kRoaring: return "Roaring";
    case RowIdSet::Kind::kSorted: return "Sorted";
    case RowIdSet::Kind::kEliasFano: return "Elias-Fano";
  }
  return "?";
}

void Sets(size_t queries, uint64_t* sink) {
  std::mt19937_64 rng(20260930);
  struct Shape {
    const char* name;
    std::vector<uint64_t> ids;
  };
  std::vector<Shape> shapes;
  {
    // Exactly the design's measurement: 1M distinct ids drawn from [0, 10M).
    std::vector<uint64_t> all(10000000);
    std::iota(all.begin(), all.end(), uint64_t{0});
    for (size_t i = 0; i < 1000000; ++i) std::swap(all[i], all[i + rng() % (all.size() - i)]);
    all.resize(1000000);
    std::sort(all.begin(), all.end());
    shapes.push_back({"uniform 1M over 10M", std::move(all)});
  }
  {
    std::vector<uint64_t> dense;
    for (uint64_t id = 0; dense.size() < 1000000; ++id) {
      if (rng() % 16 != 0) dense.push_back(5000000 + id);
    }
    shapes.push_back({"dense 1M, 1 in 16 missing", std::move(dense)});
  }
  {
    // Clusters of 50..500 nearly consecutive ids (one in 8 skipped), a few thousand ids apart.
    std::vector<uint64_t> clustered;
    uint64_t at = 1000000;
    while (clustered.size() < 1000000) {
      for (uint64_t i = 0, len = 50 + rng() % 450; i < len; ++i, ++at) {
        if (rng() % 8 != 0) clustered.push_back(at);
      }
      at += 1000 + rng() % 20000;
    }
    shapes.push_back({"clustered 1M", std::move(clustered)});
  }
  shapes.push_back({"tiny, 5 ids", {17, 4096, 70000, 123456789, 987654321}});
  shapes.push_back({"tiny, 200 ids", {}});
  for (uint64_t i = 0; i < 200; ++i) shapes.back().ids.push_back(3000000 + i * 977 + rng() % 500);

  std::printf("## Sets\n\n");
  std::printf("| shape | entropy bound | Roaring | Elias-Fano | Sorted | picked | picked / Roaring |"
              " rank ns (picked) | rank ns (Roaring) | decode ms (picked) | decode ms (Roaring) |\n"
              "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|\n");
  for (const Shape& shape : shapes) {
    const auto& ids = shape.ids;
    const RowIdSet roaring = RowIdSet::FromSorted(ids, RowIdSet::Kind::kRoaring);
    const RowIdSet elias_fano = RowIdSet::FromSorted(ids, RowIdSet::Kind::kEliasFano);
    const RowIdSet sorted = RowIdSet::FromSorted(ids, RowIdSet::Kind::kSorted);
    const RowIdSet picked = RowIdSet::FromSorted(ids);
    // The decoded set, as a reader holds it.
    std::string bytes;
    picked.EncodeTo(&bytes);
    const RowIdSet decoded = *RowIdSet::Decode(picked.kind(), bytes);
    std::vector<uint64_t> probes(queries);
    for (uint64_t& probe : probes) probe = ids[rng() % ids.size()];
    auto rank_of = [&](const RowIdSet& set) {
      set.Rank(probes[0]);  // warm
      return NsPerCall(queries, sink, [&](size_t i) { return *set.Rank(probes[i]); });
    };
    const double picked_ns = rank_of(decoded);
    const double roaring_ns = rank_of(roaring);
    auto decode_ms = [&](const RowIdSet& set) {
      std::string encoded;
      set.EncodeTo(&encoded);
      double best = 1e30;
      for (int round = 0; round < 5; ++round) {
        const auto t0 = std::chrono::steady_clock::now();
        auto back = RowIdSet::Decode(set.kind(), encoded);
        const auto t1 = std::chrono::steady_clock::now();
        if (!back.ok()) std::exit(1);
        *sink += back->size();
        best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
      }
      return best;
    };
    std::printf("| %s | %.0f | %lld | %lld | %lld | %s, %lld | %.2f | %.1f | %.1f | %.3f | %.3f |\n", shape.name,
                EntropyBytes(ids.size(), ids.back() - ids.front() + 1),
                static_cast<long long>(roaring.EncodedSize()), static_cast<long long>(elias_fano.EncodedSize()),
                static_cast<long long>(sorted.EncodedSize()), KindName(picked.kind()),
                static_cast<long long>(picked.EncodedSize()),
                static_cast<double>(picked.EncodedSize()) / static_cast<double>(roaring.EncodedSize()),
                picked_ns, roaring_ns, decode_ms(picked), decode_ms(roaring));
  }
}

// One million rows as `runs` runs of ascending ids (each id's run drawn at random, so runs
// interleave in id order), or a random permutation when runs == 0.
std::vector<int64_t> FileOrder(std::mt19937_64& rng, size_t n, size_t runs) {
  std::vector<int64_t> ids(n);
  for (size_t i = 0; i < n; ++i) ids[i] = static_cast<int64_t>(i * 10 + rng() % 10);
  if (runs == 0) {
    std::shuffle(ids.begin(), ids.end(), rng);
    return ids;
  }
  std::vector<std::vector<int64_t>> by_run(runs);
  for (int64_t id : ids) by_run[rng() % runs].push_back(id);
  std::vector<int64_t> out;
  out.reserve(n);
  for (const auto& run : by_run) out.insert(out.end(), run.begin(), run.end());
  return out;
}

void Orders(size_t queries, uint64_t* sink) {
  std::mt19937_64 rng(7);
  const size_t n = 1000000;
  std::printf("\n## Orders (1,000,000 rows)\n\n");
  std::printf("| layout | runs found | form | body bytes | n·log2(k) bytes | body − run table vs n·log2(k) |"
              " bit-packed bytes | body / bit-packed | position ns (form) | position ns (bit-packed) |"
              " position ns (resident u32) |\n|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (size_t runs : {size_t{2}, size_t{10}, size_t{100}, size_t{0}}) {
    const std::vector<int64_t> file_order = FileOrder(rng, n, runs);
    auto rows = *PositionedRowSet::FromFileOrder(file_order);
    const std::string bytes = *EncodeRowSummary(SummaryIdentity{1, 2, "f.parquet", 100}, rows);
    RowsumHeader h;
    size_t needed = 0;
    if (!rowid_internal::DecodeRowsumHeader(bytes, &h, &needed).ok()) std::exit(1);
    const std::string_view body = std::string_view(bytes).substr(h.order_offset(), h.body_len());
    const auto positions = rows.order->positions();
    std::string packed;
    if (!rowid_internal::PackBits(positions, h.position_width, &packed).ok()) std::exit(1);
    std::vector<uint64_t> ranks(queries);
    for (uint64_t& rank : ranks) rank = rng() % n;
    double form_ns = 0;
    uint64_t found = 0, table = 0;
    if (h.order_form == OrderForm::kRuns) {
      table = *RunOrderIndex::TableBytes(body, n, body.size());
      const RunOrderIndex index = *RunOrderIndex::Parse(body.substr(0, table), n, body.size());
      found = index.run_count();
      auto fetch = [body](uint64_t offset, uint64_t length, std::string_view* out) -> Status {
        if (offset > body.size() || length > body.size() - offset) return Status::Corruption("past");
        *out = body.substr(offset, length);
        return Status::OK();
      };
      form_ns = NsPerCall(queries, sink, [&](size_t i) {
        uint32_t position = 0;
        if (!index.Position(ranks[i], fetch, &position).ok()) std::exit(1);
        return position;
      });
    }
    const double packed_ns = NsPerCall(queries, sink, [&](size_t i) {
      return rowid_internal::UnpackAt(packed, ranks[i], h.position_width);
    });
    const double resident_ns = NsPerCall(queries, sink, [&](size_t i) { return positions[ranks[i]]; });
    char layout[32];
    std::snprintf(layout, sizeof(layout), runs ? "k = %zu runs" : "random", runs);
    const double bound = runs ? n * std::log2(static_cast<double>(runs)) / 8 : 0;
    char versus[32] = "—";
    if (runs && h.order_form == OrderForm::kRuns) {
      std::snprintf(versus, sizeof(versus), "%+.1f%%", 100.0 * ((h.body_len() - table) / bound - 1));
    }
    char form_cell[32] = "—";
    if (form_ns > 0) std::snprintf(form_cell, sizeof(form_cell), "%.1f", form_ns);
    char bound_cell[32] = "—";
    if (runs) std::snprintf(bound_cell, sizeof(bound_cell), "%.0f", bound);
    std::printf("| %s | %llu | %s | %llu | %s | %s | %zu | %.3f | %s | %.1f | %.1f |\n", layout,
                static_cast<unsigned long long>(found), h.order_form == OrderForm::kRuns ? "Runs" : "Permuted",
                static_cast<unsigned long long>(h.body_len()), bound_cell, versus, packed.size(),
                static_cast<double>(h.body_len()) / static_cast<double>(packed.size()), form_cell, packed_ns,
                resident_ns);
  }
}

}  // namespace
}  // namespace tarn

int main(int argc, char** argv) {
  const size_t queries = argc > 1 ? static_cast<size_t>(std::max(1000L, std::atol(argv[1]))) : 2000000;
  uint64_t sink = 0;
  tarn::Sets(queries, &sink);
  tarn::Orders(queries, &sink);
  std::printf("\n(checksum %llu)\n", static_cast<unsigned long long>(sink));
  return 0;
}
