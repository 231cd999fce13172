// timeline_figure.cpp: drawing a run's time line (timeline.hpp) as one gnuplot figure.
#include <algorithm>
#include <cmath>

#include "sweep/text.hpp"
#include "timeline.hpp"

namespace dlb::plots {

namespace {

using sweep::format_number;

// A datablock; an empty one gets one point below the y range (gnuplot warns of an empty one).
std::string block(const std::string& name, const std::string& body, const std::string& nowhere) {
  return "$" + name + " << EOD\n" + (body.empty() ? nowhere : body) + "EOD\n";
}

// The lane of a rank: the master on top.
double lane(const run_trace& t, int rank) { return static_cast<double>(t.tasks - 1 - rank); }

// A box from x0 to x1 and y0 to y1, as boxxyerror's x y xlow xhigh ylow yhigh.
std::string box(double x0, double x1, double y0, double y1) {
  return format_number((x0 + x1) / 2) + " " + format_number((y0 + y1) / 2) + " " +
         format_number(x0) + " " + format_number(x1) + " " + format_number(y0) + " " +
         format_number(y1) + "\n";
}

// The datablocks of the bars ($compute, $sync, $idle) and of the load band ($load). A sync or
// idle bar is drawn at least `least` seconds wide (on top of the compute bars), so that the short
// synchronizations show.
std::string bar_data(const run_trace& t, int ml, double least) {
  const std::string nowhere = "-1 -1 -1 -1 -1 -1\n";
  std::string out;
  for (const std::string state : {"compute", "sync", "idle"}) {
    std::string body;
    const double w = state == "compute" ? 0.0 : least;
    for (const auto& [rank, v] : t.states)
      for (const auto& i : v)
        if (i.state == state)
          body +=
              box(i.start, std::max(i.end, i.start + w), lane(t, rank) - 0.1, lane(t, rank) + 0.3);
    out += block(state, body, nowhere);
  }
  std::string body;
  for (const auto& [rank, v] : t.load)
    for (const auto& l : v) {
      const double y = lane(t, rank) - 0.42;
      if (l.load > 0) body += box(l.start, l.end, y, y + 0.28 * l.load / ml);
    }
  return out + block("load", body, nowhere);
}

// The messages: $control and $data as vectors (x y 0 dy), $bytes as circles at the receiver
// (x y size).
std::string message_data(const run_trace& t) {
  std::uint64_t most = 1;
  for (const auto& m : t.messages)
    if (carries_data(m.type)) most = std::max(most, m.bytes);
  std::string control, data, bytes;
  for (const auto& m : t.messages) {
    const double y0 = lane(t, m.from) + 0.1, y1 = lane(t, m.to) + 0.1;
    const std::string v =
        format_number(m.time) + " " + format_number(y0) + " 0 " + format_number(y1 - y0) + "\n";
    if (!carries_data(m.type)) {
      control += v;
      continue;
    }
    data += v;
    const double size = 0.4 + 2.6 * std::sqrt(static_cast<double>(m.bytes) / most);
    if (m.bytes > 0)
      bytes += format_number(m.time) + " " + format_number(y1) + " " + format_number(size) + "\n";
  }
  return block("control", control, "-1 -1 0 0\n") + block("data", data, "-1 -1 0 0\n") +
         block("bytes", bytes, "-1 -1 0\n");
}

std::string lane_tics(const run_trace& t) {
  std::string tics = "set ytics (";
  for (int r = 0; r < t.tasks; ++r) {
    if (r > 0) tics += ", ";
    tics += gp_quote(r == 0 ? "master" : "slave " + std::to_string(r)) + " " +
            format_number(lane(t, r));
  }
  return tics + ")\n";
}

}  // namespace

figure timeline_figure(const run_trace& t, const std::string& name, const std::string& title) {
  double end = 0;
  int ml = 1;
  for (const auto& [rank, v] : t.states)
    for (const auto& i : v) end = std::max(end, i.end);
  for (const auto& m : t.messages) end = std::max(end, m.time);
  for (const auto& [rank, v] : t.load)
    for (const auto& l : v) ml = std::max(ml, l.load);
  figure fig;
  fig.name = name;
  fig.width = 1200;
  fig.height = 170 + 90 * t.tasks;
  fig.script =
      bar_data(t, ml, end * 0.002) + message_data(t) + "set title " + gp_quote(gp_plain(title)) +
      "\nset xlabel 'time (s)'\nset xrange [0:" + format_number(end * 1.005 + 1e-9) +
      "]\nset yrange [-0.6:" + format_number(t.tasks - 0.4) + "]\n" + lane_tics(t) +
      "set grid xtics lc rgb '#e0e0e0'\nset key outside below horizontal samplen 2\n"
      "set style fill solid 1.0 noborder\n"
      "plot $load using 1:2:3:4:5:6 with boxxyerror lc rgb '#a6cee3' title " +
      gp_quote("external load (band height: 0.." + std::to_string(ml) + ")") +
      ", $compute using 1:2:3:4:5:6 with boxxyerror lc rgb '#59a14f' title 'compute'"
      ", $sync using 1:2:3:4:5:6 with boxxyerror lc rgb '#f28e2b' title 'sync'"
      ", $idle using 1:2:3:4:5:6 with boxxyerror lc rgb '#e15759' title 'idle'"
      ", $control using 1:2:3:4 with vectors head size screen 0.004,20 lw 0.6 "
      "lc rgb '#777777' title 'control message'"
      ", $data using 1:2:3:4 with vectors head size screen 0.006,20 lw 1.6 "
      "lc rgb '#4b0082' title 'data message (circle: bytes)'"
      ", $bytes using 1:2:3 with points pt 6 ps variable lw 1.2 lc rgb '#4b0082' notitle\n";
  return fig;
}

}  // namespace dlb::plots
