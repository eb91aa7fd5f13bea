// ATTACH, DETACH and USE: the statements that change which lakes a session sees.
#include <utility>

#include "sql/parse/statement_parser_internal.h"

namespace tarn::sql::parser_internal {

namespace {

std::unique_ptr<Statement> SessionStatement(StatementKind kind, std::string what) {
  auto statement = std::make_unique<Statement>();
  statement->kind = kind;
  statement->what = std::move(what);
  statement->session = std::make_unique<SessionStmt>();
  return statement;
}

}  // namespace

Result<std::unique_ptr<Statement>> StatementParser::ParseAttach() {
  Advance();  // ATTACH
  auto statement = SessionStatement(StatementKind::kAttach, "ATTACH");
  SessionStmt& attach = *statement->session;
  if (AcceptKeyword("OR")) {
    TARN_RETURN_NOT_OK(ExpectKeyword("REPLACE"));
    attach.or_replace = true;
  }
  AcceptKeyword("DATABASE");
  attach.if_not_exists = AcceptIfNotExists();
  if (Peek().kind != TokenKind::kString) return SyntaxError();
  attach.locator = Advance().text;
  if (AcceptKeyword("AS")) {
    TARN_ASSIGN_OR_RETURN(attach.name, ParseName());
  }
  if (Peek().IsOperator("(")) TARN_RETURN_NOT_OK(ParseSessionOptions(&attach.options));
  return statement;
}

Status StatementParser::ParseSessionOptions(
    std::vector<std::pair<std::string, std::unique_ptr<ast::Expr>>>* options) {
  TARN_RETURN_NOT_OK(ExpectOperator("("));
  while (true) {
    TARN_ASSIGN_OR_RETURN(std::string option, ParseName());
    option = Upper(std::move(option));
    std::unique_ptr<ast::Expr> value;
    if (!Peek().IsOperator(",") && !Peek().IsOperator(")")) {
      // TYPE ducklake: a bare word is the value's text.
      if (Peek().kind == TokenKind::kIdentifier && (Peek(1).IsOperator(",") ||
                                                    Peek(1).IsOperator(")")) &&
          !Peek().IsKeyword("TRUE") && !Peek().IsKeyword("FALSE") &&
          !Peek().IsKeyword("NULL")) {
        value = ast::MakeLiteral(ast::LiteralKind::kString, Advance().text);
      } else {
        TARN_ASSIGN_OR_RETURN(value, ParseExpr());
      }
    }
    options->emplace_back(std::move(option), std::move(value));
    if (AcceptOperator(")")) break;
    TARN_RETURN_NOT_OK(ExpectOperator(","));
  }
  return Status::OK();
}

bool StatementParser::AtSecretStatement() const {
  if (!Peek().IsKeyword("CREATE") && !Peek().IsKeyword("DROP")) return false;
  size_t i = 1;
  if (Peek().IsKeyword("CREATE") && Peek(1).IsKeyword("OR") && Peek(2).IsKeyword("REPLACE")) i = 3;
  if (Peek(i).IsKeyword("PERSISTENT") || Peek(i).IsKeyword("TEMPORARY") ||
      Peek(i).IsKeyword("TEMP")) {
    ++i;
  }
  return Peek(i).IsKeyword("SECRET");
}

Result<std::unique_ptr<Statement>> StatementParser::ParseSecret() {
  const bool create = Advance().IsKeyword("CREATE");
  auto statement = SessionStatement(create ? StatementKind::kCreateSecret
                                           : StatementKind::kDropSecret,
                                    create ? "CREATE SECRET" : "DROP SECRET");
  SessionStmt& secret = *statement->session;
  if (create && AcceptKeyword("OR")) {
    TARN_RETURN_NOT_OK(ExpectKeyword("REPLACE"));
    secret.or_replace = true;
  }
  if (AcceptKeyword("PERSISTENT")) {
    secret.persistent = true;
  } else if (!AcceptKeyword("TEMPORARY")) {
    AcceptKeyword("TEMP");
  }
  TARN_RETURN_NOT_OK(ExpectKeyword("SECRET"));
  if (create) {
    secret.if_not_exists = AcceptIfNotExists();
    if (!Peek().IsOperator("(")) {
      TARN_ASSIGN_OR_RETURN(secret.name, ParseName());
    }
    if (AcceptKeyword("IN")) {
      TARN_ASSIGN_OR_RETURN(std::string storage, ParseName());
      // Only secrets in memory are kept; any other storage is a persistent one.
      secret.persistent = secret.persistent || Upper(storage) != "MEMORY";
    }
    TARN_RETURN_NOT_OK(ParseSessionOptions(&secret.options));
  } else {
    secret.if_exists = AcceptIfExists();
    TARN_ASSIGN_OR_RETURN(secret.name, ParseName());
    if (AcceptKeyword("FROM")) {
      TARN_ASSIGN_OR_RETURN(std::string storage, ParseName());
      secret.persistent = secret.persistent || Upper(storage) != "MEMORY";
    }
  }
  return statement;
}

Result<std::unique_ptr<Statement>> StatementParser::ParseDetach() {
  Advance();  // DETACH
  auto statement = SessionStatement(StatementKind::kDetach, "DETACH");
  AcceptKeyword("DATABASE");
  statement->session->if_exists = AcceptIfExists();
  TARN_ASSIGN_OR_RETURN(statement->session->name, ParseName());
  return statement;
}

Result<std::unique_ptr<Statement>> StatementParser::ParseUse() {
  Advance();  // USE
  auto statement = SessionStatement(StatementKind::kUse, "USE");
  TARN_ASSIGN_OR_RETURN(std::vector<std::string> names, ParseQualifiedName());
  if (names.size() > 2) return SyntaxError();
  statement->session->name = names[0];
  if (names.size() == 2) statement->session->schema = names[1];
  return statement;
}

}  // namespace tarn::sql::parser_internal
