#!/usr/bin/env python3
"""Checks the project's prose. Usage:
  python3 ops/check-doc-links.py [repository root, default .]
  python3 ops/check-doc-links.py --self-test

1. Every relative Markdown link in README.md, BENCHMARKS.md (if present) and docs/*.md names a file of the
   repository and, for a .md target with #fragment, a heading of it (GitHub anchor rules).
2. That prose, and the comments of the main code (src/main, or service/src/main and simulator/src/main in the
   older two-module layout), say how things are now: no issue number ("issue 12", "Issue #12"), no commit
   hash (7-40 hex digits with a digit and a letter), no machine path (/work/, /home/, /tmp/, /root/);
   and a main code comment names no doc (docs/x.md, README.md) that does not exist.
   Git keeps the history. Two places may hold what the rule refuses: the table rows of docs/benchmarks.md
   may name the commit a figure was measured on, and applied Flyway migrations (db/migration) are never
   edited (Flyway checks their checksums), so they are not read."""
import re, os, sys, glob

ISSUE = re.compile(r'\bissues?\s+#?\d+', re.I)
HASH = re.compile(r'(?<![0-9A-Za-z_])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![0-9A-Za-z_])')
MACHINE_PATH = re.compile(r'(?<![\w.])/(?:work|home|tmp|root)/')
DOC_NAMED = re.compile(r'(?<![\w/])(?:docs/[\w.-]+\.(?:md|json)|README\.md|BENCHMARKS\.md)')


def slug(h):
    h = h.strip().lower()
    h = re.sub(r'[^\w\- ]', '', h)   # GitHub: drop punctuation except - and _, keep word chars
    return h.replace(' ', '-')


def anchors(path):
    out = set(); seen = {}
    fence = False
    for line in open(path, encoding='utf-8'):
        if line.startswith('```'):
            fence = not fence; continue
        if fence: continue
        m = re.match(r'^(#{1,6})\s+(.*?)\s*#*\s*$', line)
        if m:
            s = slug(m.group(2)); n = seen.get(s, 0); seen[s] = n + 1
            out.add(s if n == 0 else f'{s}-{n}')
    return out


def stale(line, hashes_allowed=False):
    """What in one line of prose or comment says how things were, not how they are."""
    found = []
    for pattern, what in ((ISSUE, 'issue number'), (MACHINE_PATH, 'machine path')):
        found += [f'{what} "{m.group(0)}"' for m in pattern.finditer(line)]
    if not hashes_allowed:
        found += [f'commit hash "{m.group(0)}"' for m in HASH.finditer(line)]
    return found


def comments(path, text):
    """The comment text of a main source file, line by line (line number, text)."""
    if path.endswith('.java'):
        out = []
        for m in re.finditer(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', text, flags=re.S):
            if m.group(0).startswith('"'): continue   # a string literal, not a comment
            first = text.count('\n', 0, m.start()) + 1
            out += [(first + i, l) for i, l in enumerate(m.group(0).split('\n'))]
        return out
    marker = '--' if path.endswith('.sql') else '#'
    return [(i + 1, l[l.index(marker):]) for i, l in enumerate(text.split('\n')) if marker in l]


def check_links(root, files):
    bad = 0; total = 0
    for f in files:
        text = open(f, encoding='utf-8').read()
        text = re.sub(r'```.*?```', '', text, flags=re.S)
        for m in re.finditer(r'\]\(([^)\s]+)\)', text):
            target = m.group(1)
            if re.match(r'^[a-z]+:', target): continue
            total += 1
            path, _, frag = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
            rel = os.path.relpath(f, root)
            if not os.path.exists(dest) or not os.path.realpath(dest).startswith(os.path.realpath(root)):
                print(f'{rel}: missing file {target}'); bad += 1; continue
            if frag and dest.endswith('.md') and frag not in anchors(dest):
                print(f'{rel}: missing anchor {target}'); bad += 1
    return total, bad


def check_prose(root, files):
    bad = 0
    for f in files:
        rel = os.path.relpath(f, root)
        for n, line in enumerate(open(f, encoding='utf-8'), 1):
            allowed = rel == os.path.join('docs', 'benchmarks.md') and line.startswith('|')
            for what in stale(line, allowed):
                print(f'{rel}:{n}: {what}'); bad += 1
    return bad


def main_sources(root):
    trees = [t for t in ('src/main', 'service/src/main', 'simulator/src/main') if os.path.isdir(os.path.join(root, t))]
    for tree in trees:
        for dirpath, _, names in os.walk(os.path.join(root, tree)):
            if os.sep + 'db' + os.sep + 'migration' in dirpath + os.sep: continue
            for name in sorted(names):
                if name.endswith(('.java', '.yml', '.yaml', '.properties', '.sql')):
                    yield os.path.join(dirpath, name)


def check_code(root):
    bad = 0; files = 0
    for f in main_sources(root):
        files += 1
        for n, line in comments(f, open(f, encoding='utf-8').read()):
            for what in stale(line):
                print(f'{os.path.relpath(f, root)}:{n}: {what} in a comment'); bad += 1
            for m in DOC_NAMED.finditer(line):
                if not os.path.exists(os.path.join(root, m.group(0))):
                    print(f'{os.path.relpath(f, root)}:{n}: a comment names {m.group(0)}, which does not exist'); bad += 1
    return files, bad


def self_test():
    refused = ['see issue 12', 'Issue #12 says', 'issues 11 and 13', 'after commit `d348ee1`',
               'before e5b5ce9a0c', 'built in /work/wt/before', 'a file in /tmp/evt.json', '/home/me/x', '/root/.m2']
    accepted = ['the 12 issues of a release', 'V324 adds dead_at', 'seed 20261130', 'HMAC-SHA256 over the body',
                'a decade of faced accede', 'amount 1e309 or 0x10', 'src/main/java/com/acme/payments', 'tmp/ and work/',
                'https://example.com/work/x', 'the pay_b079… page']
    failures = [s for s in refused if not stale(s)] + [s for s in accepted if stale(s)]
    java = 'class A { // issue 7\n  String s = "issue 8"; /* from\n /tmp/x */ }\n'
    lines = [n for n, l in comments('A.java', java) if stale(l)]
    if lines != [1, 3]: failures.append(f'java comments: {lines}')
    yml = 'a: 1 # see issue 9\nb: "x"\n'
    if [n for n, l in comments('a.yml', yml) if stale(l)] != [1]: failures.append('yml comments')
    if stale('| checkout | 1.76 | 485312c |', hashes_allowed=True): failures.append('benchmarks table row')
    for f in failures: print(f'self-test: wrong verdict for {f!r}')
    print(f'self-test: {len(refused) + len(accepted) + 4} cases, {len(failures)} wrong')
    return 1 if failures else 0


if __name__ == '__main__':
    if sys.argv[1:] == ['--self-test']:
        sys.exit(self_test())
    root = sys.argv[1] if len(sys.argv) > 1 else '.'
    prose = [os.path.join(root, f) for f in ['README.md', 'BENCHMARKS.md'] if os.path.exists(os.path.join(root, f))]
    prose += sorted(glob.glob(os.path.join(root, 'docs', '*.md')))
    total, broken = check_links(root, prose)
    print(f'{total} relative links checked, {broken} broken')
    stale_prose = check_prose(root, prose)
    print(f'{len(prose)} prose files checked, {stale_prose} issue numbers, commit hashes or machine paths')
    files, stale_code = check_code(root)
    print(f'{files} main source files checked, {stale_code} issue numbers, commit hashes or machine paths in comments')
    sys.exit(1 if broken or stale_prose or stale_code else 0)
