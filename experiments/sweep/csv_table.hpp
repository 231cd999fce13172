// CSV tables with '#' metadata lines: the on-disk format of results and summary files.
//
// A file is: any number of '#' lines (metadata, "# key: value" by convention; they may also
// appear between rows, e.g. a "# resumed:" line), one header row naming the columns, then one
// row per record. Fields containing a comma or a double quote are quoted as in RFC 4180;
// newlines never occur inside a field (they are replaced by spaces when formatting), so one
// line is one record and a crash can only leave the last line incomplete.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlb::sweep {

struct csv_table {
  std::vector<std::string> comments;  // '#' lines, without "#" and one following space
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  // every row has columns.size() fields
  // The 1-based line of each row in the text it was parsed from (for file:line:column errors;
  // rows added later have none).
  std::vector<std::size_t> row_lines;

  // Index of a column, or nullopt.
  std::optional<std::size_t> column(std::string_view name) const;
  // The field of `row` in column `name`; empty when the column is absent.
  std::string_view field(const std::vector<std::string>& row, std::string_view name) const;
  // The value of the first "# key: value" comment with that key, or nullopt.
  std::optional<std::string> meta(std::string_view key) const;
  // Every "# key: value" comment with that key, in file order.
  std::vector<std::string> meta_all(std::string_view key) const;
};

// What reading found besides the table.
struct csv_read_info {
  // The text ended without a newline: its last line (a record cut short by a crash) was dropped.
  bool dropped_partial_line = false;
  // Bytes of the text up to and including the last complete line: where an appender resumes.
  std::size_t complete_length = 0;
};

class csv_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace dlb::sweep

// read_input, write_atomically and the output-over-input checks (after csv_error: input_error is
// one).
#include "sweep/safe_files.hpp"

namespace dlb::sweep {

// Splits one line into fields. Throws csv_error on a malformed quoted field.
std::vector<std::string> split_csv_line(std::string_view line);
// Quotes a field if needed; newlines become spaces.
std::string csv_field(std::string_view field);
// One formatted line, with its trailing newline.
std::string csv_line(const std::vector<std::string>& fields);

// Parses a whole file's text. `source` names it in error messages. A row whose field count
// differs from the header's is an error (csv_error naming source and line), except a cut-short
// last line, which is dropped and reported in `info`.
csv_table parse_csv_table(std::string_view text, std::string_view source,
                          csv_read_info* info = nullptr);
// Reads and parses a file. Throws csv_error naming the file if it cannot be read.
csv_table read_csv_table(const std::filesystem::path& path, csv_read_info* info = nullptr);
// The whole table as text: comments, header, rows.
std::string format_csv_table(const csv_table& table);

// Appends text to a file and forces it to disk before returning (open O_APPEND, write, fsync),
// so a finished run is never lost by a later crash. Throws std::runtime_error on failure.
void append_durably(const std::filesystem::path& path, std::string_view text);
// Reads a whole input file (read_input: a regular text file of at most kTableLimit bytes);
// throws csv_error naming it on failure.
std::string read_file(const std::filesystem::path& path);

}  // namespace dlb::sweep
