#!/bin/bash
# run.sh SNIPPETS.json WORK_DIR: compiles every snippet with real Puppet (once; delete
# WORK_DIR/puppet.json to run it again) and with modelc (dist/, so `npm run build` first), then
# prints the differences (compare.rb).
set -e
here=$(cd "$(dirname "$0")" && pwd)
snippets=$1; work=$2
mkdir -p "$work"
ruby "$here/cases.rb" "$snippets" "$work"
[ -f "$work/puppet.json" ] || ruby "$here/../oracle-batch.rb" --cases "$work/in.json" "$work/puppet.json"
PATH=/work/main/node_modules/node/bin:$PATH node "$here/modelc-batch.mjs" "$work/in.json" "$work/modelc.json"
ruby "$here/compare.rb" "$work/puppet.json" "$work/modelc.json" "$snippets"
