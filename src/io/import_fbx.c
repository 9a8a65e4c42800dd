/* import_fbx.c — part of stage 1: an FBX take's last (and first) key, kept as the file means it.
 *
 * Rules (binary FBX only; called by import_guard.c before Assimp reads the file):
 *   - A take (AnimationStack) plays its curves from LocalStart to LocalStop, in KTime ticks
 *     (46 186 158 000 per second). Assimp 5.2.5 keeps a curve's key only within 10 000 ticks
 *     (0.2 µs) of that window (FBXConverter GetKeyframeList) and drops the rest.
 *   - Exporters that keep key times as 32-bit float seconds write a take's last frame up to half
 *     a float step away from the frame: Mixamo's mixamo.fbx has LocalStop 777 466 993 000
 *     (16.8333 s, frame 505 at 30 fps) and its Hips rotation curves end at 777 467 022 128,
 *     29 128 ticks (0.63 µs) later. Assimp drops that key, so at the end of the clip the hips
 *     hold the frame before (2.3e-3 of the figure's diagonal off three.js, which keeps it).
 *   - The rule here, the one three.js' FBXLoader applies when it trims a clip: a key whose time
 *     in seconds rounds to the same 32-bit float as LocalStop (LocalStart) lies ON it. When such
 *     a key lies past LocalStop (before LocalStart), the take's window is widened to that key in
 *     a copy of the file's bytes, and Assimp reads the copy: the key is kept, the clip grows by
 *     that sliver (0.63 µs for Mixamo). Nothing else changes; files that need nothing are read
 *     as they are.
 *   - Only the Objects' AnimationStack (Properties70 LocalStart / LocalStop) and AnimationCurve
 *     (KeyTime) records are read, in two passes (the takes, then the keys). Every length is
 *     checked against the bytes; a record that does not fit ends the scan there. At most 256 MiB
 *     of key times are decompressed; past that, or out of memory, the file is read unchanged.
 */
#include "import_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define FBX_TICKS_PER_SECOND 46186158000.0
#define FBX_MAX_DEPTH 16
#define FBX_MAX_STACKS 256
#define FBX_MAX_KEY_BYTES (256u << 20)  /* decompressed KeyTime bytes read in all (a zip bomb stops here) */

/* One LocalStart or LocalStop value: where its int64 sits in the file, and the value. */
typedef struct FbxTime {
    size_t  offset;
    int64_t ticks;
    int64_t widened;   /* the value after the scan (== ticks: unchanged) */
    bool    is_stop;
} FbxTime;

typedef struct FbxScan {
    const uint8_t *bytes;
    size_t         size;
    bool           wide;          /* version >= 7500: 64-bit record header fields */
    bool           read_curves;   /* first pass: the takes' times; second pass: the curves' keys */
    FbxTime        times[2 * FBX_MAX_STACKS];
    int            time_count;
    float          edge[2 * FBX_MAX_STACKS];  /* seconds_f32 of each time, sorted */
    int            edge_time[2 * FBX_MAX_STACKS]; /* the time each sorted edge belongs to */
    size_t         key_bytes;     /* decompressed so far: at most FBX_MAX_KEY_BYTES in all */
    bool           failed;        /* out of memory or too much data: leave the file alone */
} FbxScan;

static uint64_t read_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static uint32_t read_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A node record's header at `at`: its end, property count and length, name. False if it does not fit. */
typedef struct FbxRecord {
    size_t         end, properties, property_bytes;
    const uint8_t *name;
    size_t         name_length;
    size_t         first_property;   /* offset of the property list */
} FbxRecord;

static bool read_record(const FbxScan *scan, size_t at, size_t limit, FbxRecord *r)
{
    size_t header = scan->wide ? 25 : 13;
    if (at > limit || limit - at < header) return false;
    const uint8_t *p = scan->bytes + at;
    uint64_t end = scan->wide ? read_u64(p) : read_u32(p);
    uint64_t count = scan->wide ? read_u64(p + 8) : read_u32(p + 4);
    uint64_t length = scan->wide ? read_u64(p + 16) : read_u32(p + 8);
    size_t name_length = p[header - 1];
    if (end == 0) {   /* the null record that closes a list */
        r->end = 0;
        return true;
    }
    if (end > limit || end <= at || name_length > end - at - header) return false;
    size_t first = at + header + name_length;
    if (length > end - first) return false;
    r->end = (size_t)end;
    r->properties = (size_t)count;
    r->property_bytes = (size_t)length;
    r->name = p + header;
    r->name_length = name_length;
    r->first_property = first;
    return true;
}

static bool name_is(const FbxRecord *r, const char *name)
{
    return r->name_length == strlen(name) && memcmp(r->name, name, r->name_length) == 0;
}

/* Size of one property at `at` (type code included), or 0 if it does not fit before `limit`. */
static size_t property_size(const FbxScan *scan, size_t at, size_t limit)
{
    if (at >= limit) return 0;
    const uint8_t *p = scan->bytes + at;
    size_t left = limit - at, size;
    switch (p[0]) {
    case 'C': size = 2; break;
    case 'Y': size = 3; break;
    case 'I': case 'F': size = 5; break;
    case 'L': case 'D': size = 9; break;
    case 'S': case 'R':
        if (left < 5) return 0;
        size = 5 + (size_t)read_u32(p + 1);
        break;
    case 'f': case 'i': case 'd': case 'l': case 'b':
        if (left < 13) return 0;
        size = 13 + (size_t)read_u32(p + 9);
        break;
    default: return 0;
    }
    return size <= left ? size : 0;
}

/* A Properties70 "P" record: "LocalStart" / "LocalStop" with its int64 value -> scan->times. */
static void read_time_property(FbxScan *scan, const FbxRecord *r)
{
    size_t at = r->first_property, limit = r->first_property + r->property_bytes;
    size_t size = property_size(scan, at, limit);
    if (r->properties < 5 || size == 0 || scan->bytes[at] != 'S') return;
    size_t length = size - 5;
    const uint8_t *name = scan->bytes + at + 5;
    bool start = length == 10 && memcmp(name, "LocalStart", 10) == 0;
    bool stop = length == 9 && memcmp(name, "LocalStop", 9) == 0;
    if (!start && !stop) return;
    for (int i = 0; i < 4; i++) {   /* name, type, label, flags: then the value */
        at += size;
        size = property_size(scan, at, limit);
        if (size == 0) return;
    }
    if (scan->bytes[at] != 'L' || scan->time_count == 2 * FBX_MAX_STACKS) return;
    FbxTime *t = &scan->times[scan->time_count++];
    t->offset = at + 1;
    t->ticks = t->widened = (int64_t)read_u64(scan->bytes + at + 1);
    t->is_stop = stop;
}

/* Seconds as a 32-bit float, as three.js and float-seconds exporters hold key times. */
static float seconds_f32(int64_t ticks)
{
    return (float)((double)ticks / FBX_TICKS_PER_SECOND);
}

/* A key: every take edge with the same float of seconds moves out to it (binary search). */
static void key_on_edges(FbxScan *scan, int64_t key)
{
    float f = seconds_f32(key);
    int lo = 0, hi = scan->time_count;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (scan->edge[mid] < f) lo = mid + 1;
        else hi = mid;
    }
    for (int i = lo; i < scan->time_count && scan->edge[i] == f; i++) {
        FbxTime *t = &scan->times[scan->edge_time[i]];
        if (t->is_stop ? key > t->widened : key < t->widened) t->widened = key;
    }
}

/* A KeyTime record (second pass): its int64 array, plain or zlib, against the take edges. */
static void read_key_times(FbxScan *scan, const FbxRecord *r)
{
    size_t at = r->first_property, limit = r->first_property + r->property_bytes;
    size_t size = property_size(scan, at, limit);
    if (size == 0 || scan->bytes[at] != 'l') return;
    const uint8_t *p = scan->bytes + at;
    uint32_t count = read_u32(p + 1), encoding = read_u32(p + 5), stored = read_u32(p + 9);
    if (count == 0) return;
    if ((uint64_t)count * 8 > FBX_MAX_KEY_BYTES - scan->key_bytes) {
        scan->failed = true;
        return;
    }
    scan->key_bytes += (size_t)count * 8;
    const uint8_t *keys = p + 13;
    uint8_t *plain = NULL;
    if (encoding == 1) {
        uLongf length = (uLongf)count * 8;
        plain = malloc((size_t)count * 8);
        if (!plain || uncompress(plain, &length, p + 13, stored) != Z_OK || length != (uLongf)count * 8) {
            scan->failed = plain == NULL;
            free(plain);
            return;
        }
        keys = plain;
    } else if (encoding != 0 || stored != count * 8u) {
        return;
    }
    for (uint32_t i = 0; i < count; i++) key_on_edges(scan, (int64_t)read_u64(keys + 8 * (size_t)i));
    free(plain);
}

/* Walks the records in [at, limit): Objects -> AnimationStack -> Properties70 -> P, and
 * Objects -> AnimationCurve -> KeyTime. `path` says which of those the list belongs to. */
enum { IN_FILE, IN_OBJECTS, IN_STACK, IN_STACK_PROPERTIES, IN_CURVE };

static void walk(FbxScan *scan, size_t at, size_t limit, int where, int depth)
{
    while (!scan->failed && at < limit && depth < FBX_MAX_DEPTH) {
        FbxRecord r;
        if (!read_record(scan, at, limit, &r) || r.end == 0) return;
        size_t children = r.first_property + r.property_bytes;
        if (where == IN_FILE && name_is(&r, "Objects")) walk(scan, children, r.end, IN_OBJECTS, depth + 1);
        else if (where == IN_OBJECTS && name_is(&r, "AnimationStack")) walk(scan, children, r.end, IN_STACK, depth + 1);
        else if (where == IN_OBJECTS && name_is(&r, "AnimationCurve")) walk(scan, children, r.end, IN_CURVE, depth + 1);
        else if (where == IN_STACK && name_is(&r, "Properties70"))
            walk(scan, children, r.end, IN_STACK_PROPERTIES, depth + 1);
        else if (where == IN_STACK_PROPERTIES && !scan->read_curves && name_is(&r, "P")) read_time_property(scan, &r);
        else if (where == IN_CURVE && scan->read_curves && name_is(&r, "KeyTime")) read_key_times(scan, &r);
        at = r.end;
    }
}

uint8_t *import_fbx_widen_takes(const void *data, size_t size, int *widened)
{
    static const char magic[] = "Kaydara FBX Binary  ";
    *widened = 0;
    if (size < 27 || memcmp(data, magic, sizeof magic - 1) != 0) return NULL;   /* ASCII FBX: as it is */
    FbxScan scan = {.bytes = data, .size = size};
    scan.wide = read_u32(scan.bytes + 23) >= 7500;
    walk(&scan, 27, size, IN_FILE, 0);   /* the takes' LocalStart / LocalStop */
    if (scan.time_count == 0) return NULL;
    for (int i = 0; i < scan.time_count; i++) {   /* their floats, sorted (insertion: a few takes) */
        float f = seconds_f32(scan.times[i].ticks);
        int k = i;
        while (k > 0 && scan.edge[k - 1] > f) {
            scan.edge[k] = scan.edge[k - 1];
            scan.edge_time[k] = scan.edge_time[k - 1];
            k--;
        }
        scan.edge[k] = f;
        scan.edge_time[k] = i;
    }
    scan.read_curves = true;
    walk(&scan, 27, size, IN_FILE, 0);   /* every key against them: the same float lies on the edge */
    /* a take with no window at all (0, 0) takes every key in Assimp: leave it */
    uint8_t *copy = NULL;
    for (int i = 0; !scan.failed && i < scan.time_count; i++) {
        FbxTime *t = &scan.times[i];
        if (t->widened == t->ticks || t->ticks == 0) continue;
        if (!copy) {
            copy = malloc(size);
            if (!copy) return NULL;
            memcpy(copy, data, size);
        }
        for (int b = 0; b < 8; b++) copy[t->offset + (size_t)b] = (uint8_t)((uint64_t)t->widened >> (8 * b));
        (*widened)++;
    }
    return copy;
}
