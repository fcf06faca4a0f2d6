#!/usr/bin/env python3
"""Checks typeformer's SVGs with Python's XML parser (independent of the writer).

  plot_check.py lines <svg> <title> <series name>...     polylines, legend, title
  plot_check.py attention <svg> <L> <H> <prompt>          L*H heatmaps of len(prompt)^2 cells,
                                                          the prompt's characters as labels
                                                          (blanks shown as ␣ ↵ ⇥),
                                                          causal rows that sum to 1
"""
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def fail(msg):
    sys.exit("plot_check: " + msg)


def texts(root, cls=None):
    return [t.text or "" for t in root.iter(NS + "text") if cls is None or t.get("class") == cls]


def main():
    kind, path = sys.argv[1], sys.argv[2]
    root = ET.parse(path).getroot()  # raises on malformed XML
    if root.tag != NS + "svg":
        fail("root is %s" % root.tag)
    if kind == "lines":
        title, names = sys.argv[3], sys.argv[4:]
        lines = [p for p in root.iter(NS + "polyline") if p.get("class") == "series"]
        if len(lines) != len(names):
            fail("%d series drawn, %d expected" % (len(lines), len(names)))
        for p in lines:
            if len(p.get("points").split()) < 2:
                fail("a series has fewer than 2 points")
        if texts(root, "legend") != names:
            fail("legend %r, expected %r" % (texts(root, "legend"), names))
        if title not in texts(root):
            fail("no title %r" % title)
        return
    L, H, prompt = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    n = len(prompt)
    shown = [{" ": "\u2423", "\n": "\u21b5", "\t": "\u21e5"}.get(c, c) for c in prompt]
    maps = [g for g in root.iter(NS + "g") if g.get("class") == "heatmap"]
    if len(maps) != L * H:
        fail("%d heatmaps, expected %d" % (len(maps), L * H))
    for k, g in enumerate(maps):
        want_title = "layer %d, head %d" % (k // H, k % H)
        if want_title not in texts(g):
            fail("heatmap %d has no title %r" % (k, want_title))
        if texts(g, "col-label") != shown or texts(g, "row-label") != shown:
            fail("labels %r / %r, expected %r" % (texts(g, "col-label"), texts(g, "row-label"), shown))
        cells = [c for c in g.iter(NS + "rect") if c.get("class") == "cell"]
        if len(cells) != n * n:
            fail("%d cells, expected %d" % (len(cells), n * n))
        v = [float(c.find(NS + "title").text) for c in cells]
        for r in range(n):
            row = v[r * n:(r + 1) * n]
            if abs(sum(row) - 1) > 1e-3:
                fail("row %d of heatmap %d sums to %g" % (r, k, sum(row)))
            if any(x != 0 for x in row[r + 1:]):
                fail("row %d of heatmap %d attends to a later position" % (r, k))
            if any(x < 0 for x in row):
                fail("negative weight")


if __name__ == "__main__":
    main()
