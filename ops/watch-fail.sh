#!/usr/bin/env bash
# Breaks one rule in a scratch copy of the working tree, runs the tests that guard it, and says whether
# they went red. A test that stays green under the break does not guard the rule.
#   ops/watch-fail.sh <file> <text to replace> <replacement> <surefire -Dtest selector> <label>
# <file> from the repository root, e.g. src/main/java/…; the tests run from the root.
# Needs a PostgreSQL for the tests (TEST_DATABASE_URL, or the embedded fallback).
set -u
file="$1"; old="$2"; new="$3"; selector="$4"; label="$5"
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
(cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 -I{} cp --parents {} "$scratch"/)
cd "$scratch"
python3 - "$file" "$old" "$new" <<'PY' || { echo "[$label] the text to replace was not found"; exit 2; }
import sys
path, old, new = sys.argv[1:4]
text = open(path).read()
if old not in text:
    sys.exit(1)
open(path, "w").write(text.replace(old, new))
PY
if ./mvnw -q -B test -Dtest="$selector" > watch-fail.log 2>&1; then
  echo "[$label] STILL GREEN: the selected tests do not guard this rule"
  exit 1
fi
echo "[$label] red, as it should be:"
grep -h "<<<" target/surefire-reports/*.txt | head -5
