# Quick start on Debian 12:  make run   (install packages, build, open the app on the default demo)
#                            make test  (install packages, build, run the test suite)
BUILD := build

.PHONY: run test build deps bench clean sanitize fuzz

deps:
	@scripts/install-deps.sh

build: deps
	@test -f $(BUILD)/build.ninja || cmake --preset release
	cmake --build --preset release

run: build
	./$(BUILD)/syncscope

test: build
	ctest --preset release
	@echo "GPU tests (label gpu): $$(./$(BUILD)/syncscope run kogge-stone --gpu | grep '^gpu')"

bench: build
	./$(BUILD)/bench/syncscope_bench
	bench/gui_frame_bench.sh $(BUILD)/syncscope
	bench/peer_oclgrind.sh $(BUILD)
	bench/peak_memory.sh $(BUILD)

# The unit tests under ASan + UBSan, the threaded tests under TSan (scripts/sanitize.sh).
sanitize: deps
	scripts/sanitize.sh all

# Each libFuzzer target (tests/fuzz) for a million executions (CI: 30 s each).
fuzz: deps
	scripts/fuzz.sh --runs 1000000

clean:
	rm -rf $(BUILD) build-debug build-device build-asan build-tsan build-fuzz
