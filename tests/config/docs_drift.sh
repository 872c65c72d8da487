#!/bin/sh
# docs_drift.sh LOOM_INFO DOCS — fail when DOCS (docs/config.md) is not exactly what
# `loom-info --config-markdown` writes from the configuration table.
info=$1; docs=$2
tmp=$(mktemp) || exit 99
"$info" --config-markdown >"$tmp" || { echo "docs_drift: $info --config-markdown failed" >&2; rm -f "$tmp"; exit 1; }
if ! diff -u "$docs" "$tmp"; then
  echo "docs_drift: $docs differs from the table in src/core/config_table.h (diff above)." >&2
  echo "Regenerate it: loom-info --config-markdown > docs/config.md" >&2
  echo "  (from the build tree: $info --config-markdown > $docs)" >&2
  rm -f "$tmp"; exit 1
fi
rm -f "$tmp"
echo "docs_drift: $docs matches the table"
