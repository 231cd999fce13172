# Two commands matter (README): `make reproduce` (the main job) and `make test`.
# Both install missing Debian packages first (scripts/install-deps), configure and build into
# build/, and never touch a user's PVM virtual machine: everything runs in private ones.

BUILD ?= build
JOBS ?= 2
BUILD_TYPE ?= Release
CMAKE_FLAGS ?=

.PHONY: all deps configure build test unit-test integration-test bench figure-1-6 reproduce format clean

all: build

deps:
	@bash scripts/install-deps

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_FLAGS)

configure: deps $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j$(JOBS)

# Every test: unit tests (no pvmd) and integration tests (each starts its own private pvmd).
test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS) --timeout 600

unit-test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS) -L unit

integration-test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS) -L integration

# PVM wrapper vs raw libpvm3 ping-pong (Google Benchmark); table in pvm/README.md.
bench: build
	$(BUILD)/experiments/pvm_pingpong_bench --benchmark_repetitions=7 --benchmark_enable_random_interleaving=true

# Figure 1.6 alone: characterize the emulated 1996 network and the real loopback, and plot them.
figure-1-6: build
	mkdir -p results/network
	$(BUILD)/experiments/dlb_netchar --procs 16 --reps 5 --out results/network
	$(BUILD)/experiments/dlb_netchar --procs 16 --reps 5 --clock native --out results/network
	$(BUILD)/plots/dlb_plot_network --fit results/network/ethernet1996_fit.csv --out-dir results/network
	$(BUILD)/plots/dlb_plot_network --fit results/network/native-loopback_fit.csv --out-dir results/network --name fig1_6_network_native_loopback

# The paper's tables and figures: results/quick (default, ~15 min) or results/full (FULL=1).
FULL ?= 0
reproduce: build
	FULL=$(FULL) BUILD=$(BUILD) bash scripts/reproduce

format:
	find pvm lib apps experiments plots tests -name '*.cpp' -o -name '*.hpp' | xargs clang-format -i

clean:
	rm -rf $(BUILD)
