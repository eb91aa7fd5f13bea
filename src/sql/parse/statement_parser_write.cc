// The lake-writing statements of the grammar: CREATE/DROP SCHEMA|TABLE|VIEW, CREATE TABLE AS,
// INSERT, DELETE, UPDATE, ALTER TABLE and BEGIN/COMMIT/ROLLBACK (docs/sql.md).
#include <string>
#include <utility>

#include "expr/parse/parser.h"
#include "sql/parse/statement_parser_internal.h"

namespace tarn::sql::parser_internal {

Result<std::vector<std::string>> StatementParser::ParseQualifiedName() {
  std::vector<std::string> names;
  do {
    TARN_ASSIGN_OR_RETURN(std::string part, ParseName());
    names.push_back(std::move(part));
  } while (AcceptOperator("."));
  if (names.size() > 3) {
    return Status::InvalidArgument(FormatErrorAt(
        text_, "Parser Error: a name has at most three parts (catalog.schema.name)",
        tokens_[pos_ - 1].offset));
  }
  return names;
}

bool StatementParser::AcceptIfExists() {
  if (!Peek().IsKeyword("IF") || !Peek(1).IsKeyword("EXISTS")) return false;
  Advance();
  Advance();
  return true;
}

bool StatementParser::AcceptIfNotExists() {
  if (!Peek().IsKeyword("IF") || !Peek(1).IsKeyword("NOT") || !Peek(2).IsKeyword("EXISTS")) {
    return false;
  }
  Advance();
  Advance();
  Advance();
  return true;
}

Result<std::string> StatementParser::ParseTypeText() {
  size_t first = pos_;
  int depth = 0;
  int suffixes = 0;  // consecutive [] markers: each is one more level of nesting
  while (Peek().kind != TokenKind::kEnd && !Peek().IsOperator(";")) {
    const bool suffix = Peek().IsOperator("[") && Peek(1).IsOperator("]");
    if (suffix) {
      ++suffixes;
    } else {
      suffixes = 0;
    }
    if (depth + suffixes > kMaxTypeDepth) {
      return Status::InvalidArgument(FormatErrorAt(
          text_, StrCat("type nested too deeply (more than ", kMaxTypeDepth, " levels)"),
          Peek().offset));
    }
    const Token& token = Peek();
    if (depth == 0 && (token.IsOperator(",") || token.IsOperator(")") ||
                       token.IsKeyword("NOT") || token.IsKeyword("NULL") ||
                       token.IsKeyword("DEFAULT") || token.IsKeyword("PRIMARY") ||
                       token.IsKeyword("UNIQUE") || token.IsKeyword("CHECK") ||
                       token.IsKeyword("REFERENCES") || token.IsKeyword("COLLATE") ||
                       token.IsKeyword("USING") || token.IsKeyword("GENERATED"))) {
      break;
    }
    if (suffix) {
      Advance();
      Advance();
      continue;
    }
    if (token.IsOperator("(") || token.IsOperator("[")) ++depth;
    if (token.IsOperator(")") || token.IsOperator("]")) --depth;
    Advance();
  }
  if (pos_ == first) return SyntaxError();
  return TextFrom(first);
}

Result<ColumnDef> StatementParser::ParseColumnDef() {
  ColumnDef column;
  TARN_ASSIGN_OR_RETURN(column.name, ParseName());
  TARN_ASSIGN_OR_RETURN(column.type_text, ParseTypeText());
  while (true) {
    if (AcceptKeyword("NOT")) {
      TARN_RETURN_NOT_OK(ExpectKeyword("NULL"));
      column.not_null = true;
    } else if (AcceptKeyword("NULL")) {
      column.not_null = false;
    } else if (AcceptKeyword("DEFAULT")) {
      TARN_ASSIGN_OR_RETURN(column.default_value, ParseExpr());
    } else if (Peek().IsKeyword("COLLATE")) {
      return Status::InvalidArgument(FormatErrorAt(
          text_, "Invalid Input Error: Collations are not supported in DuckLake storage",
          Peek().offset));
    } else if (Peek().IsKeyword("USING") && Peek(1).IsKeyword("COMPRESSION")) {
      return Status::NotSupported(FormatErrorAt(
          text_, "Not implemented Error: Defining a compression type for a column is not "
                 "supported in DuckLake",
          Peek().offset));
    } else if (Peek().IsKeyword("PRIMARY") || Peek().IsKeyword("UNIQUE") ||
               Peek().IsKeyword("CHECK") || Peek().IsKeyword("REFERENCES") ||
               Peek().IsKeyword("GENERATED")) {
      return Status::NotSupported(FormatErrorAt(
          text_, "Not implemented Error: column constraint " + Upper(Peek().text) +
                     " is not supported in DuckLake: its tables have no constraints but NOT NULL",
          Peek().offset));
    } else {
      return column;
    }
  }
}

std::unique_ptr<Statement> StatementParser::WriteStatement(StatementKind kind, std::string what) {
  auto statement = std::make_unique<Statement>();
  statement->kind = kind;
  statement->what = std::move(what);
  statement->write = std::make_unique<WriteStmt>();
  return statement;
}

Result<std::unique_ptr<Statement>> StatementParser::ParseCreate() {
  Advance();  // CREATE
  bool or_replace = false;
  if (AcceptKeyword("OR")) {
    TARN_RETURN_NOT_OK(ExpectKeyword("REPLACE"));
    or_replace = true;
  }
  // CREATE TEMP TABLE | VIEW | MACRO: an object of the "temp" database.
  const bool temporary = AcceptKeyword("TEMP") || AcceptKeyword("TEMPORARY");
  if (temporary && Peek().IsKeyword("SCHEMA")) return SyntaxError();
  if (AcceptKeyword("SCHEMA")) {
    auto statement = WriteStatement(StatementKind::kCreateSchema, "CREATE SCHEMA");
    statement->write->if_not_exists = AcceptIfNotExists();
    TARN_ASSIGN_OR_RETURN(statement->write->names, ParseQualifiedName());
    return statement;
  }
  if (AcceptKeyword("VIEW")) {
    auto statement = WriteStatement(StatementKind::kCreateView, "CREATE VIEW");
    WriteStmt& write = *statement->write;
    write.or_replace = or_replace;
    write.temporary = temporary;
    write.if_not_exists = AcceptIfNotExists();
    TARN_ASSIGN_OR_RETURN(write.names, ParseQualifiedName());
    if (AcceptOperator("(")) {
      do {
        TARN_ASSIGN_OR_RETURN(std::string alias, ParseName());
        write.view_aliases.push_back(std::move(alias));
      } while (AcceptOperator(","));
      TARN_RETURN_NOT_OK(ExpectOperator(")"));
    }
    TARN_RETURN_NOT_OK(ExpectKeyword("AS"));
    size_t first = pos_;
    TARN_ASSIGN_OR_RETURN(write.query, ParseQuery());
    write.query_text = TextFrom(first);
    return statement;
  }
  if (Peek().IsKeyword("MACRO") || Peek().IsKeyword("FUNCTION")) {
    Advance();
    auto statement = WriteStatement(StatementKind::kCreateMacro, "CREATE MACRO");
    WriteStmt& write = *statement->write;
    write.or_replace = or_replace;
    write.temporary = temporary;
    write.if_not_exists = AcceptIfNotExists();
    TARN_ASSIGN_OR_RETURN(write.names, ParseQualifiedName());
    do {
      TARN_ASSIGN_OR_RETURN(MacroImplDef impl, ParseMacroImpl());
      write.macro_impls.push_back(std::move(impl));
    } while (AcceptOperator(","));
    return statement;
  }
  if (!AcceptKeyword("TABLE")) {
    std::string what = "CREATE";
    if (Peek().kind == TokenKind::kIdentifier) what += " " + Upper(Peek().text);
    return ParseUnsupportedNamed(std::move(what));
  }
  auto statement = WriteStatement(StatementKind::kCreateTable, "CREATE TABLE");
  WriteStmt& write = *statement->write;
  write.or_replace = or_replace;
  write.temporary = temporary;
  write.if_not_exists = AcceptIfNotExists();
  TARN_ASSIGN_OR_RETURN(write.names, ParseQualifiedName());
  // duckrun's CREATE TABLE t SORTED BY (keys) | SORTED BY AUTO AS SELECT ...
  if (Peek().IsKeyword("SORTED") && Peek(1).IsKeyword("BY")) {
    Advance();
    Advance();
    if (AcceptKeyword("AUTO")) {
      write.sort_auto = true;
    } else {
      TARN_ASSIGN_OR_RETURN(write.sort_keys, ParseSortKeyList());
    }
    if (!Peek().IsKeyword("AS")) return SyntaxError();
  }
  if (AcceptKeyword("AS")) {
    size_t first = pos_;
    TARN_ASSIGN_OR_RETURN(write.query, ParseQuery());
    write.query_text = TextFrom(first);
    // WITH [NO] DATA
    if (Peek().IsKeyword("WITH") &&
        (Peek(1).IsKeyword("DATA") || (Peek(1).IsKeyword("NO") && Peek(2).IsKeyword("DATA")))) {
      Advance();
      write.no_data = AcceptKeyword("NO");
      Advance();  // DATA
    }
    return statement;
  }
  TARN_RETURN_NOT_OK(ExpectOperator("("));
  do {
    if (Peek().IsKeyword("PRIMARY") || Peek().IsKeyword("UNIQUE") ||
        Peek().IsKeyword("CHECK") || Peek().IsKeyword("FOREIGN") ||
        Peek().IsKeyword("CONSTRAINT")) {
      return Status::NotSupported(FormatErrorAt(
          text_, "Not implemented Error: table constraint " + Upper(Peek().text) +
                     " is not supported in DuckLake: its tables have no constraints but NOT NULL",
          Peek().offset));
    }
    TARN_ASSIGN_OR_RETURN(ColumnDef column, ParseColumnDef());
    write.columns.push_back(std::move(column));
    // A comma may end the list, as DuckDB allows: (a INTEGER, b VARCHAR, )
  } while (AcceptOperator(",") && !Peek().IsOperator(")"));
  TARN_RETURN_NOT_OK(ExpectOperator(")"));
  return statement;
}

// (name [type] [:= default], ...) AS expression | AS TABLE query
Result<MacroImplDef> StatementParser::ParseMacroImpl() {
  MacroImplDef impl;
  TARN_RETURN_NOT_OK(ExpectOperator("("));
  if (!AcceptOperator(")")) {
    do {
      MacroParameterDef parameter;
      TARN_ASSIGN_OR_RETURN(parameter.name, ParseName());
      // A type runs to the parameter's end: ',' or ')' or ':=' at depth 0.
      const size_t type_first = pos_;
      int depth = 0;
      while (Peek().kind != TokenKind::kEnd && !Peek().IsOperator(";")) {
        const Token& token = Peek();
        if (depth == 0 && (token.IsOperator(",") || token.IsOperator(")") ||
                           token.IsOperator(":"))) {
          break;
        }
        if (token.IsOperator("(") || token.IsOperator("[")) ++depth;
        if (token.IsOperator(")") || token.IsOperator("]")) --depth;
        Advance();
      }
      parameter.type_text = TextFrom(type_first);
      if (AcceptOperator(":")) {
        TARN_RETURN_NOT_OK(ExpectOperator("="));
        TARN_ASSIGN_OR_RETURN(parameter.default_value, ParseExpr());
      }
      impl.parameters.push_back(std::move(parameter));
    } while (AcceptOperator(","));
    TARN_RETURN_NOT_OK(ExpectOperator(")"));
  }
  TARN_RETURN_NOT_OK(ExpectKeyword("AS"));
  if (AcceptKeyword("TABLE")) {
    const size_t first = pos_;
    TARN_ASSIGN_OR_RETURN(impl.query, ParseQuery());
    impl.query_text = TextFrom(first);
    // AS TABLE (SELECT ...): the query without the parentheses around it.
    while (impl.query_text.size() >= 2 && impl.query_text.front() == '(' &&
           impl.query_text.back() == ')') {
      int depth = 0;
      bool outer = true;
      for (size_t i = 0; i + 1 < impl.query_text.size(); ++i) {
        if (impl.query_text[i] == '(') ++depth;
        if (impl.query_text[i] == ')') --depth;
        if (depth == 0) {
          outer = false;
          break;
        }
      }
      if (!outer) break;
      impl.query_text = impl.query_text.substr(1, impl.query_text.size() - 2);
    }
    return impl;
  }
  TARN_ASSIGN_OR_RETURN(impl.body, ParseExpr());
  return impl;
}

Result<std::unique_ptr<Statement>> StatementParser::ParseDrop() {
  Advance();  // DROP
  StatementKind kind;
  std::string what;
  if (AcceptKeyword("TABLE")) {
    kind = StatementKind::kDropTable;
    what = "DROP TABLE";
  } else if (AcceptKeyword("SCHEMA")) {
    kind = StatementKind::kDropSchema;
    what = "DROP SCHEMA";
  } else if (AcceptKeyword("VIEW")) {
    kind = StatementKind::kDropView;
    what = "DROP VIEW";
  } else if (AcceptKeyword("MACRO") || AcceptKeyword("FUNCTION")) {
    kind = StatementKind::kDropMacro;
    what = "DROP MACRO";
  } else {
    std::string name = "DROP";
    if (Peek().kind == TokenKind::kIdentifier) name += " " + Upper(Peek().text);
    return ParseUnsupportedNamed(std::move(name));
  }
  auto statement = WriteStatement(kind, std::move(what));
  if (kind == StatementKind::kDropMacro && AcceptKeyword("TABLE")) {
    statement->write->table_macro = true;
  }
  statement->write->if_exists = AcceptIfExists();
  TARN_ASSIGN_OR_RETURN(statement->write->names, ParseQualifiedName());
  if (AcceptKeyword("CASCADE")) {
    statement->write->cascade = true;
  } else {
    AcceptKeyword("RESTRICT");
  }
  return statement;
}

Result<std::unique_ptr<Statement>> StatementParser::ParseInsert() {
  Advance();  // INSERT
  if (Peek().IsKeyword("OR")) {
    return ParseUnsupportedNamed("INSERT OR " + Upper(Peek(1).text));
  }
  TARN_RETURN_NOT_OK(ExpectKeyword("INTO"));
  auto statement = WriteStatement(StatementKind::kInsert, "INSERT");
  WriteStmt& write = *statement->write;
  TARN_RETURN_NOT_OK(ParseWriteTarget(&write, /*with_alias=*/false));
  // BY NAME matches the query's columns to the table's by name; BY POSITION is the default.
  if (Peek().IsKeyword("BY") && (Peek(1).IsKeyword("NAME") || Peek(1).IsKeyword("POSITION"))) {
    Advance();
    write.by_name = Advance().IsKeyword("NAME");
  }
  if (Peek().IsOperator("(") && !Peek(1).IsKeyword("SELECT") && !Peek(1).IsKeyword("FROM") &&
      !Peek(1).IsOperator("(")) {
    if (write.by_name) {
      return Status::InvalidArgument(FormatErrorAt(
          text_, "Binder Error: INSERT BY NAME cannot be combined with an explicit column list",
          Peek().offset));
    }
    Advance();
    do {
      TARN_ASSIGN_OR_RETURN(std::string column, ParseName());
      write.insert_columns.push_back(std::move(column));
    } while (AcceptOperator(","));
    TARN_RETURN_NOT_OK(ExpectOperator(")"));
  }
  if (AcceptKeyword("DEFAULT")) {
    TARN_RETURN_NOT_OK(ExpectKeyword("VALUES"));
    write.default_values = true;
  } else if (AcceptKeyword("VALUES")) {
    do {
      TARN_RETURN_NOT_OK(ExpectOperator("("));
      std::vector<std::unique_ptr<ast::Expr>> row;
      do {
        // DEFAULT: the column's default (a kStar marked "DEFAULT", see ast.h).
        if (Peek().IsKeyword("DEFAULT") && (Peek(1).IsOperator(",") || Peek(1).IsOperator(")"))) {
          auto marker = std::make_unique<ast::Expr>();
          marker->kind = ast::ExprKind::kStar;
          marker->text = "DEFAULT";
          const Token& word = Advance();
          marker->range.offset = static_cast<int32_t>(word.offset);
          marker->range.length = static_cast<int32_t>(word.text.size());
          row.push_back(std::move(marker));
          continue;
        }
        TARN_ASSIGN_OR_RETURN(auto value, ParseExpr());
        row.push_back(std::move(value));
      } while (AcceptOperator(","));
      TARN_RETURN_NOT_OK(ExpectOperator(")"));
      write.values.push_back(std::move(row));
    } while (AcceptOperator(","));
  } else {
    size_t first = pos_;
    TARN_ASSIGN_OR_RETURN(write.query, ParseQuery());
    write.query_text = TextFrom(first);
  }
  TARN_RETURN_NOT_OK(ParseWriteTail("INSERT", {"ON", "RETURNING"}, /*where=*/nullptr));
  return statement;
}

Result<std::unique_ptr<Statement>> StatementParser::ParseDelete() {
  Advance();  // DELETE
  TARN_RETURN_NOT_OK(ExpectKeyword("FROM"));
  auto statement = WriteStatement(StatementKind::kDelete, "DELETE");
  WriteStmt& write = *statement->write;
  TARN_RETURN_NOT_OK(ParseWriteTarget(&write, /*with_alias=*/true));
  if (AcceptKeyword("USING")) {
    TARN_ASSIGN_OR_RETURN(TableRef from, ParseFromClause());
    write.from = std::make_unique<TableRef>(std::move(from));
  }
  TARN_RETURN_NOT_OK(ParseWriteTail("DELETE", {"RETURNING"}, &write.where));
  return statement;
}

Result<std::unique_ptr<Statement>> StatementParser::ParseUpdate() {
  Advance();  // UPDATE
  auto statement = WriteStatement(StatementKind::kUpdate, "UPDATE");
  WriteStmt& write = *statement->write;
  TARN_RETURN_NOT_OK(ParseWriteTarget(&write, /*with_alias=*/true));
  TARN_RETURN_NOT_OK(ExpectKeyword("SET"));
  do {
    TARN_ASSIGN_OR_RETURN(std::string column, ParseName());
    TARN_RETURN_NOT_OK(ExpectOperator("="));
    TARN_ASSIGN_OR_RETURN(auto value, ParseExpr());
    write.assignments.emplace_back(std::move(column), std::move(value));
  } while (AcceptOperator(","));
  if (AcceptKeyword("FROM")) {
    TARN_ASSIGN_OR_RETURN(TableRef from, ParseFromClause());
    write.from = std::make_unique<TableRef>(std::move(from));
  }
  TARN_RETURN_NOT_OK(ParseWriteTail("UPDATE", {"RETURNING"}, &write.where));
  return statement;
}

Result<std::unique_ptr<Statement>> StatementParser::ParseMerge() {
  Advance();  // MERGE
  TARN_RETURN_NOT_OK(ExpectKeyword("INTO"));
  auto statement = WriteStatement(StatementKind::kMerge, "MERGE");
  WriteStmt& write = *statement->write;
  TARN_RETURN_NOT_OK(ParseWriteTarget(&write, /*with_alias=*/true));
  TARN_RETURN_NOT_OK(ExpectKeyword("USING"));
  TARN_ASSIGN_OR_RETURN(TableRef source, ParseTableRef());
  write.from = std::make_unique<TableRef>(std::move(source));
  if (AcceptKeyword("ON")) {
    TARN_ASSIGN_OR_RETURN(write.merge_on, ParseExpr());
  } else {
    TARN_RETURN_NOT_OK(ExpectKeyword("USING"));
    TARN_RETURN_NOT_OK(ExpectOperator("("));
    do {
      TARN_ASSIGN_OR_RETURN(std::string column, ParseName());
      write.merge_using.push_back(std::move(column));
    } while (AcceptOperator(","));
    TARN_RETURN_NOT_OK(ExpectOperator(")"));
  }
  while (Peek().IsKeyword("WHEN")) {
    TARN_ASSIGN_OR_RETURN(MergeAction action, ParseMergeAction());
    write.merge_actions.push_back(std::move(action));
  }
  if (write.merge_actions.empty()) return SyntaxError();
  TARN_RETURN_NOT_OK(ParseWriteTail("MERGE", {"RETURNING"}, /*where=*/nullptr));
  return statement;
}

Result<MergeAction> StatementParser::ParseMergeAction() {
  MergeAction action;
  Advance();  // WHEN
  if (AcceptKeyword("NOT")) {
    TARN_RETURN_NOT_OK(ExpectKeyword("MATCHED"));
    action.when = MergeAction::When::kNotMatched;
    if (AcceptKeyword("BY")) {
      if (AcceptKeyword("SOURCE")) {
        action.when = MergeAction::When::kNotMatchedBySource;
      } else {
        TARN_RETURN_NOT_OK(ExpectKeyword("TARGET"));
      }
    }
  } else {
    TARN_RETURN_NOT_OK(ExpectKeyword("MATCHED"));
  }
  if (AcceptKeyword("AND")) {
    TARN_ASSIGN_OR_RETURN(action.condition, ParseExpr());
  }
  TARN_RETURN_NOT_OK(ExpectKeyword("THEN"));
  const int32_t offset = Peek().offset;
  const bool inserts = action.when == MergeAction::When::kNotMatched;
  if (AcceptKeyword("DO")) {
    TARN_RETURN_NOT_OK(ExpectKeyword("NOTHING"));
    action.kind = MergeAction::Kind::kDoNothing;
  } else if (!inserts && AcceptKeyword("DELETE")) {
    action.kind = MergeAction::Kind::kDelete;
  } else if (!inserts && AcceptKeyword("UPDATE")) {
    action.kind = MergeAction::Kind::kUpdate;
    if (AcceptKeyword("SET")) {
      if (!AcceptOperator("*")) {
        do {
          TARN_ASSIGN_OR_RETURN(std::string column, ParseName());
          TARN_RETURN_NOT_OK(ExpectOperator("="));
          TARN_ASSIGN_OR_RETURN(auto value, ParseExpr());
          action.assignments.emplace_back(std::move(column), std::move(value));
        } while (AcceptOperator(","));
      }
    }
  } else if (inserts && AcceptKeyword("INSERT")) {
    action.kind = MergeAction::Kind::kInsert;
    if (AcceptOperator("*")) return action;
    if (Peek().IsOperator("(")) {
      Advance();
      do {
        TARN_ASSIGN_OR_RETURN(std::string column, ParseName());
        action.columns.push_back(std::move(column));
      } while (AcceptOperator(","));
      TARN_RETURN_NOT_OK(ExpectOperator(")"));
    }
    if (AcceptKeyword("DEFAULT")) {
      TARN_RETURN_NOT_OK(ExpectKeyword("VALUES"));
      action.default_values = true;
    } else if (AcceptKeyword("VALUES")) {
      TARN_RETURN_NOT_OK(ExpectOperator("("));
      do {
        TARN_ASSIGN_OR_RETURN(auto value, ParseExpr());
        action.values.push_back(std::move(value));
      } while (AcceptOperator(","));
      TARN_RETURN_NOT_OK(ExpectOperator(")"));
    }
  } else if (Peek().IsKeyword("ERROR")) {
    return Status::NotSupported(FormatErrorAt(text_, "not yet supported: MERGE ... THEN ERROR",
                                              offset));
  } else {
    return SyntaxError();
  }
  return action;
}

Status StatementParser::ParseWriteTarget(WriteStmt* write, bool with_alias) {
  TARN_ASSIGN_OR_RETURN(write->names, ParseQualifiedName());
  if (!with_alias) return Status::OK();
  if (AcceptKeyword("AS")) {
    TARN_ASSIGN_OR_RETURN(write->alias, ParseName());
  } else if (Peek().kind == TokenKind::kIdentifier && !Peek().IsKeyword("WHERE") &&
             !Peek().IsKeyword("SET") && !Peek().IsKeyword("USING") &&
             !Peek().IsKeyword("RETURNING")) {
    write->alias = Advance().text;
  }
  return Status::OK();
}

Status StatementParser::ParseWriteTail(std::string_view what,
                                       std::initializer_list<std::string_view> refused,
                                       std::unique_ptr<ast::Expr>* where) {
  for (std::string_view clause : refused) {
    if (Peek().IsKeyword(clause)) {
      return Status::NotSupported(FormatErrorAt(
          text_, StrCat("not yet supported: ", what, " ... ", Upper(Peek().text)),
          Peek().offset));
    }
  }
  if (where != nullptr && AcceptKeyword("WHERE")) {
    TARN_ASSIGN_OR_RETURN(*where, ParseExpr());
  }
  return Status::OK();
}

Result<std::unique_ptr<Statement>> StatementParser::ParseTransaction() {
  auto statement = std::make_unique<Statement>();
  const Token& first = Advance();
  if (first.IsKeyword("BEGIN") || first.IsKeyword("START")) {
    // START alone is DuckDB's too (its grammar makes TRANSACTION optional after it).
    statement->kind = StatementKind::kBegin;
    statement->what = "BEGIN";
  } else if (first.IsKeyword("COMMIT") || first.IsKeyword("END")) {
    statement->kind = StatementKind::kCommit;
    statement->what = "COMMIT";
  } else {
    statement->kind = StatementKind::kRollback;
    statement->what = "ROLLBACK";
  }
  AcceptKeyword("TRANSACTION");
  return statement;
}

Result<std::vector<OrderItem>> StatementParser::ParseSortKeyList() {
  TARN_RETURN_NOT_OK(ExpectOperator("("));
  std::vector<OrderItem> items;
  do {
    OrderItem item;
    TARN_ASSIGN_OR_RETURN(item.expr, ParseExpr());
    if (AcceptKeyword("DESC")) {
      item.descending = true;
    } else {
      AcceptKeyword("ASC");
    }
    if (AcceptKeyword("NULLS")) {
      if (AcceptKeyword("FIRST")) {
        item.nulls_first = true;
      } else {
        TARN_RETURN_NOT_OK(ExpectKeyword("LAST"));
        item.nulls_first = false;
      }
    }
    items.push_back(std::move(item));
  } while (AcceptOperator(","));
  TARN_RETURN_NOT_OK(ExpectOperator(")"));
  return items;
}

// COMMENT ON TABLE | VIEW | COLUMN name IS 'text' | NULL
Result<std::unique_ptr<Statement>> StatementParser::ParseComment() {
  Advance();  // COMMENT
  Advance();  // ON
  std::string target;
  for (const char* word : {"TABLE", "VIEW", "COLUMN"}) {
    if (target.empty() && AcceptKeyword(word)) target = word;
  }
  if (target.empty()) {
    std::string what = "COMMENT ON";
    if (Peek().kind == TokenKind::kIdentifier) what += " " + Upper(Peek().text);
    return ParseUnsupportedNamed(std::move(what));
  }
  auto statement = WriteStatement(StatementKind::kAlterTable, "COMMENT ON " + target);
  WriteStmt& write = *statement->write;
  write.alter = AlterAction::kSetComment;
  write.comment_on = target;
  TARN_ASSIGN_OR_RETURN(write.names, ParseQualifiedName());
  if (target == "COLUMN" && write.names.size() < 2) {
    return Status::InvalidArgument("Parser Error: Invalid column reference: '", write.names[0],
                                   "', please specify a table");
  }
  TARN_RETURN_NOT_OK(ExpectKeyword("IS"));
  if (Peek().kind != TokenKind::kString && !Peek().IsKeyword("NULL")) return SyntaxError();
  TARN_ASSIGN_OR_RETURN(write.default_value, ParseExpr());
  return statement;
}

Result<std::vector<std::string>> StatementParser::ParseColumnPath() {
  std::vector<std::string> path;
  do {
    TARN_ASSIGN_OR_RETURN(std::string part, ParseName());
    path.push_back(std::move(part));
  } while (AcceptOperator("."));
  return path;
}

Result<std::unique_ptr<Statement>> StatementParser::ParseAlter() {
  Advance();  // ALTER
  if (AcceptKeyword("VIEW")) {
    // ALTER VIEW [IF EXISTS] v RENAME TO n
    auto statement = WriteStatement(StatementKind::kAlterTable, "ALTER VIEW");
    WriteStmt& write = *statement->write;
    write.if_exists = AcceptIfExists();
    TARN_ASSIGN_OR_RETURN(write.names, ParseQualifiedName());
    TARN_RETURN_NOT_OK(ExpectKeyword("RENAME"));
    TARN_RETURN_NOT_OK(ExpectKeyword("TO"));
    write.alter = AlterAction::kRenameView;
    TARN_ASSIGN_OR_RETURN(write.new_name, ParseName());
    return statement;
  }
  if (!AcceptKeyword("TABLE")) {
    std::string what = "ALTER";
    if (Peek().kind == TokenKind::kIdentifier) what += " " + Upper(Peek().text);
    return ParseUnsupportedNamed(std::move(what));
  }
  auto statement = WriteStatement(StatementKind::kAlterTable, "ALTER TABLE");
  WriteStmt& write = *statement->write;
  write.if_exists = AcceptIfExists();
  TARN_ASSIGN_OR_RETURN(write.names, ParseQualifiedName());
  if (AcceptKeyword("ADD")) {
    AcceptKeyword("COLUMN");
    write.alter = AlterAction::kAddColumn;
    write.if_not_exists = AcceptIfNotExists();
    // ADD COLUMN s.f type: the names before the last are the struct the field goes into.
    while (Peek(1).IsOperator(".")) {
      TARN_ASSIGN_OR_RETURN(std::string part, ParseName());
      write.column_path.push_back(std::move(part));
      Advance();  // .
    }
    TARN_ASSIGN_OR_RETURN(ColumnDef column, ParseColumnDef());
    write.columns.push_back(std::move(column));
    return statement;
  }
  if (AcceptKeyword("DROP")) {
    AcceptKeyword("COLUMN");
    write.alter = AlterAction::kDropColumn;
    write.column_if_exists = AcceptIfExists();
    TARN_ASSIGN_OR_RETURN(write.column_path, ParseColumnPath());
    write.column = write.column_path.back();
    if (write.column_path.size() == 1) write.column_path.clear();
    return statement;
  }
  if (AcceptKeyword("RENAME")) {
    if (AcceptKeyword("TO")) {
      write.alter = AlterAction::kRenameTable;
      TARN_ASSIGN_OR_RETURN(write.new_name, ParseName());
      return statement;
    }
    AcceptKeyword("COLUMN");
    write.alter = AlterAction::kRenameColumn;
    TARN_ASSIGN_OR_RETURN(write.column_path, ParseColumnPath());
    write.column = write.column_path.back();
    if (write.column_path.size() == 1) write.column_path.clear();
    TARN_RETURN_NOT_OK(ExpectKeyword("TO"));
    TARN_ASSIGN_OR_RETURN(write.new_name, ParseName());
    return statement;
  }
  if ((Peek().IsKeyword("SET") || Peek().IsKeyword("RESET")) &&
      Peek(1).IsKeyword("PARTITIONED")) {
    const bool reset = Peek().IsKeyword("RESET");
    Advance();
    Advance();  // PARTITIONED
    TARN_RETURN_NOT_OK(ExpectKeyword("BY"));
    if (reset) {
      write.alter = AlterAction::kResetPartitionedBy;
      return statement;
    }
    write.alter = AlterAction::kSetPartitionedBy;
    TARN_RETURN_NOT_OK(ExpectOperator("("));
    while (true) {
      TARN_ASSIGN_OR_RETURN(auto key, ParseExpr());
      write.partition_keys.push_back(std::move(key));
      if (!AcceptOperator(",")) break;
    }
    TARN_RETURN_NOT_OK(ExpectOperator(")"));
    return statement;
  }
  if (Peek().IsKeyword("RESET") && Peek(1).IsKeyword("SORTED")) {
    Advance();
    Advance();
    TARN_RETURN_NOT_OK(ExpectKeyword("BY"));
    write.alter = AlterAction::kSetSortedBy;
    return statement;
  }
  if (Peek().IsKeyword("SET") && Peek(1).IsKeyword("SORTED")) {
    Advance();
    Advance();
    TARN_RETURN_NOT_OK(ExpectKeyword("BY"));
    write.alter = AlterAction::kSetSortedBy;
    if (AcceptKeyword("AUTO")) {
      write.sort_auto = true;
      return statement;
    }
    TARN_ASSIGN_OR_RETURN(write.sort_keys, ParseSortKeyList());
    return statement;
  }
  TARN_RETURN_NOT_OK(ExpectKeyword("ALTER"));
  AcceptKeyword("COLUMN");
  TARN_ASSIGN_OR_RETURN(write.column, ParseName());
  // [SET [DATA]] TYPE t, as DuckDB's grammar takes it.
  const bool set_type = Peek().IsKeyword("SET") &&
                        (Peek(1).IsKeyword("TYPE") ||
                         (Peek(1).IsKeyword("DATA") && Peek(2).IsKeyword("TYPE")));
  if (set_type) {
    Advance();  // SET
    AcceptKeyword("DATA");
  }
  if (AcceptKeyword("TYPE")) {
    write.alter = AlterAction::kSetType;
    TARN_ASSIGN_OR_RETURN(write.type_text, ParseTypeText());
    if (Peek().IsKeyword("USING")) {
      return Status::NotSupported(FormatErrorAt(
          text_, "not yet supported: ALTER COLUMN ... TYPE ... USING", Peek().offset));
    }
    return statement;
  }
  if (AcceptKeyword("SET")) {
    // SET DEFAULT | SET NOT NULL.
    if (AcceptKeyword("DEFAULT")) {
      write.alter = AlterAction::kSetDefault;
      TARN_ASSIGN_OR_RETURN(write.default_value, ParseExpr());
      return statement;
    }
    TARN_RETURN_NOT_OK(ExpectKeyword("NOT"));
    TARN_RETURN_NOT_OK(ExpectKeyword("NULL"));
    write.alter = AlterAction::kSetNotNull;
    return statement;
  }
  TARN_RETURN_NOT_OK(ExpectKeyword("DROP"));
  if (AcceptKeyword("DEFAULT")) {
    write.alter = AlterAction::kDropDefault;
    return statement;
  }
  TARN_RETURN_NOT_OK(ExpectKeyword("NOT"));
  TARN_RETURN_NOT_OK(ExpectKeyword("NULL"));
  write.alter = AlterAction::kDropNotNull;
  return statement;
}

}  // namespace tarn::sql::parser_internal
