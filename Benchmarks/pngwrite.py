"""Minimal PNG writer (stdlib only) for generated benchmark trees and the sample app."""
import struct
import zlib


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
