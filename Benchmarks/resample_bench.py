#!/usr/bin/env python3
"""`reswatch fix` making a full app icon set from its 1024 master: the time, and how far each
icon is from a reference downscale.

The set: an all-sizes iOS app icon set (iPhone, iPad, App Store: 18 slots) whose only file is a
1024x1024 master with smooth gradients, hard edges and fine stripes. `fix --apply` fills every
slot (timed, median of N runs, undone between runs). Each icon is then compared with a reference
made from the same master by Pillow's Lanczos filter in linear light (sRGB decoded to float,
resampled per channel, encoded again): the mean absolute error per channel, in 8-bit steps. For
scale, the same error of a nearest-neighbour downscale (what a careless tool does) is printed.

Usage: Benchmarks/resample_bench.py [--runs N] [--binary PATH]   (needs numpy and Pillow: make bench)
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from PIL import Image

SLOTS = [
    ("iphone", 20, 2), ("iphone", 20, 3), ("iphone", 29, 2), ("iphone", 29, 3), ("iphone", 40, 2), ("iphone", 40, 3),
    ("iphone", 60, 2), ("iphone", 60, 3), ("ipad", 20, 1), ("ipad", 20, 2), ("ipad", 29, 1), ("ipad", 29, 2),
    ("ipad", 40, 1), ("ipad", 40, 2), ("ipad", 76, 2), ("ipad", 83.5, 2),
]


def master():
    y, x = np.mgrid[0:1024, 0:1024].astype(np.float64)
    r = 40 + 180 * x / 1023
    g = 60 + 160 * y / 1023
    b = 128 + 100 * np.sin(x / 37.0) * np.cos(y / 53.0)
    disc = (x - 512) ** 2 + (y - 480) ** 2 < 300 ** 2
    r[disc], g[disc], b[disc] = 250, 250, 245
    stripes = (y > 700) & (y < 900) & ((x // 3) % 2 == 0)
    r[stripes], g[stripes], b[stripes] = 20, 20, 30
    return np.clip(np.stack([r, g, b], axis=-1), 0, 255).astype(np.uint8)


def to_linear(a):
    c = a.astype(np.float64) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def to_srgb(l):
    l = np.clip(l, 0, 1)
    c = np.where(l <= 0.0031308, l * 12.92, 1.055 * l ** (1 / 2.4) - 0.055)
    return np.clip(np.round(c * 255), 0, 255).astype(np.uint8)


def reference(img, side):
    lin = to_linear(img)
    channels = [np.asarray(Image.fromarray(lin[..., c].astype(np.float32), "F").resize((side, side), Image.LANCZOS)) for c in range(3)]
    return to_srgb(np.stack(channels, axis=-1))


def make_set(root, img):
    s = os.path.join(root, "App", "Assets.xcassets", "AppIcon.appiconset")
    os.makedirs(s)
    Image.fromarray(img, "RGB").save(os.path.join(s, "master.png"))
    images = [{"idiom": i, "size": f"{p:g}x{p:g}", "scale": f"{k}x"} for i, p, k in SLOTS]
    images.append({"idiom": "ios-marketing", "size": "1024x1024", "scale": "1x", "filename": "master.png"})
    json.dump({"images": images, "info": {"author": "xcode", "version": 1}}, open(os.path.join(s, "Contents.json"), "w"), indent=2)
    with open(os.path.join(root, "App", ".reswatch.yaml"), "w") as f:
        f.write('devices: [iphone, ipad]\ndeployment-target: "15.0"\n')
    return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--binary", default=".build/strip/reswatch")
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    img = master()
    work = tempfile.mkdtemp(prefix="reswatch-resample.")
    try:
        s = make_set(work, img)
        times = []
        for run in range(a.runs + 1):
            t = time.perf_counter()
            r = subprocess.run([binary, "fix", "--apply", work], capture_output=True, text=True)
            elapsed = time.perf_counter() - t
            if "applied" not in r.stdout:
                sys.exit(f"fix --apply did not apply: {r.stdout[-500:]}{r.stderr[-500:]}")
            if run > 0:
                times.append(elapsed)  # the first run warms the page cache
            if run < a.runs:
                subprocess.run([binary, "fix", "--undo", work], capture_output=True, check=True)
        made = [f for f in sorted(os.listdir(s)) if f.endswith(".png") and f != "master.png"]
        errors, nearest = [], []
        for name in made:
            icon = np.asarray(Image.open(os.path.join(s, name)).convert("RGB"))
            side = icon.shape[0]
            ref = reference(img, side)
            errors.append(np.abs(icon.astype(int) - ref.astype(int)).mean())
            nn = np.asarray(Image.fromarray(img, "RGB").resize((side, side), Image.NEAREST))
            nearest.append(np.abs(nn.astype(int) - ref.astype(int)).mean())
        print("Resampling a full app icon set from its 1024 master (reswatch fix --apply)")
        print(f"| what | figure |")
        print(f"|---|---|")
        print(f"| icons made (one a pixel size, for the slots reported missing) | {len(made)} |")
        print(f"| `fix --apply` on the set, median of {a.runs} | {statistics.median(times) * 1000:.0f} ms (min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}) |")
        print(f"| mean absolute error against Lanczos in linear light, per channel (0-255) | {np.mean(errors):.2f} (worst icon {max(errors):.2f}) |")
        print(f"| the same for a nearest-neighbour downscale, for scale | {np.mean(nearest):.2f} (worst icon {max(nearest):.2f}) |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
