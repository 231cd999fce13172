// Rendering gnuplot scripts to PNG and SVG.
#include "figure.hpp"

#include <gnuplot-iostream.h>

#include <stdexcept>

#include "sweep/cli.hpp"
#include "sweep/safe_files.hpp"
#include "sweep/text.hpp"

namespace dlb::plots {

std::string gp_quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    // gnuplot runs `...` as a shell command even inside a string: a backquote in a label
    // (a configuration's `--shape uniform`) becomes a plain quote.
    if (c == '`') {
      out += '\'';
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string gp_plain(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '_' || c == '^' || c == '{' || c == '}' || c == '@' || c == '&') out += '\\';
    out += c;
  }
  return out;
}

std::vector<std::string> parse_formats(std::string_view list) {
  std::vector<std::string> out;
  for (const auto& f : sweep::split_on(list, ',')) {
    if (f != "png" && f != "svg") {
      throw std::invalid_argument("unknown format '" + f + "' (known: png, svg)");
    }
    out.push_back(f);
  }
  return out;
}

std::vector<std::filesystem::path> render(const figure& fig, const std::filesystem::path& out_dir,
                                          const std::vector<std::string>& formats) {
  std::filesystem::create_directories(out_dir);
  std::vector<std::filesystem::path> files, temporaries;
  {
    // One gnuplot for all formats; its destructor closes the pipe and waits for gnuplot.
    Gnuplot gp("gnuplot");
    const std::string size = std::to_string(fig.width) + "," + std::to_string(fig.height);
    for (const auto& f : formats) {
      const auto path = out_dir / (fig.name + "." + f);
      // Written to a temporary file beside it, renamed into place once gnuplot is done
      // (sweep::commit_output): a stale or half-drawn file never passes for a new one.
      const auto tmp = sweep::temporary_output(path);
      files.push_back(path);
      temporaries.push_back(tmp);
      gp << "reset session\n";
      if (f == "png") {
        gp << "set terminal pngcairo size " << size << " enhanced font 'Sans,11'\n";
      } else {
        gp << "set terminal svg size " << size
           << " dynamic enhanced font 'Sans,11' background rgb 'white'\n";
      }
      gp << "set output " << gp_quote(tmp.string()) << "\n" << fig.script << "\nunset output\n";
    }
    gp << "exit\n";
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    std::error_code ec;
    if (!std::filesystem::exists(temporaries[i], ec) ||
        std::filesystem::file_size(temporaries[i], ec) == 0) {
      for (const auto& t : temporaries) std::filesystem::remove(t, ec);
      throw std::runtime_error("gnuplot did not write " + files[i].string() +
                               " (see gnuplot's messages above; is gnuplot installed?)");
    }
  }
  for (std::size_t i = 0; i < files.size(); ++i) sweep::commit_output(temporaries[i], files[i]);
  return files;
}

std::vector<std::string> formats_option(const sweep::cli_args& args) {
  try {
    return parse_formats(args.value("formats").value_or("png,svg"));
  } catch (const std::invalid_argument& e) {
    args.usage_error(e.what());
  }
}

}  // namespace dlb::plots
