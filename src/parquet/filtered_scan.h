// Parquet scans that evaluate a row filter while decoding (late materialization).
//
// The filter's columns of each batch are decoded first and the filter evaluated on them;
// where it keeps few rows (at most 1 in 8), the other columns are decoded only for the kept
// rows (the rest skipped inside the pages) and the batch holds just those rows; where it keeps
// more, every column is decoded and the batch is returned whole. So rows the filter rejects
// may or may not be dropped, rows it keeps never are: the caller applies the filter again.
// Batches where it keeps no row are not returned.
//
// Thread-safety: as ParquetReader::Scan.
#pragma once

#include <memory>

#include "tarn/expr.h"
#include "tarn/parquet.h"

namespace tarn::parquet {

// Like reader.Scan(options), with `filter` (BOOLEAN, bound against the scan's output schema:
// options.columns in order, then the position column) evaluated while decoding. Readers not
// opened by ParquetReader::Open, and a null filter, scan without it.
Result<std::unique_ptr<ScanReader>> ScanWithRowFilter(const ParquetReader& reader,
                                                      const ScanOptions& options,
                                                      std::shared_ptr<const BoundExpr> filter);

}  // namespace tarn::parquet
