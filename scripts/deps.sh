#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install the Debian packages reclaim-replay needs, if any is missing.
# Arguments: [--tests] pkgconfig-name:debian-package ...  (from the Makefile)
# Also checks: pkg-config, uthash (header only), trace-cmd, jq and
# python3-jsonschema (tests); with --tests also chromium, which the tests
# use to render the --html page headless, valgrind, and mandoc, whose lint
# the man pages must pass (tests/cli/t86-docs.sh).
# Does nothing when everything is present.  As root it runs apt-get; as
# another user it prints the one command to run and fails.
set -eu

missing=""
tests=0
if [ "${1:-}" = --tests ]; then
	tests=1
	shift
fi
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
for pair in "$@"; do
	pc=${pair%%:*}
	deb=${pair#*:}
	if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists "$pc"; then
		missing="$missing $deb"
	fi
done
[ -f /usr/include/uthash.h ] || missing="$missing uthash-dev"
command -v trace-cmd >/dev/null 2>&1 || missing="$missing trace-cmd"
command -v jq >/dev/null 2>&1 || missing="$missing jq"
/usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1 || missing="$missing python3-jsonschema"
if [ "$tests" -eq 1 ]; then
	command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
	command -v valgrind >/dev/null 2>&1 || missing="$missing valgrind"
	command -v mandoc >/dev/null 2>&1 || missing="$missing mandoc"
fi

[ -z "$missing" ] && exit 0

echo "reclaim-replay: missing Debian packages:$missing" >&2
if [ "$(id -u)" -ne 0 ]; then
	echo "reclaim-replay: run: sudo apt-get install -y$missing" >&2
	exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "reclaim-replay: no apt-get here; install:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
if ! apt-get install -y -q $missing >/dev/null; then
	apt-get update -q >/dev/null
	# shellcheck disable=SC2086
	apt-get install -y -q $missing >/dev/null
fi
echo "reclaim-replay: installed:$missing" >&2
