/* vat_images.c — the pixel files of a VAT bake (vat_io.h): 16-bit PNG through libpng, 32-bit
 * float EXR through OpenEXRCore, each written and read back at an exact size. */
#include "vat_io.h"

#include <errno.h>
#include <openexr.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* zlib level of the page PNGs. Measured on the demo at 30 fps (304 frames): level 1 bakes in
 * 3.5 s with 8.57 MB of textures, level 3 in 4.5 s (8.34 MB), level 6 (zlib's default) in
 * 10.3 s (7.68 MB): the default costs 3x the time for 10 % smaller files. */
#ifndef VAT_PNG_COMPRESSION_LEVEL
#define VAT_PNG_COMPRESSION_LEVEL 1
#endif

/* ---- 16-bit PNG (libpng) -------------------------------------------------- */

/* libpng reports errors by longjmp; the message is kept for the one-line error. */
typedef struct PngErrorSink {
    jmp_buf jump;
    char    message[256];
} PngErrorSink;

static void png_error_to_sink(png_structp png, png_const_charp message)
{
    PngErrorSink *sink = png_get_error_ptr(png);
    snprintf(sink->message, sizeof sink->message, "%s", message);
    longjmp(sink->jump, 1);
}

static void png_warning_ignored(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message;
}

/* One libpng write or read in progress: what has to be released however it ends. */
typedef struct PngJob {
    FILE         *file;
    PngErrorSink *sink;
    png_bytep    *rows;        /* [height] row pointers into the caller's texels */
    png_structp   png;
    png_infop     info;
    bool          write;
} PngJob;

/* Releases everything; true when the file was written (or read) and closed without an error. */
static bool png_job_close(PngJob *job)
{
    if (job->write) png_destroy_write_struct(job->png ? &job->png : NULL, job->info ? &job->info : NULL);
    else png_destroy_read_struct(job->png ? &job->png : NULL, job->info ? &job->info : NULL, NULL);
    free(job->sink);
    free(job->rows);
    bool ok = !ferror(job->file);
    return (fclose(job->file) == 0) & ok;
}

/* Opens path for a write or a read of `height` rows and gives libpng the file; false with the
 * one-line error set ("cannot write PATH: ..." / "PATH: cannot open: ..."), nothing left open. */
static bool png_job_open(PngJob *job, const char *path, bool write, int height, char *error, size_t error_size)
{
    memset(job, 0, sizeof *job);
    job->write = write;
    job->file = fopen(path, write ? "wb" : "rb");
    if (!job->file) {
        snprintf(error, error_size, write ? "cannot write %s: %s" : "%s: cannot open: %s", path, strerror(errno));
        return false;
    }
    job->sink = calloc(1, sizeof *job->sink);
    job->rows = malloc(sizeof(png_bytep) * (size_t)(height > 0 ? height : 1));
    if (job->sink)
        job->png = write ? png_create_write_struct(PNG_LIBPNG_VER_STRING, job->sink, png_error_to_sink, png_warning_ignored)
                         : png_create_read_struct(PNG_LIBPNG_VER_STRING, job->sink, png_error_to_sink, png_warning_ignored);
    job->info = job->png ? png_create_info_struct(job->png) : NULL;
    if (!job->sink || !job->rows || !job->png || !job->info) {
        snprintf(error, error_size, write ? "cannot write %s: out of memory" : "%s: out of memory", path);
        png_job_close(job);
        return false;
    }
    png_init_io(job->png, job->file);
    return true;
}

/* The longjmp branch: libpng's message as the error ("cannot write PATH: ..." / "PATH: damaged
 * PNG: ..."), everything released; returns false. */
static bool png_job_failed(PngJob *job, const char *path, char *error, size_t error_size)
{
    snprintf(error, error_size, job->write ? "cannot write %s: %s" : "%s: damaged PNG: %s", path, job->sink->message);
    png_job_close(job);
    return false;
}

/* Row y of the texels: width * channels 16-bit samples. */
static void png_job_rows(PngJob *job, int width, int height, int channels, const uint16_t *texels)
{
    for (int y = 0; y < height; y++) job->rows[y] = (png_bytep)(texels + (size_t)y * (size_t)width * (size_t)channels);
    /* PNG stores 16-bit samples big-endian; our arrays are host order */
    uint16_t probe = 1;
    if (*(unsigned char *)&probe == 1) png_set_swap(job->png);
}

bool vat_write_png16(const char *path, int width, int height, int channels, const uint16_t *texels, char *error,
                     size_t error_size)
{
    PngJob job;   /* not changed after setjmp: what the longjmp branch reads is what was set */
    if (!png_job_open(&job, path, true, height, error, error_size)) return false;
    if (setjmp(job.sink->jump)) return png_job_failed(&job, path, error, error_size);
    png_set_IHDR(job.png, job.info, (png_uint_32)width, (png_uint_32)height, 16,
                 channels == 2 ? PNG_COLOR_TYPE_GRAY_ALPHA : PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(job.png, VAT_PNG_COMPRESSION_LEVEL);
    png_write_info(job.png, job.info);
    png_job_rows(&job, width, height, channels, texels);
    png_write_image(job.png, job.rows);
    png_write_end(job.png, NULL);
    if (!png_job_close(&job)) {
        snprintf(error, error_size, "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    return true;
}

bool vat_read_png16(const char *path, int width, int height, int channels, uint16_t *texels, char *error,
                    size_t error_size)
{
    PngJob job;   /* not changed after setjmp */
    if (!png_job_open(&job, path, false, height, error, error_size)) return false;
    if (setjmp(job.sink->jump)) return png_job_failed(&job, path, error, error_size);
    png_read_info(job.png, job.info);
    png_uint_32 w = 0, h = 0;
    int depth = 0, color = 0, interlace = 0;
    png_get_IHDR(job.png, job.info, &w, &h, &depth, &color, &interlace, NULL, NULL);
    int want_color = channels == 2 ? PNG_COLOR_TYPE_GRAY_ALPHA : PNG_COLOR_TYPE_RGB_ALPHA;
    if (w != (png_uint_32)width || h != (png_uint_32)height || depth != 16 || color != want_color ||
        interlace != PNG_INTERLACE_NONE) {
        snprintf(error, error_size, "%s: is %ux%u, %d-bit, colour type %d; vat.json expects %dx%d 16-bit %s", path,
                 (unsigned)w, (unsigned)h, depth, color, width, height, channels == 2 ? "gray+alpha" : "RGBA");
        png_job_close(&job);
        return false;
    }
    png_job_rows(&job, width, height, channels, texels);
    png_read_update_info(job.png, job.info);
    png_read_image(job.png, job.rows);
    png_read_end(job.png, NULL);
    png_job_close(&job);
    return true;
}

/* ---- 32-bit float EXR (OpenEXRCore) --------------------------------------- */

static char exr_last_error[256];

static void exr_error_to_buffer(exr_const_context_t context, exr_result_t code, const char *message)
{
    (void)context;
    snprintf(exr_last_error, sizeof exr_last_error, "%s (%s)", message ? message : "error",
             exr_get_error_code_as_string(code));
}

/* Offset of channel "R", "G", "B" or "A" in an interleaved RGBA float pixel. */
static int rgba_offset(const char *channel_name)
{
    switch (channel_name ? channel_name[0] : 0) {
    case 'R': return 0;
    case 'G': return 1;
    case 'B': return 2;
    default: return 3;
    }
}

bool vat_write_exr(const char *path, int width, int height, const float *rgba, char *error, size_t error_size)
{
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.error_handler_fn = exr_error_to_buffer;
    exr_last_error[0] = '\0';
    exr_context_t exr = NULL;
    int part = 0;
    exr_result_t rv = exr_start_write(&exr, path, EXR_WRITE_FILE_DIRECTLY, &init);
    if (rv == EXR_ERR_SUCCESS) rv = exr_add_part(exr, "positions", EXR_STORAGE_SCANLINE, &part);
    if (rv == EXR_ERR_SUCCESS) rv = exr_initialize_required_attr_simple(exr, part, width, height, EXR_COMPRESSION_ZIP);
    static const char *const names[4] = {"A", "B", "G", "R"};
    for (int c = 0; c < 4 && rv == EXR_ERR_SUCCESS; c++)
        rv = exr_add_channel(exr, part, names[c], EXR_PIXEL_FLOAT, EXR_PERCEPTUALLY_LINEAR, 1, 1);
    if (rv == EXR_ERR_SUCCESS) rv = exr_write_header(exr);
    int32_t lines_per_chunk = 1;
    if (rv == EXR_ERR_SUCCESS) rv = exr_get_scanlines_per_chunk(exr, part, &lines_per_chunk);
    exr_encode_pipeline_t encoder = EXR_ENCODE_PIPELINE_INITIALIZER;
    bool have_encoder = false;
    for (int y = 0; y < height && rv == EXR_ERR_SUCCESS; y += lines_per_chunk) {
        exr_chunk_info_t chunk;
        rv = exr_write_scanline_chunk_info(exr, part, y, &chunk);
        if (rv != EXR_ERR_SUCCESS) break;
        rv = have_encoder ? exr_encoding_update(exr, part, &chunk, &encoder)
                          : exr_encoding_initialize(exr, part, &chunk, &encoder);
        if (rv != EXR_ERR_SUCCESS) break;
        for (int c = 0; c < encoder.channel_count; c++) {
            exr_coding_channel_info_t *channel = &encoder.channels[c];
            channel->encode_from_ptr =
                (const uint8_t *)(rgba + ((size_t)chunk.start_y * (size_t)width) * 4 + rgba_offset(channel->channel_name));
            channel->user_pixel_stride = 4 * (int32_t)sizeof(float);
            channel->user_line_stride = width * 4 * (int32_t)sizeof(float);
            channel->user_bytes_per_element = 4;
            channel->user_data_type = EXR_PIXEL_FLOAT;
        }
        if (!have_encoder) {
            rv = exr_encoding_choose_default_routines(exr, part, &encoder);
            have_encoder = true;
            if (rv != EXR_ERR_SUCCESS) break;
        }
        rv = exr_encoding_run(exr, part, &encoder);
    }
    if (have_encoder) exr_encoding_destroy(exr, &encoder);
    exr_result_t finished = exr ? exr_finish(&exr) : EXR_ERR_SUCCESS;
    if (rv == EXR_ERR_SUCCESS) rv = finished;
    if (rv != EXR_ERR_SUCCESS) {
        snprintf(error, error_size, "cannot write %s: %s", path,
                 exr_last_error[0] ? exr_last_error : exr_get_default_error_message(rv));
        return false;
    }
    return true;
}

bool vat_read_exr(const char *path, int width, int height, float *rgba, char *error, size_t error_size)
{
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.error_handler_fn = exr_error_to_buffer;
    exr_last_error[0] = '\0';
    exr_context_t exr = NULL;
    exr_result_t rv = exr_start_read(&exr, path, &init);
    exr_attr_box2i_t window;
    memset(&window, 0, sizeof window);
    const exr_attr_chlist_t *channels = NULL;
    exr_storage_t storage = EXR_STORAGE_LAST_TYPE;
    if (rv == EXR_ERR_SUCCESS) rv = exr_get_storage(exr, 0, &storage);
    if (rv == EXR_ERR_SUCCESS) rv = exr_get_data_window(exr, 0, &window);
    if (rv == EXR_ERR_SUCCESS) rv = exr_get_channels(exr, 0, &channels);
    if (rv == EXR_ERR_SUCCESS) {
        int w = window.max.x - window.min.x + 1, h = window.max.y - window.min.y + 1;
        bool float_rgba = channels && channels->num_channels == 4;
        for (int c = 0; float_rgba && c < 4; c++)
            if (channels->entries[c].pixel_type != EXR_PIXEL_FLOAT) float_rgba = false;
        if (storage != EXR_STORAGE_SCANLINE || w != width || h != height || window.min.x != 0 || window.min.y != 0 ||
            !float_rgba) {
            snprintf(error, error_size, "%s: is %dx%d%s; vat.json expects %dx%d float RGBA scanlines", path, w, h,
                     float_rgba ? "" : " (not 4 float channels)", width, height);
            exr_finish(&exr);
            return false;
        }
    }
    int32_t lines_per_chunk = 1;
    if (rv == EXR_ERR_SUCCESS) rv = exr_get_scanlines_per_chunk(exr, 0, &lines_per_chunk);
    exr_decode_pipeline_t decoder = EXR_DECODE_PIPELINE_INITIALIZER;
    bool have_decoder = false;
    for (int y = 0; y < height && rv == EXR_ERR_SUCCESS; y += lines_per_chunk) {
        exr_chunk_info_t chunk;
        rv = exr_read_scanline_chunk_info(exr, 0, y, &chunk);
        if (rv != EXR_ERR_SUCCESS) break;
        rv = have_decoder ? exr_decoding_update(exr, 0, &chunk, &decoder)
                          : exr_decoding_initialize(exr, 0, &chunk, &decoder);
        if (rv != EXR_ERR_SUCCESS) break;
        for (int c = 0; c < decoder.channel_count; c++) {
            exr_coding_channel_info_t *channel = &decoder.channels[c];
            channel->decode_to_ptr =
                (uint8_t *)(rgba + ((size_t)chunk.start_y * (size_t)width) * 4 + rgba_offset(channel->channel_name));
            channel->user_pixel_stride = 4 * (int32_t)sizeof(float);
            channel->user_line_stride = width * 4 * (int32_t)sizeof(float);
            channel->user_bytes_per_element = 4;
            channel->user_data_type = EXR_PIXEL_FLOAT;
        }
        if (!have_decoder) {
            rv = exr_decoding_choose_default_routines(exr, 0, &decoder);
            have_decoder = true;
            if (rv != EXR_ERR_SUCCESS) break;
        }
        rv = exr_decoding_run(exr, 0, &decoder);
    }
    if (have_decoder) exr_decoding_destroy(exr, &decoder);
    if (exr) exr_finish(&exr);
    if (rv != EXR_ERR_SUCCESS) {
        snprintf(error, error_size, "%s: damaged EXR: %s", path,
                 exr_last_error[0] ? exr_last_error : exr_get_default_error_message(rv));
        return false;
    }
    return true;
}
