// Parsing an app's output and deciding the status of its run.
#include "sweep/app_output.hpp"

#include <signal.h>
#include <string.h>

#include <cmath>

#include "sweep/text.hpp"

namespace dlb::sweep {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Does the echoed value `got` of parameter `key` match the run? Empty string if yes, else why.
std::string echo_mismatch(const run_spec& run, std::string_view key, std::string_view got) {
  std::string want;
  bool numeric = false;
  if (key == "app") {
    want = run.app;
  } else if (key == "strategy") {
    if (run.strategy == "AUTO") return {};  // the customized mode may report what it chose
    want = run.strategy;
  } else if (key == "P") {
    want = std::to_string(run.procs), numeric = true;
  } else if (key == "K") {
    want = std::to_string(run.group), numeric = true;
  } else if (key == "seed") {
    want = std::to_string(run.seed), numeric = true;
  } else if (key == "ml") {
    want = std::to_string(run.ml), numeric = true;
  } else if (key == "tl") {
    want = format_number(run.tl), numeric = true;
  } else if (key == "scale") {
    want = format_number(run.scale), numeric = true;
  } else if (key == "clock") {
    want = run.clock;
  } else if (key == "network") {
    want = run.network;
  } else if (key == "backend") {
    want = run.backend;
  } else if (key == "size") {
    want = run.size.label();
    try {
      if (parse_size(got).label() == want) return {};
    } catch (const config_error&) {
    }
    return "RESULT size=" + std::string(got) + " but the run asked for " + want;
  } else {
    return {};
  }
  if (numeric) {
    const auto a = parse_double(got);
    const auto b = parse_double(want);
    if (a && b && std::fabs(*a - *b) <= 1e-9 * std::max(1.0, std::fabs(*b))) return {};
  } else if (got == want) {
    return {};
  }
  return "RESULT " + std::string(key) + "=" + std::string(got) + " but the run asked for " + want;
}

}  // namespace

std::string_view to_string(run_status s) {
  switch (s) {
    case run_status::ok:
      return "ok";
    case run_status::failed:
      return "failed";
    case run_status::unverified:
      return "unverified";
    case run_status::timeout:
      return "timeout";
  }
  return "failed";
}

bool is_echoed_parameter(std::string_view key) {
  for (std::string_view k : {"app", "strategy", "P", "K", "size", "seed", "ml", "tl", "clock",
                             "scale", "network", "backend"}) {
    if (key == k) return true;
  }
  return false;
}

app_output parse_app_output(std::string_view text) {
  app_output out;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = trim(text.substr(0, nl));
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (starts_with(line, "RESULT ")) {
      ++out.result_lines;
      out.result = key_values(line.substr(7));
    } else if (starts_with(line, "PREDICTION ")) {
      out.prediction = key_values(line.substr(11));
    } else if (starts_with(line, "RUNINFO ")) {
      out.run_info = key_values(line.substr(8));
    } else if (starts_with(line, "Verification")) {
      std::string_view rest = trim(line.substr(12));
      if (starts_with(rest, "=")) {
        rest = trim(rest.substr(1));
        if (starts_with(rest, "SUCCESSFUL")) {
          out.verification = out.verification.value_or(true);
        } else if (starts_with(rest, "FAILED")) {
          out.verification = false;  // any failed check fails the run
        }
      }
    }
  }
  return out;
}

std::string exit_text(const child_end& end) {
  switch (end.how) {
    case child_end::kind::exited:
      return std::to_string(end.code);
    case child_end::kind::signaled: {
      const char* abbrev = sigabbrev_np(end.code);
      return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(end.code);
    }
    case child_end::kind::timed_out:
      return "timeout";
  }
  return "?";
}

run_verdict classify_run(const run_spec& run, const app_output& out, const child_end& end) {
  if (end.how == child_end::kind::timed_out)
    return {run_status::timeout, "killed after the timeout"};
  if (out.verification == false) {
    return {run_status::unverified, "Verification = FAILED"};
  }
  if (end.how == child_end::kind::signaled) {
    return {run_status::failed, "died of " + exit_text(end)};
  }
  if (end.code != 0) return {run_status::failed, "exit status " + std::to_string(end.code)};
  if (out.result_lines == 0) return {run_status::failed, "no RESULT line"};
  for (const auto& [k, v] : out.result) {
    if (auto why = echo_mismatch(run, k, v); !why.empty()) return {run_status::failed, why};
  }
  if (!out.verification) return {run_status::unverified, "no Verification line"};
  for (const auto& [k, v] : out.result) {
    if (k == "verified" && v != "1") return {run_status::unverified, "RESULT verified=" + v};
  }
  std::string note;
  if (out.result_lines > 1)
    note = std::to_string(out.result_lines) + " RESULT lines; the last is kept";
  return {run_status::ok, note};
}

}  // namespace dlb::sweep
