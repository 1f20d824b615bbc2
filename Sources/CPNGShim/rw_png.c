#include "rw_png.h"

#include <libdeflate.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static const uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};

static uint32_t be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static int is_type(const uint8_t *t, const char *name) { return memcmp(t, name, 4) == 0; }

static void set_message(char *dst, size_t cap, const char *text) {
    snprintf(dst, cap, "%s", text);
}

/* ---------- chunk walk ---------- */

static int walk_chunks(const uint8_t *data, size_t length, rw_png_header *out) {
    size_t pos = 8;
    int first = 1;
    while (1) {
        if (pos == length) {
            set_message(out->message, sizeof out->message,
                        out->has_iend ? "" : "file ends before the IEND chunk (truncated)");
            return out->has_iend ? RW_PNG_OK : RW_PNG_CORRUPT;
        }
        if (length - pos < 12) {
            snprintf(out->message, sizeof out->message,
                     "truncated chunk header at byte %zu (file is %zu bytes)", pos, length);
            return RW_PNG_CORRUPT;
        }
        uint32_t len = be32(data + pos);
        const uint8_t *type = data + pos + 4;
        if (len > 0x7FFFFFFFu || (size_t)len > length - pos - 12) {
            snprintf(out->message, sizeof out->message,
                     "chunk '%.4s' at byte %zu claims %u bytes but the file ends first (truncated)",
                     (const char *)type, pos, len);
            return RW_PNG_CORRUPT;
        }
        for (int i = 0; i < 4; i++) {
            uint8_t c = type[i];
            if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) {
                snprintf(out->message, sizeof out->message, "invalid chunk type at byte %zu", pos);
                return RW_PNG_CORRUPT;
            }
        }
        uint32_t stored = be32(data + pos + 8 + len);
        /* libdeflate's CRC-32 (the same checksum as zlib's crc32) uses the CPU's carry-less
           multiply: zlib 1.2.13's table version was 4 % of a cold check's instructions, a CRC of
           every chunk of every PNG (docs/performance.md). PNGs written here keep zlib's. */
        uint32_t crc = libdeflate_crc32(0, type, (size_t)len + 4);
        if (crc != stored) {
            snprintf(out->message, sizeof out->message, "CRC error in chunk '%.4s' at byte %zu",
                     (const char *)type, pos);
            return RW_PNG_CORRUPT;
        }
        out->chunk_count++;
        if (first && is_type(type, "CgBI")) {
            out->has_cgbi = 1;
        } else if (is_type(type, "IHDR")) {
            if (!(first || (out->has_cgbi && out->chunk_count == 2)) || len != 13) {
                set_message(out->message, sizeof out->message, "IHDR is not the first chunk or has a bad length");
                return RW_PNG_CORRUPT;
            }
            const uint8_t *d = data + pos + 8;
            out->has_ihdr = 1;
            out->width = be32(d);
            out->height = be32(d + 4);
            out->bit_depth = d[8];
            out->color_type = d[9];
            out->interlace = d[12];
        } else if (!out->has_ihdr) {
            set_message(out->message, sizeof out->message, "missing IHDR: the first chunk is not IHDR");
            return RW_PNG_CORRUPT;
        } else if (is_type(type, "PLTE")) {
            out->has_plte = 1;
        } else if (is_type(type, "tRNS")) {
            out->has_trns = 1;
        } else if (is_type(type, "iCCP")) {
            out->has_iccp = 1;
        } else if (is_type(type, "sRGB")) {
            out->has_srgb = 1;
        } else if (is_type(type, "IDAT")) {
            out->has_idat = 1;
        } else if (is_type(type, "IEND")) {
            out->has_iend = 1;
            pos += 12 + (size_t)len;
            if (!out->has_idat) {
                set_message(out->message, sizeof out->message, "no IDAT chunk: the image has no pixel data");
                return RW_PNG_CORRUPT;
            }
            return RW_PNG_OK; /* bytes after IEND are ignored, as decoders do */
        }
        first = 0;
        pos += 12 + (size_t)len;
    }
}

/* ---------- libpng plumbing: errors longjmp back into this file only ---------- */

typedef struct {
    const uint8_t *data;
    size_t length;
    size_t offset;
    char message[200];
    jmp_buf jump;
} rw_reader;

static void rw_error(png_structp png, png_const_charp msg) {
    rw_reader *reader = (rw_reader *)png_get_error_ptr(png);
    set_message(reader->message, sizeof reader->message, msg ? msg : "libpng error");
    longjmp(reader->jump, 1);
}

static void rw_warning(png_structp png, png_const_charp msg) {
    (void)png;
    (void)msg; /* warnings (e.g. iCCP profile quirks) are not errors for us */
}

static void rw_read(png_structp png, png_bytep out, png_size_t count) {
    rw_reader *reader = (rw_reader *)png_get_io_ptr(png);
    if (count > reader->length - reader->offset) {
        png_error(png, "unexpected end of file (truncated)");
    }
    memcpy(out, reader->data + reader->offset, count);
    reader->offset += count;
}

static png_structp make_reader(rw_reader *reader, png_infop *info) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, rw_error, rw_warning);
    if (!png) return NULL;
    *info = png_create_info_struct(png);
    if (!*info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return NULL;
    }
    png_set_read_fn(png, reader, rw_read);
    return png;
}

int rw_png_inspect(const uint8_t *data, size_t length, rw_png_header *out) {
    memset(out, 0, sizeof *out);
    if (length < 8 || memcmp(data, kSignature, 8) != 0) {
        set_message(out->message, sizeof out->message, "no PNG signature");
        return RW_PNG_NOT_PNG;
    }
    int walked = walk_chunks(data, length, out);
    if (out->has_cgbi) return walked == RW_PNG_OK ? RW_PNG_CGBI : walked;
    if (walked != RW_PNG_OK) return walked;

    /* libpng validates IHDR values (depth/colour combinations, dimensions) up to the first IDAT. */
    rw_reader reader = {data, length, 0, {0}};
    png_infop info = NULL;
    png_structp png = make_reader(&reader, &info);
    if (!png) {
        set_message(out->message, sizeof out->message, "libpng could not allocate a reader");
        return RW_PNG_CORRUPT;
    }
    if (setjmp(reader.jump)) {
        png_destroy_read_struct(&png, &info, NULL);
        set_message(out->message, sizeof out->message, reader.message);
        return RW_PNG_CORRUPT;
    }
    png_read_info(png, info);
    out->width = png_get_image_width(png, info);
    out->height = png_get_image_height(png, info);
    out->bit_depth = png_get_bit_depth(png, info);
    out->color_type = png_get_color_type(png, info);
    out->interlace = png_get_interlace_type(png, info);
    png_destroy_read_struct(&png, &info, NULL);
    return RW_PNG_OK;
}

/* The one place a PNG's pixels are read: libpng's setjmp stays here. `rgba8`: expanded to 8-bit
   RGBA whatever the file holds (palettes and low-depth grey expanded, tRNS as alpha, 16-bit scaled
   not truncated, grey to RGB, opaque images given an opaque alpha); otherwise only expanded
   (palette to RGB, tRNS to alpha, low-bit grey to 8 bits; 16 bits kept). On success `*pixels`
   holds height rows of `*rowbytes` (malloc'd; the caller frees it). */
typedef struct {
    png_bytep pixels;
    size_t rowbytes;
    png_uint_32 width, height;
    int channels, depth;
} rw_rows;

static int read_rows(const uint8_t *data, size_t length, uint64_t max_bytes, int rgba8, rw_rows *rows_out, char *message,
                     size_t message_size) {
    memset(rows_out, 0, sizeof *rows_out);
    if (length < 8 || memcmp(data, kSignature, 8) != 0) {
        set_message(message, message_size, "no PNG signature");
        return RW_PNG_NOT_PNG;
    }
    rw_reader reader = {data, length, 0, {0}};
    png_infop info = NULL;
    png_structp png = make_reader(&reader, &info);
    if (!png) {
        set_message(message, message_size, "libpng could not allocate a reader");
        return RW_PNG_CORRUPT;
    }
    /* volatile: assigned after setjmp and freed on the longjmp path */
    png_bytep volatile pixels = NULL;
    png_bytepp volatile rows = NULL;
    if (setjmp(reader.jump)) {
        free((void *)rows);
        free((void *)pixels);
        png_destroy_read_struct(&png, &info, NULL);
        set_message(message, message_size, reader.message);
        return RW_PNG_CORRUPT;
    }
    png_read_info(png, info);
    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    int color = png_get_color_type(png, info);
    png_set_expand(png);
    if (rgba8) {
        png_set_scale_16(png);
        if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
        if (!(color & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS)) png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t rowbytes = png_get_rowbytes(png, info);
    if ((uint64_t)rowbytes * (uint64_t)height > max_bytes) {
        png_destroy_read_struct(&png, &info, NULL);
        snprintf(message, message_size, "%ux%u pixels exceed the decode limit", width, height);
        return RW_PNG_TOO_LARGE;
    }
    if (rgba8 && rowbytes != (size_t)width * 4) png_error(png, "unexpected row layout after expansion");
    pixels = malloc(rowbytes * (size_t)height + 1);
    rows = malloc(sizeof(png_bytep) * ((size_t)height + 1));
    if (!pixels || !rows) {
        free((void *)rows);
        free((void *)pixels);
        png_destroy_read_struct(&png, &info, NULL);
        set_message(message, message_size, "out of memory decoding the image");
        return RW_PNG_TOO_LARGE;
    }
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + (size_t)y * rowbytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    rows_out->pixels = pixels;
    rows_out->rowbytes = rowbytes;
    rows_out->width = width;
    rows_out->height = height;
    rows_out->channels = png_get_channels(png, info);
    rows_out->depth = png_get_bit_depth(png, info);
    free((void *)rows);
    png_destroy_read_struct(&png, &info, NULL);
    return RW_PNG_OK;
}

int rw_png_decode_pixels(const uint8_t *data, size_t length, uint64_t max_bytes, rw_png_pixels *out) {
    memset(out, 0, sizeof *out);
    rw_rows read;
    int status = read_rows(data, length, max_bytes, 0, &read, out->message, sizeof out->message);
    if (status != RW_PNG_OK) return status;
    png_uint_32 width = read.width, height = read.height;
    int channels = read.channels, depth = read.depth;

    int has_alpha = (channels == 2 || channels == 4);
    out->has_alpha_channel = (uint8_t)has_alpha;
    uint32_t full = depth == 16 ? 0xFFFFu : 0xFFu;
    uint32_t min_alpha = full;
    uint32_t transparent = 0;
    uint32_t see_through = 0;
    uint32_t threshold = depth == 16 ? RW_PNG_SEE_THROUGH_ALPHA * 257u : RW_PNG_SEE_THROUGH_ALPHA;
    double radius = (double)(width < height ? width : height) * RW_PNG_MASK_RADIUS_PERCENT / 100.0;
    out->box_min_x = width;
    out->box_min_y = height;
    out->box_max_x = 0;
    out->box_max_y = 0;
    if (has_alpha) {
        size_t bytes = depth == 16 ? 2 : 1;
        size_t stride = (size_t)channels * bytes;
        size_t alpha_offset = (size_t)(channels - 1) * bytes;
        for (png_uint_32 y = 0; y < height; y++) {
            const png_byte *row = read.pixels + (size_t)y * read.rowbytes;
            for (png_uint_32 x = 0; x < width; x++) {
                const png_byte *a = row + (size_t)x * stride + alpha_offset;
                uint32_t value = bytes == 2 ? ((uint32_t)a[0] << 8) | a[1] : a[0];
                if (value < full) {
                    if (transparent < 0xFFFFFFFFu) transparent++;
                    if (value < min_alpha) min_alpha = value;
                }
                if (value < threshold) {
                    /* Hidden by the mask: in a corner square, outside the corner's circle. */
                    double px = (double)x + 0.5, py = (double)y + 0.5;
                    double cx = px < radius ? radius : (px > (double)width - radius ? (double)width - radius : -1.0);
                    double cy = py < radius ? radius : (py > (double)height - radius ? (double)height - radius : -1.0);
                    int hidden = cx >= 0.0 && cy >= 0.0 && (px - cx) * (px - cx) + (py - cy) * (py - cy) > radius * radius;
                    if (!hidden) {
                        if (see_through < 0xFFFFFFFFu) see_through++;
                        if (x < out->box_min_x) out->box_min_x = x;
                        if (y < out->box_min_y) out->box_min_y = y;
                        if (x > out->box_max_x) out->box_max_x = x;
                        if (y > out->box_max_y) out->box_max_y = y;
                    }
                }
            }
        }
    }
    out->any_transparent = transparent > 0;
    out->transparent_pixels = transparent;
    out->see_through_pixels = see_through;
    out->min_alpha = (uint16_t)min_alpha;
    free(read.pixels);
    return RW_PNG_OK;
}

/* ---------- RGBA decode and PNG encode, for repairs ---------- */

int rw_png_decode_rgba8(const uint8_t *data, size_t length, uint64_t max_bytes, rw_png_rgba *out) {
    memset(out, 0, sizeof *out);
    rw_rows read;
    int status = read_rows(data, length, max_bytes, 1, &read, out->message, sizeof out->message);
    if (status != RW_PNG_OK) return status;
    out->width = read.width;
    out->height = read.height;
    out->rgba = read.pixels;
    return RW_PNG_OK;
}

void rw_png_free(void *pointer) { free(pointer); }

const char *rw_png_library_version(void) { return PNG_LIBPNG_VER_STRING; }

size_t rw_zlib_bound(size_t length) { return (size_t)compressBound((uLong)length); }

size_t rw_zlib_compress(const uint8_t *src, size_t length, uint8_t *dst, size_t capacity) {
    uLongf out = (uLongf)capacity;
    if (compress2(dst, &out, src, (uLong)length, 6) != Z_OK) return 0;
    return (size_t)out;
}

uint32_t rw_crc32(uint32_t crc, const uint8_t *data, size_t length) {
    return (uint32_t)crc32((uLong)crc, data, (uInt)length);
}
