#ifndef RESWATCH_RW_PNG_H
#define RESWATCH_RW_PNG_H
#include <stddef.h>
#include <stdint.h>

/* Status codes returned by every rw_png_* function. libpng's longjmp never leaves this C file. */
enum {
    RW_PNG_OK = 0,
    RW_PNG_NOT_PNG = 1,   /* no PNG signature */
    RW_PNG_CORRUPT = 2,   /* truncated, bad CRC, zlib error, missing IHDR/IEND, libpng error */
    RW_PNG_CGBI = 3,      /* Apple CgBI: libpng cannot read it; header facts still filled */
    RW_PNG_TOO_LARGE = 4  /* refused to decode: pixel buffer would exceed the limit */
};

typedef struct {
    uint32_t width;
    uint32_t height;
    int32_t bit_depth;
    int32_t color_type;
    int32_t interlace;
    /* chunk presence, from a walk over every chunk */
    uint8_t has_ihdr, has_plte, has_trns, has_iccp, has_srgb, has_cgbi, has_idat, has_iend;
    uint32_t chunk_count;
    /* first problem found by the walk or libpng; empty when status is OK */
    char message[200];
} rw_png_header;

typedef struct {
    uint8_t has_alpha_channel;   /* after palette/tRNS expansion */
    uint8_t any_transparent;     /* some pixel's alpha is below the maximum */
    uint32_t transparent_pixels; /* count of such pixels (saturating) */
    uint16_t min_alpha;          /* in the image's own bit depth (8 or 16) */
    /* Pixels a person can see through: alpha below RW_PNG_SEE_THROUGH_ALPHA (of 255; scaled for
       16-bit), outside the corners the system's rounded icon mask hides (a circle of radius
       RW_PNG_MASK_RADIUS_PERCENT of the shorter side in each corner). Their bounding box. */
    uint32_t see_through_pixels;
    uint32_t box_min_x, box_min_y, box_max_x, box_max_y;
    char message[200];
} rw_png_pixels;

#define RW_PNG_SEE_THROUGH_ALPHA 230
#define RW_PNG_MASK_RADIUS_PERCENT 15

/* Walks every chunk (lengths, CRC-32, IHDR first, IDAT present, IEND last), then lets libpng
   read the header up to the first IDAT. Works on an in-memory copy of the file. */
int rw_png_inspect(const uint8_t *data, size_t length, rw_png_header *out);

/* Full decode through libpng: every row inflated and unfiltered, trailing chunks checked.
   Reports whether any pixel is not fully opaque (16-bit alpha is compared at 16 bits). */
int rw_png_decode_pixels(const uint8_t *data, size_t length, uint64_t max_bytes, rw_png_pixels *out);

typedef struct {
    uint32_t width;
    uint32_t height;
    uint8_t *rgba; /* width * height * 4 bytes, rw_png_free it */
    char message[200];
} rw_png_rgba;

typedef struct {
    uint8_t *data; /* the PNG file's bytes, rw_png_free it */
    size_t length;
    char message[200];
} rw_png_buffer;

/* Full decode to 8-bit RGBA, whatever the file's colour type, depth or interlacing (16-bit is
   scaled, palettes and tRNS expanded, grey made RGB, opaque images given alpha 255). */
int rw_png_decode_rgba8(const uint8_t *data, size_t length, uint64_t max_bytes, rw_png_rgba *out);

/* A PNG of 8-bit RGB (channels 3) or RGBA (channels 4) pixels, not interlaced, with an sRGB chunk. */
int rw_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int channels, rw_png_buffer *out);

void rw_png_free(void *pointer);

/* libpng's version string, for diagnostics. */
const char *rw_png_library_version(void);



/* zlib compress2 (level 6). Returns the compressed length, or 0 when dst is too small.
   Used to synthesise example PNGs (reswatch's examples and tests). */
size_t rw_zlib_compress(const uint8_t *src, size_t length, uint8_t *dst, size_t capacity);
size_t rw_zlib_bound(size_t length);
uint32_t rw_crc32(uint32_t crc, const uint8_t *data, size_t length);
#endif
