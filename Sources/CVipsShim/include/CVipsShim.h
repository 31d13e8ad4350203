// Fixed-argument wrappers for the variadic libvips calls gramgen uses.
// Swift cannot call C variadic functions; each wrapper is one call with its options spelled out.
#ifndef GRAMGEN_CVIPSSHIM_H
#define GRAMGEN_CVIPSSHIM_H

#include <vips/vips.h>

/// Opens libvips (gramgen does not link it: see VipsCalls.h) and starts it, once per process.
/// Returns 0 on success; otherwise gg_error_take says why. No other gg_ call that takes or makes
/// an image may come before it.
///
/// gramgen processes several images at once. Calls that build or free operations which may carry
/// an Orc (runtime-compiled SIMD) program hold one process-wide lock, because Orc's code allocator
/// is not thread-safe; decoding and encoding run unlocked.
int gg_init(const char *argv0);

/// Whether a pipeline built from an image of width×height pixels uses Orc-compiled vector code
/// (large images do; for small ones compiling costs more than it saves).
int gg_vector_used_for(int width, int height);

/// Opens a file lazily (header only), so its size can be checked before any pixel is decoded.
VipsImage *gg_open_header(const char *path);

/// Shrink-on-load decode, auto-rotated upright, fitted to width (never upscaled); an embedded
/// colour profile is converted to sRGB. source_width × source_height is the file's size, from its header.
VipsImage *gg_thumbnail_file(const char *path, int width, int fail_on_error, int source_width, int source_height);

/// Shrink-on-load decode straight to an attention-cropped square of edge pixels (never upscaled).
VipsImage *gg_thumbnail_square(const char *path, int edge, int source_width, int source_height);

/// Resizes an in-memory image by scale with the default (lanczos3) kernel.
VipsImage *gg_resize(VipsImage *in, double scale);

/// Where the eye goes in an 8-bit sRGB image, for a square crop of edge pixels: the centre of
/// the most interesting area, in the input's coordinates. Scored on a grid of at most 32×32 cells
/// by edges (Sobel on L*), skin tones and strong colour, blurred over the crop's extent (the
/// attention measure of libvips' smartcrop, computed in plain C). Reads the pixels from memory.
int gg_attention(VipsImage *in, int edge, int *attention_x, int *attention_y);

/// An 8-bit sRGB image of cols×rows pixels, each the mean colour of the part of `in` (8-bit RGB or
/// RGBA, alpha composited over white) it covers: a tiny preview without a resampling pipeline.
VipsImage *gg_cell_image(VipsImage *in, int cols, int rows);

/// Crop a region.
VipsImage *gg_crop(VipsImage *in, int left, int top, int width, int height);

/// Flattens alpha onto a solid background (JPEG cannot carry alpha).
VipsImage *gg_flatten(VipsImage *in, double r, double g, double b);

/// Converts to 8-bit sRGB (16-bit PNG, grey, CMYK without profile, ...).
VipsImage *gg_to_srgb8(VipsImage *in);

/// A copy without EXIF, XMP, IPTC, ICC or orientation fields (a new reference to the image when it
/// has none). Savers' own "strip" option is not honoured by every libvips release and format (WebP
/// in 8.14), so metadata is removed here.
VipsImage *gg_without_metadata(VipsImage *in);

/// Mean colour of the image's pixels (first three bands; one band counts as grey; alpha is not
/// weighed in), written to rgb[3]. Reads the pixels once, from memory when the image is there.
int gg_average_rgb(VipsImage *in, double rgb[3]);

int gg_jpegsave_buffer(VipsImage *in, void **buf, size_t *len, int quality, int strip);
int gg_webpsave_buffer(VipsImage *in, void **buf, size_t *len, int quality, int strip);
int gg_avifsave_buffer(VipsImage *in, void **buf, size_t *len, int quality, int strip);
int gg_pngsave_buffer(VipsImage *in, void **buf, size_t *len, int strip);

/// Reads and clears libvips' error buffer (or says why libvips could not be opened); caller frees
/// with g_free. The buffer is one for the whole process: see gg_work_shared_begin.
char *gg_error_take(void);

/// libvips keeps one error buffer for the whole process, filled by every thread (its own worker
/// threads too), so a failure's message can be taken by another thread's failure, or sit among
/// other files' messages. Work whose failure gramgen reports runs between gg_work_shared_begin
/// and _end, alongside other such work; when a piece fails it runs again between
/// gg_work_alone_begin and _end, which waits for every shared piece to end, empties the buffer and
/// keeps new shared pieces waiting: the buffer then holds that piece's messages only. A thread
/// must not nest these (a waiting alone piece keeps new shared ones out).
void gg_work_shared_begin(void);
void gg_work_shared_end(void);
void gg_work_alone_begin(void);
void gg_work_alone_end(void);

/// What Swift reads of an image (libvips' own accessors, which it cannot call: see VipsCalls.h).
int gg_width(VipsImage *image);
int gg_height(VipsImage *image);
int gg_bands(VipsImage *image);
/// 1 for 8-bit samples, 2 for 16-bit, ...
int gg_bytes_per_band(VipsImage *image);
int gg_has_alpha(VipsImage *image);
const char *gg_interpretation_name(VipsImage *image);
const char *gg_format_name(VipsImage *image);
/// Interpreted as sRGB with 8-bit samples.
int gg_is_srgb8(VipsImage *image);
/// The EXIF orientation (1 when there is none).
int gg_orientation(VipsImage *image);
/// A string field of the image (EXIF and the like), owned by the image; NULL when absent.
const char *gg_string_field(VipsImage *image, const char *name);
/// The image decoded into memory (a new reference to it when it already is there).
VipsImage *gg_copy_memory(VipsImage *image);
/// An 8-bit, 3-band image of width×height pixels copied from `count` bytes.
VipsImage *gg_from_rgb(const void *bytes, size_t count, int width, int height);

void gg_unref(VipsImage *image);

#endif
