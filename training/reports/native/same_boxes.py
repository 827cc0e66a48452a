"""Checks that two runs of `pagelevel render --layout native` gave the same boxes, element by
element: a change made for speed must not move a box.

Usage: same_boxes.py BEFORE_DIR AFTER_DIR   (snapshots with the same file names in both)
Prints each page that differs (elements whose box differs by more than TOLERANCE px, whose
presence differs or that became painted or unpainted; the page size), then how many pages and elements were identical. Exits 1
when any page differs, 2 when a snapshot is missing or unreadable.
"""
import json
import os
import sys

TOLERANCE = 0.01  # px: boxes are f32 in Blitz, written as f64; anything above is a real move


def differs(a, b):
    if a is None or b is None:
        return a is not b
    return any(abs(x - y) > TOLERANCE for x, y in zip(a, b))


def main(before_dir, after_dir):
    names = sorted(name for name in os.listdir(before_dir) if name.endswith('.json'))
    pages_differing = elements = elements_differing = 0
    for name in names:
        try:
            with open(os.path.join(before_dir, name)) as file:
                before = json.load(file)
            with open(os.path.join(after_dir, name)) as file:
                after = json.load(file)
        except (OSError, ValueError) as error:
            print(f'{name}: {error}', file=sys.stderr)
            sys.exit(2)
        if before['url'] != after['url'] or len(before['nodes']) != len(after['nodes']):
            print(f"{name}: not the same page ({before['url']}, {len(before['nodes'])} elements"
                  f" vs {after['url']}, {len(after['nodes'])})")
            pages_differing += 1
            continue
        moved = [(b['id'], b['tag'], b['box'], a['box'])
                 for b, a in zip(before['nodes'], after['nodes'])
                 if differs(b['box'], a['box']) or b.get('unpainted') != a.get('unpainted')]
        size_before = (before['page_width'], before['page_height'])
        size_after = (after['page_width'], after['page_height'])
        elements += len(before['nodes'])
        elements_differing += len(moved)
        if moved or differs(size_before, size_after):
            pages_differing += 1
            print(f"{name} ({before['url']}): {len(moved)} of {len(before['nodes'])} elements"
                  f" moved, page {size_before} -> {size_after}")
            for element_id, tag, box_before, box_after in moved[:5]:
                print(f'  {element_id} <{tag}>: {box_before} -> {box_after}')
    print(f'{len(names) - pages_differing} of {len(names)} pages identical; '
          f'{elements - elements_differing} of {elements} elements with the same box')
    sys.exit(1 if pages_differing else 0)


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
