// The interactive shell: what `tarn [LAKE]` runs when standard input is a terminal.
//
// Lines are read with libedit (emacs bindings, history in ~/.tarn_history, ^R searches the
// history, Tab completes). A statement may span lines: the continuation prompt shows until a
// line ends the statement with ';'. A line starting with '.' at the primary prompt is a dot
// command (.help lists them). Ctrl-C interrupts the running statement (Session::Interrupt);
// at the prompt it clears the line, and a second one on an empty line exits, as does Ctrl-D.
#include <histedit.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "completion.h"
#include "progress.h"
#include "shell.h"
#include "tarn/io.h"

namespace tarn::cli {
namespace {

// What the SIGINT handler reaches: the session whose statement to interrupt, and how many
// interrupts arrived since the shell last looked.
std::atomic<Session*> g_session{nullptr};
volatile sig_atomic_t g_interrupted = 0;

void OnInterrupt(int) {
  g_interrupted = 1;
  Session* session = g_session.load(std::memory_order_relaxed);
  if (session != nullptr) session->Interrupt();
}

const char* g_prompt = "tarn> ";
char* Prompt(EditLine*) { return const_cast<char*>(g_prompt); }

bool IsBlank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// True when `text` ends a statement: its last token outside strings, quoted names and
// comments is ';'.
bool EndsStatement(std::string_view text) {
  char last = 0;
  size_t at = 0;
  while (at < text.size()) {
    const char c = text[at];
    if (c == '\'' || c == '"') {
      const size_t close = text.find(c, at + 1);
      if (close == std::string_view::npos) return false;
      at = close + 1;
      last = c;
    } else if (c == '-' && at + 1 < text.size() && text[at + 1] == '-') {
      const size_t end = text.find('\n', at);
      if (end == std::string_view::npos) break;
      at = end + 1;
    } else if (c == '/' && at + 1 < text.size() && text[at + 1] == '*') {
      const size_t end = text.find("*/", at + 2);
      if (end == std::string_view::npos) return false;
      at = end + 2;
    } else {
      if (!std::isspace(static_cast<unsigned char>(c))) last = c;
      ++at;
    }
  }
  return last == ';';
}

int TerminalWidth(std::FILE* file) {
  struct winsize size {};
  if (isatty(fileno(file)) && ioctl(fileno(file), TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    return size.ws_col;
  }
  return 120;
}

// Lines of the terminal `file` is, or 0 when it is none.
int TerminalRows(std::FILE* file) {
  struct winsize size {};
  if (isatty(fileno(file)) && ioctl(fileno(file), TIOCGWINSZ, &size) == 0) return size.ws_row;
  return 0;
}

// `text` on standard output, through $PAGER (default `less -SRFX`) when it has more lines
// than the terminal. A pager that quits before reading everything ends the output there.
void ShowPaged(const std::string& text) {
  const int rows = TerminalRows(stdout);
  const auto lines = std::count(text.begin(), text.end(), '\n');
  const char* pager = std::getenv("PAGER");
  const std::string command = pager != nullptr && *pager != '\0' ? pager : "less -SRFX";
  if (rows <= 0 || lines < rows - 1) {
    std::fputs(text.c_str(), stdout);
    return;
  }
  std::fflush(stdout);
  struct sigaction ignore {};
  struct sigaction previous {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &previous);
  std::FILE* pipe = popen(command.c_str(), "w");
  if (pipe == nullptr) {
    std::fputs(text.c_str(), stdout);
  } else {
    std::fwrite(text.data(), 1, text.size(), pipe);
    pclose(pipe);
  }
  sigaction(SIGPIPE, &previous, nullptr);
}

double Seconds(const struct timeval& time) {
  return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_usec) / 1e6;
}

class Shell {
 public:
  Shell(std::unique_ptr<Session> session, InteractiveOptions options)
      : session_(std::move(session)), options_(std::move(options)) {
    color_ = isatty(STDERR_FILENO) && std::getenv("NO_COLOR") == nullptr;
  }
  ~Shell() { CloseOutput(); }

  int Run();

 private:
  // ---- statements
  void RunSql(const std::string& sql);
  void ShowError(const std::string& message);

  // ---- dot commands; false ends the shell
  bool RunDotCommand(const std::string& line);
  void ListTables(const std::string& pattern);
  void ShowSchema(const std::string& table);
  void OpenLake(const std::vector<std::string>& words);
  void CloseOutput();
  // The first column of a query's rows as text; empty on error.
  std::vector<std::string> QueryStrings(const std::string& sql);

  // ---- line editing
  bool OpenEditor();
  void CloseEditor();
  void AddHistory(std::string entry);
  static unsigned char CompleteKey(EditLine* editor, int key);
  const CompletionNames& Names();

  std::unique_ptr<Session> session_;
  InteractiveOptions options_;
  bool color_ = false;
  bool timer_ = false;
  bool pager_ = false;  // .pager on: results taller than the terminal go through $PAGER
  std::FILE* out_ = stdout;  // .output
  std::string out_path_;

  EditLine* editor_ = nullptr;
  History* history_ = nullptr;
  std::string history_path_;  // empty: no HOME, history not kept

  CompletionNames names_;
  bool names_stale_ = true;  // a statement ran since names_ were read
};

// ---- statements -----------------------------------------------------------------------------

void Shell::ShowError(const std::string& message) {
  std::fflush(out_);
  if (!color_) {
    std::fprintf(stderr, "Error: %s\n", message.c_str());
    return;
  }
  // The message's caret line (spaces and a '^', under the statement's excerpt) in red too.
  std::string text = "\033[1;31mError:\033[0m ";
  size_t start = 0;
  while (start <= message.size()) {
    size_t end = message.find('\n', start);
    if (end == std::string::npos) end = message.size();
    std::string line = message.substr(start, end - start);
    const size_t caret = line.find('^');
    if (start > 0 && caret != std::string::npos &&
        line.find_first_not_of(" \t^") == std::string::npos) {
      text += line.substr(0, caret) + "\033[1;31m" + line.substr(caret) + "\033[0m";
    } else {
      text += line;
    }
    text += '\n';
    start = end + 1;
  }
  std::fputs(text.c_str(), stderr);
}

void Shell::RunSql(const std::string& sql) {
  names_stale_ = true;
  PrintOptions print = options_.print;
  print.max_width = TerminalWidth(out_);
  FileSink file_sink(out_);
  // With .pager on, each result is rendered whole, then shown through the pager if it is
  // taller than the terminal.
  const bool paging = pager_ && out_ == stdout && isatty(fileno(stdout));
  std::string paged;
  StringSink paged_sink(&paged);
  // The bar goes to standard error, and only to a terminal.
  std::unique_ptr<ProgressBar> bar;
  if (isatty(STDERR_FILENO)) {
    bar = std::make_unique<ProgressBar>(session_.get(), stderr, TerminalWidth(stderr));
  }
  StopBarSink sink(bar.get(), paging ? static_cast<TextSink*>(&paged_sink) : &file_sink);
  auto wall_start = std::chrono::steady_clock::now();
  struct rusage usage_start {};
  getrusage(RUSAGE_SELF, &usage_start);
  g_interrupted = 0;
  g_session.store(session_.get());
  Status status = session_->ExecuteScript(sql, [&](QueryResult& result) {
    TARN_RETURN_NOT_OK(PrintResult(result, print, &sink));
    if (paging && !paged.empty()) {
      ShowPaged(paged);
      paged.clear();
    }
    if (timer_) {
      const auto wall_end = std::chrono::steady_clock::now();
      struct rusage usage_end {};
      getrusage(RUSAGE_SELF, &usage_end);
      std::fprintf(out_, "Run Time (s): real %.3f user %.3f sys %.3f\n",
                   std::chrono::duration<double>(wall_end - wall_start).count(),
                   Seconds(usage_end.ru_utime) - Seconds(usage_start.ru_utime),
                   Seconds(usage_end.ru_stime) - Seconds(usage_start.ru_stime));
      wall_start = wall_end;
      usage_start = usage_end;
    }
    return Status::OK();
  });
  g_session.store(nullptr);
  if (bar) bar->Stop();
  std::fflush(out_);
  if (!status.ok()) ShowError(g_interrupted ? "Interrupted" : status.message());
}

std::vector<std::string> Shell::QueryStrings(const std::string& sql) {
  std::vector<std::string> strings;
  auto result = session_->Execute(sql);
  if (!result.ok()) return strings;
  auto all = ReadAllBatches(result->reader.get());
  if (!all.ok() || (*all)->num_columns() == 0) return strings;
  for (int64_t row = 0; row < (*all)->num_rows; ++row) {
    strings.push_back(ValueText((*all)->column(0), row));
  }
  return strings;
}

// ---- dot commands ---------------------------------------------------------------------------

std::string Quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    quoted += c;
    if (c == '\'') quoted += '\'';
  }
  return quoted + "'";
}

void Shell::ListTables(const std::string& pattern) {
  std::string filter = pattern.empty() ? "" : " AND name LIKE " + Quote(pattern);
  std::vector<std::string> names = QueryStrings(
      "SELECT DISTINCT name FROM (SELECT table_name AS name, internal FROM duckdb_tables() "
      "UNION ALL SELECT view_name, internal FROM duckdb_views()) WHERE NOT internal" +
      filter + " ORDER BY name");
  if (names.empty()) return;
  size_t widest = 0;
  for (const std::string& name : names) widest = std::max(widest, name.size());
  const size_t column_width = widest + 2;
  const size_t per_line =
      std::max<size_t>(1, static_cast<size_t>(TerminalWidth(out_)) / column_width);
  const size_t lines = (names.size() + per_line - 1) / per_line;
  for (size_t line = 0; line < lines; ++line) {
    std::string text;
    for (size_t index = line; index < names.size(); index += lines) {
      std::string cell = names[index];
      if (index + lines < names.size()) cell.resize(column_width, ' ');
      text += cell;
    }
    std::fprintf(out_, "%s\n", text.c_str());
  }
}

void Shell::ShowSchema(const std::string& table) {
  std::string filter = table.empty() ? "" : " AND name ILIKE " + Quote(table);
  std::vector<std::string> statements = QueryStrings(
      "SELECT sql FROM (SELECT table_name AS name, sql, internal FROM duckdb_tables() "
      "UNION ALL SELECT view_name, sql, internal FROM duckdb_views()) WHERE NOT internal" +
      filter + " ORDER BY name");
  for (std::string& statement : statements) {
    if (!statement.empty() && statement.back() != ';') statement += ';';
    std::fprintf(out_, "%s\n", statement.c_str());
  }
}

void Shell::OpenLake(const std::vector<std::string>& words) {
  if (words.size() < 2 || words.size() > 3) {
    ShowError("Usage: .open LAKE [DATA_PATH]");
    return;
  }
  auto session = std::make_unique<Session>();
  AttachOptions attach;
  if (words.size() == 3) {
    std::error_code error;
    std::filesystem::path absolute = std::filesystem::absolute(words[2], error);
    attach.data_path = error ? words[2] : absolute.lexically_normal().string();
  }
  attach.create_if_missing = true;
  Status attached = session->Attach(words[1], attach);
  if (!attached.ok()) {
    ShowError("cannot attach the lake \"" + words[1] + "\": " + attached.message());
    return;
  }
  session_ = std::move(session);
  names_stale_ = true;
}

void Shell::CloseOutput() {
  if (out_ != stdout) std::fclose(out_);
  out_ = stdout;
  out_path_.clear();
}

bool Shell::RunDotCommand(const std::string& line) {
  std::vector<std::string> words;
  size_t at = 0;
  while (at < line.size()) {
    at = line.find_first_not_of(" \t", at);
    if (at == std::string::npos) break;
    std::string word;
    if (line[at] == '"' || line[at] == '\'') {
      const size_t close = line.find(line[at], at + 1);
      word = line.substr(at + 1, close == std::string::npos ? std::string::npos : close - at - 1);
      at = close == std::string::npos ? line.size() : close + 1;
    } else {
      const size_t end = std::min(line.find_first_of(" \t", at), line.size());
      word = line.substr(at, end - at);
      at = end;
    }
    words.push_back(std::move(word));
  }
  const std::string& command = words[0];
  const std::string argument = words.size() > 1 ? words[1] : "";
  if (command == ".quit" || command == ".exit" || command == ".q") return false;
  if (command == ".help") {
    for (const DotCommandHelp& help : DotCommands()) {
      std::string usage = std::string(help.name) + " " + help.arguments;
      std::fprintf(out_, "%-24s %s\n", usage.c_str(), help.description);
    }
    std::fprintf(out_,
                 "\nEnd SQL statements with ';'. Ctrl-C interrupts a statement; Ctrl-D exits.\n");
  } else if (command == ".tables") {
    ListTables(argument);
  } else if (command == ".schema") {
    ShowSchema(argument);
  } else if (command == ".read") {
    if (argument.empty()) {
      ShowError("Usage: .read FILE");
    } else {
      auto text = LocalFileSystem()->ReadFile(argument);
      if (!text.ok()) {
        ShowError(text.status().message());
      } else {
        RunSql(*text);
      }
    }
  } else if (command == ".mode") {
    if (!IsKnownFormat(argument)) {
      ShowError("Usage: .mode table|box|csv|json|markdown|line");
    } else {
      options_.print.format = argument;
    }
  } else if (command == ".timer") {
    if (argument != "on" && argument != "off") {
      ShowError("Usage: .timer on|off");
    } else {
      timer_ = argument == "on";
    }
  } else if (command == ".pager") {
    if (argument != "on" && argument != "off") {
      ShowError("Usage: .pager on|off");
    } else {
      pager_ = argument == "on";
    }
  } else if (command == ".maxrows") {
    char* end = nullptr;
    const long long rows = std::strtoll(argument.c_str(), &end, 10);
    if (argument.empty() || *end != '\0' || rows < 1) {
      ShowError("Usage: .maxrows N (N >= 1)");
    } else {
      options_.print.max_rows = rows;
    }
  } else if (command == ".output") {
    CloseOutput();
    if (!argument.empty()) {
      std::FILE* file = std::fopen(argument.c_str(), "w");
      if (file == nullptr) {
        ShowError("cannot open \"" + argument + "\" for writing: " + std::strerror(errno));
      } else {
        out_ = file;
        out_path_ = argument;
      }
    }
  } else if (command == ".open") {
    OpenLake(words);
  } else {
    ShowError("unknown command \"" + command + "\"; .help lists the commands");
  }
  std::fflush(out_);
  return true;
}

// ---- line editing ---------------------------------------------------------------------------

const CompletionNames& Shell::Names() {
  if (names_stale_) {
    names_.lakes = QueryStrings(
        "SELECT database_name FROM duckdb_databases() WHERE NOT internal ORDER BY 1");
    names_.schemas = QueryStrings(
        "SELECT DISTINCT schema_name FROM duckdb_schemas() WHERE NOT internal ORDER BY 1");
    names_.tables = QueryStrings(
        "SELECT DISTINCT name FROM (SELECT table_name AS name, internal FROM duckdb_tables() "
        "UNION ALL SELECT view_name, internal FROM duckdb_views()) WHERE NOT internal "
        "ORDER BY 1");
    names_.columns = QueryStrings(
        "SELECT DISTINCT column_name FROM duckdb_columns() WHERE NOT internal ORDER BY 1");
    names_stale_ = false;
  }
  return names_;
}

unsigned char Shell::CompleteKey(EditLine* editor, int) {
  Shell* shell = nullptr;
  el_get(editor, EL_CLIENTDATA, &shell);
  const LineInfo* line = el_line(editor);
  const std::string before(line->buffer, static_cast<size_t>(line->cursor - line->buffer));
  Completion completion = Complete(before, shell->Names());
  const std::vector<std::string>& matches = completion.matches;
  if (matches.empty()) return CC_REFRESH_BEEP;
  const std::string word = before.substr(completion.word_start);
  std::string replacement = CommonPrefix(matches);
  if (matches.size() == 1 && replacement.back() != '/' && before.find('\'') == std::string::npos) {
    replacement += ' ';
  }
  if (replacement.size() > word.size() ||
      (replacement.size() == word.size() && replacement != word)) {
    el_deletestr(editor, static_cast<int>(word.size()));
    el_insertstr(editor, replacement.c_str());
    return CC_REFRESH;
  }
  // Nothing to add: list what the word may become.
  std::FILE* out = stdout;
  std::fputc('\n', out);
  size_t widest = 0;
  for (const std::string& match : matches) widest = std::max(widest, match.size());
  const size_t per_line =
      std::max<size_t>(1, static_cast<size_t>(TerminalWidth(out)) / (widest + 2));
  for (size_t index = 0; index < matches.size(); ++index) {
    std::string cell = matches[index];
    const bool line_end = (index + 1) % per_line == 0 || index + 1 == matches.size();
    if (!line_end) cell.resize(widest + 2, ' ');
    std::fprintf(out, "%s%s", cell.c_str(), line_end ? "\n" : "");
  }
  std::fflush(out);
  return CC_REDISPLAY;
}

bool Shell::OpenEditor() {
  // Prompts and edits go to the terminal: standard output, unless that is redirected.
  std::FILE* terminal = isatty(STDOUT_FILENO) ? stdout : stderr;
  editor_ = el_init("tarn", stdin, terminal, stderr);
  if (editor_ == nullptr) return false;
  history_ = history_init();
  HistEvent event;
  history(history_, &event, H_SETSIZE, 2000);
  history(history_, &event, H_SETUNIQUE, 1);
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0') {
    history_path_ = std::string(home) + "/.tarn_history";
    history(history_, &event, H_LOAD, history_path_.c_str());
  }
  el_set(editor_, EL_EDITOR, "emacs");
  el_set(editor_, EL_SIGNAL, 0);
  el_set(editor_, EL_PROMPT, &Prompt);
  el_set(editor_, EL_HIST, history, history_);
  el_set(editor_, EL_CLIENTDATA, this);
  // The wide call: the narrow one copies the name and help text and never frees them.
  el_wset(editor_, EL_ADDFN, L"tarn-complete", L"Complete the word before the cursor",
          &Shell::CompleteKey);
  el_set(editor_, EL_BIND, "^I", "tarn-complete", static_cast<const char*>(nullptr));
  el_set(editor_, EL_BIND, "^R", "ed-search-prev-history",
         static_cast<const char*>(nullptr));
  return true;
}

void Shell::CloseEditor() {
  if (editor_ != nullptr) el_end(editor_);
  if (history_ != nullptr) history_end(history_);
  editor_ = nullptr;
  history_ = nullptr;
}

void Shell::AddHistory(std::string entry) {
  while (!entry.empty() && (entry.back() == '\n' || entry.back() == ' ')) entry.pop_back();
  if (entry.empty()) return;
  HistEvent event;
  history(history_, &event, H_ENTER, entry.c_str());
  // Saved at once, so that history survives a shell that is killed.
  if (!history_path_.empty()) history(history_, &event, H_SAVE, history_path_.c_str());
}

int Shell::Run() {
  std::setlocale(LC_CTYPE, "");
  if (!OpenEditor()) {
    std::fprintf(stderr, "Error: cannot set up line editing on this terminal\n");
    return 1;
  }
  struct sigaction action {};
  action.sa_handler = &OnInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: an interrupt ends the read at the prompt (EINTR)
  struct sigaction previous {};
  sigaction(SIGINT, &action, &previous);

  // The banner goes where the prompts go, not into redirected results.
  std::FILE* terminal = isatty(STDOUT_FILENO) ? stdout : stderr;
  std::fprintf(terminal, "tarn %s\nEnter \".help\" for usage hints.\n", TARN_VERSION);
  std::fflush(terminal);
  std::string buffer;  // the statement's lines so far
  bool interrupted_on_empty = false;
  while (true) {
    g_prompt = buffer.empty() ? "tarn> " : "  ...> ";
    g_interrupted = 0;
    int count = 0;
    const char* line = el_gets(editor_, &count);
    if (line == nullptr && count == -1 && g_interrupted) {
      // Ctrl-C at the prompt: clear what is typed; on an empty prompt the second one exits.
      const LineInfo* typed = el_line(editor_);
      const bool empty = typed->lastchar == typed->buffer && buffer.empty();
      el_reset(editor_);
      buffer.clear();
      std::fputc('\n', terminal);
      std::fflush(terminal);
      if (empty && interrupted_on_empty) break;
      interrupted_on_empty = empty;
      continue;
    }
    if (line == nullptr || count <= 0) {  // Ctrl-D, or the terminal went away
      std::fputc('\n', terminal);
      break;
    }
    interrupted_on_empty = false;
    std::string text(line, static_cast<size_t>(count));
    if (buffer.empty() && IsBlank(text)) continue;
    if (buffer.empty() && text[text.find_first_not_of(" \t")] == '.') {
      AddHistory(text);
      while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
      if (!RunDotCommand(text.substr(text.find_first_not_of(" \t")))) break;
      continue;
    }
    buffer += text;
    if (buffer.back() != '\n') buffer += '\n';
    if (!EndsStatement(buffer)) continue;
    AddHistory(buffer);
    RunSql(buffer);
    buffer.clear();
  }
  std::fflush(out_);
  sigaction(SIGINT, &previous, nullptr);
  CloseEditor();
  return 0;
}

}  // namespace

int RunInteractive(std::unique_ptr<Session> session, InteractiveOptions options) {
  Shell shell(std::move(session), std::move(options));
  return shell.Run();
}

}  // namespace tarn::cli
