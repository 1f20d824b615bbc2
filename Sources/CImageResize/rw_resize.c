/* The one file that compiles stb_image_resize (header-only, from Debian's libstb-dev). */
#define STB_IMAGE_RESIZE_IMPLEMENTATION
#define STBIR_ASSERT(x) ((void)0)
#include <stb/stb_image_resize.h>
#include "rw_resize.h"

int rw_resize_rgba8_srgb(const uint8_t *in, int width, int height, uint8_t *out, int out_width, int out_height) {
    int ok = stbir_resize_uint8_generic(in, width, height, 0, out, out_width, out_height, 0, 4, 3, 0, STBIR_EDGE_CLAMP,
                                        STBIR_FILTER_MITCHELL, STBIR_COLORSPACE_SRGB, NULL);
    return ok ? 0 : 1;
}
