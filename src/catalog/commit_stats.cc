// Table statistics: ducklake_table_stats (counts and next_row_id) and the table-wide bounds of
// ducklake_table_column_stats, merged with typed comparisons (reference §2.5, §3.6).
//
// As the extension does, the first write to a table inserts its rows; later writes update
// the table_stats row and the column rows that exist (a column added after the first write
// gets no table-wide row).
#include <cstring>

#include "catalog/commit_internal.h"
#include "catalog/row_reader.h"
#include "catalog/variant_extra_stats.h"
#include "columnar/geometry.h"

namespace tarn::catalog_internal {

namespace {

using T = CatalogType;

// A value re-expressed in `type` through its statistics text (so that bounds written under an
// older type, e.g. before int32 -> int64, compare with new ones).
Result<Value> Normalize(const Value& value, const DataType& type) {
  TARN_ASSIGN_OR_RETURN(std::string text, EncodeStatsValue(value, value.type()));
  return DecodeStatsValue(text, type);
}

bool HasNul(const Value& value) {
  if (const auto* bytes = std::get_if<std::string>(&value.storage())) {
    return (value.type().id == TypeId::kVarchar || value.type().id == TypeId::kJson) &&
           bytes->find('\0') != std::string::npos;
  }
  return false;
}

CatalogDatum BoundText(const std::optional<Value>& bound, const DataType& type) {
  if (!bound.has_value()) return CatalogDatum::Null();
  Result<std::string> text = EncodeStatsValue(*bound, type);
  return text.ok() ? CatalogDatum::Text(*text) : CatalogDatum::Null();
}

CatalogDatum OptBool(std::optional<bool> v) {
  return v.has_value() ? CatalogDatum::Boolean(*v) : CatalogDatum::Null();
}

}  // namespace

int CompareStatsValues(const Value& a, const Value& b) {
  const Value::Storage& x = a.storage();
  const Value::Storage& y = b.storage();
  auto order = [](const auto& l, const auto& r) { return l < r ? -1 : (r < l ? 1 : 0); };
  if (x.index() != y.index()) return order(x.index(), y.index());
  if (const auto* v = std::get_if<bool>(&x)) return order(*v, std::get<bool>(y));
  if (const auto* v = std::get_if<int64_t>(&x)) return order(*v, std::get<int64_t>(y));
  if (const auto* v = std::get_if<uint64_t>(&x)) return order(*v, std::get<uint64_t>(y));
  if (const auto* v = std::get_if<__int128>(&x)) return order(*v, std::get<__int128>(y));
  if (const auto* v = std::get_if<double>(&x)) return order(*v, std::get<double>(y));
  if (const auto* v = std::get_if<std::string>(&x)) {
    int c = v->compare(std::get<std::string>(y));  // bytewise, as unsigned chars
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  return 0;
}

Result<TableStatsAccum*> StatsFor(CommitAttempt* a, int64_t table_id) {
  auto it = a->stats.find(table_id);
  if (it != a->stats.end()) return &it->second;
  TableStatsAccum accum;
  TARN_ASSIGN_OR_RETURN(
      CatalogResult result,
      RunQuery(a->store,
               "SELECT table_id, record_count, next_row_id, file_size_bytes FROM "
               "ducklake_table_stats WHERE table_id = ?1",
               {CatalogDatum::Integer(table_id)}, {T::kBigint, T::kBigint, T::kBigint, T::kBigint},
               "ducklake_table_stats"));
  if (result.rows.size() > 1) {
    return Status::Corruption(StoreName(*a->store), ": ducklake_table_stats has ",
                              result.rows.size(), " rows for table_id ", table_id);
  }
  if (result.rows.size() == 1) {
    RowReader row(*a->store, result, 0, "ducklake_table_stats", {0});
    TARN_ASSIGN_OR_RETURN(accum.old_record_count, row.Int(1));
    TARN_ASSIGN_OR_RETURN(accum.next_row_id, row.Int(2));
    TARN_ASSIGN_OR_RETURN(accum.old_file_size_bytes, row.Int(3));
    if (accum.next_row_id < 0 || accum.old_record_count < 0) {
      return row.Error("negative record_count or next_row_id");
    }
    accum.initialized = true;
  }
  return &a->stats.emplace(table_id, std::move(accum)).first->second;
}

Status AccumulateColumnStats(ColumnStatsAccum* accum, const DataType& type,
                             const std::optional<Value>& min, const std::optional<Value>& max,
                             bool has_null, std::optional<bool> contains_nan) {
  accum->contains_null = accum->contains_null || has_null;
  if (contains_nan.has_value()) {
    accum->contains_nan = accum->contains_nan.value_or(false) || *contains_nan;
  }
  auto fold = [&](const std::optional<Value>& bound, std::optional<Value>* slot,
                  int keep_sign) -> Status {
    if (!bound.has_value() || bound->is_null() || HasNul(*bound)) return Status::OK();
    TARN_ASSIGN_OR_RETURN(Value v, Normalize(*bound, type));
    if (!slot->has_value() || CompareStatsValues(v, **slot) * keep_sign > 0) *slot = std::move(v);
    return Status::OK();
  };
  TARN_RETURN_NOT_OK(fold(min, &accum->min, -1));
  TARN_RETURN_NOT_OK(fold(max, &accum->max, 1));
  return Status::OK();
}

void MergeExtraStats(const DataType& type, bool into_seen, std::optional<std::string>* into,
                     const std::optional<std::string>& more) {
  if (type.id == TypeId::kVariant) {
    if (!into_seen) {
      *into = more;
    } else {
      MergeVariantExtraStats(into, more);
    }
    return;
  }
  if (!more.has_value()) return;
  if (!into->has_value()) {
    *into = more;
    return;
  }
  std::optional<geometry::GeometryStats> merged = geometry::GeometryStats::FromJson(**into);
  std::optional<geometry::GeometryStats> added = geometry::GeometryStats::FromJson(*more);
  if (!merged || !added) return;
  merged->Merge(*added);
  *into = merged->ToJson();
}

Status WriteTableStats(CommitAttempt* a) {
  for (auto& [table_id, accum] : a->stats) {
    TARN_ASSIGN_OR_RETURN(TableState * table, a->Table(table_id));
    if (table->dropped_here) continue;
    const int64_t record_count = accum.old_record_count + accum.added_records;
    const int64_t file_size = accum.old_file_size_bytes + accum.added_bytes;
    auto type_of = [&](int64_t column_id) -> Result<DataType> {
      const ColumnInfo* column = FindInTree(table->columns, column_id);
      if (column == nullptr) {
        return Status::InvalidArgument("statistics for column_id ", column_id,
                                       ", which table ", table->schema_name, ".", table->name,
                                       " does not have");
      }
      return column->type;
    };
    if (!accum.initialized) {
      TARN_RETURN_NOT_OK(Exec(a->store, "INSERT INTO ducklake_table_stats VALUES (?1, ?2, ?3, ?4)",
                              {CatalogDatum::Integer(table_id), CatalogDatum::Integer(record_count),
                               CatalogDatum::Integer(accum.next_row_id),
                               CatalogDatum::Integer(file_size)}));
      for (const auto& [column_id, col] : accum.columns) {
        TARN_ASSIGN_OR_RETURN(DataType type, type_of(column_id));
        TARN_RETURN_NOT_OK(Exec(
            a->store, "INSERT INTO ducklake_table_column_stats VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            {CatalogDatum::Integer(table_id), CatalogDatum::Integer(column_id),
             CatalogDatum::Boolean(col.contains_null), OptBool(col.contains_nan),
             BoundText(col.min, type), BoundText(col.max, type), OptText(col.extra_stats)}));
      }
      continue;
    }
    TARN_RETURN_NOT_OK(Exec(a->store,
                            "UPDATE ducklake_table_stats SET record_count = ?1, file_size_bytes = "
                            "?2, next_row_id = ?3 WHERE table_id = ?4",
                            {CatalogDatum::Integer(record_count), CatalogDatum::Integer(file_size),
                             CatalogDatum::Integer(accum.next_row_id),
                             CatalogDatum::Integer(table_id)}));
    TARN_ASSIGN_OR_RETURN(
        CatalogResult existing,
        RunQuery(a->store,
                 "SELECT table_id, column_id, contains_null, contains_nan, min_value, max_value, "
                 "extra_stats FROM ducklake_table_column_stats WHERE table_id = ?1",
                 {CatalogDatum::Integer(table_id)},
                 {T::kBigint, T::kBigint, T::kBoolean, T::kBoolean, T::kVarchar, T::kVarchar,
                  T::kVarchar},
                 "ducklake_table_column_stats"));
    for (size_t i = 0; i < existing.rows.size(); ++i) {
      RowReader row(*a->store, existing, i, "ducklake_table_column_stats", {0, 1});
      TARN_ASSIGN_OR_RETURN(int64_t column_id, row.Int(1));
      auto col_it = accum.columns.find(column_id);
      if (col_it == accum.columns.end()) continue;
      const ColumnStatsAccum& fresh = col_it->second;
      TARN_ASSIGN_OR_RETURN(DataType type, type_of(column_id));
      ColumnStatsAccum merged;
      std::optional<bool> old_null = row.OptBool(2);
      merged.contains_null = old_null.value_or(false) || fresh.contains_null;
      std::optional<bool> old_nan = row.OptBool(3);
      if (old_nan.has_value() || fresh.contains_nan.has_value()) {
        merged.contains_nan = old_nan.value_or(false) || fresh.contains_nan.value_or(false);
      }
      for (int side = 0; side < 2; ++side) {
        std::optional<std::string> text = row.OptText(4 + side);
        std::optional<Value>* slot = side == 0 ? &merged.min : &merged.max;
        if (text.has_value()) {
          Result<Value> old = DecodeStatsValue(*text, type);
          if (!old.ok()) {
            return row.Error(side == 0 ? "min_value" : "max_value", ": ", old.status().message());
          }
          *slot = std::move(old).value();
        }
      }
      TARN_RETURN_NOT_OK(AccumulateColumnStats(&merged, type, fresh.min, fresh.max, false,
                                               std::nullopt));
      merged.extra_stats = row.OptText(6);
      MergeExtraStats(type, /*into_seen=*/true, &merged.extra_stats, fresh.extra_stats);
      TARN_RETURN_NOT_OK(Exec(a->store,
                              "UPDATE ducklake_table_column_stats SET contains_null = ?1, "
                              "contains_nan = ?2, min_value = ?3, max_value = ?4, "
                              "extra_stats = ?5 WHERE table_id = ?6 AND column_id = ?7",
                              {CatalogDatum::Boolean(merged.contains_null),
                               OptBool(merged.contains_nan), BoundText(merged.min, type),
                               BoundText(merged.max, type), OptText(merged.extra_stats),
                               CatalogDatum::Integer(table_id),
                               CatalogDatum::Integer(column_id)}));
    }
  }
  return Status::OK();
}

}  // namespace tarn::catalog_internal
