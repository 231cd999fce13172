#!/usr/bin/env bash
# scripts/ctest-tries on a small ctest tree of its own: a test that passes, one that fails its
# first try and passes its second (a marker file), and one that always fails. One try (make
# test): the flaky test fails the run and is named "failed", nothing says "retried". Two tries
# (make check): it is named "retried", the always-failing one "failed", and the summary line is
# the last line in both. Exits non-zero, naming the check, if any expectation does not hold.
set -uo pipefail
script=$1/scripts/ctest-tries
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*"
  echo "--- output:"
  cat "$work/out"
  exit 1
}
make_tree() {  # $1: folder; $2: with the always-failing test (1/0)
  mkdir -p "$1"
  {
    echo "add_test(passes /bin/true)"
    echo "add_test(flaky /bin/sh -c \"if [ -e $1/tried ]; then exit 0; else touch $1/tried; exit 1; fi\")"
    [ "$2" = 1 ] && echo "add_test(always /bin/false)"
  } >"$1/CTestTestfile.cmake"
}

make_tree "$work/one" 0
bash "$script" "$work/one" 1 >"$work/out" 2>&1 && fail "one try: a failed test must fail the run"
grep -qx "failed: flaky" "$work/out" || fail "one try: the flaky test is not named failed"
grep -q "retried" "$work/out" && fail "one try: nothing can be retried"
tail -n1 "$work/out" | grep -qE '^[0-9]+% tests passed, 1 tests? failed out of 2' ||
  fail "one try: the last line is not ctest's summary"

make_tree "$work/two" 1
bash "$script" "$work/two" 2 >"$work/out" 2>&1 && fail "two tries: the always-failing test must fail the run"
grep -qx "retried: flaky" "$work/out" || fail "two tries: the flaky test is not named retried"
grep -qx "failed: always" "$work/out" || fail "two tries: the failing test is not named failed"
grep -qx "failed: flaky" "$work/out" && fail "two tries: the flaky test passed its retry"
grep -q "^passed on a retry: 1 test" "$work/out" || fail "two tries: no 'passed on a retry' line"
grep -q "^failed on every try (2): 1 test" "$work/out" || fail "two tries: no 'failed on every try' line"
tail -n1 "$work/out" | grep -qE '^[0-9]+% tests passed, 1 tests? failed out of 3' ||
  fail "two tries: the last line is not ctest's summary"

mkdir -p "$work/clean"
echo "add_test(passes /bin/true)" >"$work/clean/CTestTestfile.cmake"
bash "$script" "$work/clean" 1 >"$work/out" 2>&1 || fail "a passing tree failed"
grep -qx "no test failed a try" "$work/out" || fail "a clean run does not say so"
tail -n1 "$work/out" | grep -q '^100% tests passed' || fail "clean: the last line is not the summary"

bash "$script" "$work/clean" 3 >"$work/out" 2>&1
[ $? = 2 ] || fail "TRIES 3 is not refused with exit 2"
echo "ctest-tries: every expectation holds"
