# Thin wrapper over CMake + Ninja + CTest. `make demo` and `make test` work on
# a fresh Debian 12 machine: they install missing build dependencies first.
BUILD   ?= build
PREFIX  ?= /usr/local
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
# Registry sizes `make bench` measures; add 1000000 for the ~430 MB registry.
BENCH_SIZES ?= 1000 10000 100000
CMAKE_FLAGS ?=

# Debian packages the build and tests need.
DEB_PACKAGES = build-essential cmake ninja-build pkg-config libjansson-dev libutf8proc-dev \
               libstemmer-dev libpcre2-dev libcmocka-dev python3 valgrind \
               libcurl4-openssl-dev libyaml-dev libsqlite3-dev libssl-dev zlib1g-dev \
               libmicrohttpd-dev
# What only the tests need: a real browser for the review page's test
# (tests/integration/web.sh drives it with playwright-core).
TEST_PACKAGES = chromium
# Extra tools `make bench` uses (peak RSS, repeatable timings).
BENCH_PACKAGES = time valgrind hyperfine

SANITIZE_BUILD ?= build-sanitize
SANITIZE_PACKAGES = clang libclang-rt-14-dev

# `make fuzz`: every libFuzzer target for FUZZ_SECONDS each (fuzz/README.md).
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= model sse config session store_import normalize payload canonical engine \
                textdiff rest mcpserver proxy proxy_frame stdio

.PHONY: all deps test-deps node-deps configure build demo test stress check-sanitize fuzz bench install clean

all: build

deps:
	@./scripts/install-deps.sh $(DEB_PACKAGES)

test-deps:
	@./scripts/install-deps.sh $(TEST_PACKAGES)

# Real MCP servers (npm, pinned) for the integration tests.
node-deps:
	@./scripts/install-node-deps.sh

$(BUILD)/build.ninja: CMakeLists.txt | deps
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS)

configure: $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	@echo "== mcpvet scan --tools examples/demo-snapshot.json =="
	@./$(BUILD)/mcpvet scan --tools examples/demo-snapshot.json; rc=$$?; \
	 echo "== exit code $$rc (0 clean, 1 findings at or above --fail-on, 3 degraded) =="; \
	 test $$rc -eq 0 -o $$rc -eq 1

test: build node-deps test-deps
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The long crash test: STRESS_ROUNDS (200) rounds of kill -9 against three
# concurrent store writers (tests/unit/test_store_crash.c; `make test` runs 40).
STRESS_ROUNDS ?= 200
stress: build
	cd $(BUILD) && MCPVET_CRASH_ROUNDS=$(STRESS_ROUNDS) ctest --output-on-failure -R 'unit.test_store_crash$$'

# The whole test suite under clang's ASan + LSan + UBSan (halt on error).
check-sanitize: deps node-deps test-deps
	@./scripts/install-deps.sh $(SANITIZE_PACKAGES)
	cmake -S . -B $(SANITIZE_BUILD) -G Ninja -DCMAKE_C_COMPILER=clang -DMCPVET_SANITIZE=ON \
	      -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS)
	cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	cd $(SANITIZE_BUILD) && \
	  ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

# Builds the fuzz targets with clang (ASan + UBSan + libFuzzer) and runs each
# for FUZZ_SECONDS; fails when any target finds a crash (inputs are kept in
# $(FUZZ_BUILD)/artifacts/<target>/).
fuzz: deps
	@./scripts/install-deps.sh $(SANITIZE_PACKAGES)
	cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_C_COMPILER=clang -DMCPVET_FUZZ=ON \
	      -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS)
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(addprefix fuzz_,$(FUZZ_TARGETS))
	./scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

bench: build
	@./scripts/install-deps.sh $(BENCH_PACKAGES)
	BENCH_SIZES="$(BENCH_SIZES)" ./bench/run.sh $(BUILD)
	./bench/servers.sh $(BUILD)
	./bench/serve.sh $(BUILD)
	./bench/proxy.sh $(BUILD)

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD) $(FUZZ_BUILD)
