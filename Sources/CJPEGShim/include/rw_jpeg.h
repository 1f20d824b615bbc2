#ifndef RW_JPEG_H
#define RW_JPEG_H
#include <stddef.h>
#include <stdint.h>

/* JPEG decoding for repairs (a JPEG under a .png name in an app icon set is re-encoded as a
   PNG), through libjpeg-turbo. Its errors longjmp: only inside this file, never through Swift. */

enum {
    RW_JPEG_OK = 0,
    RW_JPEG_NOT_JPEG = 1,
    RW_JPEG_CORRUPT = 2,
    RW_JPEG_TOO_LARGE = 3,
    RW_JPEG_UNSUPPORTED = 4,
};

typedef struct {
    uint32_t width, height;
    /* width × height × 4 bytes (malloc'd; rw_jpeg_free), alpha 255. */
    uint8_t *rgba;
    char message[200];
} rw_jpeg_rgba;

/* Decodes to 8-bit RGBA. A warning (damaged data libjpeg would paper over with grey) is an
   error: a repair never writes a picture the file did not hold. */
/* `max_scans` bounds a progressive JPEG's scans: thousands of tiny scans make libjpeg re-run
   its passes for minutes (the reason for djpeg's -maxscans); a real file has a dozen. */
int rw_jpeg_decode_rgba8(const uint8_t *data, size_t length, uint64_t max_bytes, int max_scans, rw_jpeg_rgba *out);
void rw_jpeg_free(uint8_t *rgba);

#endif
