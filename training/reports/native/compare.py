"""Compares native (Blitz) layouts with Chromium snapshots element by element.

Usage: compare.py PAIRS.tsv   (each line: chromium_snapshot.json<TAB>native_snapshot.json<TAB>label;
snapshots of `pagelevel render` and `pagelevel render --layout native`)
Prints per page: elements, share with a box in both, in only one, median IoU, median |dx|, |dy|,
page heights; then totals and the tags that disagree most.
"""
import json, sys, statistics
from collections import Counter

def iou(a, b):
    ax2, ay2, bx2, by2 = a[0] + a[2], a[1] + a[3], b[0] + b[2], b[1] + b[3]
    iw = max(0.0, min(ax2, bx2) - max(a[0], b[0]))
    ih = max(0.0, min(ay2, by2) - max(a[1], b[1]))
    inter = iw * ih
    union = a[2] * a[3] + b[2] * b[3] - inter
    if union <= 0:  # both empty: same if same place
        return 1.0 if abs(a[0] - b[0]) < 1 and abs(a[1] - b[1]) < 1 else 0.0
    return inter / union

def median(xs):
    return statistics.median(xs) if xs else float('nan')

all_iou, all_dx, all_dy, all_dw, all_dh = [], [], [], [], []
local_iou = []  # IoU after moving the native box by its parent's offset: layout drift removed
tot = Counter()
only_chrome_tags, only_native_tags, bad_iou_tags = Counter(), Counter(), Counter()
rows = []
for line in open(sys.argv[1]):
    chrome_path, native_path, label = line.rstrip('\n').split('\t')
    try:
        snap = json.load(open(chrome_path))
        nat = json.load(open(native_path))
    except Exception as e:
        print(f"{label}\tmissing: {e}")
        continue
    nodes = snap['nodes']
    boxes = [node['box'] for node in nat['nodes']]
    if len(boxes) != len(nodes):
        print(f"{label}\tlength mismatch {len(boxes)} vs {len(nodes)}")
        continue
    c = Counter()
    ious, dxs, dys = [], [], []
    for node, nb in zip(nodes, boxes):
        cb = node['box']
        tag = node['tag']
        if cb is None and nb is None:
            c['neither'] += 1
        elif cb is None:
            c['native_only'] += 1; only_native_tags[tag] += 1
        elif nb is None:
            c['chrome_only'] += 1; only_chrome_tags[tag] += 1
        else:
            c['both'] += 1
            v = iou(cb, nb)
            ious.append(v); dxs.append(abs(cb[0] - nb[0])); dys.append(abs(cb[1] - nb[1]))
            all_dw.append(abs(cb[2] - nb[2])); all_dh.append(abs(cb[3] - nb[3]))
            if v < 0.5:
                bad_iou_tags[tag] += 1
            parent = node['parent']
            if parent is not None and nodes[parent]['box'] is not None and boxes[parent] is not None:
                pc, pn = nodes[parent]['box'], boxes[parent]
                shifted = [nb[0] + pc[0] - pn[0], nb[1] + pc[1] - pn[1], nb[2], nb[3]]
                local_iou.append(iou(cb, shifted))
    any_box = c['both'] + c['chrome_only'] + c['native_only']
    tot.update(c)
    all_iou += ious; all_dx += dxs; all_dy += dys
    rows.append((median(ious), label, len(nodes), c['both'] / max(1, any_box), c['chrome_only'],
                 c['native_only'], median(ious), sum(v >= 0.5 for v in ious) / max(1, len(ious)),
                 median(dxs), median(dys), snap['page_height'], nat['page_height']))
print("page\telements\tboth/any\tchrome_only\tnative_only\tmedIoU\tIoU>=.5\tmed|dx|\tmed|dy|\tH_chrome\tH_native")
for r in sorted(rows):
    print("\t".join([r[1], str(r[2]), f"{r[3]:.2f}", str(r[4]), str(r[5]), f"{r[6]:.2f}", f"{r[7]:.2f}",
                     f"{r[8]:.0f}", f"{r[9]:.0f}", f"{r[10]:.0f}", f"{r[11]:.0f}"]))
anyb = tot['both'] + tot['chrome_only'] + tot['native_only']
print(f"\nTOTAL pages={len(rows)} elements={sum(tot.values())} boxed-in-either={anyb} both={tot['both']} "
      f"({tot['both']/max(1,anyb):.3f}) chrome_only={tot['chrome_only']} native_only={tot['native_only']} "
      f"neither={tot['neither']}")
print(f"median IoU={median(all_iou):.3f}  mean IoU={statistics.mean(all_iou):.3f}  IoU>=0.5: {sum(v>=.5 for v in all_iou)/len(all_iou):.3f}  IoU>=0.9: {sum(v>=.9 for v in all_iou)/len(all_iou):.3f}")
print(f"parent-relative IoU (drift removed): median {median(local_iou):.3f}, >=0.5: {sum(v>=.5 for v in local_iou)/len(local_iou):.3f}, >=0.9: {sum(v>=.9 for v in local_iou)/len(local_iou):.3f}")
shape = sum(dw <= 2 and dh <= 2 for dw, dh in zip(all_dw, all_dh)) / len(all_dw)
same_x = sum(dx <= 2 for dx in all_dx) / len(all_dx)
print(f"size within 2px (w and h): {shape:.3f}; left edge within 2px: {same_x:.3f}; top within 2px: {sum(dy <= 2 for dy in all_dy)/len(all_dy):.3f}")
print(f"median |dx|={median(all_dx):.1f} |dy|={median(all_dy):.1f} |dw|={median(all_dw):.1f} |dh|={median(all_dh):.1f}; p75 |dy|={statistics.quantiles(all_dy, n=4)[2]:.1f}")
hr = [abs(r[10] - r[11]) / r[10] for r in rows]
print(f"page height within 5%: {sum(h < .05 for h in hr)}/{len(hr)}; median relative error {median(hr):.3f}")
print("page medians: median of per-page median IoU =", f"{median([r[6] for r in rows]):.3f}")
skip = {'br', 'g', 'path', 'text', 'polygon', 'polyline', 'ellipse', 'circle', 'rect', 'line', 'use'}
chrome_only_rest = sum(v for k, v in only_chrome_tags.items() if k not in skip)
print(f"excluding <br> and SVG internals: both/any = {tot['both']/max(1, tot['both'] + chrome_only_rest + tot['native_only']):.3f}")
print("chrome-only tags:", only_chrome_tags.most_common(12))
print("native-only tags:", only_native_tags.most_common(12))
print("IoU<0.5 tags:", bad_iou_tags.most_common(12))
