#include <memory>
#include <string>

#include "shell.h"

namespace tarn::cli {

bool IsKnownFormat(std::string_view format) {
  return format == "table" || format == "duckbox" || format == "box" || format == "csv" ||
         format == "json" || format == "markdown" || format == "line";
}

Status PrintResult(QueryResult& result, const PrintOptions& options, TextSink* sink) {
  const std::string& format = options.format;
  if (result.kind != QueryKind::kRows) {
    // Drain: a command's effect is already done; nothing to show.
    while (true) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, result.reader->Next());
      if (!batch) return Status::OK();
    }
  }
  if ((format == "table" || format == "duckbox" || format == "box") &&
      result.schema->num_fields() == 2 &&
      result.schema->field(0).name == "explain_key" &&
      result.schema->field(1).name == "explain_value") {
    // A plan reads best as plain indented lines.
    while (true) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, result.reader->Next());
      if (!batch) return Status::OK();
      for (int64_t row = 0; row < batch->num_rows; ++row) {
        TARN_RETURN_NOT_OK(sink->Append(ValueText(batch->column(1), row) + "\n"));
      }
    }
  }
  if (format == "csv") return WriteCsv(result.reader.get(), sink);
  if (format == "json") return WriteJsonLines(result.reader.get(), sink);
  TableRenderOptions render;
  render.max_rows = options.max_rows;
  render.max_width = options.max_width;
  if (format == "box") render.mode = TableMode::kPlainBox;
  if (format == "markdown") render.mode = TableMode::kMarkdown;
  if (format == "line") render.mode = TableMode::kLine;
  TableRenderer renderer(result.schema, render);
  while (true) {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, result.reader->Next());
    if (!batch) break;
    renderer.Add(*batch);
  }
  return sink->Append(renderer.Finish());
}

}  // namespace tarn::cli
