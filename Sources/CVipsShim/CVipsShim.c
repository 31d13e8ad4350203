#define _GNU_SOURCE /* PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP */
#include "CVipsShim.h"
#include "VipsCalls.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define GG_DEFINE_CALL(name) __typeof__(name) *gg_call_##name;
GG_VIPS_CALLS(GG_DEFINE_CALL)
#undef GG_DEFINE_CALL

static void gg_quiet_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void) domain; (void) level; (void) message; (void) data;
}

/* Orc (libvips' runtime-compiled SIMD) compiles a program when a resize (reducev), convolution
   or morphology operation is built, and frees it when the operation goes. Orc 0.4.33's
   code-memory allocator splits, merges and frees its chunk list outside its own lock, so a
   compile on one thread racing a free on another corrupts the heap ("double free or
   corruption"). Every shim call that can build or free such an operation therefore holds this
   lock: building a pipeline and dropping a reference are short; decoding and encoding (copy to
   memory, the savers) run unlocked, in parallel, and only execute compiled programs, which is
   thread-safe. */
static GMutex pipeline_lock;
#define LOCKED(expr) do { g_mutex_lock(&pipeline_lock); expr; g_mutex_unlock(&pipeline_lock); } while (0)

/* Images at most this many pixels are resized without Orc: compiling a program per resize costs
   more than the plain C path saves on so few pixels. */
#define VECTOR_MIN_PIXELS (256 * 256)

/* Why libvips could not be opened, for gg_error_take (its own error buffer is not there then). */
static char load_error[512];

/* Opens libvips (the version gramgen was compiled against: the same ABI number) and finds every
   function of VipsCalls.h in it. */
static int load_vips(void) {
    char file[32];
    snprintf(file, sizeof file, "libvips.so.%d", VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE);
    void *library = dlopen(file, RTLD_NOW | RTLD_GLOBAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return -1;
    }
#define GG_FIND_CALL(function)                                                                    \
    if (!(*(void **) &gg_call_##function = dlsym(library, #function))) {                          \
        snprintf(load_error, sizeof load_error, "%s has no function %s: a libvips of another version", file, #function); \
        return -1;                                                                                \
    }
    GG_VIPS_CALLS(GG_FIND_CALL)
#undef GG_FIND_CALL
    if (vips_version(3) - vips_version(5) != VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE) {
        snprintf(load_error, sizeof load_error, "%s has ABI version %d, gramgen needs %d", file,
                 vips_version(3) - vips_version(5), VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE);
        return -1;
    }
    return 0;
}

int gg_init(const char *argv0) {
    if (load_vips() != 0) return -1;
    if (vips_init(argv0)) return -1;
    /* Damaged files are reported by gramgen as diagnostics; libvips' own warnings would only repeat them. */
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE, gg_quiet_log, NULL);
    vips_cache_set_max(0);
    /* gramgen reads JPEG, PNG, WebP, GIF, TIFF and HEIF/AVIF only. Every other loader is blocked,
       so a file named .jpg that is really an SVG (which may pull in other files), a PDF, a slide
       scan or anything ImageMagick would try is refused ("operation is blocked") instead of being
       handed to those libraries. */
    vips_operation_block_set("VipsForeignLoad", TRUE);
    static const char *allowed[] = {"VipsForeignLoadJpeg", "VipsForeignLoadPng", "VipsForeignLoadWebp",
                                    "VipsForeignLoadNsgif", "VipsForeignLoadTiff", "VipsForeignLoadHeif"};
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++) vips_operation_block_set(allowed[i], FALSE);
    return 0;
}

/* Under pipeline_lock: Orc on for builds from large inputs only. The flag is read when an
   operation is built, and every build that reads it happens under the lock. */
static void use_vector_for(gint64 pixels) {
    vips_vector_set_enabled(pixels > VECTOR_MIN_PIXELS);
}

int gg_vector_used_for(int width, int height) {
    int enabled;
    LOCKED(use_vector_for((gint64) width * height); enabled = vips_vector_isenabled() ? 1 : 0);
    return enabled;
}

VipsImage *gg_open_header(const char *path) { return vips_image_new_from_file(path, NULL); }

/* thumbnail's own export_profile mangles 16-bit images without a profile (8.14), so colour
   management happens here: an embedded profile (Display P3, Adobe RGB, ...) is converted to sRGB. */
static VipsImage *to_srgb(VipsImage *in) {
    if (!in || !vips_image_get_typeof(in, VIPS_META_ICC_NAME)) return in;
    VipsImage *out = NULL;
    int failed = vips_icc_transform(in, &out, "srgb", "embedded", TRUE, "intent", VIPS_INTENT_RELATIVE,
                                    "depth", 8, NULL);
    g_object_unref(in);
    return failed ? NULL : out;
}

static VipsImage *thumbnail_file(const char *path, int width, int fail_on_error, gint64 source_pixels) {
    VipsImage *out = NULL;
    use_vector_for(source_pixels);
    if (vips_thumbnail(path, &out, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN, "fail_on",
                       fail_on_error ? VIPS_FAIL_ON_ERROR : VIPS_FAIL_ON_NONE, NULL))
        return NULL;
    return to_srgb(out);
}

VipsImage *gg_thumbnail_file(const char *path, int width, int fail_on_error, int source_width, int source_height) {
    VipsImage *out;
    LOCKED(out = thumbnail_file(path, width, fail_on_error, (gint64) source_width * source_height));
    return out;
}

static VipsImage *thumbnail_square(const char *path, int edge, gint64 source_pixels) {
    VipsImage *out = NULL;
    use_vector_for(source_pixels);
    if (vips_thumbnail(path, &out, edge, "height", edge, "size", VIPS_SIZE_DOWN, "crop",
                       VIPS_INTERESTING_ATTENTION, "fail_on", VIPS_FAIL_ON_ERROR, NULL))
        return NULL;
    return to_srgb(out);
}

VipsImage *gg_thumbnail_square(const char *path, int edge, int source_width, int source_height) {
    VipsImage *out;
    LOCKED(out = thumbnail_square(path, edge, (gint64) source_width * source_height));
    return out;
}

static gint64 pixels(VipsImage *image) { return (gint64) image->Xsize * image->Ysize; }

VipsImage *gg_resize(VipsImage *in, double scale) {
    VipsImage *out = NULL;
    int failed;
    LOCKED(use_vector_for(pixels(in)); failed = vips_resize(in, &out, scale, NULL));
    return failed ? NULL : out;
}

VipsImage *gg_crop(VipsImage *in, int left, int top, int width, int height) {
    VipsImage *out = NULL;
    return vips_crop(in, &out, left, top, width, height, NULL) ? NULL : out;
}

VipsImage *gg_flatten(VipsImage *in, double r, double g, double b) {
    VipsImage *out = NULL;
    VipsArrayDouble *bg = vips_array_double_newv(3, r, g, b);
    int failed = vips_flatten(in, &out, "background", bg, NULL);
    vips_area_unref(VIPS_AREA(bg));
    return failed ? NULL : out;
}

VipsImage *gg_to_srgb8(VipsImage *in) {
    VipsImage *out = NULL;
    return vips_colourspace(in, &out, VIPS_INTERPRETATION_sRGB, NULL) ? NULL : out;
}

static int is_metadata(const char *name) {
    return vips_isprefix("exif-", name) || vips_isprefix("xmp-", name) || vips_isprefix("iptc-", name) ||
           vips_isprefix("icc-", name) || vips_isprefix("heif-", name) || vips_isprefix("png-comment", name) ||
           vips_isprefix("gif-comment", name) || strcmp(name, "orientation") == 0 ||
           strcmp(name, "resolution-unit") == 0;
}

VipsImage *gg_without_metadata(VipsImage *in) {
    gchar **fields = vips_image_get_fields(in);
    int found = 0;
    for (int i = 0; fields[i] && !found; i++) found = is_metadata(fields[i]);
    g_strfreev(fields);
    /* Nothing to remove: the image itself (a copy would encode to the same bytes). */
    if (!found) {
        g_object_ref(in);
        return in;
    }
    VipsImage *out = NULL;
    if (vips_copy(in, &out, NULL)) return NULL;
    fields = vips_image_get_fields(out);
    for (int i = 0; fields[i]; i++)
        if (is_metadata(fields[i])) vips_image_remove(out, fields[i]);
    g_strfreev(fields);
    return out;
}

int gg_average_rgb(VipsImage *in, double rgb[3]) {
    VipsImage *memory = NULL;
    if (in->BandFmt == VIPS_FORMAT_UCHAR) {
        /* A reference when the image is already in memory. */
        memory = vips_image_copy_memory(in);
    } else {
        VipsImage *cast = NULL;
        if (vips_cast_uchar(in, &cast, NULL)) return -1;
        memory = vips_image_copy_memory(cast);
        g_object_unref(cast);
    }
    if (!memory) return -1;
    int bands = memory->Bands, width = memory->Xsize, height = memory->Ysize;
    double sum[3] = {0, 0, 0};
    for (int y = 0; y < height; y++) {
        const unsigned char *p = (const unsigned char *) VIPS_IMAGE_ADDR(memory, 0, y);
        guint64 row[3] = {0, 0, 0};
        if (bands >= 3) {
            for (int x = 0; x < width; x++, p += bands) {
                row[0] += p[0];
                row[1] += p[1];
                row[2] += p[2];
            }
        } else {
            for (int x = 0; x < width; x++, p += bands) row[0] += p[0];
            row[1] = row[2] = row[0];
        }
        for (int i = 0; i < 3; i++) sum[i] += (double) row[i];
    }
    g_object_unref(memory);
    double count = (double) width * (double) height;
    for (int i = 0; i < 3; i++) rgb[i] = sum[i] / count;
    return 0;
}

int gg_jpegsave_buffer(VipsImage *in, void **buf, size_t *len, int quality, int strip) {
    return vips_jpegsave_buffer(in, buf, len, "Q", quality, "strip", strip, "optimize_coding", TRUE,
                                "interlace", TRUE, NULL);
}

int gg_webpsave_buffer(VipsImage *in, void **buf, size_t *len, int quality, int strip) {
    return vips_webpsave_buffer(in, buf, len, "Q", quality, "strip", strip, "effort", 4, NULL);
}

int gg_avifsave_buffer(VipsImage *in, void **buf, size_t *len, int quality, int strip) {
    return vips_heifsave_buffer(in, buf, len, "Q", quality, "strip", strip, "compression",
                                VIPS_FOREIGN_HEIF_COMPRESSION_AV1, "effort", 2, NULL);
}

int gg_pngsave_buffer(VipsImage *in, void **buf, size_t *len, int strip) {
    return vips_pngsave_buffer(in, buf, len, "strip", strip, NULL);
}

/* Writers first: glibc's default lets readers in while a writer waits, so a failing piece could
   wait as long as other pieces keep overlapping. */
static pthread_rwlock_t work_lock = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;

void gg_work_shared_begin(void) { pthread_rwlock_rdlock(&work_lock); }
void gg_work_shared_end(void) { pthread_rwlock_unlock(&work_lock); }

void gg_work_alone_begin(void) {
    pthread_rwlock_wrlock(&work_lock);
    if (gg_call_vips_error_clear) vips_error_clear();
}

void gg_work_alone_end(void) { pthread_rwlock_unlock(&work_lock); }

char *gg_error_take(void) {
    /* Set only when libvips could not be opened: then no image was ever made. */
    if (load_error[0]) return g_strdup(load_error);
    return gg_call_vips_error_buffer_copy ? vips_error_buffer_copy() : NULL;
}

int gg_width(VipsImage *image) { return vips_image_get_width(image); }
int gg_height(VipsImage *image) { return vips_image_get_height(image); }
int gg_bands(VipsImage *image) { return vips_image_get_bands(image); }
int gg_bytes_per_band(VipsImage *image) { return (int) vips_format_sizeof(vips_image_get_format(image)); }
int gg_has_alpha(VipsImage *image) { return vips_image_hasalpha(image) ? 1 : 0; }

const char *gg_interpretation_name(VipsImage *image) {
    return vips_enum_nick(vips_interpretation_get_type(), vips_image_get_interpretation(image));
}

const char *gg_format_name(VipsImage *image) {
    return vips_enum_nick(vips_band_format_get_type(), vips_image_get_format(image));
}

int gg_is_srgb8(VipsImage *image) {
    return vips_image_get_interpretation(image) == VIPS_INTERPRETATION_sRGB &&
           vips_image_get_format(image) == VIPS_FORMAT_UCHAR;
}

int gg_orientation(VipsImage *image) {
    int value = 1;
    if (!vips_image_get_typeof(image, "orientation") || vips_image_get_int(image, "orientation", &value)) return 1;
    return value;
}

const char *gg_string_field(VipsImage *image, const char *name) {
    const char *value = NULL;
    if (!vips_image_get_typeof(image, name) || vips_image_get_string(image, name, &value)) return NULL;
    return value;
}

VipsImage *gg_copy_memory(VipsImage *image) { return vips_image_copy_memory(image); }

VipsImage *gg_from_rgb(const void *bytes, size_t count, int width, int height) {
    return vips_image_new_from_memory_copy(bytes, count, width, height, 3, VIPS_FORMAT_UCHAR);
}

void gg_unref(VipsImage *image) {
    /* The last reference to a pipeline frees its operations, and with them their Orc programs. */
    if (image) LOCKED(g_object_unref(image));
}

