"""Generated benchmark trees (stdlib only): a minimal PNG writer and the asset-set tree layout."""
import json
import os
import struct
import subprocess
import zlib

SLOTS = [("iphone", "20x20", 2), ("iphone", "20x20", 3), ("iphone", "29x29", 2), ("iphone", "29x29", 3),
         ("iphone", "40x40", 2), ("iphone", "40x40", 3), ("iphone", "60x60", 2), ("iphone", "60x60", 3),
         ("ipad", "83.5x83.5", 2), ("ios-marketing", "1024x1024", 1)]


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width: int, height: int, rgba: bool = False, seed: int = 0) -> bytes:
    """A solid-colour 8-bit RGB (or opaque RGBA) image; `seed` varies the colour."""
    channels = 4 if rgba else 3
    pixel = bytes([(seed * 37) % 256, (seed * 91) % 256, (seed * 53 + 80) % 256] + ([255] if rgba else []))
    row = b"\x00" + pixel * width
    raw = row * height
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6 if rgba else 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")


def generate(tree, sets):
    """`sets` correct .appiconsets of 10 RGB icons + Contents.json under Module<N>/Assets.xcassets,
    plus a .reswatch.yaml; reused when already generated. Returns every PNG path, sorted."""
    marker = os.path.join(tree, f".generated-{sets}")
    if not os.path.exists(marker):
        subprocess.run(["rm", "-rf", tree], check=True)
        os.makedirs(tree)
        with open(os.path.join(tree, ".reswatch.yaml"), "w") as f:
            f.write("devices: [iphone]\ndeployment-target: \"15.0\"\n")
        cache = {}
        for i in range(sets):
            d = os.path.join(tree, f"Module{i // 100}", "Assets.xcassets", f"Icon{i}.appiconset")
            os.makedirs(d, exist_ok=True)
            images = []
            for idiom, size, scale in SLOTS:
                px = int(round(float(size.split("x")[0]) * scale))
                name = f"{idiom}-{size}@{scale}x.png"
                images.append({"idiom": idiom, "size": size, "scale": f"{scale}x", "filename": name})
                if px not in cache:
                    cache[px] = png(px, px)
                with open(os.path.join(d, name), "wb") as f:
                    f.write(cache[px])
            with open(os.path.join(d, "Contents.json"), "w") as f:
                json.dump({"images": images, "info": {"author": "xcode", "version": 1}}, f)
        open(marker, "w").close()
    files = []
    for root, _, names in os.walk(tree):
        files += [os.path.join(root, n) for n in names if n.endswith(".png")]
    return sorted(files)
