// Statistics of a VARIANT column as DuckLake keeps them (ducklake_file_variant_stats): one
// entry per fully shredded sub-field. The paths and the choice of shredded type follow DuckDB
// 1.5's Parquet writer: at every path the most frequent kind of value (the first seen on a
// tie) is the shredded type; objects shred their fields, arrays their elements; a path is
// fully shredded when no value there has another kind (variant nulls and missing fields aside).
// Paths are spelled as the extension spells them: root, element, "name", "a".element.
//
// Thread-safety: a VariantStatsCollector is not thread-safe; VariantFieldStats are values.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/variant.h"
#include "tarn/columnar.h"

namespace tarn::variant {

struct VariantFieldStats {
  std::string path;         // root, element, "a", "a".element
  DataType type;            // the shredded scalar type
  int64_t num_values = 0;   // slots at the path, NULLs included (Parquet's num_values)
  int64_t null_count = 0;   // slots holding no value of `type`
  std::optional<Value> min;  // NaN excluded
  std::optional<Value> max;
  bool contains_nan = false;  // floating types only
  int64_t size_bytes = 0;     // encoded bytes of the values (an estimate of the column size)
};

class VariantStatsCollector {
 public:
  VariantStatsCollector();
  ~VariantStatsCollector();
  VariantStatsCollector(VariantStatsCollector&&) noexcept;
  VariantStatsCollector& operator=(VariantStatsCollector&&) noexcept;

  // Folds a kVariant column in. Rows that do not decode count as variant nulls.
  void Add(const Column& column);
  // Folds one row in (nullptr: a NULL row).
  void AddRow(const VariantNode* node);

  int64_t rows() const { return rows_; }
  int64_t null_rows() const { return null_rows_; }
  // The fully shredded fields, ordered by path.
  std::vector<VariantFieldStats> Finish() const;

  struct PathState;

 private:
  int64_t rows_ = 0;
  int64_t null_rows_ = 0;
  std::unique_ptr<PathState> root_;
};

// The DuckLake type a shredded scalar is stored as in Parquet (UTINYINT → INT16, UINTEGER →
// INT64, HUGEINT → INT64), as DuckDB's variant writer maps it.
DataType ShreddedType(const DataType& scalar);

}  // namespace tarn::variant
