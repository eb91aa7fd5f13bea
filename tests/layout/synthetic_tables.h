// Synthetic tables with known structure for the picker's tests: each is generated from a
// fixed seed, rows in random order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tarn/columnar.h"
#include "tarn/layout.h"

namespace tarn::testing {

// Builds a batch from per-column generators called once per row.
class TableBuilder {
 public:
  void Add(std::string name, DataType type) {
    fields_.emplace_back(std::move(name), type);
    builders_.push_back(std::make_unique<ColumnBuilder>(type));
  }
  ColumnBuilder& column(int index) { return *builders_[index]; }
  std::shared_ptr<Batch> Finish(int64_t rows) {
    std::vector<std::shared_ptr<Column>> columns;
    for (auto& builder : builders_) columns.push_back(builder->Finish());
    auto batch = MakeBatch(std::make_shared<Schema>(fields_), std::move(columns));
    batch->num_rows = rows;
    return batch;
  }

 private:
  std::vector<Field> fields_;
  std::vector<std::unique_ptr<ColumnBuilder>> builders_;
};

// date → month → year: a day over three years, its month and year, a store and an amount.
inline std::shared_ptr<Batch> DependencyChainTable(int64_t rows, uint32_t seed = 1) {
  std::mt19937_64 rng(seed);
  TableBuilder t;
  t.Add("amount", DataType(TypeId::kInt64));
  t.Add("year", DataType(TypeId::kInt32));
  t.Add("month", DataType(TypeId::kInt32));
  t.Add("day", DataType(TypeId::kDate));
  t.Add("store", DataType(TypeId::kVarchar));
  for (int64_t row = 0; row < rows; ++row) {
    const int32_t day = 10957 + static_cast<int32_t>(rng() % 1096);  // 2000-01-01 + 3 years
    const int32_t year = 2000 + (day - 10957) / 365;
    const int32_t month = year * 100 + ((day - 10957) % 365) / 31 + 1;
    t.column(0).AppendNumber<int64_t>(static_cast<int64_t>(rng() % 1000));
    t.column(1).AppendNumber<int32_t>(year);
    t.column(2).AppendNumber<int32_t>(month);
    t.column(3).AppendNumber<int32_t>(day);
    t.column(4).AppendBytes("store-" + std::to_string(rng() % 12));
  }
  return t.Finish(rows);
}

// country → city: 400 cities in 20 countries, a product, a quantity.
inline std::shared_ptr<Batch> HierarchyTable(int64_t rows, uint32_t seed = 2) {
  std::mt19937_64 rng(seed);
  TableBuilder t;
  t.Add("quantity", DataType(TypeId::kInt32));
  t.Add("city", DataType(TypeId::kVarchar));
  t.Add("product", DataType(TypeId::kInt32));
  t.Add("country", DataType(TypeId::kVarchar));
  for (int64_t row = 0; row < rows; ++row) {
    const int city = static_cast<int>(rng() % 400);
    t.column(0).AppendNumber<int32_t>(static_cast<int32_t>(rng() % 50));
    t.column(1).AppendBytes("city-number-" + std::to_string(city));
    t.column(2).AppendNumber<int32_t>(static_cast<int32_t>(rng() % 30));
    t.column(3).AppendBytes("country-" + std::to_string(city % 20));
  }
  return t.Finish(rows);
}

// A near-unique id (shuffled), a category, a value drawn per category.
inline std::shared_ptr<Batch> NearUniqueTable(int64_t rows, uint32_t seed = 3) {
  std::mt19937_64 rng(seed);
  std::vector<int64_t> ids(static_cast<size_t>(rows));
  for (int64_t i = 0; i < rows; ++i) ids[i] = i * 7 + 1000000;
  std::shuffle(ids.begin(), ids.end(), rng);
  TableBuilder t;
  t.Add("id", DataType(TypeId::kInt64));
  t.Add("category", DataType(TypeId::kInt32));
  t.Add("value", DataType(TypeId::kInt64));
  for (int64_t row = 0; row < rows; ++row) {
    const int category = static_cast<int>(rng() % 8);
    t.column(0).AppendNumber<int64_t>(ids[row]);
    t.column(1).AppendNumber<int32_t>(category);
    t.column(2).AppendNumber<int64_t>(category * 1000 + static_cast<int64_t>(rng() % 20));
  }
  return t.Finish(rows);
}

// A mid-cardinality `route` (300 values) that determines its carrier, origin and distance,
// beside an independent low-cardinality `weekday`: ascending cardinality puts weekday first
// and cuts every route into 7 pieces; route first clusters four columns at once.
inline std::shared_ptr<Batch> CorrelatedTable(int64_t rows, uint32_t seed = 4) {
  std::mt19937_64 rng(seed);
  TableBuilder t;
  t.Add("weekday", DataType(TypeId::kInt32));
  t.Add("carrier", DataType(TypeId::kVarchar));
  t.Add("origin", DataType(TypeId::kVarchar));
  t.Add("route", DataType(TypeId::kInt32));
  t.Add("distance", DataType(TypeId::kInt32));
  t.Add("delay", DataType(TypeId::kInt32));
  for (int64_t row = 0; row < rows; ++row) {
    const int route = static_cast<int>(rng() % 300);
    t.column(0).AppendNumber<int32_t>(static_cast<int32_t>(rng() % 7));
    t.column(1).AppendBytes("carrier-" + std::to_string(route % 17));
    t.column(2).AppendBytes("airport-" + std::to_string((route * 7) % 61));
    t.column(3).AppendNumber<int32_t>(route);
    t.column(4).AppendNumber<int32_t>(100 + (route * 37) % 2500);
    t.column(5).AppendNumber<int32_t>(static_cast<int32_t>(rng() % 120) - 20);
  }
  return t.Finish(rows);
}

// The shape of shuffled flights: a coarse `distance` (300 values, each a thousand rows of
// 300,000) that determines its `destination` but for a few, a `time` with two rows per value
// and a skewed `delay`. The smallest file sorts by the destination and then the time: each
// destination's rows in time order. Sorted by the time first, the destinations and distances
// are scattered. On rows sampled at random a destination keeps a fraction of its rows, times
// far apart, while a key led by the time loses nothing: such a sample makes the time look
// the better leading column.
inline std::shared_ptr<Batch> CoarseGroupsTable(int64_t rows, uint32_t seed = 6) {
  std::mt19937_64 rng(seed);
  TableBuilder t;
  t.Add("time", DataType(TypeId::kTimestamp));
  t.Add("delay", DataType(TypeId::kInt64));
  t.Add("distance", DataType(TypeId::kInt64));
  t.Add("destination", DataType(TypeId::kVarchar));
  const int64_t minutes = std::max<int64_t>(1, rows / 2);
  for (int64_t row = 0; row < rows; ++row) {
    const int route = static_cast<int>(rng() % 900);
    const int64_t minute = static_cast<int64_t>(rng() % static_cast<uint64_t>(minutes));
    const int64_t delay = static_cast<int64_t>(rng() % 2000) - 60;
    t.column(0).AppendNumber<int64_t>(978307200000000LL + minute * 60000000LL);
    t.column(1).AppendNumber<int64_t>(delay);
    t.column(2).AppendNumber<int64_t>(100 + (route / 3) * 17);
    t.column(3).AppendBytes("airport-" + std::to_string((route * 13 + 5) % 61));
  }
  return t.Finish(rows);
}

// Every ordered key of 1..max_columns distinct columns of `batch`.
inline std::vector<std::vector<int>> AllOrderedKeys(int columns, int max_columns) {
  std::vector<std::vector<int>> keys;
  std::vector<int> key;
  auto grow = [&](auto&& self) -> void {
    if (!key.empty()) keys.push_back(key);
    if (static_cast<int>(key.size()) == max_columns) return;
    for (int c = 0; c < columns; ++c) {
      if (std::find(key.begin(), key.end(), c) != key.end()) continue;
      key.push_back(c);
      self(self);
      key.pop_back();
    }
  };
  grow(grow);
  return keys;
}


// Many columns determined by one (`route`, 2,000 values, determines carrier, origin,
// destination and distance) beside a day that determines its month, an hour that depends
// loosely on the route, and noise. Every column the route determines can go ahead of it
// without changing the groups, so a beam that does not tell such keys apart fills with them
// and never extends (route, hour).
inline std::shared_ptr<Batch> DeterminedColumnsTable(int64_t rows, uint32_t seed = 5) {
  std::mt19937_64 rng(seed);
  TableBuilder t;
  t.Add("day", DataType(TypeId::kDate));
  t.Add("month", DataType(TypeId::kInt32));
  t.Add("carrier", DataType(TypeId::kVarchar));
  t.Add("origin", DataType(TypeId::kVarchar));
  t.Add("destination", DataType(TypeId::kVarchar));
  t.Add("route", DataType(TypeId::kInt32));
  t.Add("distance", DataType(TypeId::kInt32));
  t.Add("hour", DataType(TypeId::kInt32));
  t.Add("delay", DataType(TypeId::kInt32));
  for (int64_t row = 0; row < rows; ++row) {
    const int d = static_cast<int>(rng() % 365);
    const int r = static_cast<int>(rng() % 2000);
    t.column(0).AppendNumber<int32_t>(20089 + d);
    t.column(1).AppendNumber<int32_t>(1 + d * 12 / 365);
    t.column(2).AppendBytes("carrier-" + std::to_string(r % 23));
    t.column(3).AppendBytes("airport-" + std::to_string((r * 7) % 151));
    t.column(4).AppendBytes("airport-" + std::to_string((r * 13 + 5) % 151));
    t.column(5).AppendNumber<int32_t>(r);
    t.column(6).AppendNumber<int32_t>(150 + (r * 37) % 4800);
    t.column(7).AppendNumber<int32_t>((r % 18) + 5 + static_cast<int32_t>(rng() % 3));
    t.column(8).AppendNumber<int32_t>(static_cast<int32_t>(rng() % 180) - 30);
  }
  return t.Finish(rows);
}

}  // namespace tarn::testing
