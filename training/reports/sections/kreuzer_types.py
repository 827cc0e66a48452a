#!/usr/bin/env python3
"""What costs template F1 on Kreuzer: words by innermost gold block type and the share pagelevel
calls template, and the pages with most wrong words. Needs lxml.

Usage: kreuzer_types.py [dev|test]   (run from the repository root, after cargo build --release)
"""
import json, os, re, subprocess, sys, collections
import lxml.html
K = os.path.join(os.path.dirname(__file__), '../../../../shared/datasets/labeled/kreuzer')
PL = os.path.join(os.path.dirname(__file__), '../../../target/release/pagelevel')
TEMPLATE = {"Header","Footer","Menu","LinkList","Ad","Logo","Searchbar","Sidebar"}
CONTENT = {"Article","Content","Title","Author","Comments"}
def fnv1a(s):
    h = 0xcbf29ce484222325
    for b in s.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h
split = sys.argv[1] if len(sys.argv) > 1 else 'dev'
pages = sorted(p for p in os.listdir(K) if os.path.isdir(os.path.join(K, p)))
pages = [p for p in pages if (fnv1a(p) % 3 == 0) == (split == 'test')]
tally = collections.defaultdict(lambda: [0, 0])  # type -> [words, words we call template]
side_tally = collections.defaultdict(lambda: [0, 0])
per_page = []
def words(t): return len(re.findall(r'\w+', t or ''))
for p in pages:
    d = os.path.join(K, p)
    meta = json.load(open(os.path.join(d, 'meta.json')))
    page = os.path.join(d, 'index.blocks.html')
    args = [PL, 'score', page, '--format', 'json', '-q']
    if meta.get('base_href'): args += ['--base-href', meta['base_href']]
    out = subprocess.run(args, capture_output=True)
    if out.returncode != 0: continue
    ours = json.loads(out.stdout)
    verdict = {n['xpath']: n['template'] for n in ours['nodes']}
    region = {n['xpath']: n['region'] for n in ours['nodes']}
    tree = lxml.html.parse(page)
    paths = {}
    def walk(el, path):
        paths[el] = path
        counts = collections.Counter()
        for c in el:
            if not isinstance(c.tag, str): continue
            counts[c.tag] += 1
            walk(c, f"{path}/{c.tag}[{counts[c.tag]}]")
    root = tree.getroot()
    walk(root, f"/{root.tag}[1]")
    missed = 0; page_fn = page_fp = 0
    for el in root.iter():
        if not isinstance(el.tag, str) or el.tag in ('script','style','noscript','head','title'): continue
        for text, owner in ((el.text, el), (el.tail, el.getparent())):
            w = words(text)
            if not w or owner is None or owner.tag in ('script','style','head','title'): continue
            x = paths.get(owner)
            if x not in verdict: missed += w; continue
            # innermost typed block and its side
            types = []
            a = owner
            while a is not None:
                t = a.get('data-block-type')
                if t: types.append(t)
                a = a.getparent()
            inner = types[0] if types else '(none)'
            side = next((('template' if t in TEMPLATE else 'content') for t in types if t in TEMPLATE or t in CONTENT), 'unlabelled')
            key = f"{inner} [{side}]"
            tally[key][0] += w; tally[key][1] += w * verdict[x]
            side_tally[side][0] += w; side_tally[side][1] += w * verdict[x]
            if side == 'template' and not verdict[x]: page_fn += w
            if side == 'content' and verdict[x]: page_fp += w
    per_page.append((page_fn + page_fp, p, page_fn, page_fp, missed))
print(f"{split}: {len(per_page)} pages")
print("| innermost block type [gold side] | words | we call template |")
print("|---|---:|---:|")
for k, (w, t) in sorted(tally.items(), key=lambda kv: -kv[1][0]):
    if w >= 200: print(f"| {k} | {w} | {t/w:.2f} |")
print()
for k, (w, t) in side_tally.items(): print(f"{k}: {w} words, {t/w:.2f} called template")
per_page.sort(reverse=True)
print("\nworst pages (errors in words: template missed, content taken, unmatched):")
for e, p, fn, fp, m in per_page[:12]: print(f"  {p}: {fn} template words called content, {fp} content words called template ({m} unmatched)")
