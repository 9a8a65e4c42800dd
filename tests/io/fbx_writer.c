/* fbx_writer.c — the binary FBX writer of test_fbx_doc (fbx_writer.h). */
#include "fbx_writer.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <zlib.h>

void put(Writer *w, const void *data, size_t n)
{
    if (w->size + n > w->capacity) {
        w->capacity = (w->size + n) * 2 + 1024;
        w->bytes = realloc(w->bytes, w->capacity);
    }
    memcpy(w->bytes + w->size, data, n);
    w->size += n;
}

void put_u32(Writer *w, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(w, b, 4);
}

void put_u64(Writer *w, uint64_t v)
{
    put_u32(w, (uint32_t)v);
    put_u32(w, (uint32_t)(v >> 32));
}

void set_field(Writer *w, size_t at, uint64_t v)
{
    for (int i = 0; i < (w->wide ? 8 : 4); i++) w->bytes[at + (size_t)i] = (uint8_t)(v >> (8 * i));
}

void writer_start(Writer *w, int version)
{
    memset(w, 0, sizeof *w);
    w->wide = version >= 7500;
    put(w, "Kaydara FBX Binary  \0\x1a\0", 23);
    put_u32(w, (uint32_t)version);
}

void header_zeros(Writer *w)
{
    static const uint8_t zeros[25] = {0};
    put(w, zeros, w->wide ? 25 : 13);
}

void begin(Writer *w, const char *name)
{
    if (w->depth > 0 && !w->has_children[w->depth - 1]) {   /* the parent's values end here */
        w->has_children[w->depth - 1] = true;
        size_t at = w->open[w->depth - 1];
        set_field(w, at + (w->wide ? 16 : 8), w->size - w->values_start[w->depth - 1]);
    }
    w->open[w->depth] = w->size;
    header_zeros(w);
    w->bytes[w->size - 1] = (uint8_t)strlen(name);
    put(w, name, strlen(name));
    w->values_start[w->depth] = w->size;
    w->value_count[w->depth] = 0;
    w->has_children[w->depth] = false;
    w->depth++;
}

void value_done(Writer *w)
{
    w->value_count[w->depth - 1]++;
}

void v_string(Writer *w, const char *s, size_t n)
{
    put(w, "S", 1);
    put_u32(w, (uint32_t)n);
    put(w, s, n);
    value_done(w);
}

void v_l(Writer *w, int64_t v)
{
    put(w, "L", 1);
    put_u64(w, (uint64_t)v);
    value_done(w);
}

void v_i(Writer *w, int32_t v)
{
    put(w, "I", 1);
    put_u32(w, (uint32_t)v);
    value_done(w);
}

void v_c(Writer *w, char c)
{
    put(w, "C", 1);
    put(w, &c, 1);
    value_done(w);
}

void v_d(Writer *w, double d)
{
    uint64_t bits;
    memcpy(&bits, &d, 8);
    put(w, "D", 1);
    put_u64(w, bits);
    value_done(w);
}

void v_array(Writer *w, char type, const void *data, uint32_t count, size_t element, bool zip)
{
    put(w, &type, 1);
    put_u32(w, count);
    put_u32(w, zip ? 1u : 0u);
    if (zip) {
        uLongf length = compressBound((uLong)(count * element));
        uint8_t *packed = malloc(length);
        compress(packed, &length, data, (uLong)(count * element));
        put_u32(w, (uint32_t)length);
        put(w, packed, length);
        free(packed);
    } else {
        put_u32(w, (uint32_t)(count * element));
        put(w, data, count * element);
    }
    value_done(w);
}

void end(Writer *w)
{
    int d = --w->depth;
    size_t at = w->open[d];
    if (w->has_children[d]) header_zeros(w);   /* the null record that closes the children */
    else set_field(w, at + (w->wide ? 16 : 8), w->size - w->values_start[d]);
    set_field(w, at, w->size);
    set_field(w, at + (w->wide ? 8 : 4), (uint64_t)w->value_count[d]);
}

void property_p(Writer *w, const char *name, const char *type, const double *v, int n)
{
    begin(w, "P");
    v_string(w, name, strlen(name));
    v_string(w, type, strlen(type));
    v_string(w, "", 0);
    v_string(w, "A", 1);
    for (int i = 0; i < n; i++) v_d(w, v[i]);
    end(w);
}

/* An object record: its type, id, "Name\0\1Class" (name_length bytes) and subclass; end() closes it. */
static void begin_object(Writer *w, const char *type, int64_t id, const char *name_class, size_t name_length,
                         const char *subclass)
{
    begin(w, type);
    v_l(w, id);
    v_string(w, name_class, name_length);
    v_string(w, subclass, strlen(subclass));
}

/* A record holding one array (v_array) and nothing else. */
static void array_record(Writer *w, const char *name, char type, const void *data, uint32_t count, size_t element,
                         bool zip)
{
    begin(w, name);
    v_array(w, type, data, count, element, zip);
    end(w);
}

void write_binary_scene(Writer *w, int version, bool zip)
{
    writer_start(w, version);
    begin(w, "FBXHeaderExtension");
    begin(w, "FBXVersion");
    v_i(w, version);
    end(w);
    end(w);
    begin(w, "GlobalSettings");
    begin(w, "Properties70");
    double up = 2, unit = 2.54, mode = 14, fps = 12.5;
    property_p(w, "UpAxis", "int", &up, 1);
    property_p(w, "UnitScaleFactor", "double", &unit, 1);
    property_p(w, "TimeMode", "enum", &mode, 1);
    property_p(w, "CustomFrameRate", "double", &fps, 1);
    end(w);
    end(w);
    begin(w, "Definitions");
    begin(w, "ObjectType");
    v_string(w, "Model", 5);
    begin(w, "PropertyTemplate");
    v_string(w, "FbxNode", 7);
    begin(w, "Properties70");
    double order = 4;
    property_p(w, "RotationOrder", "enum", &order, 1);
    end(w);
    end(w);
    end(w);
    end(w);
    begin(w, "Objects");
    begin_object(w, "Model", 100, "Hips\0\1Model", 11, "LimbNode");
    begin(w, "Properties70");
    double t[3] = {1, 2, 3};
    property_p(w, "Lcl Translation", "Lcl Translation", t, 3);
    end(w);
    end(w);
    begin_object(w, "Geometry", 200, "Body\0\1Geometry", 14, "Mesh");
    double vertices[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0.5, 0.25, -7};
    array_record(w, "Vertices", 'd', vertices, 12, 8, zip);
    int32_t polygon[4] = {0, 1, 2, ~3};
    array_record(w, "PolygonVertexIndex", 'i', polygon, 4, 4, false);
    end(w);
    begin_object(w, "AnimationStack", 300, "Walk\0\1AnimStack", 15, "");
    begin(w, "Properties70");
    begin(w, "P");
    v_string(w, "LocalStop", 9);
    v_string(w, "KTime", 5);
    v_string(w, "Time", 4);
    v_string(w, "", 0);
    v_l(w, 46186158000);
    end(w);
    end(w);
    end(w);
    begin_object(w, "AnimationCurveNode", 400, "T\0\1AnimCurveNode", 16, "");
    end(w);
    begin_object(w, "AnimationCurve", 500, "\0\1AnimCurve", 11, "");
    begin(w, "Default");
    v_d(w, 0.5);
    end(w);
    int64_t times[3] = {0, 23093079000, 46186158000};
    array_record(w, "KeyTime", 'l', times, 3, 8, zip);
    float values[3] = {1, 2, 4};
    array_record(w, "KeyValueFloat", 'f', values, 3, 4, zip);
    int32_t flags[2] = {0x01000008, 0x4};
    array_record(w, "KeyAttrFlags", 'i', flags, 2, 4, false);
    begin(w, "KeyAttrDataFloat");
    float data[8] = {1.5f, -2.0f, 0, 0, 0, 0, 0, 0};
    uint32_t packed = PACKED_WEIGHTS;
    memcpy(&data[2], &packed, 4);
    v_array(w, 'f', data, 8, 4, zip);
    end(w);
    int32_t refs[2] = {1, 2};
    array_record(w, "KeyAttrRefCount", 'i', refs, 2, 4, false);
    begin(w, "Post-Extrapolation");
    begin(w, "Type");
    v_c(w, 'R');
    end(w);
    begin(w, "Repetition");
    v_i(w, 3);
    end(w);
    end(w);
    end(w);
    end(w);   /* Objects */
    begin(w, "Connections");
    int64_t c[4][2] = {{100, 0}, {200, 100}, {400, 100}, {500, 400}};
    const char *props[4] = {NULL, NULL, "Lcl Translation", "d|X"};
    for (int i = 0; i < 4; i++) {
        begin(w, "C");
        v_string(w, props[i] ? "OP" : "OO", 2);
        v_l(w, c[i][0]);
        v_l(w, c[i][1]);
        if (props[i]) v_string(w, props[i], strlen(props[i]));
        end(w);
    }
    end(w);
    header_zeros(w);   /* the top level's null record */
}
