/* video_decode.h — the tests' own reading of a recorded video, independent of src/io/video.c's
 * writing: libavformat opens the container, libavcodec decodes every frame, libswscale turns each
 * into RGBA with the matrix and range the stream itself declares. */
#ifndef SKINVIEW_TEST_VIDEO_DECODE_H
#define SKINVIEW_TEST_VIDEO_DECODE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct DecodedVideo {
    char            container[32];   /* libavformat's name: "mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm", "gif" */
    char            codec[32];       /* "h264", "vp9", "gif" */
    char            pixel_format[32];/* of the coded frames: "yuv420p", "bgra", ... */
    int             width, height, frame_count;
    double          frame_rate;      /* the stream's average frame rate (0 if it gives none) */
    double          last_time;       /* seconds of the last frame's time stamp */
    unsigned char **rgba;            /* [frame_count] width x height RGBA, rows top-down */
} DecodedVideo;

/* Decodes every frame of `path`; false with a cause in error. */
bool video_decode(const char *path, DecodedVideo *video, char *error, size_t error_size);
void video_decoded_free(DecodedVideo *video);

/* Offsets of the first top-level 'moov' and 'mdat' boxes of an MP4 (-1 when absent). */
void mp4_box_offsets(const char *path, long long *moov, long long *mdat);

/* Mean absolute difference per channel (RGB) and PSNR in dB (RGB, peak 255; 99 when identical). */
void image_difference(const unsigned char *a, const unsigned char *b, int width, int height, double *mean_abs,
                      double *psnr);

#endif
