#!/bin/sh
# Firefox's check of the extension: `web-ext lint` (Mozilla's addons-linter), installed once
# from npm into the user's cache (needs npm). Extra arguments go to web-ext, e.g.
# `sh browser/lint.sh --output json` (tests/pipeline/browser/test_manifest.py reads that).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tools="${XDG_CACHE_HOME:-$HOME/.cache}/kuaibu/web-ext-10.7.0"
if [ ! -x "$tools/node_modules/.bin/web-ext" ]; then
    npm install --silent --no-audit --no-fund --prefix "$tools" web-ext@10.7.0 >&2
fi
exec "$tools/node_modules/.bin/web-ext" lint --source-dir "$here/extension" "$@"
