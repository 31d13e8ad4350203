/* libvips is opened when the first image is processed (gg_init), not when gramgen starts: the
   library and the hundred-odd libraries it needs (codecs, ImageMagick, Poppler, ...) took 25 ms
   to load and bind at every start, a quarter of a no-op build of a 10,000-post site, and as much
   of every command that processes no photo. glib and gobject stay linked as usual (1 ms).

   Every libvips function the shim calls is listed here once: each becomes a pointer filled by
   gg_init with dlsym, and its name a macro for that pointer, so the calls read as plain libvips
   calls. A function missing from the list is an undefined symbol at link time (gramgen does not
   link libvips), never a silent direct call. Private to the shim. */
#ifndef GRAMGEN_VIPSCALLS_H
#define GRAMGEN_VIPSCALLS_H

#include <vips/vips.h>

/* From <vips/vector.h>, which needs Orc's headers. */
void vips_vector_set_enabled(gboolean enabled);
gboolean vips_vector_isenabled(void);

#define GG_VIPS_CALLS(X) \
    X(vips_init) X(vips_version) X(vips_cache_set_max) X(vips_operation_block_set) \
    X(vips_vector_set_enabled) X(vips_vector_isenabled) X(vips_error) X(vips_error_buffer_copy) X(vips_error_clear) \
    X(vips_image_new_from_file) X(vips_image_new_from_memory_copy) X(vips_image_copy_memory) \
    X(vips_image_get_typeof) X(vips_image_get_int) X(vips_image_get_string) X(vips_image_get_fields) \
    X(vips_image_remove) X(vips_image_hasalpha) X(vips_image_get_width) X(vips_image_get_height) \
    X(vips_image_get_bands) X(vips_image_get_format) X(vips_image_get_interpretation) \
    X(vips_format_sizeof) X(vips_format_sizeof_unsafe) X(vips_enum_nick) X(vips_interpretation_get_type) X(vips_band_format_get_type) \
    X(vips_isprefix) X(vips_array_double_newv) X(vips_area_unref) \
    X(vips_thumbnail) X(vips_icc_transform) X(vips_resize) X(vips_crop) X(vips_flatten) \
    X(vips_colourspace) X(vips_copy) X(vips_cast_uchar) \
    X(vips_jpegsave_buffer) X(vips_webpsave_buffer) X(vips_heifsave_buffer) X(vips_pngsave_buffer)

#define GG_DECLARE_CALL(name) extern __typeof__(name) *gg_call_##name;
GG_VIPS_CALLS(GG_DECLARE_CALL)
#undef GG_DECLARE_CALL

#define vips_init (*gg_call_vips_init)
#define vips_version (*gg_call_vips_version)
#define vips_cache_set_max (*gg_call_vips_cache_set_max)
#define vips_operation_block_set (*gg_call_vips_operation_block_set)
#define vips_vector_set_enabled (*gg_call_vips_vector_set_enabled)
#define vips_vector_isenabled (*gg_call_vips_vector_isenabled)
#define vips_error (*gg_call_vips_error)
#define vips_error_buffer_copy (*gg_call_vips_error_buffer_copy)
#define vips_error_clear (*gg_call_vips_error_clear)
#define vips_image_new_from_file (*gg_call_vips_image_new_from_file)
#define vips_image_new_from_memory_copy (*gg_call_vips_image_new_from_memory_copy)
#define vips_image_copy_memory (*gg_call_vips_image_copy_memory)
#define vips_image_get_typeof (*gg_call_vips_image_get_typeof)
#define vips_image_get_int (*gg_call_vips_image_get_int)
#define vips_image_get_string (*gg_call_vips_image_get_string)
#define vips_image_get_fields (*gg_call_vips_image_get_fields)
#define vips_image_remove (*gg_call_vips_image_remove)
#define vips_image_hasalpha (*gg_call_vips_image_hasalpha)
#define vips_image_get_width (*gg_call_vips_image_get_width)
#define vips_image_get_height (*gg_call_vips_image_get_height)
#define vips_image_get_bands (*gg_call_vips_image_get_bands)
#define vips_image_get_format (*gg_call_vips_image_get_format)
#define vips_image_get_interpretation (*gg_call_vips_image_get_interpretation)
#define vips_format_sizeof (*gg_call_vips_format_sizeof)
#define vips_format_sizeof_unsafe (*gg_call_vips_format_sizeof_unsafe)
#define vips_enum_nick (*gg_call_vips_enum_nick)
#define vips_interpretation_get_type (*gg_call_vips_interpretation_get_type)
#define vips_band_format_get_type (*gg_call_vips_band_format_get_type)
#define vips_isprefix (*gg_call_vips_isprefix)
#define vips_array_double_newv (*gg_call_vips_array_double_newv)
#define vips_area_unref (*gg_call_vips_area_unref)
#define vips_thumbnail (*gg_call_vips_thumbnail)
#define vips_icc_transform (*gg_call_vips_icc_transform)
#define vips_resize (*gg_call_vips_resize)
#define vips_crop (*gg_call_vips_crop)
#define vips_flatten (*gg_call_vips_flatten)
#define vips_colourspace (*gg_call_vips_colourspace)
#define vips_copy (*gg_call_vips_copy)
#define vips_cast_uchar (*gg_call_vips_cast_uchar)
#define vips_jpegsave_buffer (*gg_call_vips_jpegsave_buffer)
#define vips_webpsave_buffer (*gg_call_vips_webpsave_buffer)
#define vips_heifsave_buffer (*gg_call_vips_heifsave_buffer)
#define vips_pngsave_buffer (*gg_call_vips_pngsave_buffer)

#endif
