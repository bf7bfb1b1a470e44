# scprof — deterministic cost profiler for smart contracts.
#
#   make            build bin/scprof and lib/libscprof.a (release)
#   make demo       install missing packages, build, profile the examples (Soroban, Solana)
#   make check      install missing packages, build, run every test (sanitized)
#   make test       run every test against the release build
#   make layers     check that every src/ folder uses only the layers below it
#   make san        build the ASan+UBSan variant under build/san
#   make install PREFIX=/usr/local
#
# Every library is found with pkg-config, except libiberty (Debian ships no .pc).

MAKEFLAGS += --no-print-directory
PREFIX   ?= /usr/local
BUILD    ?= build
CC       ?= cc
CLANG    ?= clang
PKGS      = libdw libelf jansson libcrypto libsodium libsecp256k1 zlib libzstd gmp
VERSION   = 0.1.0

WARN      = -Wall -Wextra -Werror -Wshadow -Wpointer-arith -Wstrict-prototypes \
            -Wmissing-prototypes -Wno-unused-parameter
CFLAGS   ?= -O2 -g
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) -D_GNU_SOURCE \
             -DSCP_VERSION='"$(VERSION)"' -Iinclude -Isrc \
             $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS    = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -liberty -lm -pthread
TEST_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)

# Every folder under src/ except cli/ is the library; a module may be split
# into layer folders one level down (src/soroban/core/ ...).  scripts/check-layers
# says which folder may use which.
LIB_SRC   = $(sort $(filter-out src/cli/%,$(wildcard src/*/*.c src/*/*/*.c)))
CLI_SRC   = $(sort $(wildcard src/cli/*.c))
TEST_SRC  = $(sort $(wildcard tests/*/test_*.c))
FUZZ_SRC  = $(sort $(wildcard tests/fuzz/fuzz_*.c))
BENCH_SRC = $(sort $(wildcard bench/*.c))

LIB_OBJ   = $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ   = $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_BIN  = $(TEST_SRC:%.c=$(BUILD)/%)
BENCH_BIN = $(BENCH_SRC:%.c=$(BUILD)/%)
LIB       = $(BUILD)/lib/libscprof.a
BIN       = $(BUILD)/bin/scprof

# WASM fixtures: every .c under examples/ and tests/fixtures/wasm/ becomes a
# contract built the way the README tells users to build theirs (-O2 -g).
# -fdebug-prefix-map: the DWARF names the checkout as ".", so the bytes of
# a module -- and the storage charges that grow with its size -- are the
# same wherever the tree is cloned.
WASM_CFLAGS = --target=wasm32 -O2 -g -nostdlib -fno-builtin -Iexamples -fdebug-prefix-map=$(CURDIR)=. \
              -Wl,--no-entry -Wl,--export-dynamic -Wl,--allow-undefined
EXAMPLES  = $(patsubst %.c,$(BUILD)/%.wasm,$(wildcard examples/*.c))
BENCH_WASM = $(patsubst %.c,$(BUILD)/%.wasm,$(wildcard bench/wasm/*.c bench/soroban/*.c))
FIXTURES  = $(patsubst %.c,$(BUILD)/%.wasm,$(wildcard tests/fixtures/wasm/*.c)) \
            $(patsubst %.wat,$(BUILD)/%.wasm,$(wildcard tests/fixtures/wat/*.wat))

.PHONY: all deps demo check test san install clean fixtures bench fuzz layers clang-syntax
all: $(BIN) $(LIB) fixtures

deps:
	@sh scripts/deps

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BIN): $(CLI_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(LDLIBS)

# Tests see tests/ on the include path (build_dir.h).  A helper that
# several tests share is a tests/AREA/NAME.c compiled once; the tests that
# need it list its object below and link it.
$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests -MMD -MP -c $< -o $@

$(BUILD)/tests/%: tests/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests -MMD -MP -o $@ $< $(filter %.o,$^) $(LIB) $(LDLIBS) $(TEST_LIBS)

# a string table running out of memory: realloc fails on the call it picks
$(BUILD)/tests/util/test_strtab_oom: TEST_LIBS += -Wl,--wrap=realloc
$(BUILD)/tests/soroban/test_replay $(BUILD)/tests/soroban/test_sac_whole: \
  $(BUILD)/tests/soroban/sac_flows.o
$(BUILD)/tests/wasm/test_fuel $(BUILD)/tests/wasm/test_fused: $(BUILD)/tests/wasm/fuel_harness.o

$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# A fixture named *_dwarf5.c is built with DWARF 5, *_O0.c without optimisation.
$(BUILD)/%_dwarf5.wasm: WASM_EXTRA = -gdwarf-5
$(BUILD)/%_O0.wasm: WASM_EXTRA = -O0
# *_nodebug.c: no DWARF, name section only; *_stripped.c: no names either.
$(BUILD)/%_nodebug.wasm: WASM_EXTRA = -g0
$(BUILD)/%_stripped.wasm: WASM_EXTRA = -g0 -Wl,--strip-all

$(BUILD)/%.wasm: %.c examples/soroban.h
	@mkdir -p $(dir $@)
	$(CLANG) $(WASM_CFLAGS) $(WASM_EXTRA) -o $@ $<

# Hand-written WAT fixtures, for costs worked out by hand from the rules.
$(BUILD)/%.wasm: %.wat
	@mkdir -p $(dir $@)
	wat2wasm $< -o $@

# Rust fixtures: no_std contracts built by Debian's rustc (always
# /usr/bin/rustc, never a rustup toolchain) as cargo would, from the crate
# folder with src/lib.rs relative, at opt-level z and 3, legacy and v0
# mangling, full debug info.  The crate folder is remapped to /src/NAME so
# the bytes do not depend on where the tree is checked out.
RUSTC     = /usr/bin/rustc
RUST_CRATES = $(notdir $(wildcard tests/fixtures/rust/*))
RUST_FIXTURES = $(if $(wildcard $(RUSTC)),$(foreach c,$(RUST_CRATES),$(foreach v,Oz O3 Oz_v0 O3_v0,$(BUILD)/tests/fixtures/rust/$(c)_$(v).wasm)))
RUSTFLAGS_FIX = --edition 2021 --crate-type cdylib --target wasm32-unknown-unknown \
                -C debuginfo=2 -C panic=abort -C codegen-units=1
$(BUILD)/tests/fixtures/rust/%_Oz.wasm: RUST_OPT = -C opt-level=z
$(BUILD)/tests/fixtures/rust/%_O3.wasm: RUST_OPT = -C opt-level=3
$(BUILD)/tests/fixtures/rust/%_Oz_v0.wasm: RUST_OPT = -C opt-level=z -C symbol-mangling-version=v0
$(BUILD)/tests/fixtures/rust/%_O3_v0.wasm: RUST_OPT = -C opt-level=3 -C symbol-mangling-version=v0
.SECONDEXPANSION:
$(BUILD)/tests/fixtures/rust/%.wasm: $$(wildcard tests/fixtures/rust/$$(firstword $$(subst _, ,$$*))/src/*.rs)
	@mkdir -p $(dir $@)
	cd tests/fixtures/rust/$(firstword $(subst _, ,$*)) && $(RUSTC) $(RUSTFLAGS_FIX) $(RUST_OPT) \
	  --crate-name $(firstword $(subst _, ,$*)) \
	  --remap-path-prefix=$(CURDIR)/tests/fixtures/rust/$(firstword $(subst _, ,$*))=/src/$(firstword $(subst _, ,$*)) \
	  -o $(CURDIR)/$@ src/lib.rs


# sBPF fixtures: each tests/fixtures/sbpf/NAME.c is compiled with clang
# -target bpf and linked by the project's fixture linker (tools/sbpf-link.c,
# see its head comment) into NAME.so (sBPF v0, ET_DYN with .rel.dyn) and
# NAME_v3.so (the strict v3 layout).  DWARF 4: solana-sbpf refuses section
# names over 15 bytes, and DWARF 5 brings .debug_str_offsets.
SBPF_LINK   = $(BUILD)/tools/sbpf-link
SBPF_CFLAGS = -target bpf -O2 -g -gdwarf-4 -ffreestanding -fno-builtin -fno-jump-tables \
              -Itests/fixtures/sbpf -fdebug-prefix-map=$(CURDIR)=.
SBPF_SRC    = $(wildcard tests/fixtures/sbpf/*.c)
SBPF_FIXTURES = $(SBPF_SRC:%.c=$(BUILD)/%.so) $(SBPF_SRC:%.c=$(BUILD)/%_v3.so)

$(SBPF_LINK): tools/sbpf-link.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $<

$(BUILD)/tests/fixtures/sbpf/%.o: tests/fixtures/sbpf/%.c tests/fixtures/sbpf/sol.h
	@mkdir -p $(dir $@)
	$(CLANG) $(SBPF_CFLAGS) -c -o $@ $<

$(BUILD)/tests/fixtures/sbpf/%_v3.so: $(BUILD)/tests/fixtures/sbpf/%.o $(SBPF_LINK)
	$(SBPF_LINK) --v3 -o $@ $<

$(BUILD)/tests/fixtures/sbpf/%.so: $(BUILD)/tests/fixtures/sbpf/%.o $(SBPF_LINK)
	$(SBPF_LINK) -o $@ $<

.SECONDARY: $(SBPF_SRC:%.c=$(BUILD)/%.o)

# sBPF benchmark programs (bench/sbpf/NAME.c), built and linked like the
# fixtures, for make bench only.
BENCH_SBPF = $(patsubst %.c,$(BUILD)/%.so,$(wildcard bench/sbpf/*.c))
$(BUILD)/bench/sbpf/%.o: bench/sbpf/%.c tests/fixtures/sbpf/sol.h
	@mkdir -p $(dir $@)
	$(CLANG) $(SBPF_CFLAGS) -c -o $@ $<
$(BUILD)/bench/sbpf/%.so: $(BUILD)/bench/sbpf/%.o $(SBPF_LINK)
	$(SBPF_LINK) -o $@ $<

fixtures: $(EXAMPLES) $(FIXTURES) $(RUST_FIXTURES) $(SBPF_FIXTURES)

demo: deps
	$(MAKE) all
	$(BIN) profile $(BUILD)/examples/demo.wasm run u32:200 -o out/demo
	$(BIN) profile $(BUILD)/tests/fixtures/sbpf/counter.so --ix 32 -o out/demo-sol -q
	@echo "Solana: the profile of counter.so --ix 32 is in out/demo-sol/ (report.txt, flamegraph.svg)"

# Every folder of src/ is a layer that uses only the layers below it: the
# order is written in scripts/check-layers, which reads the includes and,
# with nm, the calls between the objects built here.
layers: $(LIB) $(CLI_OBJ)
	@python3 scripts/check-layers --build $(BUILD)

test: all $(TEST_BIN) $(BENCH_BIN) layers
	@sh tests/run.sh $(BUILD)

san:
	$(MAKE) BUILD=build/san EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" all

check: deps
	$(MAKE) all
	$(MAKE) BUILD=build/san EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" test

bench: all $(BENCH_BIN) $(BENCH_WASM) $(BENCH_SBPF)
	@sh bench/run.sh $(BUILD)

# libFuzzer targets (clang), built against their own instrumented library;
# run each for FUZZ_SECONDS over tests/fuzz/corpus-NAME (else tests/fuzz/corpus),
# with tests/fuzz/NAME.dict when there is one, adding what it finds; undefined
# behaviour stops the run, as it stops make check's sanitized build.  The
# WASM fixtures are built too: fuzz_scenario's scenarios name them.
FUZZ_SECONDS ?= 60
fuzz:
	$(MAKE) BUILD=build/fuzz CC=clang EXTRA_CFLAGS="-fsanitize=fuzzer-no-link,address,undefined" build/fuzz/lib/libscprof.a
	$(MAKE) BUILD=build/fuzz fixtures
	@for f in $(FUZZ_SRC); do \
	  n=$$(basename $$f .c); \
	  clang $(ALL_CFLAGS) -fsanitize=fuzzer,address,undefined -o build/fuzz/$$n $$f build/fuzz/lib/libscprof.a $(LDLIBS) || exit 1; \
	  mkdir -p build/fuzz/corpus-$$n; \
	  seeds=tests/fuzz/corpus; [ -d tests/fuzz/corpus-$${n#fuzz_} ] && seeds=tests/fuzz/corpus-$${n#fuzz_}; \
	  dict=; [ -f tests/fuzz/$${n#fuzz_}.dict ] && dict=-dict=tests/fuzz/$${n#fuzz_}.dict; \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 build/fuzz/$$n -max_total_time=$(FUZZ_SECONDS) -max_len=65536 $$dict -artifact_prefix=build/fuzz/ build/fuzz/corpus-$$n $$seeds || exit 1; \
	done

# make fuzz compiles the library and the fuzz targets with clang, whose
# warnings are not gcc's; the tests run this so a warning only clang sees
# cannot leave make fuzz broken unnoticed.
clang-syntax:
	@for f in $(LIB_SRC) $(FUZZ_SRC); do \
	  $(CLANG) $(ALL_CFLAGS) -fsyntax-only $$f || { echo "FAIL clang: $$f"; exit 1; }; \
	done

install: $(BIN) $(LIB)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/scprof
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libscprof.a
	install -m 644 include/scprof.h include/scprof_err.def $(DESTDIR)$(PREFIX)/include/

clean:
	rm -rf build out

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
