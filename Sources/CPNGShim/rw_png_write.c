/* PNG encoding for repairs (libpng's writer). Like the reader, its errors longjmp back into
   this file only, never through Swift. */
#include "rw_png.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_message(char *dst, size_t cap, const char *text) {
    snprintf(dst, cap, "%s", text);
}

typedef struct {
    uint8_t *data;
    size_t length, capacity;
    char message[200];
    jmp_buf jump;
} rw_writer;

static void rw_write_warning(png_structp png, png_const_charp msg) {
    (void)png;
    (void)msg; /* warnings are not errors for us */
}

static void rw_write_error(png_structp png, png_const_charp msg) {
    rw_writer *writer = (rw_writer *)png_get_error_ptr(png);
    set_message(writer->message, sizeof writer->message, msg ? msg : "libpng error");
    longjmp(writer->jump, 1);
}

static void rw_write(png_structp png, png_bytep bytes, png_size_t count) {
    rw_writer *writer = (rw_writer *)png_get_io_ptr(png);
    if (writer->length + count > writer->capacity) {
        size_t capacity = writer->capacity ? writer->capacity : 65536;
        while (capacity < writer->length + count) capacity *= 2;
        uint8_t *grown = realloc(writer->data, capacity);
        if (!grown) png_error(png, "out of memory");
        writer->data = grown;
        writer->capacity = capacity;
    }
    memcpy(writer->data + writer->length, bytes, count);
    writer->length += count;
}

static void rw_flush(png_structp png) { (void)png; }

int rw_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int channels, rw_png_buffer *out) {
    memset(out, 0, sizeof *out);
    if ((channels != 3 && channels != 4) || width == 0 || height == 0) {
        set_message(out->message, sizeof out->message, "nothing to encode");
        return RW_PNG_CORRUPT;
    }
    rw_writer writer = {NULL, 0, 0, {0}};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &writer, rw_write_error, rw_write_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        set_message(out->message, sizeof out->message, "libpng could not allocate a writer");
        return RW_PNG_CORRUPT;
    }
    if (setjmp(writer.jump)) {
        png_destroy_write_struct(&png, &info);
        free(writer.data);
        set_message(out->message, sizeof out->message, writer.message);
        return RW_PNG_CORRUPT;
    }
    png_set_write_fn(png, &writer, rw_write, rw_flush);
    /* 8-bit RGB or RGBA, not interlaced, sRGB (what every slot of an app icon wants). */
    png_set_IHDR(png, info, width, height, 8, channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_sRGB_gAMA_and_cHRM(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(pixels + (size_t)y * width * channels));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    out->data = writer.data;
    out->length = writer.length;
    return RW_PNG_OK;
}

