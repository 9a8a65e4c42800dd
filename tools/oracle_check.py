#!/usr/bin/env python3
"""oracle_check.py — peer check of skinview's posed vertices against the three.js oracle.

A development aid, run by hand (skinview never needs it):

    cp -r ../shared/tools/oracle /tmp/oracle && (cd /tmp/oracle && npm ci)
    tools/oracle_check.py --oracle /tmp/oracle [--skinview build/skinview] [MODEL ...]

For every model (default: every model in ../shared/models), every clip (matched by name,
see the oracle's README) at 0, 1/3 and 2/3 of its duration, it writes skinview's
`--export-pose` and the oracle's `pose.mjs` output and compares them with
`compare.mjs` (symmetric Hausdorff distance relative to the bounding-box diagonal).
Prints one table row per clip: the worst of the three times. Exit 1 if any exceeds --tol.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def oracle_clips(oracle, model):
    out = run(["node", os.path.join(oracle, "pose.mjs"), model, "--list"]).stdout
    clips = []
    for line in out.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        index, name, duration = line.split("\t")
        clips.append((int(index), name, float(duration)))
    return clips


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oracle", default="/tmp/oracle")
    ap.add_argument("--skinview", default=os.path.join(ROOT, "build", "skinview"))
    ap.add_argument("--tol", type=float, default=1e-3)
    ap.add_argument("models", nargs="*")
    args = ap.parse_args()
    models = args.models or sorted(glob.glob(os.path.join(ROOT, "..", "shared", "models", "*", "*.*")))
    models = [m for m in models if m.lower().endswith((".fbx", ".glb", ".gltf", ".dae"))]
    tmp = tempfile.mkdtemp(prefix="oracle_check.")
    worst_all = 0.0
    print("| model | clip | duration s | worst rel. Hausdorff (t = 0, 1/3, 2/3) |")
    print("|---|---|---|---|")
    for model in models:
        info = json.loads(run([args.skinview, model, "--info", "--json"]).stdout)
        three = oracle_clips(args.oracle, model)
        for clip in info["clips"]:
            name = clip["name"]
            match = [c for c in three if c[1] == name]
            if not match and name == "" and len(three) > clip["index"]:
                match = [three[clip["index"]]]          # unnamed glTF clip: animation_N in three.js
            if not match and len(three) == 1 and len(info["clips"]) == 1:
                match = [three[0]]                      # Collada's single clip: named differently by each tool
            if not match:
                print(f"| {os.path.basename(model)} | {name} | {clip['duration']:.3f} | no clip of that name in three.js |")
                continue
            worst = 0.0
            for fraction in (0.0, 1.0 / 3.0, 2.0 / 3.0):
                t = clip["duration"] * fraction
                ours = os.path.join(tmp, "ours.obj")
                theirs = os.path.join(tmp, "theirs.xyz")
                r = run([args.skinview, model, "--clip", str(clip["index"]), "--time", f"{t:.6f}", "--export-pose", ours])
                if r.returncode != 0:
                    sys.exit(f"skinview failed: {r.stderr.strip()}")
                r = run(["node", os.path.join(args.oracle, "pose.mjs"), model, "--clip", str(match[0][0]),
                         "--time", f"{t:.6f}", "--out", theirs])
                if r.returncode != 0:
                    sys.exit(f"pose.mjs failed: {r.stderr.strip()}")
                r = run(["node", os.path.join(args.oracle, "compare.mjs"), ours, theirs, "--json"])
                result = json.loads(r.stdout)
                rel = result.get("relHausdorff")
                if rel is None:
                    sys.exit(f"compare.mjs output not understood: {r.stdout[:200]}")
                worst = max(worst, rel)
            worst_all = max(worst_all, worst)
            label = name if name else f"(unnamed, clip {clip['index']})"
            print(f"| {os.path.basename(model)} | {label} | {clip['duration']:.3f} | {worst:.2e} |")
    print(f"\nworst over all: {worst_all:.2e} (tolerance {args.tol:g})")
    return 1 if worst_all > args.tol else 0


if __name__ == "__main__":
    sys.exit(main())
