#!/usr/bin/env bash
# check_catalogs.sh LANG...: each shipped catalog (assets/po/LANG.po) holds
# exactly the messages of the sources, all translated, none fuzzy or stale,
# with format directives that match (msgfmt --check), and the checked-in
# template is current. Names every message that is wrong; prints
# "catalogs: N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tests/i18n/make_pot.sh "$tmp/now.pot" $(find src -name '*.[ch]' | sort) || exit 1
passed=0 failed=0
ids() { msgattrib --no-obsolete --no-wrap "$1" | python3 -c '
import sys, re
text = sys.stdin.read()
for m in re.finditer(r"^msgid ((?:\".*\"\n)+)", text, re.M):
    s = "".join(re.findall(r"\"(.*)\"", m.group(1)))
    if s: print(s)' | sort; }
ids "$tmp/now.pot" > "$tmp/now.ids"
if ! diff -q <(ids assets/po/attnlab.pot) "$tmp/now.ids" > /dev/null; then
  echo "assets/po/attnlab.pot: not current with the sources (run make pot):"
  diff <(ids assets/po/attnlab.pot) "$tmp/now.ids" | sed -n 's/^[<>] /  /p' | head -20
  failed=$((failed + 1))
else
  passed=$((passed + 1))
fi
for lang in "$@"; do
  po=assets/po/$lang.po ok=1
  if [ ! -f "$po" ]; then echo "$po: missing"; failed=$((failed + 1)); continue; fi
  ids "$po" > "$tmp/$lang.ids"
  missing=$(comm -13 "$tmp/$lang.ids" "$tmp/now.ids")
  stale=$(comm -23 "$tmp/$lang.ids" "$tmp/now.ids")
  [ -z "$missing" ] || { echo "$po: misses $(echo "$missing" | wc -l) messages (run make pot, then msgmerge):"; echo "$missing" | head -10 | sed 's/^/  /'; ok=0; }
  [ -z "$stale" ] || { echo "$po: $(echo "$stale" | wc -l) stale messages, no longer in the sources:"; echo "$stale" | head -10 | sed 's/^/  /'; ok=0; }
  fuzzy=$(msgattrib --only-fuzzy --no-obsolete "$po" | grep -c '^msgid ' || true)
  [ "$fuzzy" = 0 ] || { echo "$po: $((fuzzy - 1)) fuzzy messages (a fuzzy entry is not used; review and clear the flag)"; ok=0; }
  untr=$(msgattrib --untranslated --no-obsolete "$po" | grep -c '^msgid ' || true)
  [ "$untr" = 0 ] || { echo "$po: $((untr - 1)) untranslated messages:"; msgattrib --untranslated --no-obsolete --no-wrap "$po" | sed -n 's/^msgid "\(..*\)"/  \1/p' | head -10; ok=0; }
  obs=$(msgattrib --only-obsolete "$po" | grep -c '^#~ msgid ' || true)
  [ "$obs" = 0 ] || { echo "$po: $obs obsolete (#~) entries: remove them"; ok=0; }
  msgfmt --check -o /dev/null "$po" 2>&1 | sed 's/^/  /' | head -10
  msgfmt --check -o /dev/null "$po" 2>/dev/null || ok=0
  if [ $ok = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "catalogs: $passed passed, $failed failed"
[ $failed = 0 ]
