/* video.c — MP4 / WebM / GIF through FFmpeg's libraries (video.h).
 *
 * One path for all three: RGBA frame -> (MP4, WebM) libswscale to yuv420p, BT.709 limited range
 * -> encoder -> muxer; (GIF) libavfilter graph `split, palettegen, paletteuse` to 8-bit palette
 * frames -> GIF encoder -> muxer. Timestamps count frames: time base 1/fps (GIF: 1/100 s, its
 * delay unit). The muxer writes a temporary file next to the target (atomic_file.h), renamed at
 * the end; for MP4 `+faststart` the muxer re-reads that file to move the index (moov) before the
 * media data (mdat).
 */
#include "io/video.h"
#include "io/atomic_file.h"

#include <libavcodec/avcodec.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define VIDEO_MP4_CRF "18"      /* x264 constant quality: 18 is "visually lossless" for most content */
#define VIDEO_MP4_PRESET "fast" /* x264 speed / size trade-off */
#define VIDEO_WEBM_CRF 24       /* libvpx-vp9 constant quality (0..63, lower is better), with bitrate 0 */
#define VIDEO_WEBM_SPEED 5      /* libvpx cpu-used: 0 slowest / best ... 8 fastest */

struct VideoWriter {
    VideoFormat      format;
    int              width, height, frames;
    char             path[4096], temp_path[4096];
    AVFormatContext *muxer;
    AVStream        *stream;
    AVCodecContext  *encoder;
    AVFrame         *rgba;        /* the caller's pixels, as FFmpeg frames */
    AVFrame         *yuv;         /* MP4 / WebM: converted */
    AVFrame         *filtered;    /* GIF: the graph's palette frames */
    AVPacket        *packet;
    struct SwsContext *scaler;
    AVFilterGraph   *graph;       /* GIF */
    AVFilterContext *source, *sink;
    bool             file_open;
};

static void say(char *error, size_t error_size, const char *what, int code)
{
    char text[AV_ERROR_MAX_STRING_SIZE] = "";
    av_strerror(code, text, sizeof text);
    snprintf(error, error_size, "%s: %s", what, text);
}

static bool ends_with(const char *path, const char *extension)
{
    size_t n = strlen(path), e = strlen(extension);
    if (n <= e) return false;
    for (size_t i = 0; i < e; i++)
        if (tolower((unsigned char)path[n - e + i]) != extension[i]) return false;
    return true;
}

/* Exactly one integer conversion (%d, %04d, %5i...) and no other '%' (a literal is "%%"). */
static bool one_frame_field(const char *path)
{
    int fields = 0;
    for (const char *p = path; *p; p++) {
        if (*p != '%') continue;
        if (p[1] == '%') {
            p++;
            continue;
        }
        p++;
        while (*p == '0') p++;
        while (*p >= '1' && *p <= '9') p++;
        if (*p != 'd' && *p != 'i') return false;
        fields++;
    }
    return fields == 1;
}

VideoFormat video_format_of_path(const char *path)
{
    if (!path) return VIDEO_FORMAT_UNKNOWN;
    if (ends_with(path, ".mp4")) return VIDEO_FORMAT_MP4;
    if (ends_with(path, ".webm")) return VIDEO_FORMAT_WEBM;
    if (ends_with(path, ".gif")) return VIDEO_FORMAT_GIF;
    if (ends_with(path, ".png") && one_frame_field(path)) return VIDEO_FORMAT_PNG_FRAMES;
    return VIDEO_FORMAT_UNKNOWN;
}

const char *video_format_label(VideoFormat format)
{
    switch (format) {
    case VIDEO_FORMAT_MP4: return "MP4 (H.264)";
    case VIDEO_FORMAT_WEBM: return "WebM (VP9)";
    case VIDEO_FORMAT_GIF: return "GIF";
    case VIDEO_FORMAT_PNG_FRAMES: return "PNG frames";
    default: return "unknown";
    }
}

bool video_check(VideoFormat format, int width, int height, double fps, char *error, size_t error_size)
{
    if (width < 2 || height < 2) {
        snprintf(error, error_size, "%dx%d is too small to record (at least 2x2)", width, height);
        return false;
    }
    if ((format == VIDEO_FORMAT_MP4 || format == VIDEO_FORMAT_WEBM) && (width % 2 || height % 2)) {
        snprintf(error, error_size, "%s stores colour at half resolution (yuv420p): the size must be even, not %dx%d "
                 "(try --size %dx%d)", video_format_label(format), width, height, width & ~1, height & ~1);
        return false;
    }
    if (format == VIDEO_FORMAT_GIF && (width > 65535 || height > 65535)) {
        snprintf(error, error_size, "GIF sides are at most 65535 pixels, not %dx%d", width, height);
        return false;
    }
    if (format == VIDEO_FORMAT_GIF && fps > VIDEO_GIF_MAX_FPS) {
        snprintf(error, error_size, "GIF frame delays are whole 1/100 s and browsers slow down delays under 2/100 s: "
                 "--fps at most %g, not %g", VIDEO_GIF_MAX_FPS, fps);
        return false;
    }
    return true;
}

/* ---- the encoder ------------------------------------------------------------------------ */

/* Sends `frame` (NULL: drain) to the encoder and writes every packet it gives back. */
static bool encode(VideoWriter *w, AVFrame *frame, char *error, size_t error_size)
{
    int code = avcodec_send_frame(w->encoder, frame);
    if (code < 0) {
        say(error, error_size, "encoding a frame", code);
        return false;
    }
    for (;;) {
        code = avcodec_receive_packet(w->encoder, w->packet);
        if (code == AVERROR(EAGAIN) || code == AVERROR_EOF) return true;
        if (code < 0) {
            say(error, error_size, "encoding a frame", code);
            return false;
        }
        av_packet_rescale_ts(w->packet, w->encoder->time_base, w->stream->time_base);
        w->packet->stream_index = w->stream->index;
        code = av_interleaved_write_frame(w->muxer, w->packet);   /* takes the packet's data */
        if (code < 0) {
            say(error, error_size, "writing the file", code);
            return false;
        }
    }
}

/* GIF: the palette frames the graph has ready, encoded (all of them come after the last frame
 * went in: palettegen needs every frame first). */
static bool drain_graph(VideoWriter *w, char *error, size_t error_size)
{
    for (;;) {
        int code = av_buffersink_get_frame(w->sink, w->filtered);
        if (code == AVERROR(EAGAIN) || code == AVERROR_EOF) return true;
        if (code < 0) {
            say(error, error_size, "making the GIF palette", code);
            return false;
        }
        bool ok = encode(w, w->filtered, error, error_size);
        av_frame_unref(w->filtered);
        if (!ok) return false;
    }
}

/* split -> palettegen (one palette from every pixel of every frame, no slot kept for
 * transparency) and paletteuse (each frame mapped to it, 5x5 Bayer dithering: stable from
 * frame to frame, so a still background stays still). */
static bool open_gif_graph(VideoWriter *w, char *error, size_t error_size)
{
    w->graph = avfilter_graph_alloc();
    if (!w->graph) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    char args[256];
    snprintf(args, sizeof args, "video_size=%dx%d:pix_fmt=%d:time_base=%d/%d:pixel_aspect=1/1", w->width, w->height,
             AV_PIX_FMT_RGBA, w->encoder->time_base.num, w->encoder->time_base.den);
    int code = avfilter_graph_create_filter(&w->source, avfilter_get_by_name("buffer"), "in", args, NULL, w->graph);
    if (code >= 0) code = avfilter_graph_create_filter(&w->sink, avfilter_get_by_name("buffersink"), "out", NULL, NULL, w->graph);
    if (code >= 0) {
        enum AVPixelFormat formats[] = {AV_PIX_FMT_PAL8, AV_PIX_FMT_NONE};
        code = av_opt_set_int_list(w->sink, "pix_fmts", formats, AV_PIX_FMT_NONE, AV_OPT_SEARCH_CHILDREN);
    }
    AVFilterInOut *outputs = avfilter_inout_alloc(), *inputs = avfilter_inout_alloc();
    if (code >= 0 && outputs && inputs) {
        outputs->name = av_strdup("in");
        outputs->filter_ctx = w->source;
        inputs->name = av_strdup("out");
        inputs->filter_ctx = w->sink;
        code = avfilter_graph_parse_ptr(w->graph,
                                        "split[a][b];[a]palettegen=stats_mode=full:reserve_transparent=0[p];"
                                        "[b][p]paletteuse=dither=bayer:bayer_scale=3",
                                        &inputs, &outputs, NULL);
        if (code >= 0) code = avfilter_graph_config(w->graph, NULL);
    } else if (code >= 0) {
        code = AVERROR(ENOMEM);
    }
    avfilter_inout_free(&inputs);
    avfilter_inout_free(&outputs);
    if (code < 0) say(error, error_size, "setting up the GIF palette filters (libavfilter)", code);
    return code >= 0;
}

VideoWriter *video_open(const char *path, VideoFormat format, int width, int height, double fps, char *error,
                        size_t error_size)
{
    if (format != VIDEO_FORMAT_MP4 && format != VIDEO_FORMAT_WEBM && format != VIDEO_FORMAT_GIF) {
        snprintf(error, error_size, "not a video format (.mp4, .webm or .gif)");
        return NULL;
    }
    if (!video_check(format, width, height, fps, error, error_size)) return NULL;
    av_log_set_level(AV_LOG_QUIET);   /* causes come back as one line through `error` */
    VideoWriter *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    w->format = format;
    w->width = width;
    w->height = height;
    snprintf(w->path, sizeof w->path, "%s", path);
    AtomicFile temp;   /* only its name: the muxer opens it again through avio */
    if (!atomic_file_open(&temp, path, error, error_size)) {
        free(w);
        return NULL;
    }
    fclose(temp.file);
    snprintf(w->temp_path, sizeof w->temp_path, "%s", temp.temp_path);

    static const char *const muxers[] = {"mp4", "webm", "gif"};
    static const char *const encoders[] = {"libx264", "libvpx-vp9", "gif"};
    const AVCodec *codec = avcodec_find_encoder_by_name(encoders[format]);
    if (!codec) {
        snprintf(error, error_size, "this FFmpeg (libavcodec %s) has no %s encoder", AV_STRINGIFY(LIBAVCODEC_VERSION),
                 encoders[format]);
        video_abort(w);
        return NULL;
    }
    int code = avformat_alloc_output_context2(&w->muxer, NULL, muxers[format], w->temp_path);
    if (code < 0) {
        say(error, error_size, "the container", code);
        video_abort(w);
        return NULL;
    }
    w->stream = avformat_new_stream(w->muxer, NULL);
    w->encoder = avcodec_alloc_context3(codec);
    w->packet = av_packet_alloc();
    w->rgba = av_frame_alloc();
    w->yuv = av_frame_alloc();
    w->filtered = av_frame_alloc();
    if (!w->stream || !w->encoder || !w->packet || !w->rgba || !w->yuv || !w->filtered) {
        snprintf(error, error_size, "out of memory");
        video_abort(w);
        return NULL;
    }
    AVCodecContext *e = w->encoder;
    AVRational frame_rate = av_d2q(fps, 100000);   /* 30 -> 30/1, 29.97 -> 2997/100 */
    e->width = width;
    e->height = height;
    e->framerate = frame_rate;
    e->time_base = format == VIDEO_FORMAT_GIF ? (AVRational){1, 100} : av_inv_q(frame_rate);
    e->sample_aspect_ratio = (AVRational){1, 1};
    if (format == VIDEO_FORMAT_GIF) {
        e->pix_fmt = AV_PIX_FMT_PAL8;
    } else {
        e->pix_fmt = AV_PIX_FMT_YUV420P;
        e->gop_size = (int)(2.0 * fps + 0.5);   /* a key frame every 2 s: seeking in a browser */
        /* sRGB pixels as BT.709 limited-range Y'CbCr, and the stream says so (browsers read the tags) */
        e->colorspace = AVCOL_SPC_BT709;
        e->color_primaries = AVCOL_PRI_BT709;
        e->color_trc = AVCOL_TRC_IEC61966_2_1;
        e->color_range = AVCOL_RANGE_MPEG;
    }
    if (w->muxer->oformat->flags & AVFMT_GLOBALHEADER) e->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    AVDictionary *options = NULL;
    if (format == VIDEO_FORMAT_MP4) {
        av_dict_set(&options, "crf", VIDEO_MP4_CRF, 0);
        av_dict_set(&options, "preset", VIDEO_MP4_PRESET, 0);
        av_dict_set(&options, "profile", "high", 0);
    } else if (format == VIDEO_FORMAT_WEBM) {
        e->bit_rate = 0;   /* constant quality: crf alone */
        av_dict_set_int(&options, "crf", VIDEO_WEBM_CRF, 0);
        av_dict_set_int(&options, "cpu-used", VIDEO_WEBM_SPEED, 0);
        av_dict_set(&options, "deadline", "good", 0);
        av_dict_set_int(&options, "row-mt", 1, 0);
    }
    code = avcodec_open2(e, codec, &options);
    av_dict_free(&options);
    if (code < 0) {
        char what[96];
        snprintf(what, sizeof what, "the %s encoder refuses %dx%d at %g fps", encoders[format], width, height, fps);
        say(error, error_size, what, code);
        video_abort(w);
        return NULL;
    }
    code = avcodec_parameters_from_context(w->stream->codecpar, e);
    w->stream->time_base = e->time_base;
    w->stream->avg_frame_rate = frame_rate;
    if (code >= 0) code = avio_open(&w->muxer->pb, w->temp_path, AVIO_FLAG_WRITE);
    if (code < 0) {
        say(error, error_size, "cannot write", code);
        video_abort(w);
        return NULL;
    }
    w->file_open = true;
    AVDictionary *muxer_options = NULL;
    if (format == VIDEO_FORMAT_MP4) av_dict_set(&muxer_options, "movflags", "+faststart", 0);
    if (format == VIDEO_FORMAT_GIF) av_dict_set(&muxer_options, "loop", "0", 0);   /* forever */
    code = avformat_write_header(w->muxer, &muxer_options);
    av_dict_free(&muxer_options);
    if (code < 0) {
        say(error, error_size, "writing the header", code);
        video_abort(w);
        return NULL;
    }
    w->rgba->format = AV_PIX_FMT_RGBA;
    w->rgba->width = width;
    w->rgba->height = height;
    code = av_frame_get_buffer(w->rgba, 0);
    if (code >= 0 && format != VIDEO_FORMAT_GIF) {
        w->yuv->format = AV_PIX_FMT_YUV420P;
        w->yuv->width = width;
        w->yuv->height = height;
        code = av_frame_get_buffer(w->yuv, 0);
        w->scaler = sws_getContext(width, height, AV_PIX_FMT_RGBA, width, height, AV_PIX_FMT_YUV420P,
                                   SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, NULL, NULL, NULL);
        if (!w->scaler && code >= 0) code = AVERROR(ENOMEM);
        if (code >= 0) {   /* full-range RGB in, BT.709 limited-range Y'CbCr out */
            const int *bt709 = sws_getCoefficients(SWS_CS_ITU709);
            sws_setColorspaceDetails(w->scaler, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16);
        }
    }
    if (code < 0) {
        say(error, error_size, "frame buffers", code);
        video_abort(w);
        return NULL;
    }
    if (format == VIDEO_FORMAT_GIF && !open_gif_graph(w, error, error_size)) {
        video_abort(w);
        return NULL;
    }
    return w;
}

bool video_add_frame(VideoWriter *w, const unsigned char *rgba, char *error, size_t error_size)
{
    int code = av_frame_make_writable(w->rgba);
    if (code < 0) {
        say(error, error_size, "frame buffers", code);
        return false;
    }
    for (int y = 0; y < w->height; y++)
        memcpy(w->rgba->data[0] + (size_t)y * (size_t)w->rgba->linesize[0], rgba + (size_t)y * (size_t)w->width * 4,
               (size_t)w->width * 4);
    if (w->format == VIDEO_FORMAT_GIF) {
        /* frame i shows from i / fps: in 1/100 s, rounded (30 fps: delays of 3 and 4 / 100 s) */
        w->rgba->pts = av_rescale_q_rnd(w->frames, av_inv_q(w->encoder->framerate), w->encoder->time_base,
                                        AV_ROUND_NEAR_INF);
        code = av_buffersrc_add_frame_flags(w->source, w->rgba, AV_BUFFERSRC_FLAG_KEEP_REF);
        if (code < 0) {
            say(error, error_size, "making the GIF palette", code);
            return false;
        }
        w->frames++;
        return drain_graph(w, error, error_size);
    }
    code = av_frame_make_writable(w->yuv);
    if (code < 0) {
        say(error, error_size, "frame buffers", code);
        return false;
    }
    sws_scale(w->scaler, (const uint8_t *const *)w->rgba->data, w->rgba->linesize, 0, w->height, w->yuv->data,
              w->yuv->linesize);
    w->yuv->pts = w->frames++;   /* time base 1/fps: frame i at i / fps */
    w->yuv->color_range = AVCOL_RANGE_MPEG;
    w->yuv->colorspace = AVCOL_SPC_BT709;
    return encode(w, w->yuv, error, error_size);
}

static void free_writer(VideoWriter *w)
{
    if (w->muxer && w->file_open) avio_closep(&w->muxer->pb);
    avformat_free_context(w->muxer);
    avcodec_free_context(&w->encoder);
    av_frame_free(&w->rgba);
    av_frame_free(&w->yuv);
    av_frame_free(&w->filtered);
    av_packet_free(&w->packet);
    sws_freeContext(w->scaler);
    avfilter_graph_free(&w->graph);
    free(w);
}

bool video_finish(VideoWriter *w, char *error, size_t error_size)
{
    bool ok = w->frames > 0;
    if (!ok) snprintf(error, error_size, "no frames to write");
    if (ok && w->format == VIDEO_FORMAT_GIF) {   /* end of input: the palette, then every frame */
        int code = av_buffersrc_add_frame_flags(w->source, NULL, 0);
        if (code < 0) {
            say(error, error_size, "making the GIF palette", code);
            ok = false;
        }
        ok = ok && drain_graph(w, error, error_size);
    }
    ok = ok && encode(w, NULL, error, error_size);
    if (ok) {
        int code = av_write_trailer(w->muxer);   /* MP4 +faststart: moov moved before mdat here */
        if (code < 0) {
            say(error, error_size, "writing the end of the file", code);
            ok = false;
        }
    }
    if (w->file_open) {
        int code = avio_closep(&w->muxer->pb);
        w->file_open = false;
        if (code < 0 && ok) {
            say(error, error_size, "cannot write", code);
            ok = false;
        }
    }
    if (ok && rename(w->temp_path, w->path) != 0) {
        snprintf(error, error_size, "cannot write: %s", strerror(errno));
        ok = false;
    }
    if (!ok) unlink(w->temp_path);
    free_writer(w);
    return ok;
}

void video_abort(VideoWriter *w)
{
    if (!w) return;
    if (w->file_open) {
        avio_closep(&w->muxer->pb);
        w->file_open = false;
    }
    if (w->temp_path[0]) unlink(w->temp_path);
    free_writer(w);
}

int video_frame_count(const VideoWriter *w) { return w->frames; }
