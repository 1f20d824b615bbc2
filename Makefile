# reswatch — build, run and test on a fresh Debian machine with Swift.
#   make run    installs missing apt packages, builds, runs reswatch on Examples/SampleApp
#   make test   installs missing apt packages, builds, runs every test (and the format lint)
#   make bench  release build + benchmarks beside find, cat, pngcheck and watchman (installs them)

SWIFT        ?= swift
BUILD_DEPS   := libpng-dev zlib1g-dev libinotifytools0-dev
TEST_DEPS    := util-linux socat systemd
BENCH_DEPS   := pngcheck watchman python3
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps test-deps bench-deps build release run test lint format bench clean

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

bench-deps: deps
	$(call apt_install,$(BENCH_DEPS))

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# The daemon on the bundled example, in the foreground, with the built-in defaults.
run: build
	@echo "reswatch daemon on Examples/SampleApp (Ctrl-C stops it). In another terminal:"
	@echo "  .build/debug/reswatch status        .build/debug/reswatch diagnostics"
	@echo "  .build/debug/reswatch subscribe     (then edit a file under Examples/SampleApp)"
	@echo "  echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"status\"}' | socat - UNIX-CONNECT:<socket printed below>"
	.build/debug/reswatch daemon Examples/SampleApp

lint:
	$(SWIFT) format lint --strict -r Sources Tests Package.swift

format:
	$(SWIFT) format format -i -r Sources Tests Package.swift

test: test-deps build lint
	$(SWIFT) test

bench: bench-deps release
	python3 Benchmarks/check_bench.py
	python3 Benchmarks/latency_bench.py

clean:
	rm -rf .build
