#!/usr/bin/env bash
# The golden check of the experiment tools (issue 58): every analysis tool run on fixed,
# committed inputs (tests/fixtures/golden: a cut of a paper run, a beyond part, a sensitivity
# study) gives byte for byte the files committed beside them (tests/fixtures/golden/expected):
# the summaries, report.md, CLAIMS.md, the expected values and their check, the agreement and
# ablation tables, every section of BEYOND.md, the sensitivity study's CSVs and Markdown, the
# implied times, the medians and the load function's data file; and each tool's stdout, stderr
# and exit status. The safety net of a refactor
# of experiments/: a tool whose output moves by one byte fails here, naming the file.
# Usage: golden_test.sh SOURCE_DIR BUILD_DIR [--update]
#   --update  writes the outputs of today's tools over tests/fixtures/golden/expected (only when
#             an output is meant to change; the diff is the review).
# Every tool runs in a scratch folder with relative paths, so that no output depends on where
# the checkout or the build is. A few seconds.
set -uo pipefail
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
update=${3:-}
fixtures=$src/tests/fixtures/golden
# The tools by name (their commands are echoed in their outputs): the same on every machine.
export PATH="$build/experiments:$build/plots:$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
mkdir -p in out/paper out/beyond out/sensitivity
cp "$fixtures"/paper.csv "$fixtures"/beyond.csv "$fixtures"/native.csv "$fixtures"/medians.txt in/
cp -r "$fixtures"/sensitivity in/sensitivity
cp -r "$src"/experiments/paper in/paper-dir
failed=0
run() {  # run NAME COMMAND...: the command's stdout into out/NAME, its stderr and exit status
  local name=$1 rc=0
  shift
  "$@" >"out/$name" 2>"out/$name.err" || rc=$?
  echo "exit status: $rc" >>"out/$name.err"
}

# The paper run: summary, report and diagnosis, expected values, agreement, ablation, implied.
# Its two load seeds apart (in/seed1.csv, in/seed2.csv) stand for two backends or variants.
P=out/paper
for s in 1 2; do
  awk -F, -v s=$s '/^#/ || !h { h = h || !/^#/; print; next } $7 == s' in/paper.csv >in/seed$s.csv
  mkdir -p $P/seed$s
  run paper/seed$s/summary.stdout dlb_summary --results in/seed$s.csv --out $P/seed$s/summary.csv
  mkdir -p in/seed$s-dir && cp in/seed$s.csv in/seed$s-dir/results.csv
  cp $P/seed$s/summary.csv in/seed$s-dir/summary.csv
done
run paper/summary.stdout dlb_summary --results in/paper.csv --out $P/summary.csv
mkdir -p in/all && cp in/paper.csv in/all/results.csv && cp $P/summary.csv in/all/summary.csv
run paper/report.stdout dlb_report --summary $P/summary.csv --results in/paper.csv \
  --paper-dir in/paper-dir --out $P/report.md --diagnosis-out $P/CLAIMS.md --bootstrap 100 \
  --halves 2 --command "make claims"
run paper/expected.stdout dlb_expected --paper paper=in/paper.csv \
  --agreement "seeds=in/seed1.csv,in/seed2.csv" --paper-dir in/paper-dir --subset 1 \
  --out $P/expected.csv --markdown $P/expected.md
run paper/check.stdout dlb_expected --paper paper=in/paper.csv \
  --agreement "seeds=in/seed1.csv,in/seed2.csv" --paper-dir in/paper-dir \
  --expected $P/expected.csv --out $P/check.txt
run paper/agreement.stdout dlb_agreement --a $P/seed1/summary.csv --b $P/seed2/summary.csv \
  --out $P/agreement.md
run paper/ablation.stdout dlb_ablation --variant all=in/all --variant seed1=in/seed1-dir \
  --options "seed1=load seed 1 only" --paper-dir in/paper-dir --title "Golden" \
  --command "golden_test.sh" --out $P/ablation.md
run paper/implied.stdout dlb_implied --paper-dir in/paper-dir --out $P/implied.csv
run paper/medians.stdout dlb_medians --by app --field total_s --field lag_s <in/medians.txt

# The beyond part: every section of BEYOND.md that dlb_beyond writes.
for kind in oracle choice baselines scale uneven cost; do
  run beyond/$kind.md dlb_beyond $kind --results in/beyond.csv
done
run beyond/oracle-targets.md dlb_beyond oracle --results in/beyond.csv --targets
# uneven: its synthetic sections alone (beside the MXM runs it refuses, exit 2, as above).
awk '/^#/ || !h { h = h || !/^#/; print; next } /--balance-by/' in/beyond.csv >in/uneven.csv
run beyond/uneven-only.md dlb_beyond uneven --results in/uneven.csv
run beyond/native.md dlb_beyond native --results in/native.csv
run beyond/summary.stdout dlb_summary --results in/beyond.csv --out out/beyond/summary.csv

# The sensitivity study: plan (the sweep config and points) and analysis.
S=in/sensitivity
run sensitivity/plan.stdout dlb_sensitivity plan --design $S/study.design \
  --out-dir out/sensitivity/plan
run sensitivity/analyze.stdout dlb_sensitivity analyze --design $S/study.design \
  --out-dir $S/out --results $S/results.csv --paper-dir in/paper-dir --md out/sensitivity/SENSITIVITY.md \
  --figures-rel figures --command "golden_test.sh" --elapsed-s 60 --legs 1 --load-before 0.5
for f in claims.csv point_claims.csv main_effects.csv rows.csv heatmap.csv; do
  [ -f $S/out/$f ] && cp $S/out/$f out/sensitivity/$f
done

# The load function's data file (the figure's input, dlb_plot_load --write-csv).
if [ -x "$build"/plots/dlb_plot_load ]; then
  run load.stdout dlb_plot_load --seed 1 --slave 0 --tl 5 --ml 5 --duration 120 \
    --write-csv out/load_seed1_slave0.csv --out-dir figures --formats svg
fi

# What differs from one call to the next by design: the date of the call and the checkout's
# revision (git describe), both echoed in the outputs' provenance.
rev=$(git -C "$src" describe --always --dirty --tags 2>/dev/null || echo unknown)
find out -type f -exec sed -i -E -e 's/^# date: .*/# date: DATE/' \
  -e 's/ on [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z \(revision / on DATE (revision /' \
  -e "s/(revision:? )$rev([^-0-9a-z]|$)/\1REVISION\2/g" {} +

if [ "$update" = --update ]; then
  rm -rf "$fixtures/expected"
  cp -r out "$fixtures/expected"
  echo "golden: tests/fixtures/golden/expected updated ($(find out -type f | wc -l) files)"
  exit $failed
fi
if ! diff -r "$fixtures/expected" out >"$work/diff"; then
  echo "FAIL: the tools' outputs differ from tests/fixtures/golden/expected:"
  head -n 60 "$work/diff"
  failed=1
fi
[ "$failed" = 0 ] && echo "golden: $(find out -type f | wc -l) files byte-identical"
exit $failed
