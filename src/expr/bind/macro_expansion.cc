#include "expr/bind/macro_expansion.h"

#include <cctype>
#include <optional>
#include <utility>

#include "expr/parse/parser.h"
#include "tarn/type.h"

namespace tarn::expr {
namespace {

using ast::Expr;
using ast::ExprKind;
using ExprPtr = std::unique_ptr<Expr>;

bool SameName(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// "f(a, b := 5)": an implementation's signature, for messages.
std::string Signature(const MacroInfo& macro, const MacroImpl& impl) {
  std::string out = macro.name + "(";
  for (size_t i = 0; i < impl.parameters.size(); ++i) {
    const MacroParameter& parameter = impl.parameters[i];
    if (i > 0) out += ", ";
    out += parameter.name;
    if (parameter.type != "unknown") {
      Result<DataType> type = ParseDuckLakeType(parameter.type);
      out += " " + (type.ok() ? type->ToString() : parameter.type);
    }
    if (parameter.default_value.has_value()) out += " := " + *parameter.default_value;
  }
  return out + ")";
}

// The DuckDB type a DuckLake type name stands for, when it is one tarn can cast to.
std::optional<std::string> SqlTypeOf(const std::string& ducklake_type) {
  if (ducklake_type == "unknown") return std::nullopt;
  Result<DataType> type = ParseDuckLakeType(ducklake_type);
  if (!type.ok()) return std::nullopt;
  return type->ToString();
}

ExprPtr CastTo(ExprPtr value, const std::string& type) {
  auto cast = std::make_unique<Expr>();
  cast->kind = ExprKind::kCast;
  cast->type_name = type;
  cast->range = value->range;
  cast->children.push_back(std::move(value));
  ast::UpdateHeight(cast.get());
  return cast;
}

// A parameter's default: its stored text cast to its stored type.
ExprPtr DefaultValue(const MacroParameter& parameter) {
  if (!parameter.default_value.has_value()) return ast::MakeLiteral(ast::LiteralKind::kNull, "");
  ExprPtr text = ast::MakeLiteral(ast::LiteralKind::kString, *parameter.default_value);
  std::optional<std::string> type = SqlTypeOf(parameter.default_value_type);
  return type ? CastTo(std::move(text), *type) : std::move(text);
}


Result<MacroCall> BindArgumentsImpl(const MacroInfo& macro, const std::vector<const Expr*>& args,
                                    const std::vector<std::string>& names) {
  std::vector<const Expr*> positional;
  std::vector<std::pair<std::string, const Expr*>> named;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!names[i].empty()) {
      named.emplace_back(names[i], args[i]);
    } else if (!named.empty()) {
      return Status::InvalidArgument("Binder Error: macro ", macro.name,
                                     ": a positional argument follows a named one");
    } else {
      positional.push_back(args[i]);
    }
  }
  for (const MacroImpl& impl : macro.impls) {
    const std::vector<MacroParameter>& parameters = impl.parameters;
    if (positional.size() > parameters.size()) continue;
    std::vector<const Expr*> given(parameters.size(), nullptr);
    for (size_t i = 0; i < positional.size(); ++i) given[i] = positional[i];
    bool fits = true;
    for (const auto& [name, value] : named) {
      size_t j = 0;
      while (j < parameters.size() && !SameName(parameters[j].name, name)) ++j;
      if (j == parameters.size() || given[j] != nullptr) {
        fits = false;
        break;
      }
      given[j] = value;
    }
    for (size_t j = 0; fits && j < parameters.size(); ++j) {
      if (given[j] == nullptr && !parameters[j].default_value.has_value()) fits = false;
    }
    if (!fits) continue;
    MacroCall call;
    call.impl = &impl;
    for (size_t j = 0; j < parameters.size(); ++j) {
      ExprPtr value = given[j] != nullptr ? given[j]->Clone() : DefaultValue(parameters[j]);
      if (std::optional<std::string> type = SqlTypeOf(parameters[j].type)) {
        value = CastTo(std::move(value), *type);
      }
      call.values.push_back(std::move(value));
    }
    return call;
  }
  std::string message = StrCat("Binder Error: Macro function ", macro.name, " has no ",
                               macro.impls.size() == 1 ? "signature" : "implementation",
                               " that takes ", positional.size(), " positional argument",
                               positional.size() == 1 ? "" : "s");
  if (!named.empty()) {
    message += " and the named argument";
    if (named.size() > 1) message += "s";
    for (size_t i = 0; i < named.size(); ++i) message += (i ? ", " : " ") + named[i].first;
  }
  message += "; it takes ";
  for (size_t i = 0; i < macro.impls.size(); ++i) {
    if (i > 0) message += " or ";
    message += Signature(macro, macro.impls[i]);
  }
  return Status::InvalidArgument(message);
}

// Replaces the references to the parameters in `slot` by their values (p.field: a field of
// the value). A lambda's parameters hide the macro's inside its body (`hidden`).
void Substitute(ExprPtr& slot, const MacroImpl& impl, const std::vector<ExprPtr>& values,
                std::vector<std::string>* hidden) {
  Expr& e = *slot;
  if (e.kind == ExprKind::kLambda) {
    const size_t outer = hidden->size();
    hidden->insert(hidden->end(), e.names.begin(), e.names.end());
    for (auto& child : e.children) Substitute(child, impl, values, hidden);
    hidden->resize(outer);
    return;
  }
  if (e.kind == ExprKind::kColumnRef && !e.names.empty()) {
    for (const std::string& name : *hidden) {
      if (SameName(name, e.names[0])) return;
    }
    for (size_t j = 0; j < impl.parameters.size(); ++j) {
      if (!SameName(impl.parameters[j].name, e.names[0])) continue;
      ExprPtr value = values[j]->Clone();
      for (size_t k = 1; k < e.names.size(); ++k) {
        auto field = std::make_unique<Expr>();
        field->kind = ExprKind::kField;
        field->names = {e.names[k]};
        field->children.push_back(std::move(value));
        ast::UpdateHeight(field.get());
        value = std::move(field);
      }
      slot = std::move(value);
      return;
    }
  }
  for (auto& child : e.children) Substitute(child, impl, values, hidden);
}



}  // namespace

Result<MacroCall> BindMacroArguments(const MacroInfo& macro,
                                     const std::vector<const ast::Expr*>& args,
                                     const std::vector<std::string>& names) {
  return BindArgumentsImpl(macro, args, names);
}

void SubstituteMacroParameters(std::unique_ptr<ast::Expr>& slot, const MacroCall& call) {
  std::vector<std::string> hidden;
  Substitute(slot, *call.impl, call.values, &hidden);
}

Status ScalarMacroExpander::Expand(ExprPtr& slot, int depth) {
  for (auto& child : slot->children) TARN_RETURN_NOT_OK(Expand(child, depth));
  const Expr& call = *slot;
  if (call.kind != ExprKind::kFunction || is_builtin_(call.names[0])) return Status::OK();
  TARN_ASSIGN_OR_RETURN(const MacroInfo* macro, find_(call.names[0]));
  if (macro == nullptr) return Status::OK();
  if (macro->is_table()) {
    return Status::InvalidArgument("Binder Error: ", macro->name,
                                   " is a table macro: call it in FROM");
  }
  if (depth >= kMaxMacroDepth) {
    return Status::InvalidArgument("Binder Error: macros nest more than ", kMaxMacroDepth,
                                   " deep at ", macro->name, " (does it call itself?)");
  }
  std::vector<const Expr*> args;
  std::vector<std::string> names;
  for (size_t i = 0; i < call.children.size(); ++i) {
    args.push_back(call.children[i].get());
    names.push_back(i + 1 < call.names.size() ? call.names[i + 1] : std::string());
  }
  TARN_ASSIGN_OR_RETURN(MacroCall bound, BindArgumentsImpl(*macro, args, names));
  Result<ExprPtr> body = sql::ParseExpressionText(bound.impl->sql);
  if (!body.ok()) {
    return Status::Corruption("macro ", macro->schema_name, ".", macro->name,
                              ": its stored expression does not parse: ",
                              body.status().message());
  }
  ExprPtr expanded = std::move(body).value();
  SubstituteMacroParameters(expanded, bound);
  TARN_RETURN_NOT_OK(Expand(expanded, depth + 1));
  slot = std::move(expanded);
  ++expansions_;
  return Status::OK();
}

}  // namespace tarn::expr
