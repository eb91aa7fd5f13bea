#include "sql/lake/joined_writes.h"

#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "sql/parse/statement_clone.h"
#include "sql/plan/names.h"
#include "sql/plan/planner.h"
#include "tarn/table.h"
#include "tarn/table_write.h"

namespace tarn::sql {
namespace {

class JoinedWriter {
 public:
  JoinedWriter(const Statement& statement, LakeObjectName name, WriteTransaction* txn,
               const ExecContext& context)
      : statement_(statement), write_(*statement.write), name_(std::move(name)), txn_(txn),
        context_(context) {}

  Result<std::optional<int64_t>> Run() {
    if (statement_.kind == StatementKind::kMerge) return Merge();
    if (statement_.kind == StatementKind::kUpdate) return UpdateFrom();
    return DeleteUsing();
  }

 private:
  // The target as a table reference of a query (read through the transaction).
  TableRef TargetRef() const {
    TableRef target;
    target.kind = TableRef::Kind::kTable;
    target.names = write_.names;
    target.alias = write_.alias;
    return target;
  }

  // How a query names the target's columns: its alias, else its name.
  const std::string& TargetQualifier() const {
    return write_.alias.empty() ? write_.names.back() : write_.alias;
  }

  // `left` joined to `right` (kCross: a comma join).
  static TableRef Joined(TableRef left, TableRef right, JoinType type,
                         std::unique_ptr<ast::Expr> on) {
    TableRef join;
    join.kind = TableRef::Kind::kJoin;
    join.join_type = type;
    join.comma = type == JoinType::kCross;
    join.on = std::move(on);
    join.left = std::make_unique<TableRef>(std::move(left));
    join.right = std::make_unique<TableRef>(std::move(right));
    return join;
  }

  // SELECT [t.rowid,] <items> FROM <from> [WHERE <where>]: each item named __tarn_value_<i>.
  Result<std::unique_ptr<Operator>> PlanRows(TableRef from, bool with_rowid,
                                             std::vector<std::unique_ptr<ast::Expr>> items,
                                             std::unique_ptr<ast::Expr> where) {
    SelectStmt select;
    select.from = std::move(from);
    if (with_rowid) {
      SelectItem rowid;
      rowid.expr = ast::MakeColumnRef({TargetQualifier(), kRowIdColumnName});
      rowid.alias = "__tarn_target_rowid";
      select.items.push_back(std::move(rowid));
    }
    for (size_t i = 0; i < items.size(); ++i) {
      SelectItem item;
      item.expr = std::move(items[i]);
      item.alias = "__tarn_value_" + std::to_string(i);
      select.items.push_back(std::move(item));
    }
    select.where = std::move(where);
    return PlanSelect(select, statement_.text, context_);
  }

  // UPDATE … FROM / DELETE … USING: the query `SELECT t.rowid, <items> FROM t, <from> WHERE
  // <where>` over the target (read through the transaction) and the other tables.
  Result<std::unique_ptr<Operator>> PlanJoinedRows(std::vector<std::unique_ptr<ast::Expr>> items) {
    return PlanRows(Joined(TargetRef(), CloneTableRef(*write_.from), JoinType::kCross, nullptr),
                    /*with_rowid=*/true, std::move(items),
                    write_.where ? write_.where->Clone() : nullptr);
  }

  // MERGE INTO target USING source ON cond WHEN …: the target rows the source matches, those
  // it does not (BY SOURCE) and the source rows nothing matches are read first, each going to
  // the first WHEN clause of its kind whose condition holds; then the updates and deletes are
  // applied, then the inserts. A target row several source rows match takes the first.
  // Returns the rows updated, deleted and inserted.
  Result<std::optional<int64_t>> Merge() {
    const LakeObjectName& name = name_;
    TARN_ASSIGN_OR_RETURN(auto table, txn_->LoadTable(name.schema, name.name));
    const TableInfo& info = *table->table;
    const TableRef& source = *write_.from;
    const std::string source_qualifier =
        !source.alias.empty() ? source.alias
                              : (source.kind == TableRef::Kind::kTable ? source.names.back() : "");
    // The source's columns, for UPDATE / INSERT without a list and for USING (columns).
    std::vector<std::string> source_columns;
    {
      SelectStmt probe;
      probe.from = CloneTableRef(source);
      SelectItem star;
      star.star = true;
      probe.items.push_back(std::move(star));
      TARN_ASSIGN_OR_RETURN(auto plan, PlanSelect(probe, statement_.text, context_));
      for (const Field& field : plan->schema()->fields) source_columns.push_back(field.name);
    }
    auto source_column = [&](const std::string& column) {
      std::vector<std::string> parts;
      if (!source_qualifier.empty()) parts.push_back(source_qualifier);
      parts.push_back(column);
      return ast::MakeColumnRef(std::move(parts));
    };
    auto target_column = [&](const std::string& column) {
      return ast::MakeColumnRef({TargetQualifier(), column});
    };
    auto has_source_column = [&](const std::string& column) {
      for (const std::string& candidate : source_columns) {
        if (LowerAscii(candidate) == LowerAscii(column)) return true;
      }
      return false;
    };
    auto condition = [&]() -> Result<std::unique_ptr<ast::Expr>> {
      if (write_.merge_on) return write_.merge_on->Clone();
      std::unique_ptr<ast::Expr> all;
      for (const std::string& column : write_.merge_using) {
        auto equal = ast::MakeBinary(ast::Op::kEqual, target_column(column), source_column(column));
        all = all ? ast::MakeBinary(ast::Op::kAnd, std::move(all), std::move(equal))
                  : std::move(equal);
      }
      return all;
    };
    // UPDATE without SET: every target column the source has.
    std::vector<std::vector<std::pair<std::string, std::unique_ptr<ast::Expr>>>> sets(
        write_.merge_actions.size());
    for (size_t a = 0; a < write_.merge_actions.size(); ++a) {
      const MergeAction& action = write_.merge_actions[a];
      if (action.kind != MergeAction::Kind::kUpdate) continue;
      if (action.assignments.empty()) {
        for (const ColumnInfo& column : info.columns) {
          if (has_source_column(column.name)) {
            sets[a].emplace_back(column.name, source_column(column.name));
          }
        }
      } else {
        for (const auto& [column, value] : action.assignments) {
          sets[a].emplace_back(column, value->Clone());
        }
      }
    }

    // The rows of each kind of WHEN clause: the clause each row takes, then the values of
    // every clause of that kind that has values.
    struct Rows {
      std::shared_ptr<Batch> batch;            // [rowid,] clause, values...
      std::vector<size_t> first_value;          // per action: its first value column
    };
    auto read = [&](MergeAction::When when, bool with_rowid, TableRef from,
                    std::unique_ptr<ast::Expr> where) -> Result<std::optional<Rows>> {
      std::vector<std::unique_ptr<ast::Expr>> items;
      std::vector<std::pair<std::unique_ptr<ast::Expr>, size_t>> branches;
      for (size_t a = 0; a < write_.merge_actions.size(); ++a) {
        const MergeAction& action = write_.merge_actions[a];
        if (action.when != when) continue;
        branches.emplace_back(action.condition ? action.condition->Clone()
                                               : ast::MakeLiteral(ast::LiteralKind::kTrue, "true"),
                              a);
      }
      if (branches.empty()) return std::optional<Rows>();
      // CASE WHEN c0 THEN a0 WHEN c1 THEN a1 … ELSE -1 END
      items.push_back(nullptr);  // placed below
      Rows rows;
      rows.first_value.assign(write_.merge_actions.size(), 0);
      size_t next_value = (with_rowid ? 1 : 0) + 1;
      auto chooser = std::make_unique<ast::Expr>();
      chooser->kind = ast::ExprKind::kCase;
      chooser->has_else = true;
      for (auto& [cond, a] : branches) {
        chooser->children.push_back(std::move(cond));
        chooser->children.push_back(
            ast::MakeLiteral(ast::LiteralKind::kInteger, std::to_string(a)));
      }
      chooser->children.push_back(ast::MakeLiteral(ast::LiteralKind::kInteger, "-1"));
      items[0] = std::move(chooser);
      for (size_t a = 0; a < write_.merge_actions.size(); ++a) {
        const MergeAction& action = write_.merge_actions[a];
        if (action.when != when) continue;
        rows.first_value[a] = next_value;
        if (action.kind == MergeAction::Kind::kUpdate) {
          for (const auto& [column, value] : sets[a]) {
            items.push_back(value->Clone());
            ++next_value;
          }
        } else if (action.kind == MergeAction::Kind::kInsert && !action.default_values) {
          if (!action.values.empty()) {
            for (const auto& value : action.values) items.push_back(value->Clone());
            next_value += action.values.size();
          } else {
            for (const std::string& column : source_columns) {
              items.push_back(source_column(column));
              ++next_value;
            }
          }
        }
      }
      TARN_ASSIGN_OR_RETURN(auto query,
                            PlanRows(std::move(from), with_rowid, std::move(items),
                                     std::move(where)));
      if (with_rowid) {
        auto schema = std::make_shared<Schema>(*query->schema());
        TARN_ASSIGN_OR_RETURN(rows.batch, FirstPerRowId(*query, schema));
      } else {
        TARN_ASSIGN_OR_RETURN(rows.batch, ReadAllBatches(query.get()));
      }
      return std::optional<Rows>(std::move(rows));
    };

    TARN_ASSIGN_OR_RETURN(std::unique_ptr<ast::Expr> on, condition());
    TARN_ASSIGN_OR_RETURN(
        std::optional<Rows> matched,
        read(MergeAction::When::kMatched, true,
             Joined(TargetRef(), CloneTableRef(source), JoinType::kInner, on->Clone()), nullptr));
    TARN_ASSIGN_OR_RETURN(
        std::optional<Rows> unmatched_target,
        read(MergeAction::When::kNotMatchedBySource, true,
             Joined(TargetRef(), CloneTableRef(source), JoinType::kAnti, on->Clone()), nullptr));
    TARN_ASSIGN_OR_RETURN(
        std::optional<Rows> unmatched_source,
        read(MergeAction::When::kNotMatched, false,
             Joined(CloneTableRef(source), TargetRef(), JoinType::kAnti, on->Clone()), nullptr));

    int64_t changed = 0;
    // The rows of `rows` that chose action `a`.
    auto rows_of = [&](const Rows& rows, size_t clause_column, size_t a) {
      std::vector<int64_t> picked;
      const Column& clause = rows.batch->column(static_cast<int>(clause_column));
      for (int64_t r = 0; r < rows.batch->num_rows; ++r) {
        Value chosen = clause.GetValue(r);
        if (!chosen.is_null() && chosen.GetInt64() == static_cast<int64_t>(a)) picked.push_back(r);
      }
      return picked;
    };
    for (const std::optional<Rows>* rows : {&matched, &unmatched_target}) {
      if (!rows->has_value() || (*rows)->batch->num_rows == 0) continue;
      const Rows& these = **rows;
      const MergeAction::When when =
          rows == &matched ? MergeAction::When::kMatched : MergeAction::When::kNotMatchedBySource;
      for (size_t a = 0; a < write_.merge_actions.size(); ++a) {
        const MergeAction& action = write_.merge_actions[a];
        if (action.when != when || action.kind == MergeAction::Kind::kDoNothing) continue;
        std::vector<int64_t> picked = rows_of(these, 1, a);
        if (picked.empty()) continue;
        if (action.kind == MergeAction::Kind::kDelete) {
          std::string predicate = std::string(kRowIdColumnName) + " IN (";
          for (size_t i = 0; i < picked.size(); ++i) {
            predicate += (i ? ", " : "") +
                         std::to_string(these.batch->column(0).GetValue(picked[i]).GetInt64());
          }
          predicate += ")";
          TARN_ASSIGN_OR_RETURN(WriteResult result,
                                txn_->Delete(name.schema, name.name, predicate));
          changed += result.rows;
          continue;
        }
        // UPDATE: rowid and the clause's values, named as the columns they set.
        auto schema = std::make_shared<Schema>();
        std::vector<std::shared_ptr<Column>> columns;
        schema->fields.emplace_back(kRowIdColumnName, DataType(TypeId::kInt64));
        columns.push_back(Take(these.batch->column(0), picked));
        for (size_t i = 0; i < sets[a].size(); ++i) {
          const Column& value = these.batch->column(static_cast<int>(these.first_value[a] + i));
          schema->fields.emplace_back(sets[a][i].first, value.type);
          columns.push_back(Take(value, picked));
        }
        if (sets[a].empty()) continue;  // nothing to set
        auto changes = MakeBatch(schema, std::move(columns));
        changes->num_rows = static_cast<int64_t>(picked.size());
        TARN_ASSIGN_OR_RETURN(WriteResult result,
                              txn_->UpdateByRowId(name.schema, name.name, *changes));
        changed += result.rows;
      }
    }
    if (unmatched_source.has_value() && unmatched_source->batch->num_rows > 0) {
      const Rows& these = *unmatched_source;
      for (size_t a = 0; a < write_.merge_actions.size(); ++a) {
        const MergeAction& action = write_.merge_actions[a];
        if (action.when != MergeAction::When::kNotMatched ||
            action.kind != MergeAction::Kind::kInsert) {
          continue;
        }
        std::vector<int64_t> picked = rows_of(these, 0, a);
        if (picked.empty()) continue;
        // The columns the values go to: the list, else every column in order; without values,
        // the source's columns by name.
        std::vector<std::string> targets;
        size_t count = 0;
        if (action.default_values) {
          count = 0;
        } else if (!action.values.empty()) {
          count = action.values.size();
          if (!action.columns.empty()) {
            targets = action.columns;
          } else {
            for (const ColumnInfo& column : info.columns) targets.push_back(column.name);
          }
          if (targets.size() != count) {
            return Status::InvalidArgument("Binder Error: table \"", name.ToString(), "\" has ",
                                           targets.size(), " columns but ", count,
                                           " values were supplied");
          }
        } else {
          count = source_columns.size();
          for (const std::string& column : source_columns) {
            const ColumnInfo* found = nullptr;
            for (const ColumnInfo& candidate : info.columns) {
              if (LowerAscii(candidate.name) == LowerAscii(column)) found = &candidate;
            }
            if (found == nullptr) {
              return Status::NotFound("Binder Error: Table \"", name.name,
                                      "\" does not have a column with name \"", column, "\"");
            }
            targets.push_back(found->name);
          }
        }
        auto schema = std::make_shared<Schema>();
        std::vector<std::shared_ptr<Column>> columns;
        for (size_t i = 0; i < count; ++i) {
          const Column& value = these.batch->column(static_cast<int>(these.first_value[a] + i));
          schema->fields.emplace_back(targets[i], value.type);
          columns.push_back(Take(value, picked));
        }
        std::shared_ptr<Batch> inserted = count == 0
                                              ? MakeEmptyColumnsBatch(schema, 0)
                                              : MakeBatch(schema, std::move(columns));
        inserted->num_rows = static_cast<int64_t>(picked.size());
        auto reader = MakeVectorReader(schema, {inserted});
        TARN_ASSIGN_OR_RETURN(WriteResult result, txn_->Insert(name.schema, name.name, *reader));
        changed += result.rows;
      }
    }
    return std::optional<int64_t>(changed);
  }

  // The rows of `query` (a rowid first), each target row once: the first row a target row
  // joins decides, as DuckDB's first-write-wins UPDATE … FROM does.
  static Result<std::shared_ptr<Batch>> FirstPerRowId(Operator& query,
                                                      std::shared_ptr<const Schema> schema) {
    std::unordered_set<int64_t> seen;
    std::vector<std::shared_ptr<Batch>> kept;
    while (true) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, query.Next());
      if (!batch) break;
      std::vector<int64_t> rows;
      for (int64_t row = 0; row < batch->num_rows; ++row) {
        Value id = batch->column(0).GetValue(row);
        if (!id.is_null() && seen.insert(id.GetInt64()).second) rows.push_back(row);
      }
      if (rows.empty()) continue;
      std::vector<std::shared_ptr<Column>> columns;
      for (const auto& column : batch->columns) columns.push_back(Take(*column, rows));
      auto out = MakeBatch(schema, std::move(columns));
      out->num_rows = static_cast<int64_t>(rows.size());
      kept.push_back(std::move(out));
    }
    if (kept.empty()) return MakeEmptyColumnsBatch(schema, 0);
    return kept.size() == 1 ? kept[0] : ConcatenateBatches(kept);
  }

  Result<std::optional<int64_t>> UpdateFrom() {
    const LakeObjectName& name = name_;
    std::vector<std::unique_ptr<ast::Expr>> values;
    auto schema = std::make_shared<Schema>();
    schema->fields.emplace_back(kRowIdColumnName, DataType(TypeId::kInt64));
    for (const auto& [column, value] : write_.assignments) values.push_back(value->Clone());
    TARN_ASSIGN_OR_RETURN(auto query, PlanJoinedRows(std::move(values)));
    for (size_t i = 0; i < write_.assignments.size(); ++i) {
      schema->fields.emplace_back(write_.assignments[i].first,
                                  query->schema()->field(static_cast<int>(i + 1)).type);
    }
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> changes, FirstPerRowId(*query, schema));
    if (changes->num_rows == 0) return std::optional<int64_t>(0);
    TARN_ASSIGN_OR_RETURN(WriteResult result,
                          txn_->UpdateByRowId(name.schema, name.name, *changes));
    return std::optional<int64_t>(result.rows);
  }

  Result<std::optional<int64_t>> DeleteUsing() {
    const LakeObjectName& name = name_;
    TARN_ASSIGN_OR_RETURN(auto query, PlanJoinedRows({}));
    auto schema = std::make_shared<Schema>();
    schema->fields.emplace_back(kRowIdColumnName, DataType(TypeId::kInt64));
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> ids, FirstPerRowId(*query, schema));
    if (ids->num_rows == 0) return std::optional<int64_t>(0);
    std::string predicate = std::string(kRowIdColumnName) + " IN (";
    for (int64_t row = 0; row < ids->num_rows; ++row) {
      predicate += (row ? ", " : "") + std::to_string(ids->column(0).GetValue(row).GetInt64());
    }
    predicate += ")";
    TARN_ASSIGN_OR_RETURN(WriteResult result, txn_->Delete(name.schema, name.name, predicate));
    return std::optional<int64_t>(result.rows);
  }


  const Statement& statement_;
  const WriteStmt& write_;
  const LakeObjectName name_;
  WriteTransaction* txn_;
  const ExecContext& context_;
};

}  // namespace

Result<std::optional<int64_t>> RunJoinedWrite(const Statement& statement,
                                              const LakeObjectName& target,
                                              WriteTransaction* txn, const ExecContext& context) {
  return JoinedWriter(statement, target, txn, context).Run();
}

}  // namespace tarn::sql
