/* png_write.c — RGBA pixels to a PNG file (stb_image_write), written whole or not at all. */
#include "commands.h"
#include "io/atomic_file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO
#include "stb_image_write.h"

typedef struct PngSink {
    FILE *file;
    bool  failed;
} PngSink;

static void write_png_bytes(void *user, void *data, int size)
{
    PngSink *sink = user;
    if (!sink->failed && fwrite(data, 1, (size_t)size, sink->file) != (size_t)size) sink->failed = true;
}

/* Writes RGBA pixels (rows top to bottom) as a PNG through a temporary file renamed onto
 * `path` when complete (io/atomic_file.h): a failure leaves no file. */
bool app_write_png(const char *path, int width, int height, const unsigned char *pixels, char *error,
                   size_t error_size)
{
    AtomicFile out;
    if (!atomic_file_open(&out, path, error, error_size)) return false;
    PngSink sink = {out.file, false};
    errno = 0;
    int ok = stbi_write_png_to_func(write_png_bytes, &sink, width, height, 4, pixels, width * 4);
    if (!ok || sink.failed) {
        snprintf(error, error_size, "cannot write PNG: %s", strerror(errno ? errno : EIO));
        atomic_file_abort(&out);
        return false;
    }
    return atomic_file_commit(&out, error, error_size);
}
