#!/bin/sh
# loomcc_no_plugin.sh LOOMCC CC SOURCE — a copy of loomcc that has no plugin (as when loom was
# built without GCC's plugin headers): `-fprivatize` stops with the reason, the default
# compiles with a warning, -fno-privatize compiles silently.
loomcc=$1 cc=$2 src=$3
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
sed -e "s|^loom_plugin=.*|loom_plugin=|" \
    -e "s|^loom_plugin_why=.*|loom_plugin_why='GCC plugin headers are not installed (test)'|" \
    "$loomcc" >"$tmp/loomcc"
fail=0
LOOMCC_CC=$cc sh "$tmp/loomcc" -fprivatize -c "$src" -o "$tmp/a.o" 2>"$tmp/err"
rc=$?
cat "$tmp/err"
if [ $rc = 0 ] || ! grep -q "loomcc: -fprivatize: cannot privatize globals: GCC plugin headers are not installed (test)" "$tmp/err"; then
  echo "loomcc -fprivatize without plugin: status $rc, expected 1 and the reason" >&2; fail=1
fi
if [ -e "$tmp/a.o" ]; then
  echo "loomcc -fprivatize without plugin compiled anyway" >&2; fail=1
fi
LOOMCC_CC=$cc sh "$tmp/loomcc" -c "$src" -o "$tmp/b.o" 2>"$tmp/err" || { echo "default build failed" >&2; fail=1; }
cat "$tmp/err"
grep -q "warning: global variables will be shared by all ranks" "$tmp/err" ||
  { echo "default build without plugin: no warning" >&2; fail=1; }
LOOMCC_CC=$cc sh "$tmp/loomcc" -fno-privatize -c "$src" -o "$tmp/c.o" 2>"$tmp/err" || { echo "-fno-privatize build failed" >&2; fail=1; }
if [ -s "$tmp/err" ]; then
  echo "-fno-privatize without plugin printed: $(cat "$tmp/err")" >&2; fail=1
fi
[ $fail = 0 ] && echo "loomcc without plugin: ok"
exit $fail
