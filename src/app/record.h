/* record.h — a clip recorded frame by frame (--record, and the window's Shift+S): how many frames
 * at what rate, and where they go (a video through io/video.h, or numbered PNG files through
 * app_write_png). The frames themselves are drawn by the caller (record.c's command_record
 * off-screen like --screenshot; viewer.c from the window's camera). */
#ifndef SKINVIEW_RECORD_H
#define SKINVIEW_RECORD_H

#include "anim/model.h"
#include "io/video.h"

#include <stdbool.h>
#include <stddef.h>

#define RECORD_MAX_DEFAULT_FPS 60.0   /* the clip's own rate, at most this, unless --fps says */
#define RECORD_MAX_FRAMES 100000

/* Frame rate and count of a recording of `clip` (< 0: a static pose) at `speed` in `loop_mode`
 * (PlaybackLoopMode): fps = `fps` when > 0, else the clip's key rate (timeline_frame_rate) at most
 * RECORD_MAX_DEFAULT_FPS (GIF: VIDEO_GIF_MAX_FPS), 30 for a pose; frames = `duration` x fps when
 * duration > 0, else one loop: duration / |speed| x fps (ping-pong: there and back, twice that;
 * once: that plus the last frame). False with a one-line cause (a pose without --duration). */
bool record_plan(const Model *model, int clip, float speed, int loop_mode, double fps, double duration,
                 VideoFormat format, double *out_fps, int *out_frames, char *error, size_t error_size);

/* Where the frames go. */
typedef struct RecordOutput {
    VideoFormat  format;
    VideoWriter *video;             /* MP4, WebM, GIF */
    char         pattern[4096];     /* PNG frames: the printf pattern, frames numbered from 1 */
    int          width, height, frames;
} RecordOutput;

/* Opens `path` (its format: video_format_of_path) for width x height frames at fps. False with a
 * one-line cause; nothing is left behind. */
bool record_output_open(RecordOutput *out, const char *path, int width, int height, double fps, char *error,
                        size_t error_size);
/* Adds one RGBA frame, rows top-down. False with a cause (then record_output_abort). */
bool record_output_add(RecordOutput *out, const unsigned char *rgba, char *error, size_t error_size);
/* Completes the file (a video renamed into place; PNG frames are each complete already). */
bool record_output_finish(RecordOutput *out, char *error, size_t error_size);
/* Removes everything written so far (the temporary video, the PNG frames). */
void record_output_abort(RecordOutput *out);

/* A progress bar on stderr, "\r[=====     ] 12/48 frames  ETA 3.1 s", only when stderr is a
 * terminal; done = total ends the line. `started`: seconds (a monotonic clock) at frame 0. */
void record_progress(const char *label, int done, int total, double started, double now);

/* Seconds on a monotonic clock. */
double record_clock(void);

#endif
