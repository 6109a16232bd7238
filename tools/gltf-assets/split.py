#!/usr/bin/env python3
"""Splits a skinned, animated .glb into a character (mesh, skin, no animations) and a clip
library (the same node hierarchy and its animations, no mesh), as Mixamo and KayKit ship them.
Run `npx @gltf-transform/cli prune` on both outputs afterwards to drop the unused data.

    python3 split.py IN.glb CHARACTER.glb LIBRARY.glb
"""
import json
import struct
import sys


def read(path):
    data = open(path, "rb").read()
    assert data[:4] == b"glTF", "not a .glb"
    at, doc, blob = 12, None, b""
    while at < len(data):
        length, kind = struct.unpack_from("<II", data, at)
        chunk = data[at + 8 : at + 8 + length]
        if kind == 0x4E4F534A:
            doc = json.loads(chunk)
        elif kind == 0x004E4942:
            blob = chunk
        at += 8 + length
    return doc, blob


def write(path, doc, blob):
    text = json.dumps(doc, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    blob += b"\0" * (-len(blob) % 4)
    out = b"glTF" + struct.pack("<II", 2, 12 + 8 + len(text) + 8 + len(blob))
    out += struct.pack("<II", len(text), 0x4E4F534A) + text
    out += struct.pack("<II", len(blob), 0x004E4942) + blob
    open(path, "wb").write(out)


doc, blob = read(sys.argv[1])
character = json.loads(json.dumps(doc))
character.pop("animations", None)
write(sys.argv[2], character, blob)

library = json.loads(json.dumps(doc))
for node in library["nodes"]:
    node.pop("mesh", None)
    node.pop("skin", None)
for key in ("meshes", "skins", "materials", "textures", "images", "samplers"):
    library.pop(key, None)
write(sys.argv[3], library, blob)
