#!/usr/bin/env bash
# make_pot.sh OUT.pot FILE.c...: the message template, every string the C
# sources pass to _(), N_() or i18n_plural(). The creation date is left out,
# so the file changes only when the messages do.
set -eu
out=$1
shift
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
xgettext --from-code=UTF-8 --language=C --keyword=_ --keyword=N_ --keyword=i18n_plural:1,2 \
  --add-comments=TRANSLATORS: --package-name=attnlab --msgid-bugs-address='the attnlab issue tracker' --sort-by-file \
  --no-wrap -o "$tmp" "$@"
sed -e '/^"POT-Creation-Date:/d' -e 's/charset=CHARSET/charset=UTF-8/' "$tmp" > "$out"
