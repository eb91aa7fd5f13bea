#include "sql/parse/statement_parser.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>

#include "expr/parse/parser.h"
#include "sql/parse/statement_parser_internal.h"

namespace tarn::sql {

namespace {

// Words that end a select item or a table reference, so they are never taken as an alias.
constexpr std::string_view kClauseWords[] = {
    "FROM",  "WHERE", "GROUP",  "HAVING",    "ORDER", "LIMIT",   "OFFSET", "UNION",
    "EXCEPT", "INTERSECT", "WINDOW", "QUALIFY", "ON",    "USING",   "JOIN",   "INNER",
    "LEFT",  "RIGHT", "FULL",   "CROSS",     "NATURAL", "SELECT", "AS",    "TO",
    "POSITIONAL", "ASOF", "ANTI", "SEMI", "LATERAL", "PIVOT", "UNPIVOT", "SAMPLE", "TABLESAMPLE", "WITH"};

// Statement keywords tarn recognizes but does not run: refused, naming the statement.
constexpr std::string_view kUnsupportedWords[] = {
    "TRUNCATE", "VACUUM", "IMPORT", "EXPORT", "PRAGMA"};

// The extension's catalog methods: lake.snapshots() is ducklake_snapshots('lake'),
// lake.table_changes('t', 0, 2) is ducklake_table_changes('lake', 'main', 't', 0, 2); without
// the catalog (snapshots()) they name the default lake. Other names stay as written.
void NormalizeCatalogMethod(TableRef* ref) {
  static const char* const kMethods[] = {
      "snapshots", "current_snapshot", "last_committed_snapshot", "table_info", "list_files",
      "options", "table_changes", "table_insertions", "table_deletions", "set_option",
      "set_commit_message", "merge_adjacent_files", "expire_snapshots", "flush_inlined_data",
      "rewrite_data_files", "cleanup_old_files", "delete_orphaned_files", "add_data_files"};
  std::string method = ref->names.back();
  for (char& c : method) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  bool known = false;
  for (const char* name : kMethods) known = known || method == name;
  if (!known) return;
  std::vector<TableArg> args;
  if (ref->names.size() == 2) {
    TableArg catalog;
    catalog.expr = ast::MakeLiteral(ast::LiteralKind::kString, ref->names[0]);
    args.push_back(std::move(catalog));
  }
  if (method == "table_changes" || method == "table_insertions" || method == "table_deletions") {
    TableArg schema;
    schema.expr = ast::MakeLiteral(ast::LiteralKind::kString, "main");
    args.push_back(std::move(schema));
  }
  for (TableArg& arg : ref->args) args.push_back(std::move(arg));
  ref->args = std::move(args);
  ref->names = {"ducklake_" + method};
}

bool IsClauseWord(const Token& token) {
  for (std::string_view word : kClauseWords) {
    if (token.IsKeyword(word)) return true;
  }
  return false;
}

}  // namespace

namespace parser_internal {

std::string StatementParser::Upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

Result<std::vector<std::unique_ptr<Statement>>> StatementParser::ParseAll() {
  std::vector<std::unique_ptr<Statement>> statements;
  while (true) {
    while (AcceptOperator(";")) {
    }
    if (Peek().kind == TokenKind::kEnd) break;
    size_t start = pos_;
    operators_ = 0;
    TARN_ASSIGN_OR_RETURN(auto statement, ParseStatement());
    if (!Peek().IsOperator(";") && Peek().kind != TokenKind::kEnd) return SyntaxError();
    statement->text = TextFrom(start);
    statements.push_back(std::move(statement));
  }
  return statements;
}

Result<StatementParser::Nesting> StatementParser::Nest() {
  if (depth_ >= kMaxQueryDepth) {
    // Named by the token that opened the level: the '(' of a subquery, an EXPLAIN.
    const Token& at = pos_ > 0 ? tokens_[pos_ - 1] : Peek();
    return Status::InvalidArgument(FormatErrorAt(
        text_, StrCat("query nested too deeply (more than ", kMaxQueryDepth, " levels)"),
        at.offset));
  }
  return Nesting(&depth_);
}

Status StatementParser::CountOperator(int32_t offset) {
  if (++operators_ <= kMaxQueryOperators) return Status::OK();
  return Status::InvalidArgument(FormatErrorAt(
      text_,
      StrCat("query nested too deeply (more than ", kMaxQueryOperators,
             " set operations and joins)"),
      offset));
}

Result<std::unique_ptr<ast::Expr>> StatementParser::ParseExpr(bool percent_suffix) {
  ExprParser parser(text_, tokens_, pos_);
  parser.set_depth(expression_depth_);
  parser.set_percent_suffix(percent_suffix);
  // A subquery in an expression is parsed here (so its syntax errors show now) and kept as
  // its text in a "#subquery" call node, which the planner parses again and rewrites
  // (plan/subquery_rewrite.h).
  const ExprParser::SubqueryHook hook =
      [this, &parser](size_t* position) -> Result<std::unique_ptr<ast::Expr>> {
    pos_ = *position;
    const size_t start = pos_;
    const int outer_depth = expression_depth_;
    expression_depth_ = parser.depth();
    Result<std::unique_ptr<SelectStmt>> query = ParseQuery();
    expression_depth_ = outer_depth;
    TARN_RETURN_NOT_OK(query.status());
    *position = pos_;
    auto node = ast::MakeFunction("#subquery", {});
    node->text = TextFrom(start);
    return node;
  };
  parser.set_subquery_hook(&hook);
  auto result = parser.ParseExpr();
  pos_ = parser.position();
  return result;
}

namespace {

using GroupingSets = std::vector<std::vector<int>>;

// Every set of `a` joined with every set of `b`.
GroupingSets CrossSets(const GroupingSets& a, const GroupingSets& b) {
  GroupingSets out;
  for (const auto& left : a) {
    for (const auto& right : b) {
      std::vector<int> both = left;
      for (int index : right) {
        if (std::find(both.begin(), both.end(), index) == both.end()) both.push_back(index);
      }
      out.push_back(std::move(both));
    }
  }
  return out;
}

}  // namespace

// The index in select->group_by of an expression equal to `e`, added when new.
int StatementParser::GroupIndex(SelectStmt* select, std::unique_ptr<ast::Expr> e) {
  for (size_t i = 0; i < select->group_by.size(); ++i) {
    if (select->group_by[i]->Equals(*e)) return static_cast<int>(i);
  }
  select->group_by.push_back(std::move(e));
  return static_cast<int>(select->group_by.size() - 1);
}

// A GROUP BY element: its grouping sets.
Result<std::vector<std::vector<int>>> StatementParser::ParseGroupElement(SelectStmt* select,
                                                                         bool* plain) {
  GroupingSets sets;
  const bool rollup = Peek().IsKeyword("ROLLUP") && Peek(1).IsOperator("(");
  const bool cube = Peek().IsKeyword("CUBE") && Peek(1).IsOperator("(");
  const bool grouping_sets = Peek().IsKeyword("GROUPING") && Peek(1).IsKeyword("SETS");
  if (!rollup && !cube && !grouping_sets) {
    if (Peek().IsOperator("(") && Peek(1).IsOperator(")")) {
      pos_ += 2;
      *plain = false;
      return GroupingSets{{}};
    }
    TARN_ASSIGN_OR_RETURN(auto e, ParseExpr());
    return GroupingSets{{GroupIndex(select, std::move(e))}};
  }
  *plain = false;
  Advance();
  TARN_ASSIGN_OR_RETURN(Nesting nesting, Nest());  // GROUPING SETS (GROUPING SETS (...
  if (grouping_sets) Advance();
  TARN_RETURN_NOT_OK(ExpectOperator("("));
  std::vector<std::vector<int>> parts;
  do {
    if (grouping_sets) {
      // Each element is a set: (a, b), (), a, or a nested ROLLUP / CUBE / GROUPING SETS.
      if (Peek().IsOperator("(") && !Peek(1).IsOperator(")")) {
        // (a, b): a list of expressions grouped together.
        size_t start = pos_;
        Advance();
        std::vector<int> set;
        bool list = true;
        do {
          Result<std::unique_ptr<ast::Expr>> e = ParseExpr();
          if (!e.ok()) {
            list = false;
            break;
          }
          set.push_back(GroupIndex(select, std::move(e).value()));
        } while (AcceptOperator(","));
        if (list && AcceptOperator(")") && (Peek().IsOperator(",") || Peek().IsOperator(")"))) {
          sets.push_back(std::move(set));
          continue;
        }
        pos_ = start;
      }
      bool inner_plain = true;
      TARN_ASSIGN_OR_RETURN(GroupingSets inner, ParseGroupElement(select, &inner_plain));
      for (auto& set : inner) sets.push_back(std::move(set));
    } else {
      std::vector<int> part;
      if (Peek().IsOperator("(")) {
        Advance();
        if (!AcceptOperator(")")) {
          do {
            TARN_ASSIGN_OR_RETURN(auto e, ParseExpr());
            part.push_back(GroupIndex(select, std::move(e)));
          } while (AcceptOperator(","));
          TARN_RETURN_NOT_OK(ExpectOperator(")"));
        }
      } else {
        TARN_ASSIGN_OR_RETURN(auto e, ParseExpr());
        part.push_back(GroupIndex(select, std::move(e)));
      }
      parts.push_back(std::move(part));
    }
  } while (AcceptOperator(","));
  TARN_RETURN_NOT_OK(ExpectOperator(")"));
  if (rollup) {
    // (a, b, c), (a, b), (a), ()
    for (size_t keep = parts.size() + 1; keep-- > 0;) {
      std::vector<int> set;
      for (size_t i = 0; i < keep; ++i) set.insert(set.end(), parts[i].begin(), parts[i].end());
      sets.push_back(std::move(set));
    }
  } else if (cube) {
    if (parts.size() > 12) {
      return Status::InvalidArgument("Binder Error: CUBE of more than 12 elements");
    }
    // Every subset, the largest first, as DuckDB lists them.
    for (size_t mask = (size_t{1} << parts.size()); mask-- > 0;) {
      std::vector<int> set;
      for (size_t i = 0; i < parts.size(); ++i) {
        if (mask & (size_t{1} << (parts.size() - 1 - i))) {
          set.insert(set.end(), parts[i].begin(), parts[i].end());
        }
      }
      sets.push_back(std::move(set));
    }
  }
  return sets;
}

// GROUP BY e, ... with GROUPING SETS, ROLLUP and CUBE elements: the cross product of each
// element's sets. Plain expressions alone leave select->grouping_sets empty.
Status StatementParser::ParseGroupByList(SelectStmt* select) {
  GroupingSets sets = {{}};
  bool plain = true;
  do {
    TARN_ASSIGN_OR_RETURN(GroupingSets element, ParseGroupElement(select, &plain));
    sets = CrossSets(sets, element);
    if (sets.size() > 4096) {
      return Status::InvalidArgument("Binder Error: GROUP BY has more than 4096 grouping sets");
    }
  } while (AcceptOperator(","));
  if (!plain) select->grouping_sets = std::move(sets);
  return Status::OK();
}

Result<std::unique_ptr<ast::Expr>> StatementParser::ParseWindowDefinition() {
  ExprParser parser(text_, tokens_, pos_);
  parser.set_depth(expression_depth_);
  auto result = parser.ParseOver(nullptr, false);
  pos_ = parser.position();
  return result;
}

Result<std::string> StatementParser::ParseName() {
  const Token& token = Peek();
  if (token.kind != TokenKind::kIdentifier && token.kind != TokenKind::kQuotedIdentifier) {
    return SyntaxError();
  }
  return Advance().text;
}

bool StatementParser::AtStatementEnd() const {
  return Peek().IsOperator(";") || Peek().kind == TokenKind::kEnd || Peek().IsOperator(")");
}

std::string StatementParser::TextFrom(size_t first) const {
  if (first >= pos_) return std::string();
  const Token& start = tokens_[first];
  const Token& last = tokens_[pos_ - 1];
  return std::string(text_.substr(start.offset, last.offset + last.length - start.offset));
}

Result<std::unique_ptr<Statement>> StatementParser::ParseStatement() {
  TARN_ASSIGN_OR_RETURN(Nesting nesting, Nest());  // EXPLAIN EXPLAIN ...
  auto statement = std::make_unique<Statement>();
  const Token& first = Peek();
  if (first.IsKeyword("SELECT") || first.IsKeyword("FROM") || first.IsOperator("(") ||
      first.IsKeyword("WITH") || first.IsKeyword("VALUES") || first.IsKeyword("PIVOT") ||
      first.IsKeyword("UNPIVOT") || first.IsKeyword("SUMMARIZE")) {
    TARN_ASSIGN_OR_RETURN(statement->select, ParseQuery());
    return statement;
  }
  if (first.IsKeyword("EXPLAIN") && Peek(1).IsKeyword("SORTED") && Peek(2).IsKeyword("BY") &&
      Peek(3).IsKeyword("AUTO")) {
    // EXPLAIN SORTED BY AUTO FROM t: what SET SORTED BY AUTO would choose, as
    // SELECT * FROM tarn_layout_explain('t').
    for (int i = 0; i < 4; ++i) Advance();
    TARN_RETURN_NOT_OK(ExpectKeyword("FROM"));
    auto select = std::make_unique<SelectStmt>();
    SelectItem star;
    star.star = true;
    select->items.push_back(std::move(star));
    select->from.offset = Peek().offset;
    TARN_ASSIGN_OR_RETURN(std::vector<std::string> names, ParseQualifiedName());
    std::string qualified;
    for (const std::string& part : names) qualified += (qualified.empty() ? "" : ".") + part;
    select->from.kind = TableRef::Kind::kFunction;
    select->from.names.push_back("tarn_layout_explain");
    TableArg arg;
    arg.expr = ast::MakeLiteral(ast::LiteralKind::kString, qualified);
    select->from.args.push_back(std::move(arg));
    statement->select = std::move(select);
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
    if (Peek().IsKeyword("VARIABLE") && Peek(1).kind != TokenKind::kOperator) {
      Advance();
      statement->variable = true;
    } else if (!AcceptKeyword("SESSION")) {
      AcceptKeyword("GLOBAL");
    }
    TARN_ASSIGN_OR_RETURN(statement->setting, ParseName());
    if (!AcceptOperator("=") && !AcceptKeyword("TO")) return SyntaxError();
    TARN_ASSIGN_OR_RETURN(statement->value, ParseExpr());
    return statement;
  }
  if (AcceptKeyword("RESET")) {
    statement->kind = StatementKind::kReset;
    if (Peek().IsKeyword("VARIABLE") && !Peek(1).IsOperator(";") &&
        Peek(1).kind != TokenKind::kEnd) {
      Advance();
      statement->variable = true;
    } else if (!AcceptKeyword("SESSION")) {
      AcceptKeyword("GLOBAL");
    }
    TARN_ASSIGN_OR_RETURN(statement->setting, ParseName());
    return statement;
  }
  if (first.IsKeyword("COPY")) return ParseCopy();
  if (first.IsKeyword("CALL")) return ParseCall();
  if (first.IsKeyword("CHECKPOINT") || (first.IsKeyword("FORCE") && Peek(1).IsKeyword("CHECKPOINT"))) {
    // [FORCE] CHECKPOINT [lake]
    if (first.IsKeyword("FORCE")) Advance();
    Advance();
    statement->kind = StatementKind::kCheckpoint;
    statement->what = "CHECKPOINT";
    if (!AtStatementEnd()) {
      TARN_ASSIGN_OR_RETURN(statement->setting, ParseName());
    }
    return statement;
  }
  if (AcceptKeyword("PREPARE")) {
    statement->kind = StatementKind::kPrepare;
    statement->what = "PREPARE";
    TARN_ASSIGN_OR_RETURN(statement->setting, ParseName());
    TARN_RETURN_NOT_OK(ExpectKeyword("AS"));
    const size_t start = pos_;
    TARN_ASSIGN_OR_RETURN(statement->inner, ParseStatement());
    statement->inner->text = TextFrom(start);
    return statement;
  }
  if (AcceptKeyword("EXECUTE")) {
    statement->kind = StatementKind::kExecute;
    statement->what = "EXECUTE";
    TARN_ASSIGN_OR_RETURN(statement->setting, ParseName());
    if (AcceptOperator("(") && !AcceptOperator(")")) {
      do {
        TARN_ASSIGN_OR_RETURN(auto argument, ParseExpr());
        statement->arguments.push_back(std::move(argument));
      } while (AcceptOperator(","));
      TARN_RETURN_NOT_OK(ExpectOperator(")"));
    }
    return statement;
  }
  if (first.IsKeyword("LOAD") || first.IsKeyword("INSTALL") ||
      (first.IsKeyword("FORCE") && Peek(1).IsKeyword("INSTALL"))) {
    // LOAD name, [FORCE] INSTALL name [FROM repository]: `setting` names the extension.
    statement->kind = StatementKind::kLoad;
    statement->what = first.IsKeyword("LOAD") ? "LOAD" : "INSTALL";
    if (first.IsKeyword("FORCE")) Advance();
    Advance();
    const Token& name = Peek();
    if (name.kind != TokenKind::kIdentifier && name.kind != TokenKind::kQuotedIdentifier &&
        name.kind != TokenKind::kString) {
      return SyntaxError();
    }
    Advance();
    statement->setting = name.text;
    if (statement->what == "INSTALL" && AcceptKeyword("FROM")) Advance();
    return statement;
  }
  if (AcceptKeyword("DEALLOCATE")) {
    statement->kind = StatementKind::kDeallocate;
    statement->what = "DEALLOCATE";
    AcceptKeyword("PREPARE");
    TARN_ASSIGN_OR_RETURN(statement->setting, ParseName());
    return statement;
  }
  if (AtSecretStatement()) return ParseSecret();
  if (first.IsKeyword("CREATE")) return ParseCreate();
  if (first.IsKeyword("DROP")) return ParseDrop();
  if (first.IsKeyword("INSERT")) return ParseInsert();
  if (first.IsKeyword("DELETE")) return ParseDelete();
  if (first.IsKeyword("UPDATE")) return ParseUpdate();
  if (first.IsKeyword("MERGE")) return ParseMerge();
  if (first.IsKeyword("ALTER")) return ParseAlter();
  if (first.IsKeyword("COMMENT") && Peek(1).IsKeyword("ON")) return ParseComment();
  if (first.IsKeyword("ATTACH")) return ParseAttach();
  if (first.IsKeyword("DETACH")) return ParseDetach();
  if (first.IsKeyword("USE")) return ParseUse();
  if (first.IsKeyword("BEGIN") || first.IsKeyword("START") || first.IsKeyword("COMMIT") ||
      first.IsKeyword("END") || first.IsKeyword("ROLLBACK") || first.IsKeyword("ABORT")) {
    return ParseTransaction();
  }
  for (std::string_view word : kUnsupportedWords) {
    if (first.IsKeyword(word)) return ParseUnsupported();
  }
  return SyntaxError();
}

bool StatementParser::AcceptArrowTail() {
  const Token& previous = tokens_[pos_ - 1];
  if (!Peek().IsOperator(">") || Peek().offset != previous.offset + previous.length) {
    return false;
  }
  Advance();
  return true;
}

Result<AtClause> StatementParser::ParseAtClause() {
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

Result<std::unique_ptr<Statement>> StatementParser::ParseCall() {
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
  if (AcceptOperator(".")) {
    TARN_ASSIGN_OR_RETURN(std::string method, ParseName());
    select->from.names.push_back(std::move(method));
  }
  TARN_RETURN_NOT_OK(ExpectOperator("("));
  TARN_RETURN_NOT_OK(ParseTableArgs(&select->from));
  NormalizeCatalogMethod(&select->from);
  statement->what = "CALL " + select->from.names[0];
  statement->select = std::move(select);
  return statement;
}

Result<std::unique_ptr<Statement>> StatementParser::ParseUnsupportedNamed(std::string what) {
  auto statement = std::make_unique<Statement>();
  statement->kind = StatementKind::kUnsupported;
  statement->what = std::move(what);
  SkipToStatementEnd();
  return statement;
}

void StatementParser::SkipToStatementEnd() {
  int depth = 0;
  while (Peek().kind != TokenKind::kEnd) {
    if (Peek().IsOperator("(")) ++depth;
    if (Peek().IsOperator(")")) --depth;
    if (depth <= 0 && Peek().IsOperator(";")) break;
    Advance();
  }
}

Result<std::unique_ptr<Statement>> StatementParser::ParseUnsupported() {
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
  SkipToStatementEnd();
  return statement;
}

Result<std::unique_ptr<Statement>> StatementParser::ParseCopy() {
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
        // Option values are single words or literals: FORMAT parquet, DELIMITER '|'; a
        // column list is a list of their names: PARTITION_BY (a, b).
        if (Upper(name) == "PARTITION_BY" && Peek().IsOperator("(")) {
          Advance();
          auto list = std::make_unique<ast::Expr>();
          list->kind = ast::ExprKind::kList;
          do {
            TARN_ASSIGN_OR_RETURN(std::string column, ParseName());
            list->children.push_back(ast::MakeLiteral(ast::LiteralKind::kString, column));
          } while (AcceptOperator(","));
          TARN_RETURN_NOT_OK(ExpectOperator(")"));
          value = std::move(list);
        } else if (Peek().kind == TokenKind::kIdentifier) {
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

// alias(a, b, ...): after a table's alias, the names of its first columns.
Status StatementParser::ParseColumnAliases(TableRef* ref) {
  if (ref->alias.empty() || !AcceptOperator("(")) return Status::OK();
  do {
    TARN_ASSIGN_OR_RETURN(std::string column, ParseName());
    ref->column_aliases.push_back(std::move(column));
  } while (AcceptOperator(","));
  return ExpectOperator(")");
}

Result<std::unique_ptr<SelectStmt>> StatementParser::ParseDescribeTarget() {
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

Result<std::unique_ptr<SelectStmt>> StatementParser::ParseQuery() {
  TARN_ASSIGN_OR_RETURN(Nesting nesting, Nest());  // subqueries, parenthesized queries
  if (AcceptKeyword("WITH")) {
    const bool recursive = AcceptKeyword("RECURSIVE");
    std::vector<CommonTableExpr> ctes;
    do {
      CommonTableExpr cte;
      cte.recursive = recursive;
      TARN_ASSIGN_OR_RETURN(cte.name, ParseName());
      if (AcceptOperator("(")) {
        do {
          TARN_ASSIGN_OR_RETURN(std::string column, ParseName());
          cte.column_aliases.push_back(std::move(column));
        } while (AcceptOperator(","));
        TARN_RETURN_NOT_OK(ExpectOperator(")"));
      }
      TARN_RETURN_NOT_OK(ExpectKeyword("AS"));
      if (AcceptKeyword("NOT")) {
        TARN_RETURN_NOT_OK(ExpectKeyword("MATERIALIZED"));
        cte.materialized = false;
      } else if (AcceptKeyword("MATERIALIZED")) {
        cte.materialized = true;
      }
      TARN_RETURN_NOT_OK(ExpectOperator("("));
      TARN_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> query, ParseQuery());
      TARN_RETURN_NOT_OK(ExpectOperator(")"));
      cte.query = std::move(query);
      ctes.push_back(std::move(cte));
    } while (AcceptOperator(","));
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> body, ParseQuery());
    for (CommonTableExpr& cte : body->ctes) ctes.push_back(std::move(cte));
    body->ctes = std::move(ctes);
    return body;
  }
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> query, ParseSetExpression(0));
  if (!Peek().IsKeyword("ORDER") && !Peek().IsKeyword("LIMIT") && !Peek().IsKeyword("OFFSET")) {
    return query;
  }
  // ORDER BY / LIMIT of the whole query: a query that has its own, or VALUES, becomes
  // SELECT * FROM (query).
  std::unique_ptr<SelectStmt> select = std::move(query);
  if (!select->values.empty() || !select->order_by.empty() || select->limit || select->offset) {
    auto outer = std::make_unique<SelectStmt>();
    SelectItem star;
    star.star = true;
    outer->items.push_back(std::move(star));
    outer->from.kind = TableRef::Kind::kSubquery;
    outer->from.subquery = std::move(select);
    select = std::move(outer);
  }
  if (AcceptKeyword("ORDER")) {
    TARN_RETURN_NOT_OK(ExpectKeyword("BY"));
    do {
      OrderItem item;
      if (select->order_by.empty() && Peek().IsKeyword("ALL") &&
          !Peek(1).IsOperator(",") && !Peek(1).IsOperator(".") && !Peek(1).IsOperator("(")) {
        // ORDER BY ALL: every select-list column, left to right (the planner expands the
        // marker, see kOrderByAll in planner.cc).
        Advance();
        item.expr = ast::MakeColumnRef({"#order_by_all"});
      } else {
        TARN_ASSIGN_OR_RETURN(item.expr, ParseExpr());
      }
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
      TARN_ASSIGN_OR_RETURN(select->limit, ParseExpr(/*percent_suffix=*/true));
      select->limit_percent = AcceptOperator("%") || AcceptKeyword("PERCENT");
    } else if (!select->offset && AcceptKeyword("OFFSET")) {
      TARN_ASSIGN_OR_RETURN(select->offset, ParseExpr());
    }
  }
  return select;
}

// Set operations by precedence (INTERSECT binds tighter than UNION and EXCEPT), each operand
// a SELECT, VALUES or a parenthesized query.
Result<std::unique_ptr<SelectStmt>> StatementParser::ParseSetExpression(int min_precedence) {
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> left, ParseSetOperand());
  while (true) {
    SetOp op = SetOp::kNone;
    if (Peek().IsKeyword("UNION")) op = SetOp::kUnion;
    if (Peek().IsKeyword("EXCEPT")) op = SetOp::kExcept;
    if (Peek().IsKeyword("INTERSECT")) op = SetOp::kIntersect;
    const int precedence = op == SetOp::kIntersect ? 2 : 1;
    if (op == SetOp::kNone || precedence < min_precedence) return left;
    TARN_RETURN_NOT_OK(CountOperator(Advance().offset));
    auto combined = std::make_unique<SelectStmt>();
    combined->set_op = op;
    if (AcceptKeyword("ALL")) {
      combined->set_all = true;
    } else {
      AcceptKeyword("DISTINCT");
    }
    if (Peek().IsKeyword("BY")) {
      if (op != SetOp::kUnion || !Peek(1).IsKeyword("NAME")) return SyntaxError();
      pos_ += 2;
      combined->set_by_name = true;
    }
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> right, ParseSetExpression(precedence + 1));
    combined->set_left = std::move(left);
    combined->set_right = std::move(right);
    left = std::move(combined);
  }
}

Result<std::unique_ptr<SelectStmt>> StatementParser::ParsePivot(bool unpivot) {
  auto spec = std::make_shared<PivotSpec>();
  spec->unpivot = unpivot;
  if (unpivot && AcceptKeyword("INCLUDE")) {
    TARN_RETURN_NOT_OK(ExpectKeyword("NULLS"));
    spec->include_nulls = true;
  }
  TARN_ASSIGN_OR_RETURN(spec->source, ParseJoinOperand());
  if (AcceptKeyword("ON")) {
    do {
      TARN_ASSIGN_OR_RETURN(auto on, ParseExpr());
      spec->on.push_back(std::move(on));
    } while (AcceptOperator(","));
  }
  if (!unpivot) {
    // ON col IN (v1, v2): parsed as an IN expression, taken apart.
    spec->in.resize(spec->on.size());
    for (size_t k = 0; k < spec->on.size(); ++k) {
      if (spec->on[k]->kind != ast::ExprKind::kIn || spec->on[k]->negated) continue;
      std::unique_ptr<ast::Expr> in = std::move(spec->on[k]);
      spec->on[k] = std::move(in->children[0]);
      for (size_t i = 1; i < in->children.size(); ++i) {
        spec->in[k].push_back(std::move(in->children[i]));
      }
    }
    if (AcceptKeyword("USING")) {
      do {
        TARN_ASSIGN_OR_RETURN(auto aggregate, ParseExpr());
        TARN_ASSIGN_OR_RETURN(std::string alias, ParseAlias());
        spec->aggregates.emplace_back(std::move(aggregate), std::move(alias));
      } while (AcceptOperator(","));
    }
    if (AcceptKeyword("GROUP")) {
      TARN_RETURN_NOT_OK(ExpectKeyword("BY"));
      do {
        TARN_ASSIGN_OR_RETURN(auto group, ParseExpr());
        spec->group_by.push_back(std::move(group));
      } while (AcceptOperator(","));
    }
  } else {
    if (spec->on.empty()) return SyntaxError();  // UNPIVOT needs its columns
    if (AcceptKeyword("INTO")) {
      TARN_RETURN_NOT_OK(ExpectKeyword("NAME"));
      TARN_ASSIGN_OR_RETURN(spec->name_column, ParseName());
      TARN_RETURN_NOT_OK(ExpectKeyword("VALUE"));
      TARN_ASSIGN_OR_RETURN(spec->value_column, ParseName());
    }
  }
  auto select = std::make_unique<SelectStmt>();
  select->pivot = std::move(spec);
  return select;
}

Result<std::unique_ptr<SelectStmt>> StatementParser::ParseSetOperand() {
  if (AcceptKeyword("PIVOT")) return ParsePivot(false);
  if (AcceptKeyword("UNPIVOT")) return ParsePivot(true);
  if (AcceptKeyword("SUMMARIZE")) {
    // SUMMARIZE query, or SUMMARIZE relation (a table, a file, a table function).
    TableRef source;
    const Token& next = Peek();
    if (next.IsKeyword("SELECT") || next.IsKeyword("FROM") || next.IsKeyword("WITH") ||
        next.IsKeyword("VALUES") || next.IsKeyword("PIVOT") || next.IsKeyword("UNPIVOT") ||
        next.IsKeyword("SUMMARIZE")) {
      source.kind = TableRef::Kind::kSubquery;
      source.offset = static_cast<int32_t>(next.offset);
      TARN_ASSIGN_OR_RETURN(source.subquery, ParseQuery());
    } else {
      TARN_ASSIGN_OR_RETURN(source, ParseJoinOperand());
    }
    auto select = std::make_unique<SelectStmt>();
    select->summarize = std::make_shared<const TableRef>(std::move(source));
    return select;
  }
  if (AcceptKeyword("VALUES")) {
    auto values = std::make_unique<SelectStmt>();
    do {
      TARN_RETURN_NOT_OK(ExpectOperator("("));
      std::vector<std::unique_ptr<ast::Expr>> row;
      do {
        TARN_ASSIGN_OR_RETURN(auto value, ParseExpr());
        row.push_back(std::move(value));
      } while (AcceptOperator(","));
      TARN_RETURN_NOT_OK(ExpectOperator(")"));
      values->values.push_back(std::move(row));
    } while (AcceptOperator(","));
    return values;
  }
  if (AcceptOperator("(")) {
    TARN_ASSIGN_OR_RETURN(auto inner, ParseQuery());
    TARN_RETURN_NOT_OK(ExpectOperator(")"));
    return inner;
  }
  auto select = std::make_unique<SelectStmt>();
  if (AcceptKeyword("FROM")) {
    // DuckDB's FROM-first form: FROM t [SELECT ...] means SELECT * FROM t when SELECT is absent.
    TARN_ASSIGN_OR_RETURN(select->from, ParseFromClause());
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
      TARN_ASSIGN_OR_RETURN(select->from, ParseFromClause());
    }
  }
  if (AcceptKeyword("WHERE")) {
    TARN_ASSIGN_OR_RETURN(select->where, ParseExpr());
  }
  if (Peek().IsKeyword("USING") && Peek(1).IsKeyword("SAMPLE")) {
    Advance();
    Advance();
    TARN_ASSIGN_OR_RETURN(select->sample, ParseSample());
  }
  if (AcceptKeyword("GROUP")) {
    TARN_RETURN_NOT_OK(ExpectKeyword("BY"));
    if (AcceptKeyword("ALL")) {
      select->group_by_all = true;
    } else {
      TARN_RETURN_NOT_OK(ParseGroupByList(select.get()));
    }
  }
  if (AcceptKeyword("HAVING")) {
    TARN_ASSIGN_OR_RETURN(select->having, ParseExpr());
  }
  if (AcceptKeyword("WINDOW")) {
    do {
      if (Peek().kind != TokenKind::kIdentifier && Peek().kind != TokenKind::kQuotedIdentifier) {
        return SyntaxError();
      }
      const Token& name = Advance();
      TARN_RETURN_NOT_OK(ExpectKeyword("AS"));
      TARN_ASSIGN_OR_RETURN(auto spec, ParseWindowDefinition());
      for (const NamedWindow& other : select->windows) {
        if (Upper(other.name) == Upper(name.text)) {
          return Status::InvalidArgument(FormatErrorAt(
              text_, "Parser Error: window \"" + name.text + "\" is already defined",
              name.offset));
        }
      }
      select->windows.push_back(NamedWindow{name.text, std::move(spec)});
    } while (AcceptOperator(","));
  }
  if (AcceptKeyword("QUALIFY")) {
    TARN_ASSIGN_OR_RETURN(select->qualify, ParseExpr());
  }
  return select;
}

Status StatementParser::ParseSelectList(SelectStmt* select) {
  if (AcceptKeyword("DISTINCT")) {
    if (AcceptKeyword("ON")) {
      TARN_RETURN_NOT_OK(ExpectOperator("("));
      do {
        TARN_ASSIGN_OR_RETURN(auto key, ParseExpr());
        select->distinct_on.push_back(std::move(key));
      } while (AcceptOperator(","));
      TARN_RETURN_NOT_OK(ExpectOperator(")"));
    } else {
      select->distinct = true;
    }
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
      if (AcceptKeyword("REPLACE")) {
        bool parenthesized = AcceptOperator("(");
        do {
          TARN_ASSIGN_OR_RETURN(auto expr, ParseExpr());
          TARN_RETURN_NOT_OK(ExpectKeyword("AS"));
          TARN_ASSIGN_OR_RETURN(std::string name, ParseName());
          item.replace.emplace_back(std::move(name), std::move(expr));
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

Result<std::string> StatementParser::ParseAlias() {
  if (AcceptKeyword("AS")) return ParseName();
  const Token& token = Peek();
  if ((token.kind == TokenKind::kIdentifier && !IsClauseWord(token)) ||
      token.kind == TokenKind::kQuotedIdentifier) {
    return Advance().text;
  }
  return std::string();
}

Result<TableRef> StatementParser::ParseTableRef() {
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
    if (ref.names.size() <= 2 && AcceptOperator("(")) {
      ref.kind = TableRef::Kind::kFunction;
      TARN_RETURN_NOT_OK(ParseTableArgs(&ref));
      NormalizeCatalogMethod(&ref);
    } else if (Peek().IsKeyword("AT") && Peek(1).IsOperator("(")) {
      TARN_ASSIGN_OR_RETURN(ref.at, ParseAtClause());
    }
  }
  TARN_ASSIGN_OR_RETURN(ref.alias, ParseAlias());
  TARN_RETURN_NOT_OK(ParseColumnAliases(&ref));
  if (AcceptKeyword("TABLESAMPLE")) {
    // t TABLESAMPLE s: (SELECT * FROM t USING SAMPLE s) under t's name.
    auto sampled = std::make_unique<SelectStmt>();
    TARN_ASSIGN_OR_RETURN(sampled->sample, ParseSample());
    SelectItem star;
    star.star = true;
    sampled->items.push_back(std::move(star));
    TableRef derived;
    derived.kind = TableRef::Kind::kSubquery;
    derived.offset = ref.offset;
    derived.alias = !ref.alias.empty()               ? ref.alias
                    : ref.kind == TableRef::Kind::kTable ? ref.names.back()
                    : ref.kind == TableRef::Kind::kFunction ? ref.names[0]
                                                            : std::string();
    derived.column_aliases = std::move(ref.column_aliases);
    ref.alias.clear();
    ref.column_aliases.clear();
    sampled->from = std::move(ref);
    derived.subquery = std::move(sampled);
    return derived;
  }
  return ref;
}

Result<std::shared_ptr<const SampleSpec>> StatementParser::ParseSample() {
  // n [ROWS | PERCENT | %], method(n [ROWS | PERCENT | %]), then (method [, seed]) and
  // REPEATABLE (seed), as DuckDB reads them.
  auto spec = std::make_shared<SampleSpec>();
  bool method_given = false;
  auto parse_method = [&](const Token& word) -> Status {
    std::string name = Upper(word.text);
    if (name == "SYSTEM") {
      spec->method = SampleSpec::Method::kSystem;
    } else if (name == "BERNOULLI") {
      spec->method = SampleSpec::Method::kBernoulli;
    } else if (name == "RESERVOIR") {
      spec->method = SampleSpec::Method::kReservoir;
    } else {
      return Status::InvalidArgument(FormatErrorAt(
          text_, "Parser Error: Unrecognized sampling method " + word.text +
                     ", expected system, bernoulli or reservoir", word.offset));
    }
    method_given = true;
    return Status::OK();
  };
  auto parse_size = [&]() -> Status {
    const Token& number = Peek();
    if (number.kind != TokenKind::kInteger && number.kind != TokenKind::kDecimal &&
        number.kind != TokenKind::kFloat) {
      return SyntaxError();
    }
    Advance();
    spec->size = std::strtod(number.text.c_str(), nullptr);
    spec->percent = false;
    if (AcceptOperator("%") || AcceptKeyword("PERCENT")) {
      spec->percent = true;
    } else {
      AcceptKeyword("ROWS");
    }
    return Status::OK();
  };
  if (Peek().kind == TokenKind::kIdentifier && Peek(1).IsOperator("(")) {
    TARN_RETURN_NOT_OK(parse_method(Advance()));
    Advance();
    TARN_RETURN_NOT_OK(parse_size());
    TARN_RETURN_NOT_OK(ExpectOperator(")"));
  } else {
    TARN_RETURN_NOT_OK(parse_size());
  }
  if (AcceptOperator("(")) {
    TARN_RETURN_NOT_OK(parse_method(Advance()));
    if (AcceptOperator(",")) {
      const Token& seed = Peek();
      if (seed.kind != TokenKind::kInteger) return SyntaxError();
      Advance();
      spec->seed = std::strtoll(seed.text.c_str(), nullptr, 10);
    }
    TARN_RETURN_NOT_OK(ExpectOperator(")"));
  }
  if (AcceptKeyword("REPEATABLE")) {
    TARN_RETURN_NOT_OK(ExpectOperator("("));
    const Token& seed = Peek();
    if (seed.kind != TokenKind::kInteger) return SyntaxError();
    Advance();
    spec->seed = std::strtoll(seed.text.c_str(), nullptr, 10);
    TARN_RETURN_NOT_OK(ExpectOperator(")"));
  }
  if (!method_given) {
    spec->method = spec->percent ? SampleSpec::Method::kSystem : SampleSpec::Method::kReservoir;
  }
  if (spec->percent && (spec->size < 0 || spec->size > 100)) {
    return Status::InvalidArgument("Parser Error: Sample sample_size ", spec->size,
                                   " out of range, must be between 0 and 100");
  }
  if (!spec->percent && (spec->size < 0 || spec->size != static_cast<double>(static_cast<int64_t>(spec->size)))) {
    return Status::InvalidArgument("Parser Error: Sample rows must be a non-negative integer");
  }
  if (!spec->percent && spec->method != SampleSpec::Method::kReservoir) {
    return Status::InvalidArgument(
        "Parser Error: Sample method ", spec->method == SampleSpec::Method::kSystem ? "System" : "Bernoulli",
        " cannot be used with a discrete sample count, either switch to reservoir sampling or "
        "use a sample_size");
  }
  return std::shared_ptr<const SampleSpec>(std::move(spec));
}

Result<TableRef> StatementParser::ParseFromClause() {
  // Explicit joins bind tighter than commas: a, b JOIN c ON ... is a, (b JOIN c ON ...).
  TARN_ASSIGN_OR_RETURN(TableRef left, ParseJoinChain());
  while (Peek().IsOperator(",")) {
    TARN_RETURN_NOT_OK(CountOperator(Advance().offset));
    TARN_ASSIGN_OR_RETURN(TableRef right, ParseJoinChain());
    TableRef join;
    join.kind = TableRef::Kind::kJoin;
    join.offset = left.offset;
    join.join_type = JoinType::kCross;
    join.comma = true;
    join.left = std::make_unique<TableRef>(std::move(left));
    join.right = std::make_unique<TableRef>(std::move(right));
    left = std::move(join);
  }
  return left;
}

Result<TableRef> StatementParser::ParseJoinChain() {
  TARN_ASSIGN_OR_RETURN(TableRef left, ParseJoinOperandBase());
  TARN_ASSIGN_OR_RETURN(left, ParsePivotSuffixes(std::move(left)));
  while (true) {
    const int32_t offset = Peek().offset;
    auto join = std::make_unique<TableRef>();
    join->kind = TableRef::Kind::kJoin;
    join->offset = left.offset;
    {
      join->natural = AcceptKeyword("NATURAL");
      if (AcceptKeyword("CROSS")) {
        join->join_type = JoinType::kCross;
      } else if (AcceptKeyword("LEFT")) {
        join->join_type = JoinType::kLeft;
        if (AcceptKeyword("SEMI")) {
          join->join_type = JoinType::kSemi;
        } else if (AcceptKeyword("ANTI")) {
          join->join_type = JoinType::kAnti;
        } else {
          AcceptKeyword("OUTER");
        }
      } else if (AcceptKeyword("RIGHT")) {
        join->join_type = JoinType::kRight;
        AcceptKeyword("OUTER");
      } else if (AcceptKeyword("FULL")) {
        join->join_type = JoinType::kFull;
        AcceptKeyword("OUTER");
      } else if (AcceptKeyword("SEMI")) {
        join->join_type = JoinType::kSemi;
      } else if (AcceptKeyword("ANTI")) {
        join->join_type = JoinType::kAnti;
      } else if (!AcceptKeyword("INNER")) {
        if (join->natural || Peek().IsKeyword("JOIN")) {
          join->join_type = JoinType::kInner;
        } else if (Peek().IsKeyword("POSITIONAL") || Peek().IsKeyword("ASOF") ||
                   Peek().IsKeyword("LATERAL")) {
          return Status::NotSupported(FormatErrorAt(
              text_, "not yet supported: " + Upper(Peek().text) + " joins", offset));
        } else {
          return left;
        }
      }
      TARN_RETURN_NOT_OK(ExpectKeyword("JOIN"));
    }
    TARN_RETURN_NOT_OK(CountOperator(offset));
    TARN_ASSIGN_OR_RETURN(TableRef right, ParseJoinOperandBase());
    TARN_ASSIGN_OR_RETURN(right, ParsePivotSuffixes(std::move(right)));
    const bool takes_condition = !join->natural && join->join_type != JoinType::kCross;
    if (takes_condition && AcceptKeyword("ON")) {
      TARN_ASSIGN_OR_RETURN(join->on, ParseExpr());
    } else if (takes_condition && AcceptKeyword("USING")) {
      TARN_RETURN_NOT_OK(ExpectOperator("("));
      do {
        TARN_ASSIGN_OR_RETURN(std::string column, ParseName());
        join->using_columns.push_back(std::move(column));
      } while (AcceptOperator(","));
      TARN_RETURN_NOT_OK(ExpectOperator(")"));
    } else if (takes_condition) {
      return SyntaxError();  // JOIN needs ON or USING
    }
    join->left = std::make_unique<TableRef>(std::move(left));
    join->right = std::make_unique<TableRef>(std::move(right));
    left = std::move(*join);
  }
}

Result<TableRef> StatementParser::ParseJoinOperand() {
  TARN_ASSIGN_OR_RETURN(TableRef ref, ParseJoinOperandBase());
  return ParsePivotSuffixes(std::move(ref));
}

// `ref PIVOT (...)` / `ref UNPIVOT (...)`, any number of them. Called after the operand is
// parsed (not around it), so nested subqueries spend no extra stack frame per level.
Result<TableRef> StatementParser::ParsePivotSuffixes(TableRef ref) {
  while (true) {
    const bool pivot = Peek().IsKeyword("PIVOT") && Peek(1).IsOperator("(");
    const bool unpivot =
        Peek().IsKeyword("UNPIVOT") &&
        (Peek(1).IsOperator("(") ||
         ((Peek(1).IsKeyword("INCLUDE") || Peek(1).IsKeyword("EXCLUDE")) &&
          Peek(2).IsKeyword("NULLS") && Peek(3).IsOperator("(")));
    if (!pivot && !unpivot) return ref;
    Advance();
    TARN_ASSIGN_OR_RETURN(ref, ParseStandardPivot(std::move(ref), unpivot));
  }
}

// After `source PIVOT` or `source UNPIVOT`: ( agg [AS name], ... FOR on IN (values) ...
// [GROUP BY ...] ) or [INCLUDE | EXCLUDE NULLS] ( value FOR name IN (col [AS name], ...) ),
// then an optional alias; the result is a derived table over the pivot.
Result<TableRef> StatementParser::ParseStandardPivot(TableRef source, bool unpivot) {
  auto spec = std::make_shared<PivotSpec>();
  spec->unpivot = unpivot;
  const int32_t offset = source.offset;
  spec->source = std::move(source);
  if (unpivot && AcceptKeyword("INCLUDE")) {
    TARN_RETURN_NOT_OK(ExpectKeyword("NULLS"));
    spec->include_nulls = true;
  } else if (unpivot && AcceptKeyword("EXCLUDE")) {
    TARN_RETURN_NOT_OK(ExpectKeyword("NULLS"));
  }
  TARN_RETURN_NOT_OK(ExpectOperator("("));
  if (unpivot) {
    TARN_ASSIGN_OR_RETURN(spec->value_column, ParseName());
    TARN_RETURN_NOT_OK(ExpectKeyword("FOR"));
    TARN_ASSIGN_OR_RETURN(spec->name_column, ParseName());
    TARN_RETURN_NOT_OK(ExpectKeyword("IN"));
    TARN_RETURN_NOT_OK(ExpectOperator("("));
    do {
      TARN_ASSIGN_OR_RETURN(auto column, ParseExpr());
      std::string name;
      if (AcceptKeyword("AS")) {
        TARN_ASSIGN_OR_RETURN(name, ParseName());
      }
      spec->on.push_back(std::move(column));
      spec->on_names.push_back(std::move(name));
    } while (AcceptOperator(","));
    TARN_RETURN_NOT_OK(ExpectOperator(")"));
  } else {
    do {
      TARN_ASSIGN_OR_RETURN(auto aggregate, ParseExpr());
      std::string alias;
      if (!Peek().IsKeyword("FOR")) {
        TARN_ASSIGN_OR_RETURN(alias, ParseAlias());
      }
      spec->aggregates.emplace_back(std::move(aggregate), std::move(alias));
    } while (AcceptOperator(","));
    TARN_RETURN_NOT_OK(ExpectKeyword("FOR"));
    // on IN (values), one after another: each parsed as an IN expression, taken apart.
    do {
      TARN_ASSIGN_OR_RETURN(auto in, ParseExpr());
      if (in->kind != ast::ExprKind::kIn || in->negated) return SyntaxError();
      spec->on.push_back(std::move(in->children[0]));
      spec->in.emplace_back();
      for (size_t i = 1; i < in->children.size(); ++i) {
        spec->in.back().push_back(std::move(in->children[i]));
      }
    } while (!Peek().IsOperator(")") && !Peek().IsKeyword("GROUP"));
    if (AcceptKeyword("GROUP")) {
      TARN_RETURN_NOT_OK(ExpectKeyword("BY"));
      do {
        TARN_ASSIGN_OR_RETURN(auto group, ParseExpr());
        spec->group_by.push_back(std::move(group));
      } while (AcceptOperator(","));
    }
  }
  TARN_RETURN_NOT_OK(ExpectOperator(")"));
  TableRef out;
  out.kind = TableRef::Kind::kSubquery;
  out.offset = offset;
  out.subquery = std::make_unique<SelectStmt>();
  out.subquery->pivot = std::move(spec);
  TARN_ASSIGN_OR_RETURN(out.alias, ParseAlias());
  return out;
}

// LATERAL f(...): a table function whose arguments read the tables before it (unnest; a
// table function call is lateral without the word as well); LATERAL (SELECT …): a subquery
// that may read them (sql/plan/decorrelate.h).
Result<TableRef> StatementParser::ParseLateralOperand() {
  const int32_t offset = Peek().offset;
  Advance();
  TARN_ASSIGN_OR_RETURN(TableRef ref, ParseTableRef());
  if (ref.kind == TableRef::Kind::kSubquery) {
    ref.lateral = true;
    return ref;
  }
  if (ref.kind != TableRef::Kind::kFunction) {
    return Status::InvalidArgument(
        FormatErrorAt(text_, "Parser Error: LATERAL names a table function or a subquery", offset));
  }
  return ref;
}

// (SHOW [ALL] TABLES) [AS alias]: its rows, as a table function's.
Result<TableRef> StatementParser::ParseShowTablesOperand() {
  const int all = Peek(2).IsKeyword("ALL") ? 1 : 0;
  TableRef ref;
  ref.kind = TableRef::Kind::kFunction;
  ref.offset = static_cast<int32_t>(Peek(1).offset);
  ref.names.push_back(all ? "#show_all_tables" : "#show_tables");
  for (int i = 0; i < 4 + all; ++i) Advance();
  TARN_ASSIGN_OR_RETURN(ref.alias, ParseAlias());
  return ref;
}

// (DESCRIBE target) / (SHOW name) [AS alias[(columns)]]: DESCRIBE's rows, as a table
// function's.
Result<TableRef> StatementParser::ParseDescribeOperand() {
  TableRef ref;
  ref.kind = TableRef::Kind::kFunction;
  ref.offset = static_cast<int32_t>(Peek(1).offset);
  ref.names.push_back("#describe");
  Advance();
  Advance();
  TARN_ASSIGN_OR_RETURN(ref.subquery, ParseDescribeTarget());
  TARN_RETURN_NOT_OK(ExpectOperator(")"));
  TARN_ASSIGN_OR_RETURN(ref.alias, ParseAlias());
  TARN_RETURN_NOT_OK(ParseColumnAliases(&ref));
  return ref;
}

// The operand forms that do not nest (LATERAL, (SHOW …), (DESCRIBE …)) parse in functions of
// their own, so their locals do not weigh on the stack frame of every nesting level.
Result<TableRef> StatementParser::ParseJoinOperandBase() {
  if (Peek().IsKeyword("LATERAL")) return ParseLateralOperand();
  const int all = Peek(2).IsKeyword("ALL") ? 1 : 0;
  if (Peek().IsOperator("(") && Peek(1).IsKeyword("SHOW") && Peek(2 + all).IsKeyword("TABLES") &&
      Peek(3 + all).IsOperator(")")) {
    return ParseShowTablesOperand();
  }
  if (Peek().IsOperator("(") &&
      (Peek(1).IsKeyword("DESCRIBE") || Peek(1).IsKeyword("DESC") ||
       (Peek(1).IsKeyword("SHOW") && !Peek(2).IsKeyword("TABLES") && !Peek(2).IsKeyword("ALL")))) {
    return ParseDescribeOperand();
  }
  // ( a JOIN b ... ) [AS alias]: a parenthesized join; a subquery otherwise.
  if (Peek().IsOperator("(") && !Peek(1).IsKeyword("SELECT") && !Peek(1).IsKeyword("FROM") &&
      !Peek(1).IsKeyword("WITH") && !Peek(1).IsKeyword("VALUES") && !Peek(1).IsOperator("(") &&
      !Peek(1).IsKeyword("PIVOT") && !Peek(1).IsKeyword("UNPIVOT") &&
      !Peek(1).IsKeyword("SUMMARIZE")) {
    Advance();
    TARN_ASSIGN_OR_RETURN(Nesting nesting, Nest());  // ( a JOIN ( b JOIN ( ...
    TARN_ASSIGN_OR_RETURN(TableRef inner, ParseFromClause());
    TARN_RETURN_NOT_OK(ExpectOperator(")"));
    return inner;
  }
  return ParseTableRef();
}

Status StatementParser::ParseTableArgs(TableRef* ref) {
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
    const size_t start = pos_;
    if (AcceptOperator("[")) {
      arg.is_list = true;
      if (!Peek().IsOperator("]")) {
        do {
          TARN_ASSIGN_OR_RETURN(auto element, ParseExpr());
          arg.list.push_back(std::move(element));
        } while (AcceptOperator(","));
      }
      TARN_RETURN_NOT_OK(ExpectOperator("]"));
      if (!Peek().IsOperator(",") && !Peek().IsOperator(")")) {
        // The list begins an expression ([1, 2]::BIGINT[], [1] || [2]): read it as one.
        pos_ = start;
        arg.is_list = false;
        arg.list.clear();
        TARN_ASSIGN_OR_RETURN(arg.expr, ParseExpr());
      }
    } else {
      TARN_ASSIGN_OR_RETURN(arg.expr, ParseExpr());
    }
    ref->args.push_back(std::move(arg));
  } while (AcceptOperator(","));
  return ExpectOperator(")");
}

}  // namespace parser_internal

Result<std::vector<std::unique_ptr<Statement>>> ParseStatements(std::string_view text) {
  TARN_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(text));
  return parser_internal::StatementParser(text, tokens).ParseAll();
}

}  // namespace tarn::sql
