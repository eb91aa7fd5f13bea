#include "sql/statement_parser.h"

#include <string>
#include <utility>

#include "expr/lexer.h"
#include "expr/parser.h"

namespace tarn::sql {
namespace {

// Words that end a select item or a table reference, so they are never taken as an alias.
constexpr std::string_view kClauseWords[] = {
    "FROM",  "WHERE", "GROUP",  "HAVING",    "ORDER", "LIMIT",   "OFFSET", "UNION",
    "EXCEPT", "INTERSECT", "WINDOW", "QUALIFY", "ON",    "USING",   "JOIN",   "INNER",
    "LEFT",  "RIGHT", "FULL",   "CROSS",     "NATURAL", "SELECT", "AS",    "TO",
    "POSITIONAL", "ASOF", "ANTI", "SEMI", "LATERAL", "PIVOT", "UNPIVOT", "SAMPLE", "TABLESAMPLE"};

// Statement keywords tarn recognizes but does not run: refused, naming the statement.
constexpr std::string_view kUnsupportedWords[] = {
    "ATTACH", "DETACH", "USE", "MERGE", "TRUNCATE", "CHECKPOINT", "VACUUM",
    "INSTALL", "LOAD", "IMPORT", "EXPORT", "PRAGMA"};

bool IsClauseWord(const Token& token) {
  for (std::string_view word : kClauseWords) {
    if (token.IsKeyword(word)) return true;
  }
  return false;
}

std::string Upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

class StatementParser {
 public:
  StatementParser(std::string_view text, const std::vector<Token>& tokens)
      : text_(text), tokens_(tokens) {}

  Result<std::vector<std::unique_ptr<Statement>>> ParseAll() {
    std::vector<std::unique_ptr<Statement>> statements;
    while (true) {
      while (AcceptOperator(";")) {
      }
      if (Peek().kind == TokenKind::kEnd) break;
      size_t start = pos_;
      TARN_ASSIGN_OR_RETURN(auto statement, ParseStatement());
      if (!Peek().IsOperator(";") && Peek().kind != TokenKind::kEnd) return SyntaxError();
      const Token& first = tokens_[start];
      const Token& last = tokens_[pos_ - 1];
      statement->text = std::string(text_.substr(first.offset, last.offset + last.length - first.offset));
      statements.push_back(std::move(statement));
    }
    return statements;
  }

 private:
  const Token& Peek(size_t ahead = 0) const {
    size_t index = pos_ + ahead;
    return tokens_[index < tokens_.size() ? index : tokens_.size() - 1];
  }
  const Token& Advance() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }
  bool AcceptKeyword(std::string_view keyword) {
    if (!Peek().IsKeyword(keyword)) return false;
    Advance();
    return true;
  }
  bool AcceptOperator(std::string_view op) {
    if (!Peek().IsOperator(op)) return false;
    Advance();
    return true;
  }
  Status ExpectKeyword(std::string_view keyword) {
    return AcceptKeyword(keyword) ? Status::OK() : SyntaxError();
  }
  Status ExpectOperator(std::string_view op) {
    return AcceptOperator(op) ? Status::OK() : SyntaxError();
  }
  Status SyntaxError() const { return Status::InvalidArgument(FormatSyntaxError(text_, Peek())); }

  Result<std::unique_ptr<ast::Expr>> ParseExpr() {
    ExprParser parser(text_, tokens_, pos_);
    auto result = parser.ParseExpr();
    pos_ = parser.position();
    return result;
  }

  Result<std::string> ParseName() {
    const Token& token = Peek();
    if (token.kind != TokenKind::kIdentifier && token.kind != TokenKind::kQuotedIdentifier) {
      return SyntaxError();
    }
    return Advance().text;
  }

  bool AtStatementEnd() const {
    return Peek().IsOperator(";") || Peek().kind == TokenKind::kEnd || Peek().IsOperator(")");
  }

  Result<std::unique_ptr<Statement>> ParseStatement() {
    auto statement = std::make_unique<Statement>();
    const Token& first = Peek();
    if (first.IsKeyword("SELECT") || first.IsKeyword("FROM") || first.IsOperator("(")) {
      TARN_ASSIGN_OR_RETURN(statement->select, ParseQuery());
      return statement;
    }
    if (AcceptKeyword("EXPLAIN")) {
      statement->kind = StatementKind::kExplain;
      statement->analyze = AcceptKeyword("ANALYZE");
      TARN_ASSIGN_OR_RETURN(statement->inner, ParseStatement());
      return statement;
    }
    if (AcceptKeyword("DESCRIBE") || AcceptKeyword("DESC")) {
      statement->kind = StatementKind::kDescribe;
      TARN_ASSIGN_OR_RETURN(statement->select, ParseDescribeTarget());
      return statement;
    }
    if (AcceptKeyword("SHOW")) {
      if (AcceptKeyword("TABLES")) {
        statement->kind = StatementKind::kShowTables;
        return statement;
      }
      if (Peek().IsKeyword("ALL") && Peek(1).IsKeyword("TABLES")) {
        Advance();
        Advance();
        statement->kind = StatementKind::kShowTables;
        statement->show_all = true;
        return statement;
      }
      statement->kind = StatementKind::kDescribe;  // SHOW name = DESCRIBE name
      TARN_ASSIGN_OR_RETURN(statement->select, ParseDescribeTarget());
      return statement;
    }
    if (AcceptKeyword("SET")) {
      statement->kind = StatementKind::kSet;
      if (!AcceptKeyword("SESSION")) AcceptKeyword("GLOBAL");
      TARN_ASSIGN_OR_RETURN(statement->setting, ParseName());
      if (!AcceptOperator("=") && !AcceptKeyword("TO")) return SyntaxError();
      TARN_ASSIGN_OR_RETURN(statement->value, ParseExpr());
      return statement;
    }
    if (AcceptKeyword("RESET")) {
      statement->kind = StatementKind::kReset;
      if (!AcceptKeyword("SESSION")) AcceptKeyword("GLOBAL");
      TARN_ASSIGN_OR_RETURN(statement->setting, ParseName());
      return statement;
    }
    if (first.IsKeyword("COPY")) return ParseCopy();
    if (first.IsKeyword("CALL")) return ParseCall();
    if (first.IsKeyword("CREATE")) return ParseCreate();
    if (first.IsKeyword("DROP")) return ParseDrop();
    if (first.IsKeyword("INSERT")) return ParseInsert();
    if (first.IsKeyword("DELETE")) return ParseDelete();
    if (first.IsKeyword("UPDATE")) return ParseUpdate();
    if (first.IsKeyword("ALTER")) return ParseAlter();
    if (first.IsKeyword("BEGIN") || first.IsKeyword("START")) {
      Advance();
      if (first.IsKeyword("START")) TARN_RETURN_NOT_OK(ExpectKeyword("TRANSACTION"));
      AcceptKeyword("TRANSACTION");
      statement->kind = StatementKind::kBegin;
      statement->what = "BEGIN";
      return statement;
    }
    if (first.IsKeyword("COMMIT") || first.IsKeyword("END")) {
      Advance();
      AcceptKeyword("TRANSACTION");
      statement->kind = StatementKind::kCommit;
      statement->what = "COMMIT";
      return statement;
    }
    if (first.IsKeyword("ROLLBACK") || first.IsKeyword("ABORT")) {
      Advance();
      AcceptKeyword("TRANSACTION");
      statement->kind = StatementKind::kRollback;
      statement->what = "ROLLBACK";
      return statement;
    }
    for (std::string_view word : kUnsupportedWords) {
      if (first.IsKeyword(word)) return ParseUnsupported();
    }
    return SyntaxError();
  }

  // --- lake statements -------------------------------------------------------------------

  // The '>' of "=>" right after an '=' (the lexer splits the arrow).
  bool AcceptArrowTail() {
    const Token& previous = tokens_[pos_ - 1];
    if (!Peek().IsOperator(">") || Peek().offset != previous.offset + previous.length) {
      return false;
    }
    Advance();
    return true;
  }

  // AT ( VERSION => expr ) | AT ( TIMESTAMP => expr )
  Result<AtClause> ParseAtClause() {
    Advance();  // AT
    TARN_RETURN_NOT_OK(ExpectOperator("("));
    AtClause at;
    if (AcceptKeyword("TIMESTAMP")) {
      at.timestamp = true;
    } else if (!AcceptKeyword("VERSION")) {
      return SyntaxError();
    }
    TARN_RETURN_NOT_OK(ExpectOperator("="));
    if (!AcceptArrowTail()) return SyntaxError();
    TARN_ASSIGN_OR_RETURN(at.value, ParseExpr());
    TARN_RETURN_NOT_OK(ExpectOperator(")"));
    return at;
  }

  // name [. name [. name]]
  Result<std::vector<std::string>> ParseQualifiedName() {
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

  bool AcceptIfExists() {
    if (!Peek().IsKeyword("IF") || !Peek(1).IsKeyword("EXISTS")) return false;
    Advance();
    Advance();
    return true;
  }

  bool AcceptIfNotExists() {
    if (!Peek().IsKeyword("IF") || !Peek(1).IsKeyword("NOT") || !Peek(2).IsKeyword("EXISTS")) {
      return false;
    }
    Advance();
    Advance();
    Advance();
    return true;
  }

  // The source text from token `first` to the token before the current one.
  std::string TextFrom(size_t first) const {
    if (first >= pos_) return std::string();
    const Token& start = tokens_[first];
    const Token& last = tokens_[pos_ - 1];
    return std::string(text_.substr(start.offset, last.offset + last.length - start.offset));
  }

  // A type as written, up to a ',' or ')' at depth 0, a constraint keyword or the end.
  Result<std::string> ParseTypeText() {
    size_t first = pos_;
    int depth = 0;
    while (Peek().kind != TokenKind::kEnd && !Peek().IsOperator(";")) {
      const Token& token = Peek();
      if (depth == 0 && (token.IsOperator(",") || token.IsOperator(")") ||
                         token.IsKeyword("NOT") || token.IsKeyword("NULL") ||
                         token.IsKeyword("DEFAULT") || token.IsKeyword("PRIMARY") ||
                         token.IsKeyword("UNIQUE") || token.IsKeyword("CHECK") ||
                         token.IsKeyword("REFERENCES") || token.IsKeyword("COLLATE") ||
                         token.IsKeyword("USING") || token.IsKeyword("GENERATED"))) {
        break;
      }
      if (token.IsOperator("(") || token.IsOperator("[")) ++depth;
      if (token.IsOperator(")") || token.IsOperator("]")) --depth;
      Advance();
    }
    if (pos_ == first) return SyntaxError();
    return TextFrom(first);
  }

  // name type [NOT NULL | NULL | DEFAULT expr]...
  Result<ColumnDef> ParseColumnDef() {
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
      } else if (Peek().IsKeyword("PRIMARY") || Peek().IsKeyword("UNIQUE") ||
                 Peek().IsKeyword("CHECK") || Peek().IsKeyword("REFERENCES") ||
                 Peek().IsKeyword("COLLATE") || Peek().IsKeyword("GENERATED")) {
        return Status::NotSupported(FormatErrorAt(
            text_, "not yet supported: column constraint " + Upper(Peek().text) +
                       " (DuckLake tables have no constraints but NOT NULL)",
            Peek().offset));
      } else {
        return column;
      }
    }
  }

  static std::unique_ptr<Statement> WriteStatement(StatementKind kind, std::string what) {
    auto statement = std::make_unique<Statement>();
    statement->kind = kind;
    statement->what = std::move(what);
    statement->write = std::make_unique<WriteStmt>();
    return statement;
  }

  // CALL name(args): SELECT * FROM name(args).
  Result<std::unique_ptr<Statement>> ParseCall() {
    Advance();  // CALL
    auto statement = std::make_unique<Statement>();
    statement->kind = StatementKind::kCall;
    auto select = std::make_unique<SelectStmt>();
    SelectItem star;
    star.star = true;
    select->items.push_back(std::move(star));
    select->from.offset = Peek().offset;
    TARN_ASSIGN_OR_RETURN(std::string name, ParseName());
    select->from.kind = TableRef::Kind::kFunction;
    select->from.names.push_back(std::move(name));
    TARN_RETURN_NOT_OK(ExpectOperator("("));
    TARN_RETURN_NOT_OK(ParseTableArgs(&select->from));
    statement->what = "CALL " + select->from.names[0];
    statement->select = std::move(select);
    return statement;
  }

  Result<std::unique_ptr<Statement>> ParseCreate() {
    Advance();  // CREATE
    bool or_replace = false;
    if (AcceptKeyword("OR")) {
      TARN_RETURN_NOT_OK(ExpectKeyword("REPLACE"));
      or_replace = true;
    }
    if (Peek().IsKeyword("TEMP") || Peek().IsKeyword("TEMPORARY")) {
      return Status::NotSupported(FormatErrorAt(
          text_, "not yet supported: temporary tables (tables live in the attached lake)",
          Peek().offset));
    }
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
    if (!AcceptKeyword("TABLE")) {
      std::string what = "CREATE";
      if (Peek().kind == TokenKind::kIdentifier) what += " " + Upper(Peek().text);
      return ParseUnsupportedNamed(std::move(what));
    }
    auto statement = WriteStatement(StatementKind::kCreateTable, "CREATE TABLE");
    WriteStmt& write = *statement->write;
    write.or_replace = or_replace;
    write.if_not_exists = AcceptIfNotExists();
    TARN_ASSIGN_OR_RETURN(write.names, ParseQualifiedName());
    if (AcceptKeyword("AS")) {
      size_t first = pos_;
      TARN_ASSIGN_OR_RETURN(write.query, ParseQuery());
      write.query_text = TextFrom(first);
      return statement;
    }
    TARN_RETURN_NOT_OK(ExpectOperator("("));
    do {
      if (Peek().IsKeyword("PRIMARY") || Peek().IsKeyword("UNIQUE") ||
          Peek().IsKeyword("CHECK") || Peek().IsKeyword("FOREIGN") ||
          Peek().IsKeyword("CONSTRAINT")) {
        return Status::NotSupported(FormatErrorAt(
            text_, "not yet supported: table constraint " + Upper(Peek().text) +
                       " (DuckLake tables have no constraints but NOT NULL)",
            Peek().offset));
      }
      TARN_ASSIGN_OR_RETURN(ColumnDef column, ParseColumnDef());
      write.columns.push_back(std::move(column));
    } while (AcceptOperator(","));
    TARN_RETURN_NOT_OK(ExpectOperator(")"));
    return statement;
  }

  Result<std::unique_ptr<Statement>> ParseDrop() {
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
    } else {
      std::string name = "DROP";
      if (Peek().kind == TokenKind::kIdentifier) name += " " + Upper(Peek().text);
      return ParseUnsupportedNamed(std::move(name));
    }
    auto statement = WriteStatement(kind, std::move(what));
    statement->write->if_exists = AcceptIfExists();
    TARN_ASSIGN_OR_RETURN(statement->write->names, ParseQualifiedName());
    if (AcceptKeyword("CASCADE")) {
      statement->write->cascade = true;
    } else {
      AcceptKeyword("RESTRICT");
    }
    return statement;
  }

  Result<std::unique_ptr<Statement>> ParseInsert() {
    Advance();  // INSERT
    if (Peek().IsKeyword("OR")) {
      return ParseUnsupportedNamed("INSERT OR " + Upper(Peek(1).text));
    }
    TARN_RETURN_NOT_OK(ExpectKeyword("INTO"));
    auto statement = WriteStatement(StatementKind::kInsert, "INSERT");
    WriteStmt& write = *statement->write;
    TARN_ASSIGN_OR_RETURN(write.names, ParseQualifiedName());
    if (Peek().IsOperator("(") && !Peek(1).IsKeyword("SELECT") && !Peek(1).IsKeyword("FROM") &&
        !Peek(1).IsOperator("(")) {
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
    if (Peek().IsKeyword("ON") || Peek().IsKeyword("RETURNING")) {
      return Status::NotSupported(FormatErrorAt(
          text_, "not yet supported: INSERT ... " + Upper(Peek().text), Peek().offset));
    }
    return statement;
  }

  // [AS] alias after a DELETE/UPDATE target, never a clause keyword.
  Result<std::string> ParseTargetAlias() {
    if (AcceptKeyword("AS")) return ParseName();
    if (Peek().kind == TokenKind::kIdentifier && !Peek().IsKeyword("WHERE") &&
        !Peek().IsKeyword("SET") && !Peek().IsKeyword("USING") &&
        !Peek().IsKeyword("RETURNING")) {
      return Advance().text;
    }
    return std::string();
  }

  Result<std::unique_ptr<Statement>> ParseDelete() {
    Advance();  // DELETE
    TARN_RETURN_NOT_OK(ExpectKeyword("FROM"));
    auto statement = WriteStatement(StatementKind::kDelete, "DELETE");
    WriteStmt& write = *statement->write;
    TARN_ASSIGN_OR_RETURN(write.names, ParseQualifiedName());
    TARN_ASSIGN_OR_RETURN(write.alias, ParseTargetAlias());
    if (Peek().IsKeyword("USING") || Peek().IsKeyword("RETURNING")) {
      return Status::NotSupported(FormatErrorAt(
          text_, "not yet supported: DELETE ... " + Upper(Peek().text), Peek().offset));
    }
    if (AcceptKeyword("WHERE")) {
      TARN_ASSIGN_OR_RETURN(write.where, ParseExpr());
    }
    return statement;
  }

  Result<std::unique_ptr<Statement>> ParseUpdate() {
    Advance();  // UPDATE
    auto statement = WriteStatement(StatementKind::kUpdate, "UPDATE");
    WriteStmt& write = *statement->write;
    TARN_ASSIGN_OR_RETURN(write.names, ParseQualifiedName());
    TARN_ASSIGN_OR_RETURN(write.alias, ParseTargetAlias());
    TARN_RETURN_NOT_OK(ExpectKeyword("SET"));
    do {
      TARN_ASSIGN_OR_RETURN(std::string column, ParseName());
      TARN_RETURN_NOT_OK(ExpectOperator("="));
      TARN_ASSIGN_OR_RETURN(auto value, ParseExpr());
      write.assignments.emplace_back(std::move(column), std::move(value));
    } while (AcceptOperator(","));
    if (Peek().IsKeyword("FROM") || Peek().IsKeyword("RETURNING")) {
      return Status::NotSupported(FormatErrorAt(
          text_, "not yet supported: UPDATE ... " + Upper(Peek().text), Peek().offset));
    }
    if (AcceptKeyword("WHERE")) {
      TARN_ASSIGN_OR_RETURN(write.where, ParseExpr());
    }
    return statement;
  }

  Result<std::unique_ptr<Statement>> ParseAlter() {
    Advance();  // ALTER
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
      TARN_ASSIGN_OR_RETURN(ColumnDef column, ParseColumnDef());
      write.columns.push_back(std::move(column));
      return statement;
    }
    if (AcceptKeyword("DROP")) {
      AcceptKeyword("COLUMN");
      write.alter = AlterAction::kDropColumn;
      write.if_exists = AcceptIfExists() || write.if_exists;
      TARN_ASSIGN_OR_RETURN(write.column, ParseName());
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
      TARN_ASSIGN_OR_RETURN(write.column, ParseName());
      TARN_RETURN_NOT_OK(ExpectKeyword("TO"));
      TARN_ASSIGN_OR_RETURN(write.new_name, ParseName());
      return statement;
    }
    TARN_RETURN_NOT_OK(ExpectKeyword("ALTER"));
    AcceptKeyword("COLUMN");
    TARN_ASSIGN_OR_RETURN(write.column, ParseName());
    if (AcceptKeyword("TYPE") || (AcceptKeyword("SET") && AcceptKeyword("DATA") &&
                                  AcceptKeyword("TYPE"))) {
      write.alter = AlterAction::kSetType;
      TARN_ASSIGN_OR_RETURN(write.type_text, ParseTypeText());
      if (Peek().IsKeyword("USING")) {
        return Status::NotSupported(FormatErrorAt(
            text_, "not yet supported: ALTER COLUMN ... TYPE ... USING", Peek().offset));
      }
      return statement;
    }
    if (tokens_[pos_ - 1].IsKeyword("SET")) {
      // SET was consumed above without DATA TYPE: SET DEFAULT | SET NOT NULL.
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

  // A statement tarn does not run, already named: skips to its end.
  Result<std::unique_ptr<Statement>> ParseUnsupportedNamed(std::string what) {
    auto statement = std::make_unique<Statement>();
    statement->kind = StatementKind::kUnsupported;
    statement->what = std::move(what);
    SkipToStatementEnd();
    return statement;
  }

  void SkipToStatementEnd() {
    int depth = 0;
    while (Peek().kind != TokenKind::kEnd) {
      if (Peek().IsOperator("(")) ++depth;
      if (Peek().IsOperator(")")) --depth;
      if (depth <= 0 && Peek().IsOperator(";")) break;
      Advance();
    }
  }


  // Names the statement (first words) and skips to its end.
  Result<std::unique_ptr<Statement>> ParseUnsupported() {
    auto statement = std::make_unique<Statement>();
    statement->kind = StatementKind::kUnsupported;
    std::string what = Upper(Advance().text);
    if (what == "CREATE" || what == "DROP" || what == "ALTER") {
      if (AcceptKeyword("OR")) AcceptKeyword("REPLACE");
      std::string object = Upper(Peek().text);
      if (object == "TEMP" || object == "TEMPORARY") {
        Advance();
        object = Upper(Peek().text);
      }
      if (Peek().kind == TokenKind::kIdentifier) what += " " + object;
    } else if (what == "CALL") {
      if (Peek().kind == TokenKind::kIdentifier) what += " " + Peek().text;
    } else if (what == "INSERT" || what == "DELETE") {
      // INSERT INTO / DELETE FROM read better without the preposition.
    }
    statement->what = std::move(what);
    int depth = 0;
    while (Peek().kind != TokenKind::kEnd) {
      if (Peek().IsOperator("(")) ++depth;
      if (Peek().IsOperator(")")) --depth;
      if (depth <= 0 && Peek().IsOperator(";")) break;
      Advance();
    }
    return statement;
  }

  Result<std::unique_ptr<Statement>> ParseCopy() {
    Advance();  // COPY
    auto statement = std::make_unique<Statement>();
    statement->kind = StatementKind::kCopy;
    if (AcceptOperator("(")) {
      TARN_ASSIGN_OR_RETURN(statement->select, ParseQuery());
      TARN_RETURN_NOT_OK(ExpectOperator(")"));
    } else {
      auto select = std::make_unique<SelectStmt>();
      SelectItem star;
      star.star = true;
      select->items.push_back(std::move(star));
      TARN_ASSIGN_OR_RETURN(select->from, ParseTableRef());
      statement->select = std::move(select);
    }
    if (Peek().IsKeyword("FROM")) {
      Advance();
      statement->kind = StatementKind::kUnsupported;
      statement->what = "COPY ... FROM";
      while (!AtStatementEnd() || Peek().IsOperator(")")) {
        if (Peek().kind == TokenKind::kEnd) break;
        Advance();
      }
      return statement;
    }
    TARN_RETURN_NOT_OK(ExpectKeyword("TO"));
    if (Peek().kind != TokenKind::kString) return SyntaxError();
    statement->copy_path = Advance().text;
    bool parenthesized = AcceptOperator("(");
    if (parenthesized || AcceptKeyword("WITH")) {
      if (!parenthesized) TARN_RETURN_NOT_OK(ExpectOperator("("));
      while (!Peek().IsOperator(")")) {
        TARN_ASSIGN_OR_RETURN(std::string name, ParseName());
        std::unique_ptr<ast::Expr> value;
        if (!Peek().IsOperator(",") && !Peek().IsOperator(")")) {
          AcceptOperator("=");
          // Option values are single words or literals: FORMAT parquet, DELIMITER '|'.
          if (Peek().kind == TokenKind::kIdentifier) {
            value = ast::MakeLiteral(ast::LiteralKind::kString, Advance().text);
          } else {
            TARN_ASSIGN_OR_RETURN(value, ParseExpr());
          }
        }
        statement->copy_options.emplace_back(Upper(name), std::move(value));
        if (!AcceptOperator(",")) break;
      }
      TARN_RETURN_NOT_OK(ExpectOperator(")"));
    }
    return statement;
  }

  // DESCRIBE SELECT ... | DESCRIBE FROM ... | DESCRIBE source
  Result<std::unique_ptr<SelectStmt>> ParseDescribeTarget() {
    if (Peek().IsKeyword("SELECT") || Peek().IsKeyword("FROM") || Peek().IsOperator("(")) {
      return ParseQuery();
    }
    auto select = std::make_unique<SelectStmt>();
    SelectItem star;
    star.star = true;
    select->items.push_back(std::move(star));
    TARN_ASSIGN_OR_RETURN(select->from, ParseTableRef());
    return select;
  }

  Result<std::unique_ptr<SelectStmt>> ParseQuery() {
    if (AcceptOperator("(")) {
      TARN_ASSIGN_OR_RETURN(auto inner, ParseQuery());
      TARN_RETURN_NOT_OK(ExpectOperator(")"));
      return inner;
    }
    auto select = std::make_unique<SelectStmt>();
    if (AcceptKeyword("FROM")) {
      // DuckDB's FROM-first form: FROM t [SELECT ...] means SELECT * FROM t when SELECT is absent.
      TARN_ASSIGN_OR_RETURN(select->from, ParseTableRef());
      if (AcceptKeyword("SELECT")) {
        TARN_RETURN_NOT_OK(ParseSelectList(select.get()));
      } else {
        SelectItem star;
        star.star = true;
        select->items.push_back(std::move(star));
      }
    } else {
      TARN_RETURN_NOT_OK(ExpectKeyword("SELECT"));
      TARN_RETURN_NOT_OK(ParseSelectList(select.get()));
      if (AcceptKeyword("FROM")) {
        TARN_ASSIGN_OR_RETURN(select->from, ParseTableRef());
      }
    }
    if (Peek().IsOperator(",") || Peek().IsKeyword("JOIN") || Peek().IsKeyword("INNER") ||
        Peek().IsKeyword("LEFT") || Peek().IsKeyword("RIGHT") || Peek().IsKeyword("FULL") ||
        Peek().IsKeyword("CROSS") || Peek().IsKeyword("NATURAL")) {
      return Status::NotSupported(
          FormatErrorAt(text_, "not yet supported: joins", Peek().offset));
    }
    if (AcceptKeyword("WHERE")) {
      TARN_ASSIGN_OR_RETURN(select->where, ParseExpr());
    }
    if (AcceptKeyword("GROUP")) {
      TARN_RETURN_NOT_OK(ExpectKeyword("BY"));
      if (AcceptKeyword("ALL")) {
        select->group_by_all = true;
      } else {
        do {
          TARN_ASSIGN_OR_RETURN(auto e, ParseExpr());
          select->group_by.push_back(std::move(e));
        } while (AcceptOperator(","));
      }
    }
    if (AcceptKeyword("HAVING")) {
      TARN_ASSIGN_OR_RETURN(select->having, ParseExpr());
    }
    if (Peek().IsKeyword("UNION") || Peek().IsKeyword("EXCEPT") ||
        Peek().IsKeyword("INTERSECT") || Peek().IsKeyword("WINDOW") ||
        Peek().IsKeyword("QUALIFY")) {
      return Status::NotSupported(FormatErrorAt(
          text_, "not yet supported: " + Upper(Peek().text), Peek().offset));
    }
    if (AcceptKeyword("ORDER")) {
      TARN_RETURN_NOT_OK(ExpectKeyword("BY"));
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
        select->order_by.push_back(std::move(item));
      } while (AcceptOperator(","));
    }
    for (int clause = 0; clause < 2; ++clause) {
      if (!select->limit && AcceptKeyword("LIMIT")) {
        TARN_ASSIGN_OR_RETURN(select->limit, ParseExpr());
      } else if (!select->offset && AcceptKeyword("OFFSET")) {
        TARN_ASSIGN_OR_RETURN(select->offset, ParseExpr());
      }
    }
    return select;
  }

  Status ParseSelectList(SelectStmt* select) {
    if (AcceptKeyword("DISTINCT")) {
      select->distinct = true;
    } else {
      AcceptKeyword("ALL");
    }
    do {
      SelectItem item;
      bool qualified_star = (Peek().kind == TokenKind::kIdentifier ||
                             Peek().kind == TokenKind::kQuotedIdentifier) &&
                            Peek(1).IsOperator(".") && Peek(2).IsOperator("*");
      if (qualified_star) {
        item.star_qualifier = Advance().text;
        Advance();
      }
      if (qualified_star || Peek().IsOperator("*")) {
        Advance();
        item.star = true;
        if (AcceptKeyword("EXCLUDE")) {
          bool parenthesized = AcceptOperator("(");
          do {
            TARN_ASSIGN_OR_RETURN(std::string name, ParseName());
            item.exclude.push_back(std::move(name));
          } while (parenthesized && AcceptOperator(","));
          if (parenthesized) TARN_RETURN_NOT_OK(ExpectOperator(")"));
        }
      } else {
        TARN_ASSIGN_OR_RETURN(item.expr, ParseExpr());
        TARN_ASSIGN_OR_RETURN(item.alias, ParseAlias());
      }
      select->items.push_back(std::move(item));
    } while (AcceptOperator(","));
    return Status::OK();
  }

  // [AS] name, or nothing.
  Result<std::string> ParseAlias() {
    if (AcceptKeyword("AS")) return ParseName();
    const Token& token = Peek();
    if ((token.kind == TokenKind::kIdentifier && !IsClauseWord(token)) ||
        token.kind == TokenKind::kQuotedIdentifier) {
      return Advance().text;
    }
    return std::string();
  }

  Result<TableRef> ParseTableRef() {
    TableRef ref;
    ref.offset = Peek().offset;
    if (AcceptOperator("(")) {
      ref.kind = TableRef::Kind::kSubquery;
      TARN_ASSIGN_OR_RETURN(ref.subquery, ParseQuery());
      TARN_RETURN_NOT_OK(ExpectOperator(")"));
    } else if (Peek().kind == TokenKind::kString) {
      ref.kind = TableRef::Kind::kFile;
      ref.file = Advance().text;
    } else {
      if (IsClauseWord(Peek()) || Peek().IsKeyword("SELECT")) return SyntaxError();
      TARN_ASSIGN_OR_RETURN(std::string name, ParseName());
      ref.names.push_back(std::move(name));
      while (AcceptOperator(".")) {
        TARN_ASSIGN_OR_RETURN(std::string part, ParseName());
        ref.names.push_back(std::move(part));
      }
      ref.kind = TableRef::Kind::kTable;
      if (ref.names.size() == 1 && AcceptOperator("(")) {
        ref.kind = TableRef::Kind::kFunction;
        TARN_RETURN_NOT_OK(ParseTableArgs(&ref));
      } else if (Peek().IsKeyword("AT") && Peek(1).IsOperator("(")) {
        TARN_ASSIGN_OR_RETURN(ref.at, ParseAtClause());
      }
    }
    TARN_ASSIGN_OR_RETURN(ref.alias, ParseAlias());
    if (!ref.alias.empty() && AcceptOperator("(")) {
      do {
        TARN_ASSIGN_OR_RETURN(std::string column, ParseName());
        ref.column_aliases.push_back(std::move(column));
      } while (AcceptOperator(","));
      TARN_RETURN_NOT_OK(ExpectOperator(")"));
    }
    return ref;
  }

  Status ParseTableArgs(TableRef* ref) {
    if (AcceptOperator(")")) return Status::OK();
    do {
      TableArg arg;
      if ((Peek().kind == TokenKind::kIdentifier || Peek().kind == TokenKind::kQuotedIdentifier) &&
          (Peek(1).IsOperator("=") || (Peek(1).IsOperator(":") && Peek(2).IsOperator("=")))) {
        arg.name = Advance().text;
        if (AcceptOperator(":")) {
          TARN_RETURN_NOT_OK(ExpectOperator("="));
        } else {
          Advance();
          AcceptArrowTail();  // name => value
        }
      }
      if (AcceptOperator("[")) {
        arg.is_list = true;
        if (!Peek().IsOperator("]")) {
          do {
            TARN_ASSIGN_OR_RETURN(auto element, ParseExpr());
            arg.list.push_back(std::move(element));
          } while (AcceptOperator(","));
        }
        TARN_RETURN_NOT_OK(ExpectOperator("]"));
      } else {
        TARN_ASSIGN_OR_RETURN(arg.expr, ParseExpr());
      }
      ref->args.push_back(std::move(arg));
    } while (AcceptOperator(","));
    return ExpectOperator(")");
  }

  std::string_view text_;
  const std::vector<Token>& tokens_;
  size_t pos_ = 0;
};

}  // namespace

Result<std::vector<std::unique_ptr<Statement>>> ParseStatements(std::string_view text) {
  TARN_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(text));
  return StatementParser(text, tokens).ParseAll();
}

}  // namespace tarn::sql
