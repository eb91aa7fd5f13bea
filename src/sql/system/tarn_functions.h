// tarn's own table functions over row summaries (docs/rowid.md):
//
//   tarn_publish_row_summaries([cat] [, since => n])
//       a publishing pass over the attached lake's latest snapshot: every visible file (the
//       backfill; a file already published costs one header read), or only files registered
//       after snapshot n. Writes `<data file>.rowsum` sidecars, never the catalog. One row:
//       files_considered, published, already_published, dense, failed, first_error.
//   tarn_sweep_row_summaries([cat])
//       lists the data path once and deletes every `.rowsum` whose data file is gone. One row:
//       listed, sidecars, deleted.
//   tarn_row_summary_stats()
//       the process's row-summary counters (every lookup of every lake): cache_hits,
//       cache_misses, sidecar_hits, sidecar_misses, refused_identity, decode_failures, derived,
//       footer_probes, published, already_published, publish_failures, sidecar_probes.
//   tarn_table_stats('t')
//       how a lake table sits on disk (tarn/layout.h ReadLakeTableStats): table_name, rows,
//       files, delete_files, row_groups, avg_rows_per_row_group, bytes_on_disk,
//       compressed_bytes, uncompressed_bytes, compression_ratio, sort_key, parquet_profile.
//   tarn_layout_explain('t' [, mode => 'measured'|'rules'] [, sample_rows => n])
//       what SORTED BY AUTO would choose and why, one row per item: kind 'profile' (a column),
//       'dependency' (a column set's distinct count), 'candidate' (a key tried: its measured
//       bytes, or why it was not measured), 'choice'; columns kind, key, bytes, detail.
//       Measured with the table's writer profile.
//
// Run them with CALL or in FROM. The publishing and sweeping work happens when the source is
// opened (so EXPLAIN does not publish).
//
// Thread-safety: one thread at a time.
#pragma once

#include <memory>
#include <string_view>

#include "sql/parse/statement.h"
#include "sql/plan/source.h"

namespace tarn::sql {

// Whether `name` (any case) is one of the functions above.
bool IsTarnFunction(std::string_view name);

// Binds a tarn_* call in FROM or CALL. Errors: no attached lake (publish, sweep), a wrong
// catalog name, unknown or mistyped arguments.
Result<std::unique_ptr<Source>> BindTarnFunction(const TableRef& ref, std::string_view sql_text,
                                                 const ExecContext& context);

}  // namespace tarn::sql
