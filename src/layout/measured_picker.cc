// tarn's picker: the bytes decide.
//
// Every key is scored by writing a sample sorted by it with tarn's own writer. Which sample:
// whole groups of the key's leading column (group_sample.h). Rows sampled at random shrink
// the groups of a coarse column, and what sorting within them gains, while a near-unique
// column loses nothing: on such a sample a near-unique lead looks better than it is. A key
// whose leading column has no usable group sample (a few values hold most rows) is measured
// on the group sample of its next column that has one (its groups are whole within the
// coarse column's too); a key of such columns only, and the rows as they are, on rows sampled
// at random. Keys measured on different samples compare by bytes per row, scaled to the
// table's rows.
//
// Stage 1 (screening) measures on samples of at most kScreenRows rows (whole groups taken
// from each column's sample; the first rows of the row sample): every candidate column alone,
// then a beam of the best `beam_width` prefixes extended by one candidate at a time up to
// max_key_columns. The profile prunes the search: an extension the prefix already determines
// (distinct(P + c) == distinct(P): sorting by it changes nothing) and a prefix at the grain
// (almost one row per group: nothing left to cluster) are not measured; a column the prefix
// determines is tried ahead of the columns that determine it instead (a hierarchy's coarser
// level first). The beam keeps one key per partition of the rows (keys that group the rows
// alike extend alike).
// Stage 2 (confirmation), when the samples are larger than the screen's, measures on them the
// best screened keys (one per partition), the extensions of the best prefixes (groups are
// larger on more rows, so a column the screen could not help may help there), and the rows as
// they are. The smallest estimate wins; ties go to the shorter key, then to columns earlier in
// the table.
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <span>

#include "layout/column_keys.h"
#include "layout/group_sample.h"
#include "layout/measure.h"
#include "layout/picker_internal.h"

namespace tarn::layout {
namespace {

constexpr int64_t kScreenRows = 65536;
constexpr size_t kFinalists = 4;
constexpr size_t kExtendedFinalists = 2;
constexpr double kGrainShare = 0.95;
// A prefix with at least this many groups per row is near the grain: columns are tried ahead
// of its last column too.
constexpr double kFineShare = 0.1;

// Orders keys by (bytes, length, columns): the picker's total order.
bool Better(int64_t bytes_a, const std::vector<int>& a, int64_t bytes_b,
            const std::vector<int>& b) {
  if (bytes_a != bytes_b) return bytes_a < bytes_b;
  if (a.size() != b.size()) return a.size() < b.size();
  return a < b;
}

std::shared_ptr<Batch> TakeRows(const Batch& batch, std::span<const int64_t> rows) {
  std::vector<std::shared_ptr<Column>> columns;
  for (const auto& column : batch.columns) columns.push_back(Take(*column, rows));
  auto out = MakeBatch(batch.schema, std::move(columns));
  out->num_rows = static_cast<int64_t>(rows.size());
  return out;
}

// One sample keys are measured on, with its measurements memoized.
class Stage {
 public:
  Stage(std::shared_ptr<Batch> batch, std::vector<int64_t> positions, std::string label,
        int64_t table_rows, const std::shared_ptr<const WriterProperties>& properties,
        SortKeyChoice* choice)
      : batch_(std::move(batch)),
        positions_(std::move(positions)),
        label_(std::move(label)),
        table_rows_(table_rows),
        properties_(properties),
        choice_(choice),
        hashes_(static_cast<size_t>(batch_->num_columns())),
        distinct_(hashes_, batch_->num_rows),
        ranks_(static_cast<size_t>(batch_->num_columns())) {}

  int64_t rows() const { return batch_->num_rows; }
  const std::string& label() const { return label_; }
  const SampleDistinct& distinct() const { return distinct_; }

  int64_t Distinct(const std::vector<int>& columns) {
    for (int c : columns) {
      std::vector<uint64_t>& hashes = hashes_[static_cast<size_t>(c)];
      if (hashes.empty() && rows() > 0) {
        hashes.resize(static_cast<size_t>(rows()));
        HashColumn(batch_->column(c), hashes);
      }
    }
    return distinct_.Count(columns);
  }

  // The table's bytes estimated from `bytes` measured on this sample.
  int64_t Estimate(int64_t bytes) const {
    if (rows() == table_rows_ || rows() == 0) return bytes;
    return std::llround(static_cast<double>(bytes) * static_cast<double>(table_rows_) /
                        static_cast<double>(rows()));
  }

  // The measured size of the sample sorted by `key` (empty: in scan order).
  Result<int64_t> Measure(const std::vector<int>& key, const std::string& note) {
    auto found = measured_.find(key);
    if (found != measured_.end()) return found->second;
    std::vector<int64_t> order;
    if (key.empty()) {
      order.resize(static_cast<size_t>(rows()));
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t a, int64_t b) { return positions_[a] < positions_[b]; });
    } else {
      std::vector<const std::vector<uint32_t>*> ranks;
      for (int c : key) {
        std::vector<uint32_t>& column_ranks = ranks_[static_cast<size_t>(c)];
        if (column_ranks.empty() && rows() > 0) RankColumn(batch_->column(c), &column_ranks);
        ranks.push_back(&column_ranks);
      }
      order = SortByRanks(rows(), ranks);
    }
    TARN_ASSIGN_OR_RETURN(int64_t bytes, MeasureOrder(*batch_, order, properties_));
    measured_.emplace(key, bytes);
    ++choice_->measurements;
    KeyCandidate candidate;
    candidate.columns = key;
    candidate.bytes = bytes;
    candidate.sample_rows = rows();
    candidate.estimated_bytes = Estimate(bytes);
    candidate.note = StrCat(label_, " (", rows(), " rows)", note.empty() ? "" : ": ", note);
    choice_->candidates.push_back(std::move(candidate));
    return bytes;
  }

 private:
  std::shared_ptr<Batch> batch_;
  std::vector<int64_t> positions_;
  std::string label_;
  int64_t table_rows_;
  std::shared_ptr<const WriterProperties> properties_;
  SortKeyChoice* choice_;
  std::vector<std::vector<uint64_t>> hashes_;  // per column, computed when first counted
  SampleDistinct distinct_;
  std::vector<std::vector<uint32_t>> ranks_;  // per column, computed when first sorted by
  std::map<std::vector<int>, int64_t> measured_;
};

// The samples of one stage of the search: stage 0 holds rows sampled at random (the rows as
// they are and keys of columns without a group sample); a column's anchor is the stage that
// measures keys led by it.
class Level {
 public:
  Level(const char* name, int64_t table_rows, int columns,
        const std::shared_ptr<const WriterProperties>& properties, SortKeyChoice* choice)
      : name_(name),
        table_rows_(table_rows),
        properties_(properties),
        choice_(choice),
        anchors_(static_cast<size_t>(columns), -1) {}

  int AddStage(std::shared_ptr<Batch> batch, std::vector<int64_t> positions,
               const std::string& what) {
    stages_.push_back(std::make_unique<Stage>(std::move(batch), std::move(positions),
                                              StrCat(name_, ", ", what), table_rows_, properties_,
                                              choice_));
    return static_cast<int>(stages_.size()) - 1;
  }
  void SetAnchor(int column, int stage) { anchors_[static_cast<size_t>(column)] = stage; }
  Stage& stage(int index) { return *stages_[static_cast<size_t>(index)]; }
  int64_t largest_stage_rows() const {
    int64_t rows = 0;
    for (const auto& stage : stages_) rows = std::max(rows, stage->rows());
    return rows;
  }

  // Where `key` is measured: the anchor of its first column that has one, else stage 0.
  Stage& StageFor(const std::vector<int>& key) {
    for (int c : key) {
      const int anchor = anchors_[static_cast<size_t>(c)];
      if (anchor >= 0) return stage(anchor);
    }
    return stage(0);
  }

  // The table's bytes sorted by `key`, estimated from its sample.
  Result<int64_t> Measure(const std::vector<int>& key, const std::string& note) {
    auto found = scores_.find(key);
    if (found != scores_.end()) return found->second;
    Stage& on = StageFor(key);
    TARN_ASSIGN_OR_RETURN(int64_t bytes, on.Measure(key, note));
    const int64_t estimate = on.Estimate(bytes);
    scores_.emplace(key, estimate);
    return estimate;
  }

  // Records a key that was not measured, and why.
  void Pruned(const std::vector<int>& key, const std::string& note) {
    if (!pruned_.insert(key).second) return;
    KeyCandidate candidate;
    candidate.columns = key;
    candidate.note = StrCat(name_, ": not measured, ", note);
    choice_->candidates.push_back(std::move(candidate));
  }

  // Measured keys, best first.
  std::vector<std::pair<std::vector<int>, int64_t>> Ranked() const {
    std::vector<std::pair<std::vector<int>, int64_t>> out(scores_.begin(), scores_.end());
    std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) {
      return Better(x.second, x.first, y.second, y.first);
    });
    return out;
  }

 private:
  const char* name_;
  int64_t table_rows_;
  std::shared_ptr<const WriterProperties> properties_;
  SortKeyChoice* choice_;
  std::vector<std::unique_ptr<Stage>> stages_;
  std::vector<int> anchors_;  // per column: index into stages_, -1 without a group sample
  std::map<std::vector<int>, int64_t> scores_;
  std::set<std::vector<int>> pruned_;
};

// Adds the first `rows` rows of the row sample as a stage: rows sampled at random (the sample
// is in random order, so any prefix of it is one).
int AddRowStage(Level& level, const ProfiledRows& data, int64_t rows) {
  rows = std::min(rows, data.sample->num_rows);
  auto batch = rows == data.sample->num_rows ? data.sample : SliceBatch(*data.sample, 0, rows);
  std::vector<int64_t> positions(data.positions.begin(), data.positions.begin() + rows);
  return level.AddStage(std::move(batch), std::move(positions), "rows sampled at random");
}

// Anchors column `c` of `level` on whole groups out of `batch` (positions, value keys) within
// `budget` rows; `whole_stage` is the stage to reuse when every row fits (-1: add one).
void AddGroupStage(Level& level, const TableProfile& profile, int c,
                   const std::shared_ptr<Batch>& batch, const std::vector<int64_t>& positions,
                   std::span<const uint64_t> keys, int64_t budget, int whole_stage) {
  const std::string what = StrCat("whole groups of ", profile.columns[c].name);
  GroupSubset subset = ChooseGroupRows(keys, budget);
  if (!subset.usable()) return;
  if (subset.whole) {
    level.SetAnchor(c, whole_stage >= 0 ? whole_stage : level.AddStage(batch, positions, what));
    return;
  }
  std::vector<int64_t> subset_positions;
  subset_positions.reserve(subset.rows.size());
  for (int64_t row : subset.rows) subset_positions.push_back(positions[static_cast<size_t>(row)]);
  level.SetAnchor(c,
                  level.AddStage(TakeRows(*batch, subset.rows), std::move(subset_positions), what));
}

// Whether `key` has at least `share` groups per row on `stage`; its groups in `groups`.
bool GroupsPerRowAtLeast(Stage& stage, const std::vector<int>& key, double share,
                         int64_t* groups) {
  *groups = key.empty() ? 1 : stage.Distinct(key);
  return static_cast<double>(*groups) >= share * static_cast<double>(stage.rows());
}

// A prefix near the grain: its last column almost settles the order of the rows, so little
// after it changes much, but a coarser column ahead of it can still cluster the rows and keep
// the last column's order within its groups (destination, time rather than time; distance,
// destination, time rather than distance, time): each candidate is tried there, unless the
// columns before the last are near the grain already (nothing left to cluster), or determine
// the candidate, or the candidate brings them near the grain (another last column, not a
// coarser one).
Status InsertAheadOfLast(Level& level, const TableProfile& profile,
                         const std::vector<int>& candidates, const std::vector<int>& prefix,
                         std::vector<std::vector<int>>* measured) {
  const std::vector<int> head(prefix.begin(), prefix.end() - 1);
  int64_t head_groups = 0;
  if (GroupsPerRowAtLeast(level.StageFor(head), head, kFineShare, &head_groups)) {
    return Status::OK();
  }
  for (int c : candidates) {
    if (std::find(prefix.begin(), prefix.end(), c) != prefix.end()) continue;
    std::vector<int> with = head;
    with.push_back(c);
    std::vector<int> key = with;
    key.push_back(prefix.back());
    Stage& stage = level.StageFor(with);
    if (!head.empty() && stage.Distinct(with) == stage.Distinct(head)) {
      level.Pruned(key,
                   StrCat(profile.columns[c].name, " is determined by ", KeyText(profile, head)));
      continue;
    }
    int64_t with_groups = 0;
    if (GroupsPerRowAtLeast(stage, with, kFineShare, &with_groups)) continue;
    TARN_RETURN_NOT_OK(
        level.Measure(key, StrCat(profile.columns[c].name, " ahead of the last column"))
            .status());
    measured->push_back(std::move(key));
  }
  return Status::OK();
}

// Extends `prefix` by each candidate not in it, unless the profile says measuring is useless.
Status Extend(Level& level, const TableProfile& profile, const std::vector<int>& candidates,
              const std::vector<int>& prefix, std::vector<std::vector<int>>* measured) {
  Stage& prefix_stage = level.StageFor(prefix);
  int64_t prefix_distinct = 0;
  if (GroupsPerRowAtLeast(prefix_stage, prefix, kGrainShare, &prefix_distinct)) {
    level.Pruned(prefix, StrCat("extensions after it skipped: at the grain (", prefix_distinct,
                                " groups of ", prefix_stage.rows(), " rows)"));
    return InsertAheadOfLast(level, profile, candidates, prefix, measured);
  }
  if (static_cast<double>(prefix_distinct) >=
      kFineShare * static_cast<double>(prefix_stage.rows())) {
    TARN_RETURN_NOT_OK(InsertAheadOfLast(level, profile, candidates, prefix, measured));
  }
  for (int c : candidates) {
    if (std::find(prefix.begin(), prefix.end(), c) != prefix.end()) continue;
    std::vector<int> key = prefix;
    key.push_back(c);
    Stage& stage = level.StageFor(key);
    if (stage.Distinct(key) == stage.Distinct(prefix)) {
      level.Pruned(key,
                   StrCat(profile.columns[c].name, " is determined by ", KeyText(profile, prefix)));
      // A coarser level of a hierarchy (country above city): after the prefix it changes
      // nothing, but ahead of the columns that determine it, it groups them.
      for (size_t at = 0; at < prefix.size(); ++at) {
        std::vector<int> promoted(prefix.begin(), prefix.begin() + static_cast<long>(at));
        promoted.push_back(c);
        promoted.insert(promoted.end(), prefix.begin() + static_cast<long>(at), prefix.end());
        TARN_RETURN_NOT_OK(
            level.Measure(promoted, StrCat(profile.columns[c].name, " ahead of what determines it"))
                .status());
        measured->push_back(std::move(promoted));
      }
      continue;
    }
    TARN_RETURN_NOT_OK(level.Measure(key, "").status());
    measured->push_back(std::move(key));
  }
  return Status::OK();
}

// Whether `a` and `b` group the rows alike: each determines the other, and the groups are
// not single rows (at the grain the order of the rows is all that differs). Counted on the
// first rows of the row sample, one basis for keys with any leading column.
bool Alike(SampleDistinct& counts, const std::vector<int>& a, const std::vector<int>& b) {
  const int64_t groups = counts.Count(a);
  if (static_cast<double>(groups) >= kGrainShare * static_cast<double>(counts.rows())) {
    return false;
  }
  if (counts.Count(b) != groups) return false;
  std::vector<int> both = a;
  for (int c : b) {
    if (std::find(both.begin(), both.end(), c) == both.end()) both.push_back(c);
  }
  return counts.Count(both) == groups;
}

// Whether `key` groups the rows alike with one of `kept`.
bool AlikeAny(SampleDistinct& counts, const std::vector<std::vector<int>>& kept,
              const std::vector<int>& key) {
  return std::any_of(kept.begin(), kept.end(),
                     [&](const std::vector<int>& other) { return Alike(counts, other, key); });
}

// The best `width` prefixes of `level` (best first), at most one per partition of the rows:
// keys that group the rows alike (a column ahead of the columns that determine it, as
// (country, city) beside (city)) extend alike, so the beam keeps only the best of them and
// spends its other places on keys that group differently.
std::vector<std::vector<int>> Beam(SampleDistinct& counts,
                                   const std::vector<std::vector<int>>& level, size_t width) {
  std::vector<std::vector<int>> beam;
  for (const std::vector<int>& key : level) {
    if (beam.size() >= width) break;
    if (!AlikeAny(counts, beam, key)) beam.push_back(key);
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
  const int num_columns = static_cast<int>(profile.columns.size());
  // Group samples collected by the second scan when the table is larger than the sample;
  // otherwise whole groups come from the sample, which is the table.
  const bool grouped = data.group_sample_rows > 0;
  const int64_t row_stage_rows = grouped ? data.group_sample_rows : sample_rows;
  std::vector<std::vector<uint64_t>> sample_keys(static_cast<size_t>(num_columns));
  if (!grouped) {
    for (int c : candidates) {
      for (uint64_t hash : data.hashes[c]) sample_keys[c].push_back(ValueKey(c, hash));
    }
  }

  // Stage 1: screening.
  Level screen("screen", profile.rows, num_columns, properties, &choice);
  const int screen_rows_stage = AddRowStage(screen, data, std::min(kScreenRows, row_stage_rows));
  for (int c : candidates) {
    if (grouped) {
      const GroupSample& group = data.group_samples[c];
      if (!group.usable()) continue;
      AddGroupStage(screen, profile, c, group.rows, group.positions, group.keys, kScreenRows, -1);
    } else {
      AddGroupStage(screen, profile, c, data.sample, data.positions, sample_keys[c], kScreenRows,
                    sample_rows <= kScreenRows ? screen_rows_stage : -1);
    }
  }
  SampleDistinct alike_counts(data.hashes, std::min(sample_rows, kScreenRows));
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
    level = Beam(alike_counts, level, beam_width);
    std::vector<std::vector<int>> next;
    for (const std::vector<int>& prefix : level) {
      TARN_RETURN_NOT_OK(Extend(screen, profile, candidates, prefix, &next));
    }
    if (next.empty()) break;
    level = std::move(next);
  }
  std::vector<std::pair<std::vector<int>, int64_t>> ranked = screen.Ranked();

  // Stage 2: confirmation on the larger samples: the group samples, or the table when it fits.
  Level confirm("sample", profile.rows, num_columns, properties, &choice);
  AddRowStage(confirm, data, row_stage_rows);
  if (grouped) {
    for (int c : candidates) {
      const GroupSample& group = data.group_samples[c];
      if (!group.usable()) continue;
      confirm.SetAnchor(c, confirm.AddStage(group.rows, group.positions,
                                            StrCat("whole groups of ", profile.columns[c].name)));
    }
  }
  Level* judge = &screen;
  if (confirm.largest_stage_rows() > screen.largest_stage_rows()) {
    judge = &confirm;
    TARN_RETURN_NOT_OK(confirm.Measure({}, "the rows as they are").status());
    // The finalists: first the best key of each screen sample, best first (a sample compares
    // the keys measured on it more surely than keys on different samples, whose leading
    // columns' groups and value densities differ: the larger samples settle those), then the
    // next best keys.
    std::vector<std::vector<int>> finalists;
    std::set<const Stage*> samples;
    for (const auto& [key, bytes] : ranked) {
      if (finalists.size() >= kFinalists) break;
      if (key.empty() || !samples.insert(&screen.StageFor(key)).second) continue;
      if (!AlikeAny(alike_counts, finalists, key)) finalists.push_back(key);
    }
    for (const auto& [key, bytes] : ranked) {
      if (finalists.size() >= kFinalists) break;
      if (key.empty() || std::find(finalists.begin(), finalists.end(), key) != finalists.end()) {
        continue;
      }
      if (!AlikeAny(alike_counts, finalists, key)) finalists.push_back(key);
    }
    size_t extended = 0;
    for (const std::vector<int>& key : finalists) {
      TARN_RETURN_NOT_OK(cancelled());
      TARN_RETURN_NOT_OK(confirm.Measure(key, "a finalist of the screen").status());
      if (extended < kExtendedFinalists && static_cast<int>(key.size()) < options.max_key_columns) {
        ++extended;
        std::vector<std::vector<int>> ignored;
        TARN_RETURN_NOT_OK(Extend(confirm, profile, candidates, key, &ignored));
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
  // Counts over the whole table (it fits the sample) are exact: keep them in the profile.
  Stage& whole = judge->stage(0);
  if (whole.rows() == profile.rows) {
    for (const auto& [set, count] : whole.distinct().counted()) {
      if (set.size() < 2) continue;
      if (profile.Distinct(set).has_value()) continue;
      ColumnSetDistinct entry;
      entry.columns = set;
      entry.distinct = count;
      entry.exact = true;
      choice.profile.column_sets.push_back(std::move(entry));
    }
  }
  Stage& best_stage = judge->StageFor(best_key);
  const std::string basis = best_stage.rows() == profile.rows
                                ? StrCat(" bytes")
                                : StrCat(" bytes for the table, from ", best_stage.rows(),
                                         " rows (", best_stage.label(), ")");
  if (best_key.empty()) {
    choice.reason =
        StrCat("no key beats the rows as they are (", best_bytes, basis, "): write them unsorted");
  } else {
    choice.reason = StrCat("the smallest file: ", best_bytes, basis, ", vs ", choice.unsorted_bytes,
                           " as they are");
  }
  return choice;
}

}  // namespace tarn::layout
