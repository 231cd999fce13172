// CSV tables with '#' metadata: parsing, formatting and crash-safe writing.
#include "sweep/csv_table.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace dlb::sweep {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// "key: value" -> value if the key matches.
std::optional<std::string> meta_value(std::string_view comment, std::string_view key) {
  if (comment.size() <= key.size() || comment.substr(0, key.size()) != key ||
      comment[key.size()] != ':') {
    return std::nullopt;
  }
  return std::string(trim(comment.substr(key.size() + 1)));
}

void write_all(int fd, std::string_view text, const std::filesystem::path& path) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("cannot write " + path.string() + ": " + std::strerror(errno));
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace

std::optional<std::size_t> csv_table::column(std::string_view name) const {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == name) return i;
  }
  return std::nullopt;
}

std::string_view csv_table::field(const std::vector<std::string>& row,
                                  std::string_view name) const {
  const auto c = column(name);
  if (!c || *c >= row.size()) return {};
  return row[*c];
}

std::optional<std::string> csv_table::meta(std::string_view key) const {
  for (const auto& c : comments) {
    if (auto v = meta_value(c, key)) return v;
  }
  return std::nullopt;
}

std::vector<std::string> csv_table::meta_all(std::string_view key) const {
  std::vector<std::string> out;
  for (const auto& c : comments) {
    if (auto v = meta_value(c, key)) out.push_back(*v);
  }
  return out;
}

std::vector<std::string> split_csv_line(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::vector<std::string> fields;
  std::string cur;
  std::size_t i = 0;
  for (;;) {
    cur.clear();
    if (i < line.size() && line[i] == '"') {
      ++i;
      for (;;) {
        if (i >= line.size()) throw csv_error("unterminated quoted field");
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            cur += '"';
            i += 2;
          } else {
            ++i;
            break;
          }
        } else {
          cur += line[i++];
        }
      }
      if (i < line.size() && line[i] != ',') throw csv_error("text after a closing quote");
    } else {
      while (i < line.size() && line[i] != ',') cur += line[i++];
    }
    fields.push_back(cur);
    if (i >= line.size()) break;
    ++i;  // the comma
  }
  return fields;
}

std::string csv_field(std::string_view field) {
  std::string f(field);
  for (char& ch : f) {
    if (ch == '\n' || ch == '\r') ch = ' ';
  }
  if (f.find_first_of(",\"") == std::string::npos) return f;
  std::string q = "\"";
  for (char ch : f) {
    if (ch == '"') q += '"';
    q += ch;
  }
  q += '"';
  return q;
}

std::string csv_line(const std::vector<std::string>& fields) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ',';
    out += csv_field(fields[i]);
  }
  out += '\n';
  return out;
}

csv_table parse_csv_table(std::string_view text, std::string_view source, csv_read_info* info) {
  csv_table t;
  csv_read_info local;
  // A crash while appending leaves a last line without its newline: that record is incomplete.
  std::size_t complete = text.size();
  if (!text.empty() && text.back() != '\n') {
    const auto nl = text.rfind('\n');
    complete = nl == std::string_view::npos ? 0 : nl + 1;
    local.dropped_partial_line = true;
  }
  local.complete_length = complete;
  std::string_view body = text.substr(0, complete);
  bool have_header = false;
  std::size_t line_no = 0;
  while (!body.empty()) {
    const auto nl = body.find('\n');
    std::string_view line = body.substr(0, nl);
    body.remove_prefix(nl == std::string_view::npos ? body.size() : nl + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (trim(line).empty()) continue;
    if (line.front() == '#') {
      line.remove_prefix(1);
      if (!line.empty() && line.front() == ' ') line.remove_prefix(1);
      t.comments.emplace_back(line);
      continue;
    }
    std::vector<std::string> fields;
    try {
      fields = split_csv_line(line);
    } catch (const csv_error& e) {
      throw csv_error(std::string(source) + ":" + std::to_string(line_no) + ": " + e.what());
    }
    if (!have_header) {
      t.columns = std::move(fields);
      have_header = true;
      continue;
    }
    if (fields.size() != t.columns.size()) {
      throw csv_error(std::string(source) + ":" + std::to_string(line_no) + ": " +
                      std::to_string(fields.size()) + " fields, the header has " +
                      std::to_string(t.columns.size()));
    }
    t.rows.push_back(std::move(fields));
    t.row_lines.push_back(line_no);
  }
  if (info) *info = local;
  return t;
}

std::string read_file(const std::filesystem::path& path) { return read_input(path); }

csv_table read_csv_table(const std::filesystem::path& path, csv_read_info* info) {
  return parse_csv_table(read_file(path), path.string(), info);
}

std::string format_csv_table(const csv_table& table) {
  std::string out;
  for (const auto& c : table.comments) out += c.empty() ? "#\n" : "# " + c + "\n";
  if (!table.columns.empty()) out += csv_line(table.columns);
  for (const auto& r : table.rows) out += csv_line(r);
  return out;
}

namespace {
// Opens `path` with `flags`, writes all of `text` and syncs it to disk before returning.
void write_synced(const std::filesystem::path& path, std::string_view text, int flags) {
  const int fd = ::open(path.c_str(), flags | O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    throw std::runtime_error("cannot open " + path.string() + ": " + std::strerror(errno));
  try {
    write_all(fd, text, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!synced)
    throw std::runtime_error("cannot sync " + path.string() + ": " + std::strerror(errno));
}
}  // namespace

void append_durably(const std::filesystem::path& path, std::string_view text) {
  write_synced(path, text, O_APPEND);
}

}  // namespace dlb::sweep
