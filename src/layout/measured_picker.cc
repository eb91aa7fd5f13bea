// tarn's picker: the bytes decide.
//
// Stage 1 (screening) measures keys on the first kScreenRows rows of the sample (itself a
// bottom-k sample, so the same rows for the same table): every candidate column alone, then
// a beam of the best `beam_width` prefixes extended by one candidate at a time up to
// max_key_columns. The profile prunes the search: an extension the prefix already determines
// (distinct(P + c) == distinct(P): sorting by it changes nothing) and a prefix at the grain
// (almost one row per group: nothing left to cluster) are not measured; a column the prefix
// determines is tried ahead of the columns that determine it instead (a hierarchy's coarser
// level first). The beam keeps one key per partition of the rows (keys that group the rows
// alike extend alike).
// Stage 2 (confirmation), when the sample is larger than the screen, measures on the whole
// sample the best screened keys (one per partition), the extensions of the best prefixes (groups are larger on
// more rows, so a column the screen could not help may help there), and the rows as they are.
// The smallest file wins; ties go to the shorter key, then to columns earlier in the table.
#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "layout/column_keys.h"
#include "layout/measure.h"
#include "layout/picker_internal.h"

namespace tarn::layout {
namespace {

constexpr int64_t kScreenRows = 65536;
constexpr size_t kFinalists = 4;
constexpr size_t kExtendedFinalists = 2;
constexpr double kGrainShare = 0.95;

// Orders keys by (bytes, length, columns): the picker's total order.
bool Better(int64_t bytes_a, const std::vector<int>& a, int64_t bytes_b,
            const std::vector<int>& b) {
  if (bytes_a != bytes_b) return bytes_a < bytes_b;
  if (a.size() != b.size()) return a.size() < b.size();
  return a < b;
}

// Measures keys over the first `rows` rows of the sample, memoized.
class Stage {
 public:
  Stage(const ProfiledRows& data, int64_t rows,
        const std::shared_ptr<const WriterProperties>& properties, SortKeyChoice* choice,
        const char* label)
      : data_(data),
        rows_(rows),
        properties_(properties),
        choice_(choice),
        label_(label),
        distinct_(data, rows),
        ranks_(data.profile.columns.size()) {
    batch_ = rows == data.sample->num_rows ? data.sample : SliceBatch(*data.sample, 0, rows);
  }

  int64_t rows() const { return rows_; }
  int64_t Distinct(const std::vector<int>& columns) { return distinct_.Count(columns); }
  const SampleDistinct& distinct() const { return distinct_; }

  Result<int64_t> Measure(const std::vector<int>& key, std::string note) {
    auto found = measured_.find(key);
    if (found != measured_.end()) return found->second;
    std::vector<int64_t> order;
    if (key.empty()) {
      // The rows as they are: in the order the scan delivered them.
      order.resize(static_cast<size_t>(rows_));
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        return data_.positions[a] < data_.positions[b];
      });
    } else {
      std::vector<const std::vector<uint32_t>*> ranks;
      for (int c : key) {
        std::vector<uint32_t>& column_ranks = ranks_[c];
        if (column_ranks.empty() && rows_ > 0) RankColumn(batch_->column(c), &column_ranks);
        ranks.push_back(&column_ranks);
      }
      order = SortByRanks(rows_, ranks);
    }
    TARN_ASSIGN_OR_RETURN(int64_t bytes, MeasureOrder(*batch_, order, properties_));
    measured_.emplace(key, bytes);
    ++choice_->measurements;
    KeyCandidate candidate;
    candidate.columns = key;
    candidate.bytes = bytes;
    candidate.note = StrCat(label_, " (", rows_, " rows)", note.empty() ? "" : ": ", note);
    choice_->candidates.push_back(std::move(candidate));
    return bytes;
  }

  // Records a key that was not measured, and why.
  void Pruned(const std::vector<int>& key, std::string note) {
    if (!pruned_.insert(key).second) return;
    KeyCandidate candidate;
    candidate.columns = key;
    candidate.note = StrCat(label_, ": not measured, ", note);
    choice_->candidates.push_back(std::move(candidate));
  }

  // Measured keys, best first.
  std::vector<std::pair<std::vector<int>, int64_t>> Ranked() const {
    std::vector<std::pair<std::vector<int>, int64_t>> out(measured_.begin(), measured_.end());
    std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) {
      return Better(x.second, x.first, y.second, y.first);
    });
    return out;
  }

 private:
  const ProfiledRows& data_;
  int64_t rows_;
  std::shared_ptr<const WriterProperties> properties_;
  SortKeyChoice* choice_;
  const char* label_;
  SampleDistinct distinct_;
  std::shared_ptr<Batch> batch_;
  std::vector<std::vector<uint32_t>> ranks_;  // per column, computed when first needed
  std::map<std::vector<int>, int64_t> measured_;
  std::set<std::vector<int>> pruned_;
};

// Extends `prefix` by each candidate not in it, unless the profile says measuring is useless.
Status Extend(Stage& stage, const TableProfile& profile, const std::vector<int>& candidates,
              const std::vector<int>& prefix, std::vector<std::vector<int>>* measured) {
  const int64_t prefix_distinct = stage.Distinct(prefix);
  if (static_cast<double>(prefix_distinct) >= kGrainShare * static_cast<double>(stage.rows())) {
    stage.Pruned(prefix, StrCat("extensions of it skipped: at the grain (", prefix_distinct,
                                " groups of ", stage.rows(), " rows)"));
    return Status::OK();
  }
  for (int c : candidates) {
    if (std::find(prefix.begin(), prefix.end(), c) != prefix.end()) continue;
    std::vector<int> key = prefix;
    key.push_back(c);
    std::vector<int> with = prefix;
    with.push_back(c);
    if (stage.Distinct(with) == prefix_distinct) {
      stage.Pruned(key, StrCat(profile.columns[c].name, " is determined by ",
                               KeyText(profile, prefix)));
      // A coarser level of a hierarchy (country above city): after the prefix it changes
      // nothing, but ahead of the columns that determine it, it groups them.
      for (size_t at = 0; at < prefix.size(); ++at) {
        std::vector<int> promoted(prefix.begin(), prefix.begin() + static_cast<long>(at));
        promoted.push_back(c);
        promoted.insert(promoted.end(), prefix.begin() + static_cast<long>(at), prefix.end());
        TARN_RETURN_NOT_OK(
            stage.Measure(promoted, StrCat(profile.columns[c].name, " ahead of what determines it"))
                .status());
        measured->push_back(std::move(promoted));
      }
      continue;
    }
    TARN_RETURN_NOT_OK(stage.Measure(key, "").status());
    measured->push_back(std::move(key));
  }
  return Status::OK();
}

// The best `width` prefixes of `level` (best first), at most one per partition of the rows:
// keys that group the rows alike (a column ahead of the columns that determine it, as
// (country, city) beside (city)) extend alike, so the beam keeps only the best of them and
// spends its other places on keys that group differently.
// Whether `a` and `b` group the rows alike: each determines the other, and the groups are
// not single rows (at the grain the order of the rows is all that differs).
bool Alike(Stage& stage, const std::vector<int>& a, const std::vector<int>& b) {
  const int64_t groups = stage.Distinct(a);
  if (static_cast<double>(groups) >= kGrainShare * static_cast<double>(stage.rows())) {
    return false;
  }
  if (stage.Distinct(b) != groups) return false;
  std::vector<int> both = a;
  for (int c : b) {
    if (std::find(both.begin(), both.end(), c) == both.end()) both.push_back(c);
  }
  return stage.Distinct(both) == groups;
}

// Whether `key` groups the rows alike with one of `kept`.
bool AlikeAny(Stage& stage, const std::vector<std::vector<int>>& kept,
              const std::vector<int>& key) {
  return std::any_of(kept.begin(), kept.end(),
                     [&](const std::vector<int>& other) { return Alike(stage, other, key); });
}

std::vector<std::vector<int>> Beam(Stage& stage, const std::vector<std::vector<int>>& level,
                                   size_t width) {
  std::vector<std::vector<int>> beam;
  for (const std::vector<int>& key : level) {
    if (beam.size() >= width) break;
    if (!AlikeAny(stage, beam, key)) beam.push_back(key);
  }
  return beam;
}

}  // namespace

Result<SortKeyChoice> PickMeasured(const ProfiledRows& data, const PickerOptions& options,
                                   const std::shared_ptr<const WriterProperties>& properties) {
  SortKeyChoice choice;
  choice.mode = PickerMode::kMeasured;
  choice.profile = data.profile;
  const TableProfile& profile = data.profile;
  std::vector<int> candidates;
  for (int c = 0; c < static_cast<int>(profile.columns.size()); ++c) {
    if (profile.columns[c].candidate) candidates.push_back(c);
  }
  const int64_t sample_rows = data.sample->num_rows;
  if (candidates.empty() || sample_rows < 2) {
    choice.reason = candidates.empty() ? "no column can lead a key (constant, mostly NULL or "
                                         "nested): the rows stay as they are"
                                       : "too few rows to sort";
    return choice;
  }
  const size_t beam_width = static_cast<size_t>(options.beam_width);
  auto cancelled = [&]() -> Status {
    return options.cancel != nullptr ? options.cancel->Check("SORTED BY AUTO") : Status::OK();
  };

  // Stage 1: screening.
  Stage screen(data, std::min(sample_rows, kScreenRows), properties, &choice, "screen");
  TARN_RETURN_NOT_OK(screen.Measure({}, "the rows as they are").status());
  std::vector<std::vector<int>> level;
  for (int c : candidates) {
    TARN_RETURN_NOT_OK(screen.Measure({c}, "").status());
    level.push_back({c});
  }
  for (int length = 2; length <= options.max_key_columns; ++length) {
    TARN_RETURN_NOT_OK(cancelled());
    std::sort(level.begin(), level.end(), [&](const auto& a, const auto& b) {
      return Better(*screen.Measure(a, ""), a, *screen.Measure(b, ""), b);
    });
    level = Beam(screen, level, beam_width);
    std::vector<std::vector<int>> next;
    for (const std::vector<int>& prefix : level) {
      TARN_RETURN_NOT_OK(Extend(screen, profile, candidates, prefix, &next));
    }
    if (next.empty()) break;
    level = std::move(next);
  }
  std::vector<std::pair<std::vector<int>, int64_t>> ranked = screen.Ranked();

  // Stage 2: confirmation on the whole sample.
  Stage* judge = &screen;
  std::optional<Stage> full;
  if (sample_rows > screen.rows()) {
    full.emplace(data, sample_rows, properties, &choice, "sample");
    judge = &*full;
    TARN_RETURN_NOT_OK(full->Measure({}, "the rows as they are").status());
    std::vector<std::vector<int>> finalists;
    size_t extended = 0;
    for (const auto& [key, bytes] : ranked) {
      if (key.empty()) continue;
      if (finalists.size() >= kFinalists) break;
      if (AlikeAny(screen, finalists, key)) continue;
      finalists.push_back(key);
      TARN_RETURN_NOT_OK(cancelled());
      TARN_RETURN_NOT_OK(full->Measure(key, "a finalist of the screen").status());
      if (extended < kExtendedFinalists &&
          static_cast<int>(key.size()) < options.max_key_columns) {
        ++extended;
        std::vector<std::vector<int>> ignored;
        TARN_RETURN_NOT_OK(Extend(*full, profile, candidates, key, &ignored));
      }
    }
  }
  std::vector<std::pair<std::vector<int>, int64_t>> final_ranked = judge->Ranked();
  const auto as_is = std::find_if(final_ranked.begin(), final_ranked.end(),
                                  [](const auto& entry) { return entry.first.empty(); });
  choice.unsorted_bytes = as_is == final_ranked.end() ? -1 : as_is->second;
  const auto& [best_key, best_bytes] = final_ranked.front();
  choice.chosen_bytes = best_bytes;
  choice.key = KeyColumns(profile, best_key);
  for (const auto& [set, count] : judge->distinct().counted()) {
    if (set.size() < 2) continue;
    if (profile.Distinct(set).has_value()) continue;
    ColumnSetDistinct entry;
    entry.columns = set;
    entry.distinct = count;
    entry.exact = judge->rows() == profile.rows;
    if (entry.exact) choice.profile.column_sets.push_back(std::move(entry));
  }
  if (best_key.empty()) {
    choice.reason = StrCat("no key beats the rows as they are (", best_bytes, " bytes on ",
                           judge->rows(), " rows): write them unsorted");
  } else {
    choice.reason = StrCat("the smallest file: ", best_bytes, " bytes on ", judge->rows(),
                           " rows, vs ", choice.unsorted_bytes, " as they are");
  }
  return choice;
}

}  // namespace tarn::layout
