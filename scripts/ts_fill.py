#!/usr/bin/env python3
"""Fills translations into a Qt .ts file from JSON lists of {context, source, translation}.

Usage: scripts/ts_fill.py resources/translations/scalescope_zh_CN.ts done1.json [done2.json ...]
       scripts/ts_fill.py --unfinished TS OUT.json   (writes the entries still to translate)
Entries are matched by (context, source); a source text found in another context is used as
a fallback. Existing finished translations are kept.
"""
import json
import sys
import xml.etree.ElementTree as ET


def load(ts):
    tree = ET.parse(ts)
    return tree, tree.getroot()


def write(tree, ts):
    # lupdate's own layout ("<location .../>"), so that lupdate and this script agree.
    body = ET.tostring(tree.getroot(), encoding="unicode").replace(" />", "/>")
    with open(ts, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n")


def main(argv):
    if len(argv) == 4 and argv[1] == "--unfinished":
        _, root = load(argv[2])
        out = []
        for ctx in root.findall("context"):
            name = ctx.find("name").text
            for m in ctx.findall("message"):
                tr = m.find("translation")
                if tr.get("type") == "unfinished" or not (tr.text or "").strip():
                    loc = m.find("location")
                    out.append({"context": name, "source": m.find("source").text,
                                "file": loc.get("filename") if loc is not None else None})
        json.dump(out, open(argv[3], "w", encoding="utf-8"), ensure_ascii=False, indent=1)
        print(f"{len(out)} unfinished")
        return 0
    if len(argv) < 3:
        print(__doc__)
        return 2
    tree, root = load(argv[1])
    exact, by_source = {}, {}
    for path in argv[2:]:
        for e in json.load(open(path, encoding="utf-8")):
            exact[(e["context"], e["source"])] = e["translation"]
            by_source.setdefault(e["source"], e["translation"])
    filled = missing = 0
    for ctx in root.findall("context"):
        name = ctx.find("name").text
        for m in ctx.findall("message"):
            tr = m.find("translation")
            if tr.get("type") not in ("unfinished", None) and tr.get("type") != "unfinished":
                continue
            if tr.get("type") is None and (tr.text or "").strip():
                continue
            src = m.find("source").text
            text = exact.get((name, src), by_source.get(src))
            if text:
                tr.text = text
                tr.attrib.pop("type", None)
                filled += 1
            else:
                missing += 1
    write(tree, argv[1])
    print(f"filled {filled}, still unfinished {missing}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
