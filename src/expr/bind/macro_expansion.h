// Expansion of calls to a lake's scalar macros (CREATE MACRO f(a, b := 5) AS expr), as DuckDB
// expands them (see sql/lake/macros.h for the rules): the SQL layer expands them before
// planning a query, the writer in a table's sort key before evaluating it.
//
// A call takes the first implementation its arguments fit and becomes that implementation's
// stored expression, each parameter replaced by its argument (or default), cast to the
// parameter's type when it has one. Macros may call macros, up to kMaxMacroDepth deep.
//
// Thread-safety: an expander is used by one thread.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "expr/parse/ast.h"
#include "tarn/catalog.h"
#include "tarn/status.h"

namespace tarn::expr {

constexpr int kMaxMacroDepth = 32;

// The implementation a call's arguments fit, and the value of each of its parameters.
struct MacroCall {
  const MacroImpl* impl = nullptr;
  std::vector<std::unique_ptr<ast::Expr>> values;  // by parameter position
};

// Fits `args` (args[i] named names[i], "" when positional) to an implementation of `macro`.
Result<MacroCall> BindMacroArguments(const MacroInfo& macro,
                                     const std::vector<const ast::Expr*>& args,
                                     const std::vector<std::string>& names);

// Replaces the references to the call's parameters in `slot` by their values (p.field: a field
// of the value); a lambda's parameters hide them inside its body.
void SubstituteMacroParameters(std::unique_ptr<ast::Expr>& slot, const MacroCall& call);

// Expands the scalar macro calls of expressions, innermost first.
class ScalarMacroExpander {
 public:
  // The macro a call's name refers to, of either kind (null: none; a table macro is an error).
  using FindMacro = std::function<Result<const MacroInfo*>(const std::string& name)>;
  // Names that never call a macro (built-in functions).
  using IsBuiltin = std::function<bool(const std::string& name)>;

  ScalarMacroExpander(FindMacro find, IsBuiltin is_builtin)
      : find_(std::move(find)), is_builtin_(std::move(is_builtin)) {}

  Status Expand(std::unique_ptr<ast::Expr>& slot) { return Expand(slot, 0); }
  // Calls expanded so far.
  int expansions() const { return expansions_; }

 private:
  Status Expand(std::unique_ptr<ast::Expr>& slot, int depth);

  FindMacro find_;
  IsBuiltin is_builtin_;
  int expansions_ = 0;
};

}  // namespace tarn::expr
