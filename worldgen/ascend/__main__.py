"""python -m worldgen.ascend [--out DIR] [--seed N]: write the Ascend 2026-09 world byte-identically."""
import argparse
import os
import shutil
import sys

if __package__ in (None, ""):  # run as a file: python worldgen/ascend/__main__.py
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    from worldgen.ascend.generate import generate
else:
    from .generate import generate

DEFAULT_OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                           "worlds", "ascend-2026-09")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m worldgen.ascend", description=__doc__)
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--seed", type=int, default=20260921)
    args = ap.parse_args(argv)
    if os.path.isdir(args.out) and os.listdir(args.out) and not os.path.exists(os.path.join(args.out, "world.yaml")):
        sys.exit(f"refusing to write into {args.out}: not empty and not a world (no world.yaml)")
    # the README is hand-written documentation of the generator and survives regeneration
    readme = os.path.join(args.out, "README.md")
    keep = open(readme, encoding="utf-8").read() if os.path.exists(readme) else None
    for sub in ("orgs", "repos", "docs"):
        shutil.rmtree(os.path.join(args.out, sub), ignore_errors=True)
    generate(args.out, args.seed)
    if keep is not None:
        with open(readme, "w", encoding="utf-8") as fh:
            fh.write(keep)
    print(f"world written to {args.out}")


if __name__ == "__main__":
    main()
