// changes_made tokens: writing ours, parsing theirs, and the conflict rules between them
// (reference §2.1 and §6).
#include <algorithm>
#include <cctype>

#include "catalog/commit_internal.h"
#include "catalog/names.h"
#include "catalog/row_reader.h"

namespace tarn::catalog_internal {

namespace {

void AppendToken(std::string* out, std::string_view kind, std::string_view value) {
  if (!out->empty()) out->push_back(',');
  out->append(kind);
  out->push_back(':');
  out->append(value);
}

void AppendIds(std::string* out, std::string_view kind, const std::set<int64_t>& ids) {
  for (int64_t id : ids) AppendToken(out, kind, std::to_string(id));
}

// Reads one double-quoted name at `*pos` ("a""b" -> a"b).
bool ReadQuoted(std::string_view text, size_t* pos, std::string* out) {
  if (*pos >= text.size() || text[*pos] != '"') return false;
  ++*pos;
  out->clear();
  while (*pos < text.size()) {
    char c = text[(*pos)++];
    if (c == '"') {
      if (*pos < text.size() && text[*pos] == '"') {
        out->push_back('"');
        ++*pos;
        continue;
      }
      return true;
    }
    out->push_back(c);
  }
  return false;
}

Result<int64_t> ParseId(std::string_view kind, std::string_view value) {
  int64_t id = 0;
  if (value.empty() || value.size() > 18) {
    return Status::InvalidArgument("changes_made token ", kind, ":", value, " has no valid id");
  }
  for (char c : value) {
    if (c < '0' || c > '9') {
      return Status::InvalidArgument("changes_made token ", kind, ":", value,
                                     " has no valid id");
    }
    id = id * 10 + (c - '0');
  }
  return id;
}

Result<ChangeTokens::Created> ParseQualified(std::string_view kind, std::string_view value) {
  ChangeTokens::Created created;
  size_t pos = 0;
  if (!ReadQuoted(value, &pos, &created.schema) || pos >= value.size() || value[pos] != '.') {
    return Status::InvalidArgument("changes_made token ", kind, ":", value,
                                   " is not \"schema\".\"name\"");
  }
  ++pos;
  if (!ReadQuoted(value, &pos, &created.name) || pos != value.size()) {
    return Status::InvalidArgument("changes_made token ", kind, ":", value,
                                   " is not \"schema\".\"name\"");
  }
  return created;
}

}  // namespace

bool ChangeTokens::empty() const { return FormatChangesMade(*this).empty(); }

std::string FormatChangesMade(const ChangeTokens& t) {
  std::string out;
  AppendIds(&out, "dropped_schema", t.dropped_schemas);
  AppendIds(&out, "dropped_table", t.dropped_tables);
  AppendIds(&out, "dropped_view", t.dropped_views);
  AppendIds(&out, "dropped_scalar_macro", t.dropped_scalar_macros);
  AppendIds(&out, "dropped_table_macro", t.dropped_table_macros);
  for (const std::string& name : t.created_schemas) {
    AppendToken(&out, "created_schema", QuoteName(name));
  }
  for (const ChangeTokens::Created& c : t.created_tables) {
    AppendToken(&out, c.is_view ? "created_view" : "created_table",
                QuoteName(c.schema) + "." + QuoteName(c.name));
  }
  for (const ChangeTokens::Created& c : t.created_macros) {
    AppendToken(&out, c.is_table_macro ? "created_table_macro" : "created_scalar_macro",
                QuoteName(c.schema) + "." + QuoteName(c.name));
  }
  AppendIds(&out, "inserted_into_table", t.inserted);
  AppendIds(&out, "deleted_from_table", t.deleted);
  AppendIds(&out, "altered_table", t.altered_tables);
  AppendIds(&out, "altered_view", t.altered_views);
  AppendIds(&out, "inlined_insert", t.inlined_inserted);
  AppendIds(&out, "inlined_delete", t.inlined_deleted);
  AppendIds(&out, "inline_flush", t.flushed);
  AppendIds(&out, "merge_adjacent", t.merge_adjacent);
  AppendIds(&out, "rewrite_delete", t.rewrite_delete);
  return out;
}

Result<ChangeTokens> ParseChangesMade(std::string_view text) {
  ChangeTokens t;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t colon = text.find(':', pos);
    if (colon == std::string_view::npos) {
      return Status::InvalidArgument("changes_made '", text, "': no ':' after a change type");
    }
    std::string kind(text.substr(pos, colon - pos));
    for (char& c : kind) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    // The value runs to the next comma outside quotes.
    size_t end = colon + 1;
    bool in_quotes = false;
    for (; end < text.size(); ++end) {
      if (text[end] == '"') in_quotes = !in_quotes;
      if (!in_quotes && text[end] == ',') break;
    }
    std::string_view value = text.substr(colon + 1, end - colon - 1);
    pos = end < text.size() ? end + 1 : end;

    std::set<int64_t>* ids = nullptr;
    if (kind == "dropped_schema") ids = &t.dropped_schemas;
    else if (kind == "dropped_table") ids = &t.dropped_tables;
    else if (kind == "dropped_view") ids = &t.dropped_views;
    else if (kind == "inserted_into_table") ids = &t.inserted;
    else if (kind == "deleted_from_table") ids = &t.deleted;
    else if (kind == "altered_table") ids = &t.altered_tables;
    else if (kind == "altered_view") ids = &t.altered_views;
    else if (kind == "inlined_insert") ids = &t.inlined_inserted;
    else if (kind == "inlined_delete") ids = &t.inlined_deleted;
    else if (kind == "inline_flush" || kind == "flushed_inlined") ids = &t.flushed;
    else if (kind == "compacted_table") ids = &t.compacted;
    else if (kind == "merge_adjacent") ids = &t.merge_adjacent;
    else if (kind == "rewrite_delete") ids = &t.rewrite_delete;
    else if (kind == "dropped_scalar_macro") ids = &t.dropped_scalar_macros;
    else if (kind == "dropped_table_macro") ids = &t.dropped_table_macros;
    if (ids != nullptr) {
      TARN_ASSIGN_OR_RETURN(int64_t id, ParseId(kind, value));
      ids->insert(id);
      continue;
    }
    if (kind == "created_schema") {
      std::string name;
      size_t name_pos = 0;
      if (!ReadQuoted(value, &name_pos, &name) || name_pos != value.size()) {
        return Status::InvalidArgument("changes_made token created_schema:", value,
                                       " is not a quoted name");
      }
      t.created_schemas.push_back(std::move(name));
    } else if (kind == "created_table" || kind == "created_view") {
      TARN_ASSIGN_OR_RETURN(ChangeTokens::Created created, ParseQualified(kind, value));
      created.is_view = kind == "created_view";
      t.created_tables.push_back(std::move(created));
    } else if (kind == "created_scalar_macro" || kind == "created_table_macro") {
      TARN_ASSIGN_OR_RETURN(ChangeTokens::Created created, ParseQualified(kind, value));
      created.is_table_macro = kind == "created_table_macro";
      t.created_macros.push_back(std::move(created));
    } else {
      return Status::InvalidArgument("changes_made has an unsupported change type '", kind, "'");
    }
  }
  return t;
}

namespace {

// "main.t" for messages; "table_id 5" when the catalog has no row for it.
std::string DescribeTable(CatalogStore* store, int64_t table_id) {
  Result<CatalogResult> result = RunQuery(
      store,
      "SELECT s.schema_name, t.table_name FROM ducklake_table t LEFT JOIN ducklake_schema s "
      "ON s.schema_id = t.schema_id WHERE t.table_id = ?1 ORDER BY t.begin_snapshot DESC LIMIT 1",
      {CatalogDatum::Integer(table_id)}, {CatalogType::kVarchar, CatalogType::kVarchar},
      "ducklake_table");
  if (!result.ok() || result->rows.empty() || result->rows[0][1].is_null()) {
    return StrCat("table_id ", table_id);
  }
  const auto& row = result->rows[0];
  std::string schema = row[0].is_null() ? std::string("?") : row[0].bytes();
  return StrCat(schema, ".", row[1].bytes());
}

Status ConflictError(std::string_view ours, std::string_view our_token, const TheirSnapshot& s,
                     std::string_view their_token, std::string_view reason) {
  return LogicalConflict(ours, " (", our_token,
                          ") conflicts with snapshot ", s.snapshot_id, " (", their_token, "), ",
                          reason);
}

// Data files of `table_id` that snapshots after `start` deleted from or ended: file -> the
// snapshot and the kind of change.
Result<std::map<int64_t, std::pair<int64_t, std::string>>> FilesDeletedSince(
    CatalogStore* store, int64_t table_id, int64_t start) {
  // Runs before this commit writes anything, so every row newer than `start` is theirs.
  std::map<int64_t, std::pair<int64_t, std::string>> files;
  const std::vector<CatalogType> types = {CatalogType::kBigint, CatalogType::kBigint};
  auto collect = [&](const std::string& sql, std::string_view what,
                     std::string_view kind) -> Status {
    TARN_ASSIGN_OR_RETURN(CatalogResult result,
                          RunQuery(store, sql,
                                   {CatalogDatum::Integer(table_id), CatalogDatum::Integer(start)},
                                   types, std::string(what)));
    for (size_t i = 0; i < result.rows.size(); ++i) {
      RowReader row(*store, result, i, what, {0});
      TARN_ASSIGN_OR_RETURN(int64_t file, row.Int(0));
      TARN_ASSIGN_OR_RETURN(int64_t snapshot, row.Int(1));
      files.emplace(file, std::make_pair(snapshot, std::string(kind)));
    }
    return Status::OK();
  };
  TARN_RETURN_NOT_OK(collect(
      "SELECT data_file_id, begin_snapshot FROM ducklake_delete_file WHERE table_id = ?1 AND "
      "begin_snapshot > ?2",
      "ducklake_delete_file", "a delete file"));
  TARN_RETURN_NOT_OK(collect(
      "SELECT data_file_id, end_snapshot FROM ducklake_data_file WHERE table_id = ?1 AND "
      "end_snapshot > ?2",
      "ducklake_data_file", "every row deleted"));
  const std::string inlined = StrCat("ducklake_inlined_delete_", table_id);
  TARN_ASSIGN_OR_RETURN(bool has_inlined, store->TableExists(inlined));
  if (has_inlined) {
    TARN_RETURN_NOT_OK(collect(StrCat("SELECT file_id, begin_snapshot FROM ", QuoteName(inlined),
                                      " WHERE ?1 = ?1 AND begin_snapshot > ?2"),
                               inlined, "inlined deletes"));
  }
  return files;
}

}  // namespace

Status CheckConflicts(CatalogStore* store, int64_t start_snapshot_id, const ChangeTokens& ours,
                      const OurFileDeletes& our_files, const std::vector<TheirSnapshot>& theirs) {
  auto table = [&](int64_t id) { return DescribeTable(store, id); };
  struct Rule {
    const std::set<int64_t> ChangeTokens::*theirs;
    const char* token;
    const char* reason;
  };
  // Checks each of our ids against their sets.
  auto check_ids = [&](const std::set<int64_t>& our_ids, const char* our_kind,
                       const char* action, std::initializer_list<Rule> rules,
                       bool is_table) -> Status {
    for (int64_t id : our_ids) {
      for (const TheirSnapshot& s : theirs) {
        for (const Rule& rule : rules) {
          if ((s.tokens.*rule.theirs).count(id) == 0) continue;
          std::string object = is_table ? table(id) : StrCat(id);
          return ConflictError(StrCat(action, " ", object), StrCat(our_kind, ":", id), s,
                               StrCat(rule.token, ":", id), rule.reason);
        }
      }
    }
    return Status::OK();
  };
  using T = ChangeTokens;
  TARN_RETURN_NOT_OK(check_ids(ours.dropped_tables, "dropped_table", "drop table",
                               {{&T::dropped_tables, "dropped_table", "which dropped it already"}},
                               true));
  TARN_RETURN_NOT_OK(check_ids(ours.dropped_views, "dropped_view", "drop view",
                               {{&T::dropped_views, "dropped_view", "which dropped it already"}},
                               false));
  TARN_RETURN_NOT_OK(check_ids(ours.dropped_scalar_macros, "dropped_scalar_macro", "drop macro",
                               {{&T::dropped_scalar_macros, "dropped_scalar_macro",
                                 "which dropped it already"}},
                               false));
  TARN_RETURN_NOT_OK(check_ids(ours.dropped_table_macros, "dropped_table_macro", "drop macro",
                               {{&T::dropped_table_macros, "dropped_table_macro",
                                 "which dropped it already"}},
                               false));
  TARN_RETURN_NOT_OK(check_ids(ours.dropped_schemas, "dropped_schema", "drop schema",
                               {{&T::dropped_schemas, "dropped_schema",
                                 "which dropped it already"}},
                               false));
  const std::initializer_list<Rule> insert_rules = {
      {&T::dropped_tables, "dropped_table", "which dropped the table"},
      {&T::altered_tables, "altered_table", "which altered the table"},
      {&T::deleted, "deleted_from_table", "which deleted from the table"},
      {&T::inlined_deleted, "inlined_delete", "which deleted inlined rows from the table"}};
  TARN_RETURN_NOT_OK(check_ids(ours.inserted, "inserted_into_table", "insert into table",
                               insert_rules, true));
  TARN_RETURN_NOT_OK(check_ids(ours.inlined_inserted, "inlined_insert", "insert into table",
                               insert_rules, true));
  TARN_RETURN_NOT_OK(check_ids(
      ours.deleted, "deleted_from_table", "delete from table",
      {{&T::dropped_tables, "dropped_table", "which dropped the table"},
       {&T::altered_tables, "altered_table", "which altered the table"},
       {&T::merge_adjacent, "merge_adjacent", "which compacted the table"},
       {&T::rewrite_delete, "rewrite_delete", "which compacted the table"},
       {&T::compacted, "compacted_table", "which compacted the table"},
       {&T::inserted, "inserted_into_table", "which inserted into the table"},
       {&T::inlined_inserted, "inlined_insert", "which inserted into the table"}},
      true));
  TARN_RETURN_NOT_OK(check_ids(
      ours.inlined_deleted, "inlined_delete", "delete from table",
      {{&T::dropped_tables, "dropped_table", "which dropped the table"},
       {&T::altered_tables, "altered_table", "which altered the table"},
       {&T::inlined_deleted, "inlined_delete", "which deleted from the table"},
       {&T::flushed, "inline_flush", "which flushed the table's inlined data"},
       {&T::inserted, "inserted_into_table", "which inserted into the table"},
       {&T::inlined_inserted, "inlined_insert", "which inserted into the table"}},
      true));
  // Maintenance (§6): flush vs their drop/inline-delete/flush; compaction vs their
  // drop/delete/compaction.
  TARN_RETURN_NOT_OK(check_ids(
      ours.flushed, "inline_flush", "flush inlined data of table",
      {{&T::dropped_tables, "dropped_table", "which dropped the table"},
       {&T::inlined_deleted, "inlined_delete", "which deleted inlined rows from the table"},
       {&T::flushed, "inline_flush", "which flushed the table's inlined data"}},
      true));
  const std::initializer_list<Rule> compact_rules = {
      {&T::dropped_tables, "dropped_table", "which dropped the table"},
      {&T::deleted, "deleted_from_table", "which deleted from the table"},
      {&T::inlined_deleted, "inlined_delete", "which deleted from the table"},
      {&T::merge_adjacent, "merge_adjacent", "which compacted the table"},
      {&T::rewrite_delete, "rewrite_delete", "which compacted the table"},
      {&T::compacted, "compacted_table", "which compacted the table"}};
  TARN_RETURN_NOT_OK(check_ids(ours.merge_adjacent, "merge_adjacent", "compact table",
                               compact_rules, true));
  TARN_RETURN_NOT_OK(check_ids(ours.rewrite_delete, "rewrite_delete", "compact table",
                               compact_rules, true));
  TARN_RETURN_NOT_OK(check_ids(ours.altered_tables, "altered_table", "alter table",
                               {{&T::dropped_tables, "dropped_table", "which dropped the table"},
                                {&T::altered_tables, "altered_table", "which altered it"}},
                               true));
  TARN_RETURN_NOT_OK(check_ids(ours.altered_views, "altered_view", "alter view",
                               {{&T::altered_views, "altered_view", "which altered it"}}, false));

  // Names: schemas and entries created in parallel.
  for (const TheirSnapshot& s : theirs) {
    for (const std::string& name : ours.created_schemas) {
      for (const std::string& other : s.tokens.created_schemas) {
        if (!EqualsIgnoreCase(name, other)) continue;
        return ConflictError(StrCat("create schema ", name), StrCat("created_schema:", QuoteName(name)),
                             s, StrCat("created_schema:", QuoteName(other)),
                             "which created a schema of that name");
      }
    }
    for (const ChangeTokens::Created& created : ours.created_tables) {
      const char* kind = created.is_view ? "created_view" : "created_table";
      std::string our_token =
          StrCat(kind, ":", QuoteName(created.schema), ".", QuoteName(created.name));
      for (const ChangeTokens::Created& other : s.tokens.created_tables) {
        if (!EqualsIgnoreCase(created.schema, other.schema) ||
            !EqualsIgnoreCase(created.name, other.name)) {
          continue;
        }
        return ConflictError(
            StrCat("create ", created.is_view ? "view " : "table ", created.schema, ".",
                   created.name),
            our_token, s,
            StrCat(other.is_view ? "created_view:" : "created_table:", QuoteName(other.schema),
                   ".", QuoteName(other.name)),
            "which created an entry of that name");
      }
    }
    auto macro_token = [](const ChangeTokens::Created& c) {
      return StrCat(c.is_table_macro ? "created_table_macro:" : "created_scalar_macro:",
                    QuoteName(c.schema), ".", QuoteName(c.name));
    };
    for (const ChangeTokens::Created& created : ours.created_macros) {
      for (const ChangeTokens::Created& other : s.tokens.created_macros) {
        if (created.is_table_macro != other.is_table_macro ||
            !EqualsIgnoreCase(created.schema, other.schema) ||
            !EqualsIgnoreCase(created.name, other.name)) {
          continue;
        }
        return ConflictError(StrCat("create macro ", created.schema, ".", created.name),
                             macro_token(created), s, macro_token(other),
                             "which created a macro of that name");
      }
    }
  }

  // Schema ids: our new entries in a schema they dropped, our dropped schema gaining entries.
  if (!ours.created_tables.empty() || !ours.dropped_schemas.empty()) {
    TARN_ASSIGN_OR_RETURN(
        CatalogResult schemas,
        RunQuery(store, "SELECT schema_id, schema_name FROM ducklake_schema", {},
                 {CatalogType::kBigint, CatalogType::kVarchar}, "ducklake_schema"));
    std::map<int64_t, std::string> names;
    for (auto& row : schemas.rows) {
      if (!row[0].is_null() && !row[1].is_null()) names[row[0].integer()] = row[1].bytes();
    }
    for (const TheirSnapshot& s : theirs) {
      for (int64_t dropped : s.tokens.dropped_schemas) {
        for (const ChangeTokens::Created& created : ours.created_tables) {
          if (!EqualsIgnoreCase(names[dropped], created.schema)) continue;
          return ConflictError(StrCat("create ", created.is_view ? "view " : "table ",
                                      created.schema, ".", created.name),
                               StrCat(created.is_view ? "created_view:" : "created_table:",
                                      QuoteName(created.schema), ".", QuoteName(created.name)),
                               s, StrCat("dropped_schema:", dropped), "which dropped the schema");
        }
      }
      for (int64_t dropped : ours.dropped_schemas) {
        for (const ChangeTokens::Created& other : s.tokens.created_tables) {
          if (!EqualsIgnoreCase(names[dropped], other.schema)) continue;
          return ConflictError(StrCat("drop schema ", names[dropped]),
                               StrCat("dropped_schema:", dropped), s,
                               StrCat(other.is_view ? "created_view:" : "created_table:",
                                      QuoteName(other.schema), ".", QuoteName(other.name)),
                               "which created an entry in it");
        }
      }
    }
  }

  // Deletes of the same data file (different files of one table are fine).
  for (const auto& [table_id, our_data_files] : our_files.data_files_by_table) {
    const TheirSnapshot* deleting = nullptr;
    for (const TheirSnapshot& s : theirs) {
      if (s.tokens.deleted.count(table_id) != 0 || s.tokens.inlined_deleted.count(table_id) != 0) {
        deleting = &s;
        break;
      }
    }
    if (deleting == nullptr) continue;
    TARN_ASSIGN_OR_RETURN(auto deleted, FilesDeletedSince(store, table_id, start_snapshot_id));
    for (int64_t file : our_data_files) {
      auto it = deleted.find(file);
      if (it == deleted.end()) continue;
      const TheirSnapshot* culprit = deleting;
      for (const TheirSnapshot& s : theirs) {
        if (s.snapshot_id == it->second.first) culprit = &s;
      }
      const bool inlined = culprit->tokens.deleted.count(table_id) == 0;
      const bool ours_inlined = ours.deleted.count(table_id) == 0;
      return ConflictError(StrCat("delete from table ", table(table_id)),
                           StrCat(ours_inlined ? "inlined_delete:" : "deleted_from_table:",
                                  table_id),
                           *culprit,
                           StrCat(inlined ? "inlined_delete:" : "deleted_from_table:", table_id),
                           StrCat("which deleted from the same data file ", file, " (",
                                  it->second.second, ")"));
    }
  }
  return Status::OK();
}

Result<ChangeTokens> TokensOfChanges(const LakeChanges& changes, const LakeSnapshot& start,
                                     OurFileDeletes* file_deletes) {
  ChangeTokens t;
  std::map<int64_t, std::string> new_schema_names;  // provisional id -> name
  auto schema_name = [&](int64_t schema_id) -> Result<std::string> {
    if (schema_id < 0) {
      auto it = new_schema_names.find(schema_id);
      if (it == new_schema_names.end()) {
        return Status::InvalidArgument("change set refers to provisional schema id ", schema_id,
                                       " before the change that creates it");
      }
      return it->second;
    }
    for (const SchemaInfo& schema : start.schemas()) {
      if (schema.schema_id == schema_id) return schema.name;
    }
    return Status::NotFound("schema_id ", schema_id, " is not in snapshot ", start.snapshot_id());
  };
  auto table_name = [&](int64_t table_id) -> std::pair<std::string, std::string> {
    std::shared_ptr<const TableInfo> table = start.FindTableById(table_id);
    if (table == nullptr) return {"", ""};
    return {table->schema_name, table->name};
  };
  auto real = [](int64_t id) { return id >= 0; };
  for (const LakeChange& change : changes.changes()) {
    Status status = std::visit(
        [&](const auto& c) -> Status {
          using C = std::decay_t<decltype(c)>;
          if constexpr (std::is_same_v<C, CreateSchemaChange>) {
            new_schema_names[c.provisional_id] = c.name;
            t.created_schemas.push_back(c.name);
          } else if constexpr (std::is_same_v<C, DropSchemaChange>) {
            if (real(c.schema_id)) t.dropped_schemas.insert(c.schema_id);
          } else if constexpr (std::is_same_v<C, CreateTableChange> ||
                               std::is_same_v<C, CreateViewChange>) {
            TARN_ASSIGN_OR_RETURN(std::string schema, schema_name(c.schema_id));
            t.created_tables.push_back(
                {schema, c.name, std::is_same_v<C, CreateViewChange>});
          } else if constexpr (std::is_same_v<C, DropTableChange>) {
            if (real(c.table_id)) t.dropped_tables.insert(c.table_id);
          } else if constexpr (std::is_same_v<C, RenameTableChange>) {
            if (real(c.table_id)) {
              t.created_tables.push_back({table_name(c.table_id).first, c.new_name, false});
            }
          } else if constexpr (std::is_same_v<C, AddColumnChange> ||
                               std::is_same_v<C, DropColumnChange> ||
                               std::is_same_v<C, AlterColumnChange> ||
                               std::is_same_v<C, SetPartitioningChange> ||
                               std::is_same_v<C, SetSortKeyChange>) {
            if (real(c.table_id)) t.altered_tables.insert(c.table_id);
          } else if constexpr (std::is_same_v<C, DropViewChange>) {
            if (real(c.view_id)) t.dropped_views.insert(c.view_id);
          } else if constexpr (std::is_same_v<C, RenameViewChange>) {
            if (real(c.view_id)) {
              std::string schema;
              for (const ViewInfo& view : start.views()) {
                if (view.view_id == c.view_id) schema = view.schema_name;
              }
              t.created_tables.push_back({schema, c.new_name, true});
            }
          } else if constexpr (std::is_same_v<C, SetCommentChange>) {
            if (real(c.object_id)) {
              if (c.target == SetCommentChange::Target::kView) {
                t.altered_views.insert(c.object_id);
              } else {
                t.altered_tables.insert(c.object_id);
              }
            }
          } else if constexpr (std::is_same_v<C, CreateMacroChange>) {
            TARN_ASSIGN_OR_RETURN(std::string schema, schema_name(c.schema_id));
            ChangeTokens::Created created{schema, c.name};
            created.is_table_macro = !c.impls.empty() && c.impls[0].is_table;
            t.created_macros.push_back(std::move(created));
          } else if constexpr (std::is_same_v<C, DropMacroChange>) {
            if (real(c.macro_id)) {
              (c.is_table ? t.dropped_table_macros : t.dropped_scalar_macros).insert(c.macro_id);
            }
          } else if constexpr (std::is_same_v<C, NewDataFile>) {
            if (real(c.table_id)) t.inserted.insert(c.table_id);
          } else if constexpr (std::is_same_v<C, InlinedInsert>) {
            if (real(c.table_id)) t.inlined_inserted.insert(c.table_id);
          } else if constexpr (std::is_same_v<C, NewDeleteFile>) {
            if (real(c.table_id)) {
              t.deleted.insert(c.table_id);
              if (real(c.data_file_id)) {
                file_deletes->data_files_by_table[c.table_id].insert(c.data_file_id);
              }
            }
          } else if constexpr (std::is_same_v<C, EndDataFile>) {
            if (real(c.table_id)) {
              t.deleted.insert(c.table_id);
              file_deletes->data_files_by_table[c.table_id].insert(c.data_file_id);
            }
          } else if constexpr (std::is_same_v<C, InlinedFileDeletes>) {
            if (real(c.table_id)) {
              t.inlined_deleted.insert(c.table_id);
              file_deletes->data_files_by_table[c.table_id].insert(c.data_file_id);
            }
          } else if constexpr (std::is_same_v<C, InlinedRowDeletes>) {
            if (real(c.table_id)) t.inlined_deleted.insert(c.table_id);
          } else if constexpr (std::is_same_v<C, FlushInlinedChange>) {
            if (real(c.table_id)) t.flushed.insert(c.table_id);
          } else if constexpr (std::is_same_v<C, CompactFilesChange>) {
            if (real(c.table_id)) {
              (c.kind == CompactFilesChange::Kind::kMergeAdjacent ? t.merge_adjacent
                                                                  : t.rewrite_delete)
                  .insert(c.table_id);
            }
          }
          return Status::OK();
        },
        change);
    TARN_RETURN_NOT_OK(status);
  }
  return t;
}

}  // namespace tarn::catalog_internal
