#!/bin/bash
# record-fixture.sh NAME CASE_DIR "description"
#
# Turns a harness case (OUT/cases/<module>/<case>) into test/fixtures/realworld/NAME: its site.pp (and
# Hiera data), the case's facts (the harness's --facts node, by default the shared Debian 12 one), a file per module naming the installed module directory,
# case.yaml, and expected.json recorded by real Puppet through ../shared/oracle/compile on the case
# materialized with symlinks. Prints whether modelc (dist/) gives the same. Add the case to the
# table in test/fixtures/realworld/README.md; never edit expected.json by hand.
set -e
name=$1; src=$2; desc=$3
[ -n "$desc" ] || { echo "usage: record-fixture.sh NAME CASE_DIR DESCRIPTION" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/../../.." && pwd)
dst=$repo/test/fixtures/realworld/$name
[ -e "$dst" ] && { echo "exists: $dst" >&2; exit 1; }
mkdir -p "$dst/manifests" "$dst/modules"
cp "$src/manifests/site.pp" "$dst/manifests/site.pp"
if [ -f "$src/hiera.yaml" ]; then cp "$src/hiera.yaml" "$dst/"; cp -r "$src/data" "$dst/"; fi
cp "$src/facts.yaml" "$dst/facts.yaml"
mods=()
for m in "$src"/modules/*; do n=$(basename "$m"); readlink "$m" > "$dst/modules/$n"; mods+=("$n"); done
tmpd=$(mktemp -d /tmp/rwfix-XXXX)
trap 'rm -rf "$tmpd"' EXIT
mkdir -p "$tmpd/c/modules"
cp -r "$dst/manifests" "$dst/facts.yaml" "$tmpd/c/"
if [ -f "$dst/hiera.yaml" ]; then cp -r "$dst/hiera.yaml" "$dst/data" "$tmpd/c/"; fi
for m in "$dst"/modules/*; do ln -s "$(cat "$m")" "$tmpd/c/modules/$(basename "$m")"; done
rc=0
/work/shared/oracle/compile "$tmpd/c" --node web01.example.com --facts "$tmpd/c/facts.yaml" > "$dst/expected.json" || rc=$?
expect=catalog; [ "$rc" = 1 ] && expect=error
{
    printf "description: '%s'\n" "${desc//\'/\'\'}"
    echo "node: web01.example.com"
    echo "facts: facts.yaml"
    echo "modules:"
    for n in "${mods[@]}"; do echo "- $n"; done
    echo "expect: $expect"
    echo "recorded: puppet-agent 7.23.0-1+deb12u1 through ../shared/oracle/compile CASE --node web01.example.com --facts facts.yaml"
} > "$dst/case.yaml"
PATH=/work/main/node_modules/node/bin:$PATH node "$repo/bin/modelc.js" compile "$tmpd/c" --node web01.example.com --facts "$tmpd/c/facts.yaml" --format normalized > "$tmpd/m.json" 2>/dev/null || true
if cmp -s "$tmpd/m.json" "$dst/expected.json"; then echo "$name: $expect, modelc the same"; else echo "$name: $expect, modelc DIFFERS"; fi
