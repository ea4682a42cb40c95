# SPDX-License-Identifier: GPL-2.0-only
# reclaim-replay — plain GNU make.  `make V=1` shows the commands.
#
#   make          build ./reclaim-replay
#   make demo     install missing packages, build, compare a bundled trace
#   make check    install missing packages, build, run every test
#   make asan     the same tests built with AddressSanitizer + UBSan
#   make bench    speed and memory on large recorded traces (bench/README.md)
#   make install  the binary, man pages, plug-in header, pkg-config file (PREFIX)
#   make install-dev  all of it but the binary: for building plug-ins
#   make uninstall    remove what install put there (same PREFIX, DESTDIR)
#   make fuzz     libFuzzer targets, FUZZ_SECONDS each (tests/fuzz/README.md)
#   make lab      real 6.1 kernels, stock and patched, under QEMU (docs/lab.md;
#                 opt-in, root, about 40 min the first time)

VERSION := 0.6.0
PKGS := libtracefs libtraceevent libtracecmd jansson yajl cunit libbpf
# pkg-config name -> Debian package that provides it
DEB_libtracefs := libtracefs-dev
DEB_libtraceevent := libtraceevent-dev
DEB_libtracecmd := libtracecmd-dev
DEB_jansson := libjansson-dev
DEB_yajl := libyajl-dev
DEB_cunit := libcunit1-dev
DEB_libbpf := libbpf-dev

CC ?= gcc
PKG_CONFIG ?= pkg-config
BUILD ?= build
WERROR ?= -Werror
SAN ?=

Q := @
ifeq ($(V),1)
Q :=
endif

WARN := -Wall -Wextra $(WERROR) -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wformat=2 -Wno-format-nonliteral -Wvla -Wpointer-arith
CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(SAN) -Iinclude -MMD -MP \
	-DRR_VERSION='"$(VERSION)"' $(DEP_CFLAGS)
ALL_LDFLAGS = $(LDFLAGS) $(SAN)

# Only ask pkg-config when building, so `make help` works without it.
ifneq ($(filter-out deps test-deps help clean,$(or $(MAKECMDGOALS),all)),)
DEP_CFLAGS := $(shell $(PKG_CONFIG) --cflags libtracecmd libtracefs libtraceevent jansson yajl libbpf 2>/dev/null)
DEP_LIBS := $(shell $(PKG_CONFIG) --libs libtracecmd libtracefs libtraceevent jansson yajl libbpf 2>/dev/null) -lm
CUNIT_LIBS := $(shell $(PKG_CONFIG) --libs cunit 2>/dev/null)
endif

# One folder per stage of the data flow (DESIGN.md); one object a line.
LIB_SRCS := \
	src/common/cleanup.c \
	src/common/error.c \
	src/common/lru.c \
	src/common/probe.c \
	src/common/text.c \
	src/markers/markers.c \
	src/release/release.c \
	src/release/linux-4.c \
	src/release/linux-5.c \
	src/release/linux-6.c \
	src/trace/decode.c \
	src/trace/trace.c \
	src/trace/dat.c \
	src/trace/dat-pages.c \
	src/trace/dat-probe.c \
	src/trace/pipe.c \
	src/trace/text.c \
	src/trace/text-line.c \
	src/episode/state.c \
	src/episode/nodes.c \
	src/episode/infer.c \
	src/episode/tasks.c \
	src/episode/episodes.c \
	src/episode/capture.c \
	src/episode/probe.c \
	src/episode/batch-effects.c \
	src/episode/hierarchy.c \
	src/episode/attribute-root.c \
	src/episode/attribute.c \
	src/episode/batches.c \
	src/episode/proactive.c \
	src/episode/write-probe.c \
	src/episode/requests.c \
	src/episode/snapshot.c \
	src/episode/builder.c \
	src/episode/siminput.c \
	src/sim/scan-count.c \
	src/sim/lruvec.c \
	src/sim/node.c \
	src/sim/kswapd.c \
	src/sim/try-to-free.c \
	src/sim/memory-reclaim.c \
	src/sim/sim.c \
	src/sim/cursor.c \
	src/scenario/scenario.c \
	src/fidelity/hidden.c \
	src/fidelity/fits.c \
	src/fidelity/trajectory.c \
	src/fidelity/fidelity.c \
	src/fidelity/totals.c \
	src/diff/diff.c \
	src/timing/cost-model.c \
	src/timing/batch-model.c \
	src/record/items.c \
	src/record/cgroupfs.c \
	src/record/zones.c \
	src/record/tracedat.c \
	src/record/meta.c \
	src/record/instance.c \
	src/record/cgroup.c \
	src/record/record.c \
	src/record/probes.c \
	src/policies/builtin.c \
	src/policies/registry.c \
	src/output/json-values.c src/output/json-dist.c \
	src/output/json-episode.c src/output/jw.c \
	src/output/json.c \
	src/output/jsonl.c \
	src/output/table.c \
	src/output/atomic.c \
	src/output/html.c \
	src/output/fidelity-render.c \
	src/output/report.c \
	src/replay/outputs.c \
	src/replay/input.c \
	src/replay/pick-release.c \
	src/replay/run.c \
	src/replay/writes.c \
	src/replay/recorded.c \
	src/replay/scenario.c \
	src/replay/replay.c \
	src/replay/many.c \
	src/merge/merge.c \
	src/verify/verify.c

# The command line: only these print and choose exit codes.
CLI_SRCS := \
	src/cli/main.c \
	src/cli/cli.c \
	src/cli/cmd-compare.c \
	src/cli/cmd-policies.c \
	src/cli/cmd-report.c \
	src/cli/cmd-record.c \
	src/cli/cmd-merge.c \
	src/cli/cmd-verify.c

LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
MAIN_OBJ := $(CLI_SRCS:%.c=$(BUILD)/%.o)

UNIT_SRCS := tests/unit/run-unit.c tests/unit/test-sim.c tests/unit/test-policies.c \
	tests/unit/test-kernel-model.c tests/unit/test-builder.c tests/unit/test-attribute.c tests/unit/feed.c \
	tests/unit/test-record.c tests/unit/test-probes.c \
	tests/unit/test-trace.c tests/unit/test-output.c tests/unit/test-timing.c \
	tests/unit/test-fidelity.c
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/%.o)

# The simulator's tests against src/sim, src/policies, src/release and
# src/common alone: if the simulator came to need a trace, JSON or the
# builder, this would not link.
SIM_ONLY_OBJS := $(filter $(BUILD)/src/sim/% $(BUILD)/src/policies/% $(BUILD)/src/release/% \
	$(BUILD)/src/common/%,$(LIB_OBJS))
SIM_TEST_OBJS := $(addprefix $(BUILD)/tests/unit/,run-sim.o test-sim.o test-policies.o \
	test-kernel-model.o)

TEST_PLUGIN := $(addprefix $(BUILD)/tests/plugins/,ceil-file.so bad-abi.so no-entry.so \
	named-kernel.so einval.so short-v2.so future-abi.so ceil-file-v1.so sleepy.so segv.so) \
	$(BUILD)/examples/policy-example.so $(BUILD)/examples/senpai-chunk.so

.PHONY: all deps test-deps demo check asan clean help unit install install-dev uninstall bench

all: reclaim-replay

help:
	@sed -n '2,15p' Makefile

deps:
	$(Q)./scripts/deps.sh $(foreach p,$(PKGS),$(p):$(DEB_$(p)))

# What the tests need on top (a headless browser for the --html page).
test-deps:
	$(Q)./scripts/deps.sh --tests $(foreach p,$(PKGS),$(p):$(DEB_$(p)))

reclaim-replay: $(MAIN_OBJ) $(LIB_OBJS) | depcheck
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(DEP_LIBS) -ldl -lpthread

.PHONY: depcheck
depcheck:
	$(Q)for p in $(PKGS); do \
		$(PKG_CONFIG) --exists $$p || { \
		echo "reclaim-replay: missing library '$$p' (Debian package: $$(case $$p in libtracefs) echo libtracefs-dev;; libtraceevent) echo libtraceevent-dev;; libtracecmd) echo libtracecmd-dev;; jansson) echo libjansson-dev;; yajl) echo libyajl-dev;; cunit) echo libcunit1-dev;; libbpf) echo libbpf-dev;; esac)); run 'make deps'" >&2; exit 1; }; \
	done

# (the flags and the version are in this file: a change rebuilds)
$(BUILD)/%.o: %.c Makefile | depcheck
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/unit/run-unit: $(UNIT_OBJS) $(LIB_OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(DEP_LIBS) $(CUNIT_LIBS) -ldl -lpthread

$(BUILD)/tests/unit/run-sim: $(SIM_TEST_OBJS) $(SIM_ONLY_OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CUNIT_LIBS) -ldl

# The example policy, built the way a user builds one (see its header).
examples/policy-example.so: examples/policy-example.c include/reclaim-replay/policy.h
	@echo "  CC      $@"
	$(Q)$(CC) -std=gnu11 $(WARN) $(CFLAGS) -Iinclude -shared -fPIC -o $@ $<

$(BUILD)/tests/plugins/%.so: tests/plugins/%.c include/reclaim-replay/policy.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) -std=gnu11 $(WARN) $(CFLAGS) $(SAN) -Iinclude -shared -fPIC -o $@ $<

# The same test plug-in built against the frozen header of ABI version 1:
# the host must keep loading plug-ins built for every version it claims.
$(BUILD)/tests/plugins/ceil-file-v1.so: tests/plugins/ceil-file.c tests/plugins/abi-v1/reclaim-replay/policy.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@ (ABI v1 header)"
	$(Q)$(CC) -std=gnu11 $(WARN) $(CFLAGS) $(SAN) -Itests/plugins/abi-v1 -shared -fPIC -o $@ $<

$(BUILD)/examples/%.so: examples/%.c include/reclaim-replay/policy.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) -std=gnu11 $(WARN) $(CFLAGS) $(SAN) -Iinclude -shared -fPIC -o $@ $<

# Fuzzing (libFuzzer, clang; Debian: clang, libclang-rt-14-dev): each
# target runs FUZZ_SECONDS, seeded from the bundled traces, fixtures and
# scenarios (tests/fuzz/seeds.sh); findings land in build-fuzz/out-TARGET/.
# See tests/fuzz/README.md.
FUZZ_SECONDS ?= 300
FUZZ_CC ?= clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_TARGETS := fuzz-text fuzz-dat fuzz-scenario fuzz-markers

build-fuzz/fuzz-text: FUZZ_DEF := -DFUZZ_SUFFIX='".txt"'
build-fuzz/fuzz-dat: FUZZ_DEF := -DFUZZ_SUFFIX='".dat"' -DFUZZ_REPORT_ONLY
build-fuzz/fuzz-scenario: FUZZ_DEF := -DFUZZ_SUFFIX='".json"'
build-fuzz/fuzz-text build-fuzz/fuzz-dat build-fuzz/fuzz-scenario: tests/fuzz/fuzz-replay.c $(LIB_SRCS) Makefile | depcheck
	@mkdir -p build-fuzz
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) -std=gnu11 -D_GNU_SOURCE -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer \
		$(FUZZ_DEF) -DRR_VERSION='"$(VERSION)"' -Iinclude $(DEP_CFLAGS) -o $@ \
		tests/fuzz/fuzz-replay.c $(LIB_SRCS) $(DEP_LIBS) -ldl -lpthread

build-fuzz/fuzz-markers: tests/fuzz/fuzz-markers.c src/markers/markers.c src/common/lru.c Makefile
	@mkdir -p build-fuzz
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) -std=gnu11 -D_GNU_SOURCE -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer \
		-o $@ tests/fuzz/fuzz-markers.c src/markers/markers.c src/common/lru.c

.PHONY: fuzz fuzz-build
fuzz-build: $(addprefix build-fuzz/,$(FUZZ_TARGETS))

fuzz: fuzz-build
	$(Q)FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh $(FUZZ_TARGETS)

# The benchmark (not a test: it prints figures; see bench/README.md).
bench/floor: bench/floor.c | depcheck
	@echo "  CC      $@"
	$(Q)$(CC) -O2 -Wall -Wextra -o $@ $< $$($(PKG_CONFIG) --cflags --libs libtracecmd)

bench: reclaim-replay bench/floor
	$(Q)bench/run.sh

# The kernel lab (docs/lab.md): not part of check; needs root, QEMU and
# linux-source-6.1 (lab/lab.sh names what is missing).  LAB="VARIANT/WORKLOAD
# ..." runs part of it.
.PHONY: lab lab-tools
lab-tools: build/lab/labtool

build/lab/labtool: lab/guest/labtool.c Makefile
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) -std=gnu11 -D_GNU_SOURCE $(WARN) -O2 -o $@ $<

lab: reclaim-replay lab-tools
	$(Q)lab/lab.sh $(LAB)

demo: deps
	$(Q)$(MAKE) --no-print-directory reclaim-replay
	./reclaim-replay compare traces/anon-swap.dat -o demo-diff.json
	@echo "JSON diff written to demo-diff.json"

check: test-deps
	$(Q)$(MAKE) --no-print-directory reclaim-replay $(BUILD)/tests/unit/run-unit \
		$(BUILD)/tests/unit/run-sim $(TEST_PLUGIN)
	$(Q)BUILD=$(BUILD) ./tests/run-all.sh

asan:
	$(Q)$(MAKE) --no-print-directory BUILD=build-asan CFLAGS="-O1 -g" \
		SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		RR_BIN=build-asan/reclaim-replay check-asan

.PHONY: check-asan
check-asan: test-deps
	$(Q)$(MAKE) --no-print-directory BUILD=$(BUILD) SAN="$(SAN)" CFLAGS="$(CFLAGS)" \
		$(BUILD)/reclaim-replay $(BUILD)/tests/unit/run-unit $(BUILD)/tests/unit/run-sim \
		$(TEST_PLUGIN)
	$(Q)LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 UBSAN_OPTIONS=print_stacktrace=1 \
		BUILD=$(BUILD) RR_BIN=$(BUILD)/reclaim-replay ./tests/run-all.sh

$(BUILD)/reclaim-replay: $(MAIN_OBJ) $(LIB_OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(DEP_LIBS) -ldl -lpthread

PREFIX ?= /usr/local
DESTDIR ?=
# Every page of man/ (policy(7) is made from its .in file).
MAN_PAGES := $(sort $(wildcard man/*.[157]) man/reclaim-replay-policy.7)
INSTALLED := $(PREFIX)/bin/reclaim-replay $(PREFIX)/include/reclaim-replay/policy.h \
	$(PREFIX)/share/pkgconfig/reclaim-replay.pc \
	$(foreach m,$(MAN_PAGES),$(PREFIX)/share/man/man$(subst .,,$(suffix $(m)))/$(notdir $(m)))

install: reclaim-replay install-dev
	install -D -m 755 reclaim-replay $(DESTDIR)$(PREFIX)/bin/reclaim-replay

# What plug-in authors need: the header, its pkg-config file, the pages.
install-dev: $(MAN_PAGES)
	install -D -m 644 include/reclaim-replay/policy.h \
		$(DESTDIR)$(PREFIX)/include/reclaim-replay/policy.h
	for m in $(MAN_PAGES); do \
		install -D -m 644 $$m $(DESTDIR)$(PREFIX)/share/man/man$${m##*.}/$${m##*/} || exit 1; \
	done
	@mkdir -p $(BUILD)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' reclaim-replay.pc.in \
		>$(BUILD)/reclaim-replay.pc
	install -D -m 644 $(BUILD)/reclaim-replay.pc $(DESTDIR)$(PREFIX)/share/pkgconfig/reclaim-replay.pc

# Removes what install put there (the directories it shares with others stay).
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	rmdir $(DESTDIR)$(PREFIX)/include/reclaim-replay 2>/dev/null || true

# The policy(7) page's EXAMPLE is examples/senpai-chunk.c.
man/reclaim-replay-policy.7: man/reclaim-replay-policy.7.in examples/senpai-chunk.c scripts/man-example.sh
	$(Q)scripts/man-example.sh

clean:
	rm -rf build build-asan reclaim-replay demo-diff.json examples/*.so

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
