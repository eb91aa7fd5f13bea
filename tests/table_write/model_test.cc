// The randomized model test: random inserts (inlined and to files), deletes, updates, column
// adds (half of them of the write type matrix's types, LIST, STRUCT and MAP included, with
// their extremes and NULLs), drops, renames and type promotions, and sort keys set, changed and reset (SET SORTED
// BY: plain columns and an expression, ASC/DESC, NULLS FIRST/LAST), partition keys set and
// reset (identity and bucket(n) of integer and VARCHAR columns), some several in one
// transaction, committed one transaction per step, against an in-memory model keyed by rowid. Between steps it runs the
// maintenance procedures with random options: flushing inlined data, merging adjacent files,
// rewriting files with deletes (each a snapshot whose rows equal the one before), expiring
// random past snapshots (they leave the model and must no longer load), cleaning up old files
// and deleting orphaned files (nothing a remaining snapshot reads may go). Every past snapshot
// is read back (time travel) every 25 steps and at the end, and a random one after each step.
// Every file a flush, merge, rewrite or a transaction of one insert writes is read back alone:
// its rows are in the order of the table's sort key (a DROP COLUMN of a key column is refused).
// (The periodic checks reuse each past snapshot's metadata once loaded, until a maintenance
// step changes files under it; the random checks and the final one reload it from the catalog,
// and the final one also reopens the lake.)
// CI runs 3 fixed seeds x 200 steps; TARN_LONG=1 runs 5,000 steps; TARN_MODEL_SEEDS=A-B runs
// more seeds. A failure names its seed and step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <random>
#include <sstream>

#include "support/type_matrix_values.h"
#include "tarn/lake_maintenance.h"
#include "tarn/sql.h"
#include "write_test_util.h"

namespace tarn {
namespace {

using write_testing::BatchOf;
using write_testing::EmptyLake;
using write_testing::ReaderOf;
using write_testing::TestLake;

struct ModelColumn {
  int key = 0;  // stable across renames
  std::string name;
  DataType type;
  Value default_value;  // INSERT default and the value older rows get
};

// One field of the table's sort key: a column (by model key) or, for column k, (k % 7).
struct ModelSortField {
  int key = 0;
  bool mod7 = false;
  bool descending = false;
  bool nulls_first = false;
};

struct ModelState {
  std::vector<ModelColumn> columns;
  std::map<int64_t, std::map<int, Value>> rows;  // rowid -> column key -> value
};

std::string Quote(const std::string& name) { return "\"" + name + "\""; }

// A type of the write type matrix (support/type_matrix_values.h) or a nesting of one, with its
// values as tarn Values and as SQL expressions (CAST(literal AS T)).
struct MatrixColumnType {
  DataType type;
  std::vector<Value> values;
  std::vector<std::string> literals;
};

// Every type of the matrix and a LIST, STRUCT and MAP of some of them, each value cast once by
// tarn itself (the type matrix test checks those casts against DuckDB). Left out: the 64 KiB
// strings (the matrix test writes them through every path) and HUGEINT values a DOUBLE does not
// carry exactly (files keep HUGEINT as DOUBLE, as DuckDB's writer does, so only inlined rows
// would keep them).
const std::vector<MatrixColumnType>& MatrixColumnTypes() {
  static const std::vector<MatrixColumnType> types = [] {
    std::vector<std::pair<std::string, std::vector<std::string>>> specs;
    for (const testing::MatrixType& type : testing::kTypes) {
      if (type.name == "varchar_long") continue;
      std::vector<std::string> literals;
      for (const std::string& value : type.values) {
        if (value == "9007199254740993") continue;
        literals.push_back(StrCat("CAST(", value, " AS ", type.sql_type, ")"));
      }
      specs.emplace_back(type.sql_type, std::move(literals));
    }
    specs.push_back({"INTEGER[]", {"[]::INTEGER[]", "[1, NULL, -2147483648]::INTEGER[]",
                                   "[2147483647]::INTEGER[]"}});
    specs.push_back({"VARCHAR[][]", {"[['a', NULL], [], NULL]::VARCHAR[][]",
                                     "[['ü€𝄞', '']]::VARCHAR[][]"}});
    specs.push_back({"STRUCT(a DOUBLE, b VARCHAR)",
                     {"{'a': 'NaN'::DOUBLE, 'b': 'x'}::STRUCT(a DOUBLE, b VARCHAR)",
                      "{'a': NULL, 'b': NULL}::STRUCT(a DOUBLE, b VARCHAR)",
                      "{'a': -0.0, 'b': ''}::STRUCT(a DOUBLE, b VARCHAR)"}});
    specs.push_back({"MAP(VARCHAR, DATE)",
                     {"MAP {'k': DATE '2000-01-01', 'l': NULL}::MAP(VARCHAR, DATE)",
                      "MAP {}::MAP(VARCHAR, DATE)"}});
    std::vector<MatrixColumnType> out;
    Session session;
    for (const auto& [sql_type, literals] : specs) {
      MatrixColumnType type;
      for (const std::string& literal : literals) {
        std::shared_ptr<Batch> batch;
        Status status = session.ExecuteScript("SELECT " + literal, [&](QueryResult& result) {
          TARN_ASSIGN_OR_RETURN(batch, ReadAllBatches(result.reader.get()));
          return Status::OK();
        });
        EXPECT_TRUE(status.ok()) << literal << ": " << status.ToString();
        if (!status.ok() || !batch || batch->num_rows != 1) continue;
        type.type = batch->schema->field(0).type;
        type.values.push_back(batch->column(0).GetValue(0));
        type.literals.push_back(literal);
      }
      if (!type.values.empty()) out.push_back(std::move(type));
    }
    return out;
  }();
  return types;
}

const MatrixColumnType* FindMatrixType(const DataType& type) {
  for (const MatrixColumnType& matrix : MatrixColumnTypes()) {
    if (matrix.type == type) return &matrix;
  }
  return nullptr;
}

// The types the model compares and predicates on itself (sort and partition keys use them).
bool IsBasicType(const DataType& type) {
  return type.id == TypeId::kInt32 || type.id == TypeId::kInt64 ||
         type.id == TypeId::kFloat64 || type.id == TypeId::kVarchar;
}

// A predicate the test can both write as SQL and evaluate on the model.
struct Predicate {
  enum Kind { kMod, kLess, kBetween, kFloatGreater, kFloatLess, kIsNaN, kAll } kind = kAll;
  int64_t a = 0;
  int64_t b = 0;
  double c = 0;

  std::string Sql(const std::string& k, const std::string& f) const {
    std::ostringstream out;
    out.precision(17);
    switch (kind) {
      case kMod: out << Quote(k) << " % " << a << " = " << b; break;
      case kLess: out << Quote(k) << " < " << a; break;
      case kBetween: out << Quote(k) << " BETWEEN " << a << " AND " << b; break;
      case kFloatGreater: out << Quote(f) << " > " << c; break;
      case kFloatLess: out << Quote(f) << " < " << c; break;
      case kIsNaN: out << "isnan(" << Quote(f) << ")"; break;
      case kAll: out << "true"; break;
    }
    return out.str();
  }
  bool Matches(const Value& k, const Value& f) const {
    const int64_t kv = k.GetInt64();
    switch (kind) {
      case kMod: return kv % a == b;
      case kLess: return kv < a;
      case kBetween: return kv >= a && kv <= b;
      case kFloatGreater: return !f.is_null() && (std::isnan(f.GetDouble()) || f.GetDouble() > c);
      case kFloatLess: return !f.is_null() && !std::isnan(f.GetDouble()) && f.GetDouble() < c;
      case kIsNaN: return !f.is_null() && std::isnan(f.GetDouble());
      case kAll: return true;
    }
    return false;
  }
};

class ModelRun {
 public:
  ModelRun(uint64_t seed, int steps,
           write_testing::CatalogBackend backend = write_testing::CatalogBackend::kSqlite,
           write_testing::DataStorage storage = write_testing::DataStorage::kLocal)
      : rng_(seed), seed_(seed), steps_(steps), backend_(backend), storage_(storage) {}

  void Run() {
    auto lake = EmptyLake(std::nullopt, backend_, storage_);
    ASSERT_TRUE(lake.ok()) << lake.status().ToString();
    lake_ = std::move(lake).value();
    // A small target file size so inserts also split into several files.
    {
      auto txn = Begin();
      ASSERT_TRUE(txn);
      std::vector<ColumnDefinition> columns = {
          {"k", DataType(TypeId::kInt64), false, std::nullopt},
          {"f", DataType(TypeId::kFloat64), true, std::nullopt},
          {"s", DataType(TypeId::kVarchar), true, std::nullopt}};
      ASSERT_TRUE(txn->CreateTable("main", "t", columns).ok());
      ASSERT_TRUE(txn->SetOption("target_file_size", "8192").ok());
      ASSERT_TRUE(txn->SetOption("parquet_row_group_size", "100").ok());
      Commit(std::move(txn));
      ASSERT_TRUE(lake_.Reopen().ok());  // options are read when a lake opens
      state_.columns = {{0, "k", DataType(TypeId::kInt64), Value::Null(DataType(TypeId::kInt64))},
                        {1, "f", DataType(TypeId::kFloat64),
                         Value::Null(DataType(TypeId::kFloat64))},
                        {2, "s", DataType(TypeId::kVarchar),
                         Value::Null(DataType(TypeId::kVarchar))}};
      next_key_ = 3;
      snapshots_[last_snapshot_] = state_;
    }
    const bool long_run = steps_ > 1000;
    for (step_ = 0; step_ < steps_; ++step_) {
      SCOPED_TRACE(StrCat("seed ", seed_, " step ", step_));
      Step();
      if (::testing::Test::HasFatalFailure() || ::testing::Test::HasNonfatalFailure()) {
        ADD_FAILURE() << "model test failed: seed " << seed_ << " step " << step_ << "\n"
                      << log_;
        return;
      }
      if ((step_ + 1) % 25 == 0) {
        if (!long_run || (step_ + 1) % 500 == 0) {
          CheckAll(/*fresh=*/false);
        } else {
          for (int i = 0; i < 10; ++i) CheckRandom();
        }
      } else if (rng_() % 10 == 0) {
        CheckRandom();
      }
      if (::testing::Test::HasFailure()) {
        ADD_FAILURE() << "model test failed: seed " << seed_ << " step " << step_ << "\n"
                      << log_;
        return;
      }
    }
    {
      Status reopened = lake_.Reopen();
      ASSERT_TRUE(reopened.ok()) << reopened.ToString();
    }
    CheckAll(/*fresh=*/true);
    if (::testing::Test::HasFailure()) ADD_FAILURE() << "model test failed: seed " << seed_;
  }

 private:
  std::unique_ptr<WriteTransaction> Begin() {
    auto txn = WriteTransaction::Begin(*lake_.lake, lake_.fs);
    EXPECT_TRUE(txn.ok()) << txn.status().ToString();
    return txn.ok() ? std::move(txn).value() : nullptr;
  }

  const ModelColumn* Find(int key) const {
    for (const ModelColumn& column : state_.columns) {
      if (column.key == key) return &column;
    }
    return nullptr;
  }

  Value RandomValue(const DataType& type) {
    if (rng_() % 7 == 0) return Value::Null(type);
    switch (type.id) {
      case TypeId::kInt32:
        return Value::Int(type, static_cast<int64_t>(rng_() % 2001) - 1000);
      case TypeId::kInt64:
        return Value::Int(type, static_cast<int64_t>(rng_() % 2000001) - 1000000);
      case TypeId::kFloat64: {
        static const double kSpecial[] = {std::nan(""), -std::nan(""), INFINITY, -INFINITY,
                                          -0.0, 0.0, 1.5, -1e300};
        if (rng_() % 3 == 0) return Value::Float64(kSpecial[rng_() % 8]);
        return Value::Float64(static_cast<double>(static_cast<int64_t>(rng_() % 20001) - 10000) /
                              8);
      }
      case TypeId::kVarchar: {
        static const char* kWords[] = {"", "a", "b c", "é", "日本", "x'y", "long long long"};
        return Value::Varchar(std::string(kWords[rng_() % 7]) + std::to_string(rng_() % 50));
      }
      default: {
        const MatrixColumnType* matrix = FindMatrixType(type);
        if (!matrix) return Value::Null(type);
        return matrix->values[rng_() % matrix->values.size()];
      }
    }
  }

  // SQL text for a literal of `value` (for UPDATE ... SET).
  static std::string Literal(const Value& value) {
    if (value.is_null()) return "NULL";
    switch (value.type().id) {
      case TypeId::kInt32:
      case TypeId::kInt64:
        return std::to_string(value.GetInt64());
      case TypeId::kFloat64: {
        const double v = value.GetDouble();
        if (std::isnan(v)) return "CAST('nan' AS DOUBLE)";
        if (std::isinf(v)) return v > 0 ? "CAST('inf' AS DOUBLE)" : "CAST('-inf' AS DOUBLE)";
        std::ostringstream out;
        out.precision(17);
        out << "CAST('" << v << "' AS DOUBLE)";  // text keeps the sign of -0.0
        return out.str();
      }
      case TypeId::kVarchar: {
        std::string out = "'";
        for (char c : value.GetBytes()) out += c == '\'' ? std::string("''") : std::string(1, c);
        return out + "'";
      }
      default: {
        if (const MatrixColumnType* matrix = FindMatrixType(value.type())) {
          for (size_t i = 0; i < matrix->values.size(); ++i) {
            if (matrix->values[i] == value) return matrix->literals[i];
          }
        }
        ADD_FAILURE() << "no literal for " << value.ToString();
        return "NULL";
      }
    }
  }

  Predicate RandomPredicate() {
    Predicate p;
    switch (rng_() % 7) {
      case 0: p.kind = Predicate::kMod; p.a = 2 + static_cast<int64_t>(rng_() % 8);
              p.b = static_cast<int64_t>(rng_()) % p.a; if (p.b < 0) p.b = -p.b; break;
      case 1: p.kind = Predicate::kLess; p.a = static_cast<int64_t>(rng_() % (next_k_ + 1)); break;
      case 2: p.kind = Predicate::kBetween; p.a = static_cast<int64_t>(rng_() % (next_k_ + 1));
              p.b = p.a + static_cast<int64_t>(rng_() % 40); break;
      case 3: p.kind = Predicate::kFloatGreater; p.c = rng_() % 2 ? 1e300 : 0.0; break;
      case 4: p.kind = Predicate::kFloatLess; p.c = rng_() % 2 ? -1e300 : 1.5; break;
      case 5: p.kind = Predicate::kIsNaN; break;
      default: p.kind = Predicate::kMod; p.a = 11; p.b = 3; break;
    }
    return p;
  }

  std::string PredicateSql(const Predicate& p) const {
    return p.Sql(Find(0)->name, Find(1)->name);
  }

  bool Matches(const Predicate& p, const std::map<int, Value>& row) const {
    return p.Matches(row.at(0), row.at(1));
  }

  void Insert(WriteTransaction& txn) {
    const int roll = static_cast<int>(rng_() % 20);
    const int64_t n = roll < 10   ? 1 + static_cast<int64_t>(rng_() % 6)
                      : roll < 17 ? 11 + static_cast<int64_t>(rng_() % 40)
                                  : 300 + static_cast<int64_t>(rng_() % 400);
    // Sometimes leave out a column: it takes its default.
    std::vector<const ModelColumn*> given;
    for (const ModelColumn& column : state_.columns) {
      if (column.key == 0 || rng_() % 5 != 0) given.push_back(&column);
    }
    std::vector<Field> fields;
    for (const ModelColumn* column : given) fields.emplace_back(column->name, column->type);
    std::vector<std::vector<Value>> rows;
    for (int64_t i = 0; i < n; ++i) {
      std::map<int, Value> model_row;
      for (const ModelColumn& column : state_.columns) model_row[column.key] = column.default_value;
      std::vector<Value> row;
      for (const ModelColumn* column : given) {
        Value value = column->key == 0 ? Value::Int64(next_k_++) : RandomValue(column->type);
        model_row[column->key] = value;
        row.push_back(std::move(value));
      }
      pending_[model_row[0].GetInt64()] = std::move(model_row);
      rows.push_back(std::move(row));
    }
    auto reader = ReaderOf(BatchOf(fields, rows));
    auto result = txn.Insert("main", "t", *reader);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(result->rows, n);
  }

  void Delete(WriteTransaction& txn) {
    Predicate p = RandomPredicate();
    int64_t expected = 0;
    std::erase_if(state_.rows, [&](const auto& e) {
      const bool hit = Matches(p, e.second);
      expected += hit;
      return hit;
    });
    std::erase_if(pending_, [&](const auto& e) {
      const bool hit = Matches(p, e.second);
      expected += hit;
      return hit;
    });
    auto result = txn.Delete("main", "t", PredicateSql(p));
    ASSERT_TRUE(result.ok()) << result.status().ToString() << " for " << PredicateSql(p);
    EXPECT_EQ(result->rows, expected) << PredicateSql(p);
  }

  void Update(WriteTransaction& txn) {
    Predicate p = RandomPredicate();
    std::vector<const ModelColumn*> targets;
    for (const ModelColumn& column : state_.columns) {
      if (column.key != 0) targets.push_back(&column);
    }
    const ModelColumn& target = *targets[rng_() % targets.size()];
    std::string expression;
    std::function<Value(const Value&)> apply;
    if (target.key == 1 && rng_() % 2 == 0) {
      expression = Quote(target.name) + " * 2";
      apply = [](const Value& v) {
        return v.is_null() ? v : Value::Float64(v.GetDouble() * 2);
      };
    } else {
      Value constant = RandomValue(target.type);
      expression = Literal(constant);
      if (constant.is_null()) constant = Value::Null(target.type);
      apply = [constant](const Value&) { return constant; };
    }
    int64_t expected = 0;
    auto update = [&](std::map<int, Value>& row) {
      if (!Matches(p, row)) return;
      row[target.key] = apply(row[target.key]);
      ++expected;
    };
    for (auto& [rowid, row] : state_.rows) update(row);
    for (auto& [k, row] : pending_) update(row);
    auto result = txn.Update("main", "t", {{target.name, expression}}, PredicateSql(p));
    ASSERT_TRUE(result.ok()) << result.status().ToString() << " for " << PredicateSql(p);
    EXPECT_EQ(result->rows, expected) << target.name << " = " << expression << " WHERE "
                                      << PredicateSql(p);
  }

  void AddColumn(WriteTransaction& txn) {
    static const TypeId kTypes[] = {TypeId::kInt32, TypeId::kInt64, TypeId::kVarchar,
                                    TypeId::kFloat64};
    ModelColumn column;
    column.key = next_key_++;
    column.name = "c" + std::to_string(column.key);
    // Half the added columns are of the write type matrix's types (nested ones included).
    if (rng_() % 2 == 0) {
      column.type = DataType(kTypes[rng_() % 4]);
    } else {
      const auto& matrix = MatrixColumnTypes();
      column.type = matrix[rng_() % matrix.size()].type;
    }
    column.default_value = Value::Null(column.type);
    std::optional<Value> def;
    if (rng_() % 2 == 0) {
      Value value = RandomValue(column.type);
      if (!value.is_null() && !(value.type().IsFloating() && (std::isnan(value.GetDouble()) ||
                                                                std::signbit(value.GetDouble())))) {
        def = value;
        column.default_value = value;
      }
    }
    ASSERT_TRUE(txn.AddColumn("main", "t", {column.name, column.type, true, def}).ok());
    for (auto& [rowid, row] : state_.rows) row[column.key] = column.default_value;
    for (auto& [k, row] : pending_) row[column.key] = column.default_value;
    state_.columns.push_back(column);
  }

  void DropColumn(WriteTransaction& txn) {
    std::vector<size_t> candidates;
    for (size_t i = 0; i < state_.columns.size(); ++i) {
      if (state_.columns[i].key > 1) candidates.push_back(i);
    }
    if (candidates.empty()) return;
    const size_t index = candidates[rng_() % candidates.size()];
    const ModelColumn column = state_.columns[index];
    Status status = txn.DropColumn("main", "t", column.name);
    if (InPartitionKey(column.key)) {
      ASSERT_FALSE(status.ok()) << "dropped partition key column " << column.name;
      // A column of both keys may be refused for either.
      const bool named = status.message().find("the table is partitioned by this column") !=
                             std::string::npos ||
                         (InSortKey(column.key) &&
                          status.message().find("the table is sorted by this column") !=
                              std::string::npos);
      EXPECT_TRUE(named) << status.ToString();
      return;
    }
    if (InSortKey(column.key)) {
      ASSERT_FALSE(status.ok()) << "dropped sort key column " << column.name;
      EXPECT_NE(status.message().find("the table is sorted by this column"), std::string::npos)
          << status.ToString();
      return;
    }
    ASSERT_TRUE(status.ok()) << status.ToString();
    state_.columns.erase(state_.columns.begin() + static_cast<std::ptrdiff_t>(index));
    for (auto& [rowid, row] : state_.rows) row.erase(column.key);
    for (auto& [k, row] : pending_) row.erase(column.key);
  }

  void RenameColumn(WriteTransaction& txn) {
    ModelColumn& column = state_.columns[rng_() % state_.columns.size()];
    const std::string name = "r" + std::to_string(rename_counter_++) + "_" +
                             std::to_string(column.key);
    Status status = txn.RenameColumn("main", "t", column.name, name);
    ASSERT_TRUE(status.ok()) << status.ToString();
    column.name = name;
  }

  void Promote(WriteTransaction& txn) {
    for (ModelColumn& column : state_.columns) {
      if (column.type.id != TypeId::kInt32) continue;
      const DataType wide(TypeId::kInt64);
      Status status = txn.AlterColumnType("main", "t", column.name, wide);
      ASSERT_TRUE(status.ok()) << status.ToString();
      auto widen = [&](Value& v) { v = v.is_null() ? Value::Null(wide) : Value::Int(wide, v.GetInt64()); };
      column.type = wide;
      widen(column.default_value);
      for (auto& [rowid, row] : state_.rows) widen(row[column.key]);
      for (auto& [k, row] : pending_) widen(row[column.key]);
      return;
    }
  }

  // SET SORTED BY one to three random fields, or (one time in five) RESET SORTED BY.
  void SetSortKey(WriteTransaction& txn) {
    std::vector<ModelSortField> key;
    std::vector<SortField> fields;
    if (rng_() % 5 != 0) {
      const int n = 1 + static_cast<int>(rng_() % 3);
      for (int i = 0; i < n; ++i) {
        ModelSortField field;
        field.key = state_.columns[rng_() % state_.columns.size()].key;
        if (!IsBasicType(Find(field.key)->type)) continue;
        field.mod7 = field.key == 0 && rng_() % 2 == 0;
        field.descending = rng_() % 2 == 0;
        field.nulls_first = rng_() % 3 == 0;
        SortField sort;
        sort.expression = field.mod7 ? "(" + Quote(Find(0)->name) + " % 7)"
                                     : Quote(Find(field.key)->name);
        sort.descending = field.descending;
        sort.nulls_first = field.nulls_first;
        key.push_back(field);
        fields.push_back(std::move(sort));
      }
    }
    Status status = txn.SetSortKey("main", "t", std::move(fields));
    ASSERT_TRUE(status.ok()) << status.ToString();
    sort_key_ = std::move(key);
    log_ += StrCat("step ", step_, ": sort key of ", sort_key_.size(), " fields\n");
  }

  // SET PARTITIONED BY one or two random integer or VARCHAR columns, as they are or through
  // bucket(n), or (one time in four) RESET PARTITIONED BY. Later inserts and update rewrites
  // split their rows into partition files, and every read prunes on the partition values.
  void SetPartitioning(WriteTransaction& txn) {
    std::vector<PartitionKeyDefinition> keys;
    std::vector<int> columns;
    if (rng_() % 4 != 0) {
      const int n = 1 + static_cast<int>(rng_() % 2);
      for (int i = 0; i < n; ++i) {
        const ModelColumn& column = state_.columns[rng_() % state_.columns.size()];
        if (!IsBasicType(column.type) || column.type.IsFloating()) continue;
        if (std::find(columns.begin(), columns.end(), column.key) != columns.end()) continue;
        PartitionKeyDefinition key;
        key.column = column.name;
        if (rng_() % 2 == 0) {
          key.transform = PartitionTransform::kBucket;
          key.bucket_count = 1 + static_cast<int64_t>(rng_() % 5);
        }
        keys.push_back(std::move(key));
        columns.push_back(column.key);
      }
    }
    Status status = txn.SetPartitioning("main", "t", keys);
    ASSERT_TRUE(status.ok()) << status.ToString();
    partition_columns_ = std::move(columns);
    log_ += StrCat("step ", step_, ": partitioned by ", partition_columns_.size(), " keys\n");
  }

  bool InPartitionKey(int key) const {
    return std::find(partition_columns_.begin(), partition_columns_.end(), key) !=
           partition_columns_.end();
  }

  bool InSortKey(int key) const {
    for (const ModelSortField& field : sort_key_) {
      if (field.key == key) return true;
    }
    return false;
  }

  // DuckDB's order of two non-NULL values of one column (NaN above every number, -0 = 0).
  static int CompareValue(const Value& a, const Value& b) {
    switch (a.type().id) {
      case TypeId::kFloat64: {
        const double x = a.GetDouble();
        const double y = b.GetDouble();
        if (std::isnan(x) || std::isnan(y)) return std::isnan(x) - std::isnan(y);
        return x < y ? -1 : (y < x ? 1 : 0);
      }
      case TypeId::kVarchar: {
        const int c = a.GetBytes().compare(b.GetBytes());
        return c < 0 ? -1 : (c > 0 ? 1 : 0);
      }
      default: {
        const int64_t x = a.GetInt64();
        const int64_t y = b.GetInt64();
        return x < y ? -1 : (y < x ? 1 : 0);
      }
    }
  }

  // Rows a and b of `batch` (a scan with rowid first) by the model's sort key: <0, 0, >0.
  int CompareByKey(const Batch& batch, int64_t a, int64_t b) const {
    for (const ModelSortField& field : sort_key_) {
      const Column& column = batch.column(1 + KeyIndex(field.key));
      Value x = column.GetValue(a);
      Value y = column.GetValue(b);
      if (field.mod7) {
        x = Value::Int64(x.GetInt64() % 7);
        y = Value::Int64(y.GetInt64() % 7);
      }
      if (x.is_null() || y.is_null()) {
        if (x.is_null() && y.is_null()) continue;
        return x.is_null() == field.nulls_first ? -1 : 1;
      }
      const int c = CompareValue(x, y);
      if (c != 0) return field.descending ? -c : c;
    }
    return 0;
  }

  // The live data files of the latest snapshot, by id.
  std::map<int64_t, DataFileInfo> LiveFiles() {
    std::map<int64_t, DataFileInfo> out;
    auto metadata = MetadataAt(last_snapshot_, /*fresh=*/true);
    if (!metadata) return out;
    for (const DataFileInfo& file : metadata->data_files) out[file.data_file_id] = file;
    return out;
  }

  // Each file live now but not in `before` holds its rows in the order of the sort key: read
  // alone (no deletes, every snapshot's rows, no inlined rows) with the current columns.
  void CheckNewFilesSorted(const std::map<int64_t, DataFileInfo>& before, const char* what) {
    if (sort_key_.empty()) return;
    auto metadata = MetadataAt(last_snapshot_, /*fresh=*/true);
    ASSERT_TRUE(metadata);
    for (const DataFileInfo& file : metadata->data_files) {
      if (before.count(file.data_file_id) > 0) continue;
      auto alone = std::make_shared<TableMetadata>(*metadata);
      auto info = std::make_shared<TableInfo>(*metadata->table);
      info->inlined_tables.clear();
      alone->table = info;
      DataFileInfo whole = file;
      whole.delete_file.reset();
      whole.other_delete_files.clear();
      whole.inlined_deletes.clear();
      whole.partial_max.reset();
      alone->data_files = {whole};
      alone->pending_inlined_rows.clear();
      alone->pending_inlined_row_deletes.clear();
      TableScanOptions options;
      options.with_rowid = true;
      auto batch = ScanTableToBatch(*lake_.lake, lake_.fs, alone, options);
      ASSERT_TRUE(batch.ok()) << what << ": " << batch.status().ToString();
      ASSERT_EQ((*batch)->num_rows, file.record_count) << what << ": " << file.path;
      for (int64_t row = 1; row < (*batch)->num_rows; ++row) {
        ASSERT_LE(CompareByKey(**batch, row - 1, row), 0)
            << what << ": file " << file.path << " rows " << row - 1 << " and " << row
            << " are out of key order";
      }
    }
  }

  void Commit(std::unique_ptr<WriteTransaction> txn) {
    auto result = txn->Commit();
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    if (result->snapshot.snapshot_id < 0) {
      EXPECT_TRUE(pending_.empty());
      return;
    }
    last_snapshot_ = result->snapshot.snapshot_id;
  }

  // ---- maintenance ---------------------------------------------------------------------------

  MaintenanceOptions RandomMaintenanceOptions() {
    MaintenanceOptions options;
    if (rng_() % 2 == 0) options.table = "t";
    static const int64_t kMin[] = {0, 0, 1000, 3000};
    static const int64_t kMax[] = {4096, 8192, 20000, 1 << 20};
    if (rng_() % 2 == 0) options.min_file_size = kMin[rng_() % 4];
    if (rng_() % 2 == 0) options.max_file_size = kMax[rng_() % 4];
    static const double kThreshold[] = {0.0, 0.1, 0.3, 0.5, 0.95};
    options.delete_threshold = kThreshold[rng_() % 5];
    return options;
  }

  // A maintenance procedure's snapshot (if any) holds the same rows as the one before.
  void AfterMaintenance(const Result<MaintenanceResult>& result, const char* what,
                        const std::map<int64_t, DataFileInfo>& files_before) {
    ASSERT_TRUE(result.ok()) << what << ": " << result.status().ToString();
    log_ += StrCat("step ", step_, ": ", what, " -> snapshot ", result->commit.snapshot.snapshot_id,
                   "\n");
    metadata_.clear();  // files of past snapshots may have been replaced
    const int64_t snapshot_id = result->commit.snapshot.snapshot_id;
    if (snapshot_id < 0) return;
    ASSERT_GT(snapshot_id, last_snapshot_) << what;
    last_snapshot_ = snapshot_id;
    snapshots_[last_snapshot_] = state_;
    Check(last_snapshot_, /*fresh=*/true);
    CheckNewFilesSorted(files_before, what);
  }

  // Expires a random few past snapshots (never the latest): they leave the model.
  void Expire() {
    ExpireSnapshotsOptions options;
    for (const auto& [snapshot_id, model] : snapshots_) {
      if (snapshot_id != last_snapshot_ && rng_() % 3 == 0) options.versions.push_back(snapshot_id);
    }
    if (options.versions.empty()) return;
    auto expired = ExpireSnapshots(*lake_.lake, options);
    ASSERT_TRUE(expired.ok()) << expired.status().ToString();
    ASSERT_EQ(expired->size(), options.versions.size());
    for (int64_t snapshot_id : options.versions) {
      snapshots_.erase(snapshot_id);
      log_ += StrCat("step ", step_, ": expired snapshot ", snapshot_id, "\n");
    }
    metadata_.clear();
    const int64_t gone = options.versions[rng_() % options.versions.size()];
    EXPECT_FALSE(lake_.lake->LoadSnapshot(SnapshotSelector::Id(gone)).ok())
        << "expired snapshot " << gone << " still loads";
  }

  void Maintain() {
    const int roll = static_cast<int>(rng_() % 100);
    const std::map<int64_t, DataFileInfo> files =
        roll < 85 ? LiveFiles() : std::map<int64_t, DataFileInfo>();
    if (roll < 30) {
      AfterMaintenance(FlushInlinedData(*lake_.lake, lake_.fs, RandomMaintenanceOptions()),
                       "flush", files);
    } else if (roll < 60) {
      AfterMaintenance(
          MergeAdjacentFiles(*lake_.lake, lake_.fs, RandomMaintenanceOptions()),
          "merge", files);
    } else if (roll < 85) {
      AfterMaintenance(RewriteDataFiles(*lake_.lake, lake_.fs, RandomMaintenanceOptions()),
                       "rewrite", files);
    } else if (roll < 93) {
      Expire();
    } else {
      CleanupOptions options;
      options.cleanup_all = true;
      auto cleaned = rng_() % 2 == 0 ? CleanupOldFiles(*lake_.lake, lake_.fs, options)
                                     : DeleteOrphanedFiles(*lake_.lake, lake_.fs, options);
      ASSERT_TRUE(cleaned.ok()) << cleaned.status().ToString();
      log_ += StrCat("step ", step_, ": cleanup removed ", cleaned->size(), " files\n");
      metadata_.clear();
    }
    if (::testing::Test::HasFailure()) return;
    if (rng_() % 4 == 0) {
      Status reopened = lake_.Reopen();
      ASSERT_TRUE(reopened.ok()) << reopened.ToString();
      metadata_.clear();
    }
  }

  void Step() {
    if (rng_() % 6 == 0) {
      Maintain();
      return;
    }
    auto txn = Begin();
    ASSERT_TRUE(txn);
    const int ops = rng_() % 5 == 0 ? 2 + static_cast<int>(rng_() % 3) : 1;
    bool only_insert = ops == 1;
    const std::map<int64_t, DataFileInfo> files = LiveFiles();
    for (int op = 0; op < ops; ++op) {
      const int roll = static_cast<int>(rng_() % 100);
      only_insert = only_insert && roll < 35;
      if (roll < 35) {
        Insert(*txn);
      } else if (roll < 57) {
        Delete(*txn);
      } else if (roll < 80) {
        Update(*txn);
      } else if (roll < 88) {
        AddColumn(*txn);
      } else if (roll < 92) {
        DropColumn(*txn);
      } else if (roll < 95) {
        RenameColumn(*txn);
      } else if (roll < 97) {
        Promote(*txn);
      } else if (roll < 99) {
        SetSortKey(*txn);
      } else {
        SetPartitioning(*txn);
      }
      if (::testing::Test::HasFailure()) return;
      if (ops > 1) CheckTransactionView(*txn);
    }
    const int64_t before = last_snapshot_;
    Commit(std::move(txn));
    if (::testing::Test::HasFailure()) return;
    if (last_snapshot_ != before) AssignRowIds();
    snapshots_[last_snapshot_] = state_;
    // An insert's files are in key order (sort_on_insert is on by default).
    if (only_insert && last_snapshot_ != before) CheckNewFilesSorted(files, "insert");
  }

  // Reads the new snapshot to learn the rowids the commit gave the pending rows.
  void AssignRowIds() {
    auto batch = ScanAt(last_snapshot_);
    ASSERT_TRUE(batch) << "scan at " << last_snapshot_;
    for (int64_t row = 0; row < batch->num_rows; ++row) {
      const int64_t rowid = batch->column(0).GetValue(row).GetInt64();
      if (state_.rows.count(rowid) > 0) continue;
      const int64_t k = batch->column(1 + KeyIndex(0)).GetValue(row).GetInt64();
      auto found = pending_.find(k);
      ASSERT_NE(found, pending_.end()) << "rowid " << rowid << " (k " << k
                                       << ") is neither committed nor pending";
      state_.rows[rowid] = std::move(found->second);
      pending_.erase(found);
    }
    EXPECT_TRUE(pending_.empty()) << pending_.size() << " inserted rows not found";
    pending_.clear();
  }

  int KeyIndex(int key) const {
    for (size_t i = 0; i < state_.columns.size(); ++i) {
      if (state_.columns[i].key == key) return static_cast<int>(i);
    }
    return -1;
  }

  // The table's metadata at a committed snapshot. Metadata of a past snapshot never changes,
  // so the periodic checks reuse what an earlier check loaded; `fresh` reloads it from the
  // catalog (the final check does, so a later commit that damaged an old snapshot's rows is
  // still caught).
  std::shared_ptr<const TableMetadata> MetadataAt(int64_t snapshot_id, bool fresh) {
    if (!fresh) {
      auto cached = metadata_.find(snapshot_id);
      if (cached != metadata_.end()) return cached->second;
    }
    auto snapshot = lake_.lake->LoadSnapshot(SnapshotSelector::Id(snapshot_id));
    EXPECT_TRUE(snapshot.ok()) << snapshot.status().ToString();
    if (!snapshot.ok()) return nullptr;
    auto info = (*snapshot)->FindTable("main", "t");
    EXPECT_TRUE(info) << "no table at " << snapshot_id;
    if (!info) return nullptr;
    auto metadata = lake_.lake->LoadTable(**snapshot, info->table_id);
    EXPECT_TRUE(metadata.ok()) << metadata.status().ToString();
    if (!metadata.ok()) return nullptr;
    metadata_[snapshot_id] = *metadata;
    return *metadata;
  }

  std::shared_ptr<Batch> ScanAt(int64_t snapshot_id, bool fresh = true) {
    auto metadata = MetadataAt(snapshot_id, fresh);
    if (!metadata) return nullptr;
    TableScanOptions options;
    options.with_rowid = true;
    auto batch = ScanTableToBatch(*lake_.lake, lake_.fs, metadata, options);
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    return batch.ok() ? *batch : nullptr;
  }

  void Compare(const ModelState& model, const Batch& batch, const std::string& where) {
    Compare(model.columns, model.rows.size(), batch, where,
            [&](int64_t rowid) -> const std::map<int, Value>* {
              auto found = model.rows.find(rowid);
              return found == model.rows.end() ? nullptr : &found->second;
            });
  }

  // `row_of(rowid)`: the model's row, or null.
  void Compare(const std::vector<ModelColumn>& columns, size_t num_rows, const Batch& batch,
               const std::string& where,
               const std::function<const std::map<int, Value>*(int64_t)>& row_of) {
    ASSERT_EQ(batch.num_columns(), static_cast<int>(columns.size()) + 1) << where;
    for (size_t c = 0; c < columns.size(); ++c) {
      const Field& field = batch.schema->field(static_cast<int>(c) + 1);
      ASSERT_EQ(field.name, columns[c].name) << where;
      // Nested types compare by their text: the lake's carry the column ids as field ids.
      if (field.type.IsNested()) {
        ASSERT_EQ(field.type.ToString(), columns[c].type.ToString()) << where << " column "
                                                                     << field.name;
      } else {
        ASSERT_EQ(field.type, columns[c].type) << where << " column " << field.name;
      }
    }
    ASSERT_EQ(batch.num_rows, static_cast<int64_t>(num_rows)) << where;
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      const int64_t rowid = batch.column(0).GetValue(row).GetInt64();
      const std::map<int, Value>* expected_row = row_of(rowid);
      ASSERT_NE(expected_row, nullptr) << where << ": unexpected rowid " << rowid;
      for (size_t c = 0; c < columns.size(); ++c) {
        const Value actual = batch.column(static_cast<int>(c) + 1).GetValue(row);
        const Value& expected = expected_row->at(columns[c].key);
        const bool same = columns[c].type.IsNested()
                              ? actual.is_null() == expected.is_null() &&
                                    actual.ToString() == expected.ToString()
                              : actual == expected;
        ASSERT_TRUE(same) << where << ": rowid " << rowid << " column " << columns[c].name
                          << ": " << actual.ToString() << " vs " << expected.ToString();
      }
    }
  }

  void Check(int64_t snapshot_id, bool fresh) {
    auto batch = ScanAt(snapshot_id, fresh);
    ASSERT_TRUE(batch);
    Compare(snapshots_.at(snapshot_id), *batch, StrCat("snapshot ", snapshot_id));
  }

  // Every past snapshot, read back in full; `fresh` reloads each one's metadata too.
  void CheckAll(bool fresh) {
    for (const auto& [snapshot_id, model] : snapshots_) {
      Check(snapshot_id, fresh);
      if (::testing::Test::HasFailure()) return;
    }
  }

  void CheckRandom() {
    auto it = snapshots_.begin();
    std::advance(it, static_cast<std::ptrdiff_t>(rng_() % snapshots_.size()));
    Check(it->first, /*fresh=*/true);
  }

  // Inside a transaction: committed rows keep their rowids, pending rows are all there.
  void CheckTransactionView(WriteTransaction& txn) {
    TableScanOptions options;
    options.with_rowid = true;
    auto reader = txn.Scan("main", "t", options);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    auto batch = write_testing::Drain(**reader);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    std::map<int64_t, const std::map<int, Value>*> provisional;  // rowid -> pending row
    for (int64_t row = 0; row < (*batch)->num_rows; ++row) {
      const int64_t rowid = (*batch)->column(0).GetValue(row).GetInt64();
      const int64_t k = (*batch)->column(1 + KeyIndex(0)).GetValue(row).GetInt64();
      auto pending = pending_.find(k);
      if (state_.rows.count(rowid) == 0 && pending != pending_.end()) {
        provisional[rowid] = &pending->second;
      }
    }
    Compare(state_.columns, state_.rows.size() + provisional.size(), **batch, "transaction view",
            [&](int64_t rowid) -> const std::map<int, Value>* {
              auto committed = state_.rows.find(rowid);
              if (committed != state_.rows.end()) return &committed->second;
              auto found = provisional.find(rowid);
              return found == provisional.end() ? nullptr : found->second;
            });
  }

  std::mt19937_64 rng_;
  uint64_t seed_;
  int steps_;
  int step_ = 0;
  TestLake lake_;
  ModelState state_;
  std::map<int64_t, std::map<int, Value>> pending_;  // k -> row, inserted by the open txn
  std::map<int64_t, ModelState> snapshots_;
  std::map<int64_t, std::shared_ptr<const TableMetadata>> metadata_;  // loaded, by snapshot
  int64_t last_snapshot_ = 0;
  int next_key_ = 0;
  int64_t next_k_ = 0;
  int rename_counter_ = 0;
  write_testing::CatalogBackend backend_;
  write_testing::DataStorage storage_;
  std::vector<ModelSortField> sort_key_;  // the table's current sort key
  std::vector<int> partition_columns_;     // keys of the columns the table is partitioned by
  std::string log_;  // the maintenance steps run, for a failure's message
};

int Steps() {
  const char* long_run = std::getenv("TARN_LONG");
  return long_run != nullptr && std::string(long_run) == "1" ? 5000 : 200;
}

TEST(WriteModelTest, Seed1) { ModelRun(0x5eed0001, Steps()).Run(); }
TEST(WriteModelTest, Seed2) { ModelRun(0x5eed0002, Steps()).Run(); }
TEST(WriteModelTest, Seed3) { ModelRun(0x5eed0003, Steps()).Run(); }
// The same runs with the catalog on PostgreSQL (the test server of TARN_TEST_PG).
TEST(WriteModelTest, Seed1OnPostgres) {
  ModelRun(0x5eed0001, Steps(), write_testing::CatalogBackend::kPostgres).Run();
}
TEST(WriteModelTest, Seed2OnPostgres) {
  ModelRun(0x5eed0002, Steps(), write_testing::CatalogBackend::kPostgres).Run();
}
// And with the data files on the S3 test server (TARN_TEST_S3), the catalog on either; half
// the steps, as every file costs the test server's round trips.
TEST(WriteModelTest, Seed3OnS3) {
  ModelRun(0x5eed0003, Steps() / 2, write_testing::CatalogBackend::kSqlite,
           write_testing::DataStorage::kS3)
      .Run();
}
TEST(WriteModelTest, Seed1OnPostgresAndS3) {
  ModelRun(0x5eed0001, Steps() / 2, write_testing::CatalogBackend::kPostgres,
           write_testing::DataStorage::kS3)
      .Run();
}

// TARN_MODEL_SEEDS=A-B (or one number) runs the seeds 0x5eed0000 + A .. B as well.
TEST(WriteModelTest, ExtraSeeds) {
  const char* range = std::getenv("TARN_MODEL_SEEDS");
  if (range == nullptr || *range == '\0') GTEST_SKIP() << "TARN_MODEL_SEEDS is not set";
  const std::string text(range);
  const size_t dash = text.find('-');
  const int first = std::stoi(text.substr(0, dash));
  const int last = dash == std::string::npos ? first : std::stoi(text.substr(dash + 1));
  for (int seed = first; seed <= last && !::testing::Test::HasFailure(); ++seed) {
    ModelRun(0x5eed0000u + static_cast<uint32_t>(seed), Steps()).Run();
  }
}

}  // namespace
}  // namespace tarn
