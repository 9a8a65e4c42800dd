/* video.h — a clip recorded as a video file, encoded by FFmpeg's libraries (Debian's libavcodec,
 * libavformat, libswscale, libavfilter): the caller hands RGBA frames, rows top-down, one per
 * 1/fps second, and gets
 *   .mp4   H.264 (libx264), yuv420p, BT.709, `movflags +faststart` (the index before the media
 *          data, so a browser starts playing before the whole file arrived);
 *   .webm  VP9 (libvpx-vp9), yuv420p, BT.709;
 *   .gif   one 256-colour palette for the whole clip (libavfilter's palettegen over every frame,
 *          then paletteuse with ordered dithering), looping forever, delays in 1/100 s.
 * (PNG frames, OUT-%04d.png, are the app's: app_write_png per frame.)
 * The file is written as ".NAME.tmp-XXXXXX" next to NAME and renamed when complete
 * (io/atomic_file.h): a failure or an abort leaves nothing behind. Nothing else in skinview
 * includes FFmpeg.
 */
#ifndef SKINVIEW_VIDEO_H
#define SKINVIEW_VIDEO_H

#include <stdbool.h>
#include <stddef.h>

typedef enum VideoFormat {
    VIDEO_FORMAT_UNKNOWN = -1,
    VIDEO_FORMAT_MP4,
    VIDEO_FORMAT_WEBM,
    VIDEO_FORMAT_GIF,
    VIDEO_FORMAT_PNG_FRAMES,   /* a printf pattern with one integer field, ending .png */
} VideoFormat;

#define VIDEO_GIF_MAX_FPS 50.0   /* GIF delays are whole 1/100 s, and browsers play delays under 2/100 s slower */

/* The format a path asks for, by its extension (case-insensitive); PNG frames need exactly one
 * %d-style field (e.g. %04d) and no other '%'. VIDEO_FORMAT_UNKNOWN otherwise. */
VideoFormat video_format_of_path(const char *path);

/* "MP4 (H.264)", "WebM (VP9)", "GIF", "PNG frames". */
const char *video_format_label(VideoFormat format);

/* Whether `format` takes width x height at `fps`: yuv420p (MP4, WebM) needs even sides, GIF at
 * most VIDEO_GIF_MAX_FPS and 65535 pixels a side. False with a one-line cause (the fix included). */
bool video_check(VideoFormat format, int width, int height, double fps, char *error, size_t error_size);

typedef struct VideoWriter VideoWriter;

/* Opens the encoder and the temporary file for `path` (format MP4, WebM or GIF). NULL with a
 * one-line cause (the encoder missing from this FFmpeg, a folder that cannot be written...). */
VideoWriter *video_open(const char *path, VideoFormat format, int width, int height, double fps, char *error,
                        size_t error_size);

/* Encodes the next frame: width x height RGBA, rows top-down (alpha ignored). False with a cause
 * (the writer must then be aborted). */
bool video_add_frame(VideoWriter *writer, const unsigned char *rgba, char *error, size_t error_size);

/* Drains the encoder, writes the container's trailer (MP4: moves the index to the front), renames
 * the file onto its name, frees the writer. False with a cause (nothing is left behind). */
bool video_finish(VideoWriter *writer, char *error, size_t error_size);

/* Gives up: removes the temporary file, frees the writer (NULL is fine). */
void video_abort(VideoWriter *writer);

/* The number of frames added so far. */
int video_frame_count(const VideoWriter *writer);

#endif
