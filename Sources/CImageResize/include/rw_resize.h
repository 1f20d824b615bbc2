#ifndef RESWATCH_RW_RESIZE_H
#define RESWATCH_RW_RESIZE_H
#include <stdint.h>

/* Resamples 8-bit RGBA in linear light (sRGB decoded, filtered, encoded again), alpha-weighted,
   with stb_image_resize's Mitchell filter (Debian's libstb-dev). Returns 0 on success. */
int rw_resize_rgba8_srgb(const uint8_t *in, int width, int height, uint8_t *out, int out_width, int out_height);
#endif
