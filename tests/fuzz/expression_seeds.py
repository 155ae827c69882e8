#!/usr/bin/python3
"""Writes the expression fuzz target's seeds: every expression attribute (expr, *_expression) of the decks under the
folders given, one file per distinct expression, into OUTPUT_DIR. Usage: expression_seeds.py OUTPUT_DIR DECK_DIR..."""
import hashlib
import pathlib
import sys
import xml.etree.ElementTree as ElementTree


def expressions(deck_dirs):
    for deck_dir in deck_dirs:
        for deck in sorted(pathlib.Path(deck_dir).rglob("*.xml")):
            try:
                root = ElementTree.parse(deck).getroot()
            except ElementTree.ParseError:
                continue  # a deck that is not XML has no attributes to take; the reader's seeds keep it
            for element in root.iter():
                for name, value in element.attrib.items():
                    if name == "expr" or name.endswith("_expression"):
                        yield value.strip()


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    output_dir = pathlib.Path(sys.argv[1])
    output_dir.mkdir(parents=True, exist_ok=True)
    written = set()
    for text in expressions(sys.argv[2:]):
        if text and text not in written:
            written.add(text)
            # Named by content, as libFuzzer names its own, so that rerunning adds nothing twice.
            (output_dir / hashlib.sha1(text.encode()).hexdigest()).write_text(text)
    print(f"expression_seeds.py: {len(written)} expressions in {output_dir}")


if __name__ == "__main__":
    main()
