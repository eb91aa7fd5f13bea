// duckrun's SORTED BY AUTO heuristic, as its documentation and source describe it
// (docs/layout.md has the rules and where tarn had to read between the lines).
//
// Candidates: more than one distinct value, an effective cardinality 1/Σp² of at least 1.5,
// not a measure (DECIMAL, FLOAT, DOUBLE), not an INTERVAL, at most half NULL. A temporal
// column with fewer distinct values than half the rows leads (DATE first, then the fewest
// distinct values); the rest follow in ascending distinct count. Greedy, at most 4 columns: a
// candidate whose prefix-with-it has fewer than 2 × the prefix's groups is checked with exact
// counts and dropped when under 1.12 ×; the key stops at the first column that brings the
// groups to half the rows. Then, with the byte model, a near-unique column (distinct ≥ 0.9 n)
// replaces a key that saves under 10%, and up to 4 measures join the tail when each saves 25%
// of its own bytes and 0.5% of the table's.
#include <algorithm>
#include <cmath>

#include "layout/picker_internal.h"

namespace tarn::layout {
namespace {

constexpr int kMaxRuleColumns = 4;

bool IsMeasure(const DataType& type) {
  return type.id == TypeId::kDecimal || type.IsFloating();
}

bool IsTemporalKey(const DataType& type) {
  return type.IsTemporal() && type.id != TypeId::kInterval;
}

double Log2Ceil(double value) { return std::ceil(std::log2(std::max(value, 2.0))); }

// Distinct counts of a prefix and the prefix with one more column, on one basis: the table's
// profile when it has both, else the sample (the table itself when it fits).
struct PairCount {
  double prefix = 1;
  double with = 1;
  double basis = 1;
};

class Counts {
 public:
  Counts(const ProfiledRows& rows)
      : profile_(rows.profile), sample_(rows.hashes, rows.sample->num_rows) {}

  PairCount Pair(const std::vector<int>& prefix, int column) {
    std::vector<int> with = prefix;
    with.push_back(column);
    PairCount out;
    if (prefix.empty()) {
      out.prefix = 1;
      std::optional<int64_t> table = profile_.Distinct(with);
      out.with = static_cast<double>(table.value_or(sample_.Count(with)));
      out.basis = static_cast<double>(table ? profile_.rows : sample_.rows());
      return out;
    }
    std::optional<int64_t> p = profile_.Distinct(prefix);
    std::optional<int64_t> w = profile_.Distinct(with);
    if (p && w) return PairCount{static_cast<double>(*p), static_cast<double>(*w),
                                 static_cast<double>(profile_.rows)};
    return Exact(prefix, column);
  }

  // Exact counts on the sample.
  PairCount Exact(const std::vector<int>& prefix, int column) {
    std::vector<int> with = prefix;
    with.push_back(column);
    return PairCount{prefix.empty() ? 1.0 : static_cast<double>(sample_.Count(prefix)),
                     static_cast<double>(sample_.Count(with)),
                     static_cast<double>(sample_.rows())};
  }

  // Groups of `set` as a share of the rows.
  double Share(const std::vector<int>& set) {
    std::optional<int64_t> table = profile_.Distinct(set);
    if (table) return static_cast<double>(*table) / static_cast<double>(profile_.rows);
    return static_cast<double>(sample_.Count(set)) / static_cast<double>(sample_.rows());
  }

 private:
  const TableProfile& profile_;
  SampleDistinct sample_;
};

// The byte model of one column with `runs` runs over n rows.
double ColumnBytes(const ColumnProfile& column, double runs, double n) {
  const double ndv = std::max<double>(1, static_cast<double>(column.distinct));
  const double b = Log2Ceil(ndv);
  double bytes = std::min(n * b / 8, runs * (b + Log2Ceil(n)) / 8);
  if (column.type.IsVarLength()) bytes += ndv * column.average_width;
  return bytes;
}

double IidRuns(const ColumnProfile& column, double n) {
  const double ndv = static_cast<double>(column.distinct);
  return std::min(n, std::max(ndv, n * (1 - column.skew)));
}

// The model's bytes of the table sorted by `key` (empty: in arbitrary order).
double ModelBytes(const TableProfile& profile, Counts& counts, const std::vector<int>& key) {
  const double n = static_cast<double>(std::max<int64_t>(profile.rows, 1));
  double total = 0;
  for (int c = 0; c < static_cast<int>(profile.columns.size()); ++c) {
    const ColumnProfile& column = profile.columns[c];
    double runs = IidRuns(column, n);
    auto at = std::find(key.begin(), key.end(), c);
    if (at != key.end()) {
      std::vector<int> prefix(key.begin(), at + 1);
      runs = std::min(runs, counts.Share(prefix) * n);
    } else if (!key.empty() && column.candidate) {
      std::vector<int> with = key;
      with.push_back(c);
      const double share_with = counts.Share(with);
      if (share_with < 1.12 * counts.Share(key)) runs = std::min(runs, share_with * n);
    }
    total += ColumnBytes(column, runs, n);
  }
  return total;
}

}  // namespace

Result<SortKeyChoice> PickByRules(const ProfiledRows& rows, const PickerOptions& options) {
  (void)options;
  SortKeyChoice choice;
  choice.mode = PickerMode::kRules;
  choice.profile = rows.profile;
  const TableProfile& profile = rows.profile;
  const double n = static_cast<double>(std::max<int64_t>(profile.rows, 1));
  Counts counts(rows);
  auto note = [&](std::vector<int> key, std::string text, double modelled = -1) {
    KeyCandidate candidate;
    candidate.columns = std::move(key);
    candidate.modelled_bytes = modelled;
    candidate.note = std::move(text);
    choice.candidates.push_back(std::move(candidate));
  };

  std::vector<int> eligible;
  std::vector<int> measures;
  for (int c = 0; c < static_cast<int>(profile.columns.size()); ++c) {
    const ColumnProfile& column = profile.columns[c];
    if (!column.candidate) continue;
    if (IsMeasure(column.type)) {
      measures.push_back(c);
      continue;
    }
    if (column.type.id == TypeId::kInterval) {
      note({c}, "not a candidate: INTERVAL");
      continue;
    }
    if (1.0 / std::max(column.skew, 1e-12) < 1.5) {
      note({c}, "not a candidate: effective cardinality 1/skew under 1.5");
      continue;
    }
    eligible.push_back(c);
  }
  // The lead: the coarsest temporal column that is not near-unique, DATE first.
  int lead = -1;
  for (int c : eligible) {
    const ColumnProfile& column = profile.columns[c];
    if (!IsTemporalKey(column.type) || static_cast<double>(column.distinct) >= 0.5 * n) continue;
    if (lead < 0) {
      lead = c;
      continue;
    }
    const ColumnProfile& best = profile.columns[lead];
    const bool date = column.type.id == TypeId::kDate;
    const bool best_date = best.type.id == TypeId::kDate;
    if (date != best_date ? date : column.distinct < best.distinct) lead = c;
  }
  std::vector<int> order;
  if (lead >= 0) order.push_back(lead);
  std::vector<int> rest;
  for (int c : eligible) {
    if (c != lead) rest.push_back(c);
  }
  std::stable_sort(rest.begin(), rest.end(), [&](int a, int b) {
    return profile.columns[a].distinct < profile.columns[b].distinct;
  });
  order.insert(order.end(), rest.begin(), rest.end());

  std::vector<int> key;
  for (int c : order) {
    if (static_cast<int>(key.size()) >= kMaxRuleColumns) break;
    PairCount pair = counts.Pair(key, c);
    std::vector<int> with = key;
    with.push_back(c);
    if (!key.empty() && pair.with < 2.0 * pair.prefix) {
      const PairCount exact = counts.Exact(key, c);
      if (exact.with < 1.12 * exact.prefix) {
        note(with, StrCat(profile.columns[c].name, " dropped: (nearly) determined by ",
                          KeyText(profile, key), " (", static_cast<int64_t>(exact.with),
                          " vs ", static_cast<int64_t>(exact.prefix), " groups)"));
        continue;
      }
      pair = exact;
    }
    key.push_back(c);
    const bool grain = pair.with >= 0.5 * pair.basis;
    note(key, StrCat(profile.columns[c].name, " added", c == lead ? " (temporal lead)" : "",
                     grain ? "; the key is at the grain" : ""),
         ModelBytes(profile, counts, key));
    if (grain) break;
  }

  const double unsorted = ModelBytes(profile, counts, {});
  double sorted = key.empty() ? unsorted : ModelBytes(profile, counts, key);
  // A near-unique column wins when the key saves little.
  if (unsorted > 0 && sorted > 0.9 * unsorted) {
    for (int c = 0; c < static_cast<int>(profile.columns.size()); ++c) {
      const ColumnProfile& column = profile.columns[c];
      if (!column.candidate || static_cast<double>(column.distinct) < 0.9 * n) continue;
      key = {c};
      sorted = ModelBytes(profile, counts, key);
      note(key, StrCat("the key saves under 10%: sort by the near-unique ", column.name),
           sorted);
      break;
    }
  }
  // The measure tail.
  if (!key.empty()) {
    int tail = 0;
    for (int m : measures) {
      if (tail >= 4) break;
      const ColumnProfile& column = profile.columns[m];
      const double own = ColumnBytes(column, IidRuns(column, n), n);
      std::vector<int> with = key;
      with.push_back(m);
      const double after = ColumnBytes(column, std::min(IidRuns(column, n), counts.Share(with) * n), n);
      const double saved = own - after;
      if (own > 0 && saved >= 0.25 * own && saved >= 0.005 * unsorted) {
        key = with;
        ++tail;
        note(key, StrCat("measure ", column.name, " joins the tail"),
             ModelBytes(profile, counts, key));
      }
    }
  }
  choice.key = KeyColumns(profile, key);
  choice.reason = key.empty() ? "no candidate column: the rows stay as they are"
                              : StrCat("duckrun's rules; modelled ", static_cast<int64_t>(sorted),
                                       " bytes vs ", static_cast<int64_t>(unsorted), " unsorted");
  return choice;
}

}  // namespace tarn::layout
