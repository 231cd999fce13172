# The commands that matter (README.md): `make reproduce` (the main job), `make test`, and
# `make quick` (a reviewer's check against committed expected values). They install missing
# Debian packages first (scripts/install-deps), configure and build into build/, and never touch
# a user's PVM virtual machine: everything runs in private ones.

BUILD ?= build
JOBS ?= 2
BUILD_TYPE ?= Release
CMAKE_FLAGS ?=

PREFIX ?= /usr/local
STRESS_BUSY ?=

# (mpi-only: below.)
.PHONY: mpi-only install-mpi bench-embed all deps configure build install test test-stress check tidy unit-test integration-test multihost-test multihost-demo bench figure-1-6 reproduce claims quick quick-expected reproduce-pvm agreement agreement-mpi bench-mpi bench-runtime scale scale-switched cost-ablation uneven sensitivity sensitivity-quick irregular heterogeneous beyond native timeline format clean

all: build

deps:
	@bash scripts/install-deps

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_FLAGS)

configure: deps $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j$(JOBS)

# Headers, libdlb.so, dlb.pc, find_package(DLB) and the network profiles under $(PREFIX)
# (docs/library.md, "From your own program: installing the library"). Builds what it installs
# (the target dlb), not the tests, programs and experiments of `make build`.
install: configure
	cmake --build $(BUILD) -j$(JOBS) --target dlb
	cmake --install $(BUILD) --prefix $(PREFIX)

# Every test: unit tests (no pvmd) and integration tests (each starts its own private pvmd),
# each at its first and only try: timing is asserted on the simulated backend, faults fire at
# points of a run's progress, waits are on conditions, so a test passes the same way on a fast
# or a loaded machine. scripts/ctest-tries ends with "no test failed a try" (or "failed: <test>"
# for each failed one), then ctest's summary line again.
test: build
	bash scripts/ctest-tries $(BUILD) 1 --output-on-failure -j$(JOBS) --timeout 600

# The integration tests while busy processes (one per core, and one more) load the machine, one
# try each (scripts/test-stress): what `make test` promises on a shared workstation or CI runner.
test-stress: build
	bash scripts/test-stress $(BUILD) $(STRESS_BUSY) --output-on-failure -j$(JOBS) --timeout 900

# The same tests built with AddressSanitizer + UndefinedBehaviorSanitizer in build-check/, PVM
# tasks included: a spawned slave is the same instrumented executable, and the pvmd (started by
# each test) hands its environment to the tasks it spawns; PVM_EXPORT names the options again so
# that a task spawning further tasks passes them on too. Every report goes to a file under
# $(CHECK_BUILD)/sanitizer (log_path, one file per process), and any such file fails the check,
# even from a process whose exit status nobody reads (a killed slave, a pvmd child).
#  - halt_on_error=1 (ASan's default, and -fno-sanitize-recover for UBSan): the first report
#    ends the process, so a test cannot pass over one.
#  - the integration tests run one at a time: the sanitizers slow every task several-fold, and
#    the emulated-clock PVM tests measure time; two of them side by side failed on their timing
#    (4 of 50 at -j2 on 2026-11-24, none of the same alone). ctest runs at -j2 here, but under
#    DLB_SANITIZE every integration test carries RUN_SERIAL (tests/CMakeLists.txt), so only the
#    unit tests, which assert no wall time, run two at a time. Even alone, 2 of the 206 PVM
#    tests once missed their timing (a lagging emulated run), so here, and only here, a failed
#    test is run once more (scripts/ctest-tries ... 2, which names every test that passed on a
#    retry, and every one that failed on both, in its last lines). A sanitizer report is never
#    retried away: its file stays in $(SAN_DIR) and fails the check below.
#  - detect_leaks=1: the tests' own processes exit normally, so LeakSanitizer runs in each;
#    leaks inside libpvm3 and SimGrid (not ours, not instrumented) are suppressed by name in
#    tests/sanitizer/lsan.supp. So are Open MPI's: the MPI tests' harness adds
#    fast_unwind_on_malloc=0 to ASAN_OPTIONS for its mpirun jobs (with a notice), so that
#    LeakSanitizer can name Open MPI's libraries in those stacks, and runs a smaller MPI matrix.
CHECK_BUILD ?= build-check
SAN_DIR = $(abspath $(CHECK_BUILD))/sanitizer
SAN_ENV = ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:log_path=$(SAN_DIR)/asan \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$(SAN_DIR)/ubsan \
  LSAN_OPTIONS=suppressions=$(abspath tests/sanitizer/lsan.supp):print_suppressions=0 \
  PVM_EXPORT=ASAN_OPTIONS:UBSAN_OPTIONS:LSAN_OPTIONS
check: deps
	cmake -S . -B $(CHECK_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDLB_SANITIZE=ON $(CMAKE_FLAGS)
	cmake --build $(CHECK_BUILD) -j$(JOBS)
	rm -rf $(SAN_DIR) && mkdir -p $(SAN_DIR)
	$(SAN_ENV) bash scripts/ctest-tries $(CHECK_BUILD) 2 --output-on-failure -j$(JOBS) --timeout 900
	@if [ -n "$$(ls -A $(SAN_DIR))" ]; then cat $(SAN_DIR)/*; \
	  echo "make check: sanitizer reports above ($(SAN_DIR))"; exit 1; fi
	@echo "make check: no sanitizer report"

# clang-tidy (checks and their reasons in .clang-tidy) over our sources, with the compile
# commands of build/ (g++ flags clang does not know are ignored). Not in CI: about 15 CPU minutes.
tidy: build
	@bash scripts/install-deps clang-tidy
	find pvm lib apps experiments plots tests -name '*.cpp' | sort | xargs -P$(JOBS) -n4 \
	  clang-tidy -p $(BUILD) --quiet --extra-arg=-Wno-unknown-warning-option

unit-test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS) -L unit

integration-test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS) -L integration

# The MPI-only library (-DDLB_PVM=OFF -DDLB_SIM=OFF) in build-mpi-only/: it builds, its libdlb.so
# needs neither libpvm3 nor libsimgrid (ctest library_needs_its_backends_only), and a user's MPI
# program runs it installed (install_embed_mpi). About 4 minutes on 2 cores.
MPI_ONLY_BUILD ?= build-mpi-only
mpi-only: deps
	cmake -S . -B $(MPI_ONLY_BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DDLB_PVM=OFF -DDLB_SIM=OFF
	cmake --build $(MPI_ONLY_BUILD) -j$(JOBS)
	cd $(MPI_ONLY_BUILD) && ctest --output-on-failure

# The MPI-only library installed under $(PREFIX), for a program of your own with MPI
# (docs/library.md, "Inside your own MPI program"): libdlb.so without PVM or SimGrid, the headers
# (dlb/mpi.hpp, dlb/dlb.h), dlb-mpi.pc and dlb-mpi-c.pc, find_package(DLB COMPONENTS mpi).
# Builds the library alone in $(MPI_ONLY_BUILD); needs only a compiler, CMake and an MPI.
install-mpi:
	cmake -S . -B $(MPI_ONLY_BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DDLB_PVM=OFF -DDLB_SIM=OFF \
	  $(CMAKE_FLAGS)
	cmake --build $(MPI_ONLY_BUILD) -j$(JOBS) --target dlb
	cmake --install $(MPI_ONLY_BUILD) --prefix $(PREFIX)

# The tests of virtual machines of several hosts alone (network namespaces; root).
multihost-test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS) -R "MultiHost|JoinVm|HostfileBad"

# A PVM virtual machine of 4 hosts on this machine (network namespaces and veth pairs; root):
# MXM, TRFD and AC under every strategy with 8 slaves spread over the hosts, native clock, and
# the network characterization across them. Removes everything it made, also on interrupt.
multihost-demo: build
	BUILD=$(BUILD) bash scripts/multihost-demo

# PVM wrapper vs raw libpvm3 ping-pong (Google Benchmark); table in pvm/README.md.
bench: build
	$(BUILD)/experiments/pvm_pingpong_bench --benchmark_repetitions=7 --benchmark_enable_random_interleaving=true

# The simulated backend's speed (experiments/bench/sim_speed_bench.cpp): median wall and CPU
# seconds, peak memory, simulated messages and synchronizations per wall second of the paper's
# heaviest runs (SIM_BENCH_SETS=paper,scale,targets adds the scale study's; BENCH_REPS: repetitions).
# SIM_BENCH_BASE=DIR: a second apps folder (another revision's build/apps), alternated with this.
.PHONY: bench-sim
SIM_BENCH_SETS ?= paper
bench-sim: build
	$(BUILD)/experiments/sim_speed_bench --apps this=$(BUILD)/apps --reps $(BENCH_REPS) \
	  --sets $(SIM_BENCH_SETS) $(if $(SIM_BENCH_BASE),--apps base=$(SIM_BENCH_BASE))

# Figure 1.6 alone: characterize the emulated 1996 network and the real loopback, and plot them.
figure-1-6: build
	mkdir -p results/network
	$(BUILD)/experiments/dlb_netchar --procs 16 --reps 5 --out results/network
	$(BUILD)/experiments/dlb_netchar --procs 16 --reps 5 --clock native --out results/network
	$(BUILD)/plots/dlb_plot_network --fit results/network/ethernet1996_fit.csv --out-dir results/network
	$(BUILD)/plots/dlb_plot_network --fit results/network/native-loopback_fit.csv --out-dir results/network --name fig1_6_network_native_loopback

# The paper's tables and figures: the whole paper on the simulated backend (paper.conf) and a
# cross-check on real PVM tasks (crosscheck.conf), into results/paper (minutes once built; the
# measured time is in the README).
reproduce: build
	MODE=paper BUILD=$(BUILD) bash scripts/reproduce

# The verdicts of the paper's claims and of Table 1.4 at 20 load seeds (scripts/claims):
# paper-claims.conf simulated in batches of 5 seeds into experiments/claims/ (resumable; the raw
# results are committed), then experiments/CLAIMS.md by the symmetric rule with 10 half-splits of
# the seeds (docs/claims.md). REPORT_ONLY=1: no runs, the report from the batches recorded.
REPORT_ONLY ?= 0
claims: build
	BUILD=$(BUILD) JOBS=$(JOBS) bash scripts/claims $(if $(filter 1,$(REPORT_ONLY)),--report-only)

# A reviewer's check in minutes (scripts/quick): the simulated paper at 3 load seeds, one point
# beyond the paper, the PVM cross-check and one MPI point, into results/quick-check, each
# quantity checked against experiments/expected/quick.csv; ends with "expected results: N of M
# within tolerance" and fails if any is outside (docs/expected-results.md).
quick: build
	BUILD=$(BUILD) bash scripts/quick

# The expected values themselves: the same sweeps at 10 seeds (results/quick-expected), then
# experiments/expected/quick.csv and reproduce.csv from the spread over the seeds.
quick-expected: build
	BUILD=$(BUILD) bash scripts/quick --derive

# The earlier main job, entirely on real PVM tasks with the emulated clock: quick.conf into
# results/quick (about 10 minutes), or full.conf into results/full with FULL=1 (hours).
FULL ?= 0
reproduce-pvm: build
	MODE=pvm FULL=$(FULL) BUILD=$(BUILD) bash scripts/reproduce

# Agreement of the backends: quick.conf on real PVM tasks (about 10 minutes) and simulated,
# then per (configuration, strategy) the normalized times side by side (results/agreement).
AGREE ?= results/agreement
agreement: build
	$(BUILD)/experiments/dlb_sweep --config experiments/configs/quick.conf --backend pvm \
	  --out $(AGREE)/pvm/results.csv --bin-dir $(BUILD)/apps
	$(BUILD)/experiments/dlb_sweep --config experiments/configs/quick.conf --backend sim --jobs 2 \
	  --out $(AGREE)/sim/results.csv --bin-dir $(BUILD)/apps
	$(BUILD)/experiments/dlb_summary --results $(AGREE)/pvm/results.csv --out $(AGREE)/pvm/summary.csv
	$(BUILD)/experiments/dlb_summary --results $(AGREE)/sim/results.csv --out $(AGREE)/sim/summary.csv
	$(BUILD)/experiments/dlb_agreement --a $(AGREE)/sim/summary.csv --b $(AGREE)/pvm/summary.csv \
	  --out $(AGREE)/agreement.md
	@if [ -x $(BUILD)/experiments/mpi_pingpong_bench ]; then $(MAKE) --no-print-directory agreement-mpi; \
	  else echo "make agreement: this build has no MPI backend: no MPI comparison"; fi

# The same configurations as MPI jobs (emulated clock; each run under mpirun --oversubscribe -np
# P+1, about 10 minutes) against the simulator (results/agreement/mpi-agreement.md). As root,
# Open MPI needs OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM), set for these runs only, with a notice.
agreement-mpi: build
	@if [ "$$(id -u)" = 0 ] && [ -z "$$OMPI_ALLOW_RUN_AS_ROOT" ]; then echo "notice: running as root: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 set for the MPI runs"; fi
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 $(BUILD)/experiments/dlb_sweep \
	  --config experiments/configs/quick.conf --backend mpi --out $(AGREE)/mpi/results.csv \
	  --bin-dir $(BUILD)/apps
	@[ -f $(AGREE)/sim/summary.csv ] || { $(BUILD)/experiments/dlb_sweep --config experiments/configs/quick.conf \
	  --backend sim --jobs 2 --out $(AGREE)/sim/results.csv --bin-dir $(BUILD)/apps && \
	  $(BUILD)/experiments/dlb_summary --results $(AGREE)/sim/results.csv --out $(AGREE)/sim/summary.csv; }
	$(BUILD)/experiments/dlb_summary --results $(AGREE)/mpi/results.csv --out $(AGREE)/mpi/summary.csv
	$(BUILD)/experiments/dlb_agreement --a $(AGREE)/sim/summary.csv --b $(AGREE)/mpi/summary.csv \
	  --out $(AGREE)/mpi-agreement.md

# The library inside a plain MPI program beside a static block and a hand-written master-worker
# whose rank 0 computes (scripts/embed-bench: REPS, PROCS, POLICIES, LOOPS; docs/library.md).
bench-embed: build
	bash scripts/embed-bench

# The MPI transport vs raw MPI ping-pong (Google Benchmark, two ranks); table in docs/design/backends.md.
bench-mpi: build
	@if [ "$$(id -u)" = 0 ] && [ -z "$$OMPI_ALLOW_RUN_AS_ROOT" ]; then echo "notice: running as root: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 set for this job"; fi
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np 2 \
	  $(BUILD)/experiments/mpi_pingpong_bench --benchmark_repetitions=7 \
	  --benchmark_enable_random_interleaving=true --benchmark_min_time=0.1

# The runtime's own cost per iteration and per chunk under the native clock, every policy on MPI
# and PVM, P = 1 and 4, bodies of 0, 1 and 10 us, beside the plain loop, OpenMP
# schedule(dynamic,k) and the raw round trips (Google Benchmark; table in docs/library.md, "What
# the library costs"; about 20 minutes on the 2-core machine). BENCH_ARGS: more flags, e.g.
# BENCH_ARGS='--backends=mpi --procs=1 --policies=NONE,SS'.
BENCH_REPS ?= 3
bench-runtime: build
	$(BUILD)/experiments/runtime_cost_bench --benchmark_repetitions=$(BENCH_REPS) \
	  --benchmark_report_aggregates_only=true $(BENCH_ARGS)

# How each mechanism of the paper's cost structure, and each reading of the paper's protocol
# (first synchronization at the master, pvm_mcast broadcasts, the wire's share of a byte), moves
# the claims and Table 1.4: paper.conf simulated with each one set back (results/ablation/
# ablation.md, dlb_ablation's table; 9 variants, about 13 minutes on the 2-core machine).
cost-ablation: build
	BUILD=$(BUILD) bash scripts/cost-ablation

# Which of the paper's conclusions hold, and where, over its unstated parameters:
# experiments/configs/sensitivity.design simulated at every point of a Latin hypercube, 10 paired
# seeds; writes experiments/SENSITIVITY.md and experiments/sensitivity/ (heat maps, CSVs); raw
# results in results/sensitivity (resumable). sensitivity-quick: the same chain on a CI-sized
# design into results/sensitivity-quick (about 2 minutes).
sensitivity: build
	BUILD=$(BUILD) JOBS=$(JOBS) bash scripts/sensitivity

sensitivity-quick: build
	BUILD=$(BUILD) JOBS=$(JOBS) bash scripts/sensitivity --quick

# Loops whose iterations cost different amounts: balancing in work against iterations, block
# against cyclic starts: experiments/configs/uneven.conf swept, then dlb_beyond uneven writes
# results/uneven/uneven.md (the tables of docs/library.md; 560 simulated runs).
uneven: build
	BUILD=$(BUILD) JOBS=$(JOBS) bash scripts/uneven

# One part of `make beyond` alone, simulated and resumable, its runs kept in results/beyond/PART
# (where `make beyond` finds them) and its tables in results/beyond/PART.md: loops whose iterations
# cost different amounts under every policy (irregular.conf), heterogeneous workstations
# (heterogeneous.conf), or the scale study, P = 4 ... 4096, with the simulation's own wall time
# and memory (scale.conf).
irregular heterogeneous scale: build
	BUILD=$(BUILD) JOBS=$(JOBS) PARTS=$@ DOC=results/beyond/$@.md FIG=results/beyond/$@-figures \
	  bash scripts/beyond

# The scale study on a switched cluster beside the shared Ethernet, at the paper's load regime,
# P = 4 ... 4096, every policy that finishes within the time bound (scale-switched.conf):
# resumable, its runs in results/beyond/scale-switched, its tables in
# experiments/SCALE-SWITCHED.md and its figures in experiments/beyond/scale-switched*.
# REPORT_ONLY=1: no runs, the tables and figures of the runs recorded so far.
scale-switched: build
	BUILD=$(BUILD) JOBS=$(JOBS) PARTS=$@ DOC=experiments/SCALE-SWITCHED.md FIG=experiments/beyond \
	  REPORT_ONLY=$(REPORT_ONLY) bash scripts/beyond

# Everything beyond the paper, simulated, resumable, into results/beyond and
# experiments/BEYOND.md (+ experiments/beyond/ figures): the paper under every policy against the
# oracle and communication-aware bounds, the customized choices (AUTO, ADAPTIVE, AUTO-ALL) against
# every fixed policy, the self-scheduling baselines, irregular loops, heterogeneous workstations,
# the scale study P = 4 ... 4096 and a run's time line (scripts/beyond; PARTS="scale" for one part).
beyond: build
	BUILD=$(BUILD) JOBS=$(JOBS) bash scripts/beyond

# The customized choice on real cores (scripts/native; experiments/native/README.md): MPI ranks
# under the native clock, one per core, a real competing process on core 1 (dlb_loadgen), the
# cost model on this host's calibrated transport; experiments/configs/native.conf (6 loops x 4
# loads x 9 policies x 5 repetitions, shuffled; about 25 minutes on 2 quiet cores) into
# experiments/native/results.csv (resumable) and experiments/NATIVE.md. REPORT_ONLY=1: the
# tables of the runs recorded so far.
native: build
	BUILD=$(BUILD) REPORT_ONLY=$(REPORT_ONLY) bash scripts/native

# The time line of chosen runs (dlb_plot_timeline: each slave's compute, sync and idle, its
# external load, the messages): TIMELINE_RUNS, "NAME:APP ARGS" separated by ';' (default: TRFD,
# P = 4, n = 30, simulated, seed 1, under GCDLB and LDDLB), into results/timeline/NAME.png/.svg.
TIMELINE_RUNS ?=
timeline: build
	BUILD=$(BUILD) RUNS="$(TIMELINE_RUNS)" bash scripts/timeline

format:
	find pvm lib apps experiments plots tests -name '*.cpp' -o -name '*.hpp' | xargs clang-format -i

clean:
	rm -rf $(BUILD)
