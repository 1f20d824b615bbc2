/* libjpeg-turbo behind a call that returns: its error_exit longjmps back here, and only here. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include "rw_jpeg.h"

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    int warnings;
    char message[JMSG_LENGTH_MAX];
} rw_jpeg_errors;

typedef struct {
    struct jpeg_progress_mgr base;
    int max_scans;
} rw_jpeg_progress;

/* Called as libjpeg reads the input: a file with more scans than allowed is stopped there. */
static void on_progress(j_common_ptr cinfo) {
    rw_jpeg_progress *progress = (rw_jpeg_progress *)cinfo->progress;
    j_decompress_ptr d = (j_decompress_ptr)cinfo;
    if (cinfo->is_decompressor && d->input_scan_number > progress->max_scans) {
        rw_jpeg_errors *e = (rw_jpeg_errors *)cinfo->err;
        snprintf(e->message, sizeof e->message, "more than %d scans (a progressive JPEG made to be slow)", progress->max_scans);
        longjmp(e->jump, 1);
    }
}

static void on_error(j_common_ptr cinfo) {
    rw_jpeg_errors *e = (rw_jpeg_errors *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, e->message);
    longjmp(e->jump, 1);
}

/* Warnings (level -1) are counted and the first kept; trace messages are dropped. Nothing is
   written to stderr. */
static void on_message(j_common_ptr cinfo, int level) {
    rw_jpeg_errors *e = (rw_jpeg_errors *)cinfo->err;
    if (level >= 0) return;
    if (e->warnings++ == 0) (*cinfo->err->format_message)(cinfo, e->message);
}

static void set_message(char *dst, size_t size, const char *text) {
    snprintf(dst, size, "%s", text);
}

int rw_jpeg_decode_rgba8(const uint8_t *data, size_t length, uint64_t max_bytes, int max_scans, rw_jpeg_rgba *out) {
    memset(out, 0, sizeof *out);
    if (length < 4 || data[0] != 0xFF || data[1] != 0xD8 || data[2] != 0xFF) {
        set_message(out->message, sizeof out->message, "no JPEG start-of-image marker");
        return RW_JPEG_NOT_JPEG;
    }
    struct jpeg_decompress_struct cinfo;
    rw_jpeg_errors errors;
    memset(&errors, 0, sizeof errors);
    uint8_t *volatile pixels = NULL;
    cinfo.err = jpeg_std_error(&errors.base);
    errors.base.error_exit = on_error;
    errors.base.emit_message = on_message;
    if (setjmp(errors.jump)) {
        free((void *)pixels);
        jpeg_destroy_decompress(&cinfo);
        set_message(out->message, sizeof out->message, errors.message);
        return RW_JPEG_CORRUPT;
    }
    jpeg_create_decompress(&cinfo);
    rw_jpeg_progress progress;
    memset(&progress, 0, sizeof progress);
    progress.base.progress_monitor = on_progress;
    progress.max_scans = max_scans;
    cinfo.progress = &progress.base;
    jpeg_mem_src(&cinfo, data, (unsigned long)length);
    jpeg_read_header(&cinfo, TRUE);
    if (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK) {
        jpeg_destroy_decompress(&cinfo);
        set_message(out->message, sizeof out->message, "a CMYK JPEG: convert it to RGB in an image editor");
        return RW_JPEG_UNSUPPORTED;
    }
    if ((uint64_t)cinfo.image_width * cinfo.image_height * 4 > max_bytes) {
        jpeg_destroy_decompress(&cinfo);
        set_message(out->message, sizeof out->message, "the image is larger than the decode limit");
        return RW_JPEG_TOO_LARGE;
    }
    cinfo.out_color_space = JCS_EXT_RGBA;
    jpeg_start_decompress(&cinfo);
    uint32_t width = cinfo.output_width, height = cinfo.output_height;
    if (cinfo.output_components != 4 || (uint64_t)width * height * 4 > max_bytes) {
        jpeg_destroy_decompress(&cinfo);
        set_message(out->message, sizeof out->message, "unexpected output layout");
        return RW_JPEG_CORRUPT;
    }
    pixels = malloc((size_t)width * height * 4);
    if (!pixels) {
        jpeg_destroy_decompress(&cinfo);
        set_message(out->message, sizeof out->message, "out of memory");
        return RW_JPEG_TOO_LARGE;
    }
    while (cinfo.output_scanline < height) {
        JSAMPROW row = pixels + (size_t)cinfo.output_scanline * width * 4;
        if (jpeg_read_scanlines(&cinfo, &row, 1) != 1) break;
    }
    int complete = cinfo.output_scanline == height;
    if (complete) jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    if (!complete || errors.warnings > 0) {
        free((void *)pixels);
        set_message(out->message, sizeof out->message, errors.warnings > 0 ? errors.message : "the data ends early");
        return RW_JPEG_CORRUPT;
    }
    out->width = width;
    out->height = height;
    out->rgba = pixels;
    return RW_JPEG_OK;
}

void rw_jpeg_free(uint8_t *rgba) { free(rgba); }
