#!/usr/bin/env python3
"""Writes interpolation.gltf (beside this script): one clip that uses every glTF sampler kind on joints
and morph weights, for io_export_gltf_roundtrip (the export must keep STEP and CUBICSPLINE exact):
  Stepper   translation STEP         keys at 0.5, 1, 2 s (a clip that starts after 0)
  Spline    translation, rotation CUBICSPLINE keys at 0.5, 2 s
  Morphed   weights of 2 targets CUBICSPLINE keys at 0.5, 1.5, 2 s (a static mesh with morph targets)
  Stepped   weights of 1 target STEP keys at 0.5, 1, 1.5 s
Run: python3 tests/data/export/make_interpolation.py"""
import base64, json, os, struct

blob = bytearray()
views, accessors = [], []

def add(floats, count, kind, minmax=False, ints=None):
    while len(blob) % 4: blob.append(0)
    offset = len(blob)
    if ints is not None:
        blob.extend(struct.pack('<%dH' % len(ints), *ints))
        comp = 5123
    else:
        blob.extend(struct.pack('<%df' % len(floats), *floats))
        comp = 5126
    views.append({"buffer": 0, "byteOffset": offset, "byteLength": len(blob) - offset})
    acc = {"bufferView": len(views) - 1, "componentType": comp, "count": count, "type": kind}
    if minmax:
        n = {"SCALAR": 1, "VEC3": 3}[kind]
        acc["min"] = [min(floats[i::n]) for i in range(n)]
        acc["max"] = [max(floats[i::n]) for i in range(n)]
    accessors.append(acc)
    return len(accessors) - 1

quad = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]
normals = [0, 0, 1] * 4
pos = add(quad, 4, "VEC3", True)
nrm = add(normals, 4, "VEC3")
idx = add(None, 6, "SCALAR", ints=[0, 1, 2, 0, 2, 3])
t0 = add([0, 0, 0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0], 4, "VEC3", True)
t1 = add([0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0, 0, 0], 4, "VEC3", True)
mesh_static = {"primitives": [{"attributes": {"POSITION": pos, "NORMAL": nrm}, "indices": idx,
                               "targets": [{"POSITION": t0}, {"POSITION": t1}]}],
               "weights": [0, 0], "extras": {"targetNames": ["bulge", "lift"]}}
mesh_stepped = {"primitives": [{"attributes": {"POSITION": pos, "NORMAL": nrm}, "indices": idx,
                                "targets": [{"POSITION": t0}]}], "extras": {"targetNames": ["bulge"]}}
mesh_plain = {"primitives": [{"attributes": {"POSITION": pos, "NORMAL": nrm}, "indices": idx}]}

samplers, channels = [], []
def channel(node, path, times, values, kind, per_key):
    i = add(times, len(times), "SCALAR", True)
    o = add(values, len(values) // per_key, {1: "SCALAR", 3: "VEC3", 4: "VEC4"}[per_key])
    samplers.append({"input": i, "output": o, "interpolation": kind})
    channels.append({"sampler": len(samplers) - 1, "target": {"node": node, "path": path}})

# node 0 Root, 1 Stepper, 2 Spline, 3 Morphed, 4 Stepped
channel(1, "translation", [0.5, 1, 2], [0, 0, 0, 2, 4, 6, 10, 0, -2], "STEP", 3)
channel(2, "translation", [0.5, 2], [9, 9, 9, 1, 0, 0, 1, 1, 0, 0, -1, 2, 3, 2, 0, 9, 9, 9], "CUBICSPLINE", 3)
r = 0.70710678
channel(2, "rotation", [0.5, 2], [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0.5, 0, 0, 0, 0, -0.25, 0, 0, r, r, 0, 0, 0, 0],
        "CUBICSPLINE", 4)
# weights CUBICSPLINE: per key [in-tangents of both targets, values, out-tangents]
channel(3, "weights", [0.5, 1.5, 2], [0, 0, 0, 0, 1, 0,   2, -1, 1, 1, 0.5, 0,   0, 0, 0.2, 0.8, 0, 0],
        "CUBICSPLINE", 1)
channel(4, "weights", [0.5, 1, 1.5], [0, 1, 0.25], "STEP", 1)

gltf = {
    "asset": {"version": "2.0", "generator": "tests/data/export/make_interpolation.py"},
    "scene": 0, "scenes": [{"nodes": [0]}],
    "nodes": [{"name": "Root", "children": [1, 2, 3, 4]},
              {"name": "Stepper", "mesh": 2},
              {"name": "Spline", "mesh": 2, "translation": [3, 0, 0]},
              {"name": "Morphed", "mesh": 0, "translation": [0, 3, 0]},
              {"name": "Stepped", "mesh": 1, "translation": [3, 3, 0]}],
    "meshes": [mesh_static, mesh_stepped, mesh_plain],
    "animations": [{"name": "every kind", "samplers": samplers, "channels": channels}],
    "accessors": accessors, "bufferViews": views,
    "buffers": [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64," + base64.b64encode(bytes(blob)).decode()}],
}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "interpolation.gltf"), "w") as f:
    json.dump(gltf, f, indent=1)
    f.write("\n")
