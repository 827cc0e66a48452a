#!/usr/bin/env python3
"""What costs template F1 on CleanEval's development pages (`dev-*`), by the role of the section
the words sit in (`--format sections`: navigation, footer, main, …, or none) and by its verdict:
a section's words are matched against the page's gold text (a multiset of `\\w+` words, taken
greedily in document order). Words of a template section found in the gold are content called
template; words of a content section not in the gold are template called content.

Usage: cleaneval_roles.py   (run from the repository root, after cargo build --release)
"""
import collections, json, os, re, subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, '../../../../shared/datasets/labeled/cleaneval')
PAGELEVEL = os.path.join(HERE, '../../../target/release/pagelevel')

def words(text):
    return re.findall(r'\w+', text.lower())

def gold_words(path):
    text = open(path, encoding='utf-8', errors='replace').read()
    # The first line is `URL: …`; CleanEval marks paragraphs with <p>, <h>, <l> tags.
    text = re.sub(r'^URL:.*\n', '', text)
    return collections.Counter(words(re.sub(r'<[^>]+>', ' ', text)))

tally = collections.defaultdict(lambda: [0, 0])  # (role, verdict) -> [words, in gold]
pages = collections.Counter()
names = sorted(n[:-5] for n in os.listdir(os.path.join(DATA, 'input')) if n.startswith('dev-') and n.endswith('.html'))
for name in names:
    gold = gold_words(os.path.join(DATA, 'gold', name + '.txt'))
    out = subprocess.run([PAGELEVEL, 'score', os.path.join(DATA, 'input', name + '.html'), '--format', 'sections', '-q'],
                         capture_output=True, text=True)
    if out.returncode != 0:
        continue
    wrong = 0
    for line in out.stdout.splitlines():
        section = json.loads(line)
        key = (section['role'] or 'none', 'template' if section['template'] else 'content')
        section_words = words(section['text'])
        found = 0
        for word in section_words:
            if gold[word] > 0:
                gold[word] -= 1
                found += 1
        tally[key][0] += len(section_words)
        tally[key][1] += found
        wrong += found if section['template'] else len(section_words) - found
    pages[name] = wrong

print(f"{len(pages)} development pages")
print("| section role | verdict | words | of them in the gold | wrong words |")
print("|---|---|---:|---:|---:|")
for (role, verdict), (total, found) in sorted(tally.items(), key=lambda kv: -kv[1][0]):
    wrong = found if verdict == 'template' else total - found
    print(f"| {role} | {verdict} | {total} | {found / max(total, 1):.2f} | {wrong} |")
print("\nworst pages by wrong words:", ", ".join(f"{n} ({w})" for n, w in pages.most_common(8)))
