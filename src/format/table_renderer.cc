// TableRenderer: query results for a terminal, in the manner of DuckDB's shell.
#include <algorithm>
#include <cctype>
#include <deque>

#include "tarn/format.h"

namespace tarn {
namespace {

// Terminal columns taken by UTF-8 text: one per code point (wide characters are not
// distinguished).
int DisplayWidth(std::string_view text) {
  int width = 0;
  for (char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++width;
  }
  return width;
}

// Cuts `text` to at most `max_width` display columns, ending in "…" when cut.
std::string Truncate(std::string text, int max_width) {
  if (DisplayWidth(text) <= max_width) return text;
  int width = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t next = pos + 1;
    while (next < text.size() && (static_cast<unsigned char>(text[next]) & 0xC0) == 0x80) ++next;
    if (width + 1 > max_width - 1) break;
    ++width;
    pos = next;
  }
  text.resize(pos);
  return text + "…";
}

// Control characters would break the layout; show them escaped.
std::string Printable(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

bool RightAligned(const DataType& type) { return type.IsNumeric(); }

std::string Repeat(std::string_view piece, int count) {
  std::string out;
  for (int i = 0; i < count; ++i) out.append(piece);
  return out;
}

std::string Pad(const std::string& text, int width, bool right) {
  const int gap = std::max(0, width - DisplayWidth(text));
  return right ? std::string(static_cast<size_t>(gap), ' ') + text
               : text + std::string(static_cast<size_t>(gap), ' ');
}

std::string Center(const std::string& text, int width) {
  const int gap = std::max(0, width - DisplayWidth(text));
  return std::string(static_cast<size_t>(gap / 2), ' ') + text +
         std::string(static_cast<size_t>(gap - gap / 2), ' ');
}

}  // namespace

std::string ShellTypeName(const DataType& type) {
  switch (type.id) {
    case TypeId::kInt8: return "int8";
    case TypeId::kInt16: return "int16";
    case TypeId::kInt32: return "int32";
    case TypeId::kInt64: return "int64";
    case TypeId::kInt128: return "int128";
    case TypeId::kUInt8: return "uint8";
    case TypeId::kUInt16: return "uint16";
    case TypeId::kUInt32: return "uint32";
    case TypeId::kUInt64: return "uint64";
    case TypeId::kUInt128: return "uint128";
    default: break;
  }
  std::string name = type.ToString();
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

struct TableRenderer::Impl {
  std::shared_ptr<const Schema> schema;
  TableRenderOptions options;
  int64_t total_rows = 0;
  std::vector<std::vector<std::string>> head;  // the first rows
  std::deque<std::vector<std::string>> tail;   // the last rows (box mode only)

  bool KeepsAll() const { return options.mode != TableMode::kBox; }
  int64_t HeadLimit() const {
    return KeepsAll() ? INT64_MAX : std::max<int64_t>(1, (options.max_rows + 1) / 2);
  }
  int64_t TailLimit() const { return std::max<int64_t>(0, options.max_rows / 2); }

  std::vector<std::string> FormatRow(const Batch& batch, int64_t row) const {
    std::vector<std::string> cells;
    for (int column_idx = 0; column_idx < batch.num_columns(); ++column_idx) {
      const Column& column = batch.column(column_idx);
      if (column.IsNull(row)) {
        cells.push_back(options.null_text);
      } else if (options.mode == TableMode::kBox) {
        cells.push_back(Truncate(Printable(ValueText(column, row)), options.max_cell_width));
      } else if (options.mode == TableMode::kPlainBox) {
        cells.push_back(Printable(ValueText(column, row)));
      } else {
        cells.push_back(ValueText(column, row));
      }
    }
    return cells;
  }

  void Add(const Batch& batch) {
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      if (static_cast<int64_t>(head.size()) < HeadLimit()) {
        head.push_back(FormatRow(batch, row));
      } else if (batch.num_rows - row <= TailLimit()) {
        tail.push_back(FormatRow(batch, row));
        if (static_cast<int64_t>(tail.size()) > TailLimit()) tail.pop_front();
      } else {
        // Too early in this batch to be among the last rows: only counted.
        tail.clear();
        const int64_t skip = batch.num_rows - row - TailLimit();
        total_rows += skip;
        row += skip - 1;
        continue;
      }
      ++total_rows;
    }
  }

  std::string RenderBox();
  std::string RenderMarkdown();
  std::string RenderLine();
};

std::string TableRenderer::Impl::RenderBox() {
  const int num_columns = schema->num_fields();
  // kPlainBox: names only, every column, no footer.
  const bool plain = options.mode == TableMode::kPlainBox;
  const bool show_types = options.show_types && !plain;
  std::vector<std::vector<std::string>> rows(head.begin(), head.end());
  const bool rows_elided = total_rows > static_cast<int64_t>(head.size() + tail.size());
  const size_t gap_at = rows.size();
  rows.insert(rows.end(), tail.begin(), tail.end());

  std::vector<int> widths(static_cast<size_t>(num_columns), 0);
  std::vector<std::string> types(static_cast<size_t>(num_columns));
  for (int c = 0; c < num_columns; ++c) {
    types[c] = ShellTypeName(schema->field(c).type);
    widths[c] = std::max(DisplayWidth(schema->field(c).name),
                         show_types ? DisplayWidth(types[c]) : 0);
    for (const auto& row : rows) widths[c] = std::max(widths[c], DisplayWidth(row[c]));
    widths[c] = std::max(widths[c], 1);
  }

  // Choose the columns that fit: drop the middle ones, keeping a "…" column in their place.
  std::vector<int> shown;
  for (int c = 0; c < num_columns; ++c) shown.push_back(c);
  auto total_width = [&](const std::vector<int>& columns, bool elided) {
    int width = 1;
    for (int c : columns) width += widths[c] + 3;
    return width + (elided ? 4 : 0);
  };
  bool columns_elided = false;
  while (!plain && shown.size() > 1 && total_width(shown, columns_elided) > options.max_width) {
    shown.erase(shown.begin() + static_cast<long>(shown.size() / 2));
    columns_elided = true;
  }
  const int elided_at = columns_elided ? static_cast<int>((shown.size() + 1) / 2) : -1;

  // The footer spans the whole width: "<n> rows", what is shown, and elided columns.
  std::string footer = StrCat(total_rows, total_rows == 1 ? " row" : " rows");
  if (rows_elided) footer += StrCat(" (", rows.size(), " shown)");
  if (columns_elided) footer += StrCat("  ", num_columns, " columns (", shown.size(), " shown)");
  const int inner = total_width(shown, columns_elided) - 2;
  // Widen the last column when the footer is wider than the columns.
  if (!plain && !shown.empty() && DisplayWidth(footer) + 2 > inner) {
    widths[shown.back()] += DisplayWidth(footer) + 2 - inner;
  }
  const int footer_width = total_width(shown, columns_elided) - 2;

  // The cells of one line, with the "…" column inserted.
  struct Cell {
    std::string text;
    int width;
    int align;  // 0 left, 1 right, 2 center
  };
  auto line = [&](const std::vector<Cell>& cells, std::string_view left, std::string_view mid,
                  std::string_view right) {
    std::string out(left);
    for (size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) out.append(mid);
      const Cell& cell = cells[i];
      std::string body = cell.align == 2 ? Center(cell.text, cell.width)
                                         : Pad(cell.text, cell.width, cell.align == 1);
      out += " " + body + " ";
    }
    out.append(right);
    out.push_back('\n');
    return out;
  };
  auto rule = [&](std::string_view left, std::string_view mid, std::string_view right) {
    std::vector<int> ws;
    for (size_t i = 0; i < shown.size(); ++i) {
      if (static_cast<int>(i) == elided_at) ws.push_back(1);
      ws.push_back(widths[shown[i]]);
    }
    std::string out(left);
    for (size_t i = 0; i < ws.size(); ++i) {
      if (i > 0) out.append(mid);
      out += Repeat("─", ws[i] + 2);
    }
    out.append(right);
    out.push_back('\n');
    return out;
  };
  auto cells_of = [&](auto text_of, auto align_of) {
    std::vector<Cell> cells;
    for (size_t i = 0; i < shown.size(); ++i) {
      if (static_cast<int>(i) == elided_at) cells.push_back({"…", 1, 2});
      cells.push_back({text_of(shown[i]), widths[shown[i]], align_of(shown[i])});
    }
    return cells;
  };

  std::string out = rule("┌", "┬", "┐");
  out += line(cells_of([&](int c) { return schema->field(c).name; }, [](int) { return 2; }), "│",
              "│", "│");
  if (show_types) {
    out += line(cells_of([&](int c) { return types[c]; }, [](int) { return 2; }), "│", "│", "│");
  }
  out += rule("├", "┼", "┤");
  auto align = [&](int c) { return RightAligned(schema->field(c).type) ? 1 : 0; };
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows_elided && r == gap_at) {
      for (int dot = 0; dot < 3; ++dot) {
        out += line(cells_of([](int) { return std::string("·"); }, [](int) { return 2; }), "│",
                    "│", "│");
      }
    }
    out += line(cells_of([&](int c) { return rows[r][c]; }, align), "│", "│", "│");
  }

  if (plain) return out + rule("└", "┴", "┘");
  out += rule("├", "┴", "┤");
  out += "│" + Center(footer, footer_width) + "│\n";
  out += "└" + Repeat("─", footer_width) + "┘\n";
  return out;
}

std::string TableRenderer::Impl::RenderMarkdown() {
  const int num_columns = schema->num_fields();
  auto escape = [](const std::string& text) {
    std::string out;
    for (char c : Printable(text)) {
      if (c == '|') out.push_back('\\');
      out.push_back(c);
    }
    return out;
  };
  std::vector<std::vector<std::string>> rows;
  for (const auto& row : head) {
    std::vector<std::string> cells;
    for (const std::string& cell : row) cells.push_back(escape(cell));
    rows.push_back(std::move(cells));
  }
  std::vector<int> widths(static_cast<size_t>(num_columns), 3);
  for (int c = 0; c < num_columns; ++c) {
    widths[c] = std::max(widths[c], DisplayWidth(escape(schema->field(c).name)));
    for (const auto& row : rows) widths[c] = std::max(widths[c], DisplayWidth(row[c]));
  }
  std::string out = "|";
  for (int c = 0; c < num_columns; ++c) out += " " + Pad(escape(schema->field(c).name), widths[c], false) + " |";
  out += "\n|";
  for (int c = 0; c < num_columns; ++c) {
    const bool right = RightAligned(schema->field(c).type);
    out += Repeat("-", widths[c] + (right ? 1 : 2)) + (right ? ":" : "") + "|";
  }
  out += "\n";
  for (const auto& row : rows) {
    out += "|";
    for (int c = 0; c < num_columns; ++c) {
      out += " " + Pad(row[c], widths[c], RightAligned(schema->field(c).type)) + " |";
    }
    out += "\n";
  }
  return out;
}

std::string TableRenderer::Impl::RenderLine() {
  int name_width = 0;
  for (const Field& field : schema->fields) name_width = std::max(name_width, DisplayWidth(field.name));
  std::string out;
  for (size_t r = 0; r < head.size(); ++r) {
    if (r > 0) out += "\n";
    for (int c = 0; c < schema->num_fields(); ++c) {
      out += Pad(schema->field(c).name, name_width, true) + " = " + head[r][c] + "\n";
    }
  }
  return out;
}

TableRenderer::TableRenderer(std::shared_ptr<const Schema> schema, TableRenderOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->schema = std::move(schema);
  impl_->options = std::move(options);
}

TableRenderer::~TableRenderer() = default;

void TableRenderer::Add(const Batch& batch) { impl_->Add(batch); }

std::string TableRenderer::Finish() {
  switch (impl_->options.mode) {
    case TableMode::kBox: case TableMode::kPlainBox: return impl_->RenderBox();
    case TableMode::kMarkdown: return impl_->RenderMarkdown();
    case TableMode::kLine: return impl_->RenderLine();
  }
  return "";
}

std::string RenderTable(const Schema& schema, const std::vector<std::shared_ptr<Batch>>& batches,
                        const TableRenderOptions& options) {
  TableRenderer renderer(std::make_shared<const Schema>(schema), options);
  for (const auto& batch : batches) renderer.Add(*batch);
  return renderer.Finish();
}

}  // namespace tarn
