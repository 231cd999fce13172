# shellcheck shell=bash
# scripts/common.sh: what the drivers under scripts/ (reproduce, quick, sensitivity, cost-ablation,
# beyond, uneven, timeline, multihost-*, test-stress, ctest-tries) share. Sourced, never run:
# `. scripts/common.sh NAME "$@"` (the driver's arguments), after which the driver runs under a
# supervisor (supervise, below), log, need_tools, need_paper_dir, sweep_with_summary,
# use_huge_pages, sim_profile and with_seeds are defined, BUILD and JOBS have their defaults, and
# `paper` names the paper's tables.
# The drivers only orchestrate (build, run, order): every number, table and verdict is computed by
# the C++ tools they call.

driver_name=${1:?usage: . scripts/common.sh NAME "\$@"}
shift
BUILD=${BUILD:-build}
JOBS=${JOBS:-2}
# The paper's tables as transcribed (experiments/paper/README.md names the sources).
paper=${PAPER_DIR:-experiments/paper}
driver_start=$(date +%s)

# log MESSAGE: one progress line on stderr, with the seconds since the driver started.
log() { echo "$driver_name [$(( $(date +%s) - driver_start )) s]: $*" >&2; }

# fail MESSAGE: a clear error naming what is wrong, exit 2.
fail() { echo "$driver_name: $*" >&2; exit 2; }

# need_tools PATH...: each tool under $BUILD is built, or exit 2 naming it.
need_tools() {
  local t
  for t in "$@"; do
    [ -x "$BUILD/$t" ] || fail "$BUILD/$t not built (make build)"
  done
}

# need_paper_dir: the paper's tables are where $paper says, or exit 2 naming the directory.
need_paper_dir() {
  [ -d "$paper" ] || fail "the paper's tables are not at $paper (set PAPER_DIR)"
}

# sweep_with_summary CONFIG RESULTS.csv [dlb_sweep options...]: the sweep of CONFIG into
# RESULTS.csv (resumable: finished runs are kept), then SUMMARY.csv beside it.
sweep_with_summary() {
  local config=$1 results=$2
  shift 2
  "$BUILD/experiments/dlb_sweep" --config "$config" --out "$results" --bin-dir "$BUILD/apps" "$@"
  "$BUILD/experiments/dlb_summary" --results "$results" --out "$(dirname "$results")/summary.csv"
}

# use_huge_pages: transparent huge pages for the simulated runs' heaps. A simulated run holds
# every slave's arrays and messages in one process, and touching them page by page took half of
# MXM's and TRFD's wall time: with huge pages the whole paper at one seed took 20 s instead of
# 29 s (MXM 2.2x, TRFD 2.5x faster), for about twice the memory (MXM's largest run 479 MB instead
# of 221). Virtual time, and so every result, is the same either way; where THP is off it does
# nothing.
use_huge_pages() {
  export GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1"
}

# sim_profile DIR NAME [dlb_netchar options...]: the network profile DIR/NAME.profile of the
# simulated 1996 Ethernet under the given message-cost options, measured unless already there.
sim_profile() {
  local dir=$1 name=$2
  shift 2
  mkdir -p "$dir"
  if [ ! -s "$dir/$name.profile" ]; then
    "$BUILD/experiments/dlb_netchar" --backend sim --procs 16 --reps 5 "$@" --name "$name" \
      --out "$dir" --quiet >"$dir/$name.txt"
  fi
}

# with_seeds CONFIG N OUT: CONFIG with its default load seeds replaced by 1..N (its top-level
# `repetitions` and `seeds` lines; the sections' own keys are kept, e.g. paper.conf's O1 runs),
# written to OUT unless OUT already says the same (a resumed sweep then sees the same config).
# Exit 2 when CONFIG sets neither key at the top level.
with_seeds() {
  local config=$1 n=$2 target=$3 tmp
  grep -Eq '^(repetitions|seeds)[[:space:]]*=' "$config" || fail "$config sets no top-level repetitions or seeds"
  tmp=$(mktemp "$target.XXXXXX")
  {
    echo "# $config with the load seeds 1..$n (scripts/common.sh, with_seeds)"
    awk -v n="$n" '
      BEGIN { for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") i }
      /^\[/ { section = 1 }
      !section && /^repetitions[ \t]*=/ { print "repetitions = " n; next }
      !section && /^seeds[ \t]*=/ { print "seeds = " s; next }
      { print }' "$config"
  } >"$tmp"
  if cmp -s "$tmp" "$target"; then rm -f "$tmp"; else mv "$tmp" "$target"; fi
}

# group_alive PGID: some process of the group is still running (a zombie is not).
group_alive() {
  ps -e -o pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ { found = 1 } END { exit !found }'
}

# end_driver_group SIGNAL STATUS: the supervisor's trap. Sends SIGNAL to the driver's process
# group (its dlb_sweep then ends its runs, their pvmds and MPI jobs, and releases the results
# folder), waits until no process of the group is left (SIGKILL after 120 s), exits STATUS.
end_driver_group() {
  trap '' INT TERM HUP
  kill -"$1" -- "-$driver_pgid" 2>/dev/null || true
  local tenths=0
  while group_alive "$driver_pgid"; do
    tenths=$((tenths + 1))
    [ "$tenths" -eq 1200 ] && kill -KILL -- "-$driver_pgid" 2>/dev/null
    sleep 0.1
  done
  wait "$driver_pgid" 2>/dev/null || true
  exit "$2"
}

# supervise ARGS...: runs the driver again with ARGS in a process group of its own, under a
# supervisor, and waits for it. A SIGTERM, SIGHUP or SIGINT to the driver ends that whole group
# and what it started, then the driver exits 128 + the signal (143, 129, 130). Needed because
# bash runs a trap only between foreground commands: without it a TERM to the driver ended the
# script and left its sweep running. Returns at once in the supervised driver.
# Where it is built, the supervisor is $BUILD/experiments/dlb_supervise (exec'd: the driver's pid
# is its front): two subreaper processes that watch each other, so that kill -9 of the driver,
# of its supervisor or of the inner script also ends everything under it, jobs that made process
# groups of their own (`timeout`) included. Before the build, the shell supervisor below: signals
# only, and what left the driver's group is not ended.
supervise() {
  [ -n "${DLB_DRIVER_SUPERVISED:-}" ] && return 0
  local script=$0 rc=0
  # The drivers cd to the repository root before sourcing this file.
  [ -f "$script" ] || script=scripts/$(basename "$0")
  if [ -x "$BUILD/experiments/dlb_supervise" ]; then
    export DLB_DRIVER_SUPERVISED=1
    exec "$BUILD/experiments/dlb_supervise" -- bash "$script" "$@"
  fi
  set -m
  DLB_DRIVER_SUPERVISED=1 bash "$script" "$@" <&0 &
  driver_pgid=$!
  set +m
  trap 'end_driver_group TERM 143' TERM
  trap 'end_driver_group TERM 129' HUP
  trap 'end_driver_group INT 130' INT
  wait "$driver_pgid" || rc=$?
  exit "$rc"
}

supervise "$@"
