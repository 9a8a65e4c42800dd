/* video_decode.c — see video_decode.h. */
#define _POSIX_C_SOURCE 200809L   /* fseeko */
#include "video_decode.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void say(char *error, size_t error_size, const char *what, int code)
{
    char text[AV_ERROR_MAX_STRING_SIZE] = "";
    av_strerror(code, text, sizeof text);
    snprintf(error, error_size, "%s: %s", what, text);
}

/* One decoded frame as RGBA, appended. */
static bool keep_frame(DecodedVideo *video, const AVFrame *frame, char *error, size_t error_size)
{
    unsigned char **grown = realloc(video->rgba, sizeof *grown * (size_t)(video->frame_count + 1));
    if (!grown) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    video->rgba = grown;
    unsigned char *rgba = malloc((size_t)frame->width * (size_t)frame->height * 4);
    struct SwsContext *sws = sws_getContext(frame->width, frame->height, frame->format, frame->width, frame->height,
                                            AV_PIX_FMT_RGBA, SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT,
                                            NULL, NULL, NULL);
    if (!rgba || !sws) {
        free(rgba);
        sws_freeContext(sws);
        snprintf(error, error_size, "cannot convert %s frames to RGBA", av_get_pix_fmt_name(frame->format));
        return false;
    }
    /* the stream's own matrix and range (what a player does), into full-range RGB */
    int matrix = frame->colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_DEFAULT;
    const int *coefficients = sws_getCoefficients(matrix);
    sws_setColorspaceDetails(sws, coefficients, frame->color_range == AVCOL_RANGE_JPEG, sws_getCoefficients(SWS_CS_DEFAULT),
                             1, 0, 1 << 16, 1 << 16);
    uint8_t *planes[4] = {rgba, NULL, NULL, NULL};
    int strides[4] = {frame->width * 4, 0, 0, 0};
    sws_scale(sws, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
    sws_freeContext(sws);
    video->rgba[video->frame_count++] = rgba;
    return true;
}

bool video_decode(const char *path, DecodedVideo *video, char *error, size_t error_size)
{
    memset(video, 0, sizeof *video);
    av_log_set_level(AV_LOG_ERROR);
    AVFormatContext *format = NULL;
    AVCodecContext *decoder = NULL;
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    bool ok = false;
    int code = avformat_open_input(&format, path, NULL, NULL);
    if (code < 0) {
        say(error, error_size, "open", code);
        goto done;
    }
    if ((code = avformat_find_stream_info(format, NULL)) < 0) {
        say(error, error_size, "stream info", code);
        goto done;
    }
    const AVCodec *codec = NULL;
    int stream = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (stream < 0 || !codec) {
        snprintf(error, error_size, "no video stream");
        goto done;
    }
    AVStream *s = format->streams[stream];
    snprintf(video->container, sizeof video->container, "%s", format->iformat->name);
    snprintf(video->codec, sizeof video->codec, "%s", avcodec_get_name(s->codecpar->codec_id));
    const char *pixel_format = av_get_pix_fmt_name(s->codecpar->format);
    snprintf(video->pixel_format, sizeof video->pixel_format, "%s", pixel_format ? pixel_format : "none");
    video->width = s->codecpar->width;
    video->height = s->codecpar->height;
    video->frame_rate = s->avg_frame_rate.den ? av_q2d(s->avg_frame_rate) : 0.0;
    decoder = avcodec_alloc_context3(codec);
    if (!decoder || avcodec_parameters_to_context(decoder, s->codecpar) < 0 ||
        (code = avcodec_open2(decoder, codec, NULL)) < 0) {
        snprintf(error, error_size, "cannot open the %s decoder", video->codec);
        goto done;
    }
    bool draining = false;
    ok = true;
    while (ok) {
        if (!draining) {
            code = av_read_frame(format, packet);
            if (code == AVERROR_EOF) {
                draining = true;
                avcodec_send_packet(decoder, NULL);
            } else if (code < 0) {
                say(error, error_size, "read", code);
                ok = false;
                break;
            } else {
                if (packet->stream_index == stream) code = avcodec_send_packet(decoder, packet);
                av_packet_unref(packet);
                if (code < 0) {
                    say(error, error_size, "decode", code);
                    ok = false;
                    break;
                }
            }
        }
        for (;;) {
            code = avcodec_receive_frame(decoder, frame);
            if (code == AVERROR(EAGAIN)) break;
            if (code == AVERROR_EOF) goto finished;
            if (code < 0) {
                say(error, error_size, "decode", code);
                ok = false;
                break;
            }
            int64_t pts = frame->best_effort_timestamp;
            if (pts != AV_NOPTS_VALUE) video->last_time = pts * av_q2d(s->time_base);
            ok = keep_frame(video, frame, error, error_size);
            av_frame_unref(frame);
            if (!ok) break;
        }
    }
finished:
done:
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&decoder);
    avformat_close_input(&format);
    return ok;
}

void video_decoded_free(DecodedVideo *video)
{
    for (int i = 0; i < video->frame_count; i++) free(video->rgba[i]);
    free(video->rgba);
    memset(video, 0, sizeof *video);
}

void mp4_box_offsets(const char *path, long long *moov, long long *mdat)
{
    *moov = *mdat = -1;
    FILE *f = fopen(path, "rb");
    if (!f) return;
    long long at = 0;
    unsigned char header[16];
    while (fseeko(f, at, SEEK_SET) == 0 && fread(header, 1, 8, f) == 8) {
        unsigned long long size = ((unsigned long long)header[0] << 24) | ((unsigned long long)header[1] << 16) |
                                  ((unsigned long long)header[2] << 8) | header[3];
        if (size == 1) {   /* a 64-bit size follows the type */
            if (fread(header + 8, 1, 8, f) != 8) break;
            size = 0;
            for (int i = 8; i < 16; i++) size = (size << 8) | header[i];
        }
        if (memcmp(header + 4, "moov", 4) == 0 && *moov < 0) *moov = at;
        if (memcmp(header + 4, "mdat", 4) == 0 && *mdat < 0) *mdat = at;
        if (size < 8) break;   /* 0: to the end of the file */
        at += (long long)size;
    }
    fclose(f);
}

void image_difference(const unsigned char *a, const unsigned char *b, int width, int height, double *mean_abs,
                      double *psnr)
{
    double sum = 0.0, squares = 0.0;
    long n = 0;
    for (long i = 0; i < (long)width * height; i++)
        for (int c = 0; c < 3; c++, n++) {
            double d = (double)a[4 * i + c] - (double)b[4 * i + c];
            sum += fabs(d);
            squares += d * d;
        }
    *mean_abs = n ? sum / (double)n : 0.0;
    double mse = n ? squares / (double)n : 0.0;
    *psnr = mse > 0.0 ? 10.0 * log10(255.0 * 255.0 / mse) : 99.0;
}
