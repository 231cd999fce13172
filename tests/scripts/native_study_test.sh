#!/usr/bin/env bash
# The native study's moving parts (make native; experiments/native/README.md), without MPI:
#  - dlb_loadgen refuses a core that does not exist and an --out that is not a regular file (a
#    FIFO, left as it was), and the synthetic loop a --work-clock other than wall or cpu (exit 2,
#    naming it);
#  - a busy generator on the same core at least halves a spinning process's share of the CPU
#    (measured relative: the process's CPU seconds per wall second alone, then beside a generator
#    of 7 busy threads, which leaves it about an eighth; both in one session, so the scheduler
#    shares the core between their threads whatever else the machine runs);
#  - the generator stops with the launcher that started it (experiments/native/native-launch): on
#    TERM (exit 143, nothing left) and after kill -9 (PR_SET_PDEATHSIG);
#  - the calibration (scripts/native calibrate) is refused cleanly without MPI (exit 2, naming
#    it), reuses its cached profile without measuring, and is bounded (CAL_TIMEOUT: a launcher
#    that hangs ends with exit 1 and a message naming the bound, no profile written);
#  - dlb_sweep --shuffle SEED plans the same runs in another order, the same on every call;
#  - kill -9 of a sweep whose run has a generator and a job leaves neither (dlb_sweep's guard).
# Usage: native_study_test.sh SOURCE_DIR BUILD_DIR. About 8 s.
set -uo pipefail
src=$1
build=$(cd "$2" && pwd)
gen=$build/experiments/dlb_loadgen
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  [ -f "$work/out" ] && { echo "--- output:"; cat "$work/out"; }
  exit 1
}
# wait_gone PID: true once PID is gone (or a zombie), false after 10 s.
wait_gone() {
  for _ in $(seq 200); do
    [ -e "/proc/$1" ] || return 0
    grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null && return 0
    sleep 0.05
  done
  return 1
}
# cpu_ticks PID: user + system clock ticks of a running process.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

echo "1. a core that does not exist; a work clock that does not exist"
cores=$(getconf _NPROCESSORS_ONLN)
"$gen" --core "$cores" --duty 1 >"$work/out" 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "dlb_loadgen --core $cores: exit $rc, want 2"
grep -q "core $cores does not exist" "$work/out" || fail "the message does not name core $cores"
mkfifo "$work/pattern.fifo"
"$gen" --core 0 --duty 1 --duration 0.1 --out "$work/pattern.fifo" >"$work/out" 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "dlb_loadgen --out FIFO: exit $rc, want 2"
grep -q "option --out $work/pattern.fifo is a named pipe" "$work/out" || fail "the FIFO not named"
[ -p "$work/pattern.fifo" ] || fail "the FIFO was replaced"

"$build/apps/synthetic" --backend sim --work-clock bad >"$work/out" 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "synthetic --work-clock bad: exit $rc, want 2"
grep -q "option --work-clock must be wall or cpu, got 'bad'" "$work/out" || fail "--work-clock not named"

echo "2. a busy generator on the same core slows a spinning process"
# share PIN_ARGS...: the spinner's CPU share over one wall second, beside what runs then.
share() {
  "$gen" --core 0 --duty 1 &
  local s=$!
  pids+=("$s")
  sleep 0.2
  local t0 c0 t1 c1
  t0=$(date +%s%N) c0=$(cpu_ticks "$s")
  sleep 1
  t1=$(date +%s%N) c1=$(cpu_ticks "$s")
  kill -TERM "$s"
  wait "$s" 2>/dev/null
  awk -v c=$((c1 - c0)) -v t=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" \
    'BEGIN { printf "%.4f", (c / hz) / (t / 1e9) }'
}
alone=$(share)
"$gen" --core 0 --duty 1 --threads 7 --out "$work/load.csv" 2>/dev/null &
busy=$!
pids+=("$busy")
loaded=$(share)
kill -TERM "$busy"
wait "$busy"
echo "   share alone $alone, beside the generator $loaded"
awk -v a="$alone" -v l="$loaded" 'BEGIN { exit !(a > 0 && l <= a / 2) }' ||
  fail "beside a busy generator the spinner kept $loaded of its core (alone $alone): not halved"
head -1 "$work/load.csv" | grep -qx "time_start,time_end,load" || fail "no pattern file written"

echo "3. the generator stops with its launcher"
fake=$work/fake-mpirun
printf '#!/bin/sh\nexec sleep 1000\n' >"$fake"  # a job that never ends by itself
chmod +x "$fake"
launch() {  # native-launch in the background, a steady load on core 0: sets lp, gp, jp (job)
  NATIVE_MPIRUN=$fake NATIVE_LOADGEN=$gen TMPDIR=$work bash "$src/experiments/native/native-launch" \
    --oversubscribe -np 2 /bin/true --procs 1 --master-rank computes --load steady:0 >"$work/out" 2>&1 &
  lp=$!
  pids+=("$lp")
  gp= jp=
  for _ in $(seq 200); do
    gp=$(pgrep -P "$lp" -f dlb_loadgen | head -1)
    jp=$(pgrep -P "$lp" -x sleep | head -1)
    [ -n "$gp" ] && [ -n "$jp" ] && [ -s "$work/out.load.csv" ] && break
    sleep 0.05
  done
  [ -n "$gp" ] && [ -n "$jp" ] || fail "native-launch started no generator or no job"
  pids+=("$gp" "$jp")
}
launch
kill -TERM "$lp"
wait "$lp"
rc=$?
[ "$rc" -eq 143 ] || fail "native-launch after TERM: exit $rc, want 143"
wait_gone "$gp" || fail "the generator $gp outlived its launcher's TERM"
wait_gone "$jp" || fail "the job $jp outlived its launcher's TERM"
launch
kill -KILL "$lp"
wait "$lp" 2>/dev/null
wait_gone "$gp" || fail "the generator $gp outlived kill -9 of its launcher"
kill -KILL "$jp"  # the job: in a sweep, dlb_sweep's guard ends the run's process group

echo "4. the calibration: no MPI, cached, bounded"
cal=$work/cal
BUILD=$build CAL_DIR=$cal NATIVE_MPIRUN=$work/no-such-mpirun bash "$src/scripts/native" calibrate \
  >"$work/out" 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "calibration without MPI: exit $rc, want 2"
grep -q "no MPI: '$work/no-such-mpirun' not found" "$work/out" || fail "the message does not name mpirun"
mkdir -p "$cal"
echo "latency_s = 1e-6" >"$cal/$(hostname)-mpi.profile"
cp "$cal/$(hostname)-mpi.profile" "$cal/$(hostname)-mpi-tcp.profile"
BUILD=$build CAL_DIR=$cal NATIVE_MPIRUN=$work/no-such-mpirun bash "$src/scripts/native" calibrate \
  >"$work/out" 2>&1 || fail "a cached calibration was not used (exit $?)"
grep -q "calibration: cached $cal/$(hostname)-mpi.profile" "$work/out" || fail "not said cached"
rm -rf "$cal"
start=$(date +%s)
BUILD=$build CAL_DIR=$cal CAL_TIMEOUT=1 NATIVE_MPIRUN=$fake bash "$src/scripts/native" calibrate \
  >"$work/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "a hanging calibration: exit $rc, want 1"
grep -q "did not finish within 1 s" "$work/out" || fail "the time bound is not named"
[ $(($(date +%s) - start)) -lt 60 ] || fail "the calibration was not bounded"
ls "$cal"/*.profile >/dev/null 2>&1 && fail "a profile was written by a calibration that failed"
echo "5. dlb_sweep --shuffle: repetition by repetition, the same order every time"
plan() {
  "$build/experiments/dlb_sweep" --config "$src/experiments/configs/native.conf" \
    --out "$work/plan/results.csv" --bin-dir "$build/apps" --dry-run "$@" 2>/dev/null |
    grep '^run ' | sed 's/^run [0-9]* of [0-9]* //'
}
plan >"$work/plain"
plan --shuffle 3 >"$work/shuffled"
plan --shuffle 3 >"$work/again"
cmp -s "$work/shuffled" "$work/again" || fail "--shuffle 3 gave two orders"
cmp -s "$work/plain" "$work/shuffled" && fail "--shuffle 3 left the plan's order"
[ "$(sort "$work/plain")" = "$(sort "$work/shuffled")" ] || fail "--shuffle changed the runs"
# native.conf's repetition r has the seed r + 1: the seeds never go down.
grep -o -- '--seed [0-9]*' "$work/shuffled" | awk '$2 < last { exit 1 } { last = $2 }' ||
  fail "--shuffle mixed the repetitions"
echo "6. kill -9 of the sweep leaves no generator and no job"
mkdir -p "$work/bin"
for a in mxm trfd ac synthetic; do ln -s /bin/true "$work/bin/$a"; done
printf '#!/bin/sh\nexec sleep 4321\n' >"$work/fake-job"
chmod +x "$work/fake-job"
printf '%s\n' "backend = mpi" "clock = native" "procs = 1" "strategies = NONE" "ml = 0" \
  "timeout = 60" "[app mxm]" "sizes = n=8 r=8 m=8" "args = --master-rank computes --load steady:0" \
  >"$work/one.conf"
DLB_MPIRUN=$src/experiments/native/native-launch NATIVE_MPIRUN=$work/fake-job NATIVE_LOADGEN=$gen \
  "$build/experiments/dlb_sweep" --config "$work/one.conf" --out "$work/sweep/results.csv" \
  --bin-dir "$work/bin" >"$work/out" 2>&1 &
sp=$!
pids+=("$sp")
gp= jp=
for _ in $(seq 200); do
  gp=$(pgrep -f "dlb_loadgen --core 0 --duty 1 --out $work/sweep" | head -1)
  jp=$(pgrep -f "^sleep 4321$" | head -1)
  [ -n "$gp" ] && [ -n "$jp" ] && break
  sleep 0.05
done
[ -n "$gp" ] && [ -n "$jp" ] || fail "the sweep's run started no generator or no job"
pids+=("$gp" "$jp")
{ kill -KILL "$sp" && wait "$sp"; } 2>/dev/null
wait_gone "$gp" || fail "the generator $gp outlived kill -9 of the sweep"
wait_gone "$jp" || fail "the job $jp outlived kill -9 of the sweep"
echo "all native study checks passed"
