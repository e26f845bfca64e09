#!/usr/bin/env python3
"""Checks that every relative Markdown link in README.md, BENCHMARKS.md and docs/*.md names a file of the
repository and, for a .md target with #fragment, a heading of it (GitHub anchor rules). Usage:
  python3 ops/check-doc-links.py [repository root, default .]"""
import re, os, sys, glob
root = sys.argv[1] if len(sys.argv) > 1 else "."
files = [os.path.join(root, f) for f in ['README.md', 'BENCHMARKS.md']] + sorted(glob.glob(os.path.join(root, 'docs', '*.md')))
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
print(f'{total} relative links checked, {bad} broken')
sys.exit(1 if bad else 0)
