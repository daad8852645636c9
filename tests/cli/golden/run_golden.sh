#!/usr/bin/env bash
# Runs every case in cases.txt and compares stdout (and the exit code) with golden/<NAME>.txt; a
# case whose third field is `stderr` compares standard error too, after standard output.
# RDMADIAG_UPDATE_GOLDEN=1 rewrites the expected files instead.
set -uo pipefail
bin="$(realpath "$1")"
here="$(cd "$(dirname "$0")" && pwd)"
FIXTURES="$(cd "$here/../../fixtures" && pwd)"
fail=0
count=0
while IFS='|' read -r name args streams; do
    name="$(echo "$name" | xargs)"
    [ -z "$name" ] || [[ "$name" == \#* ]] && continue
    args="${args//\$FIXTURES/$FIXTURES}"
    count=$((count + 1))
    if [ "$(echo "$streams" | xargs)" = stderr ]; then
        errors="$(mktemp)"
        # shellcheck disable=SC2086
        actual="$(cd "$here" && "$bin" $args --clock.start=2026-01-01T00:00:00Z 2>"$errors"
            echo "exit=$?"
            sed 's/^/stderr: /' "$errors")"
        rm -f "$errors"
    else
        # shellcheck disable=SC2086
        actual="$(cd "$here" && "$bin" $args --clock.start=2026-01-01T00:00:00Z 2>/dev/null
            echo "exit=$?")"
    fi
    actual="${actual//$FIXTURES/\$FIXTURES}"
    expected_file="$here/$name.txt"
    if [ "${RDMADIAG_UPDATE_GOLDEN:-0}" = 1 ]; then
        printf '%s\n' "$actual" > "$expected_file"
        continue
    fi
    if [ ! -f "$expected_file" ]; then
        echo "FAIL $name: no golden file $expected_file (run with RDMADIAG_UPDATE_GOLDEN=1)"
        fail=$((fail + 1))
    elif ! diff -u "$expected_file" <(printf '%s\n' "$actual") > /tmp/rdmadiag-golden-$$.diff; then
        echo "FAIL $name"
        cat /tmp/rdmadiag-golden-$$.diff
        fail=$((fail + 1))
    fi
    rm -f /tmp/rdmadiag-golden-$$.diff
done < "$here/cases.txt"
echo "golden: $((count - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
