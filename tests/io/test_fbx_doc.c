/* test_fbx_doc — the FBX document reader (src/io/fbx/fbx_doc_read.c) and object graph (fbx_scene_read.c).
 *
 *   test_fbx_doc tokens   small files written here: binary 7400 (32-bit record headers) and 7500
 *                         (64-bit), zlib and plain arrays; ASCII 7.x (`*N { a: }` arrays, key data
 *                         as 32-bit patterns) and FBX 6 (Properties60, plain lists, Connect by name,
 *                         Takes with key letters); each read back value by value. Then damaged
 *                         files (every truncation, bad lengths, absurd counts, deep nesting, a zip
 *                         bomb, broken text): each is refused with one line, or read, never a crash.
 *   test_fbx_doc files    every FBX in ../shared/models (skipped when absent) and in assets/:
 *                         read, with sane object and connection counts, and the ufbx-dcc files
 *                         whose manifest row is an animated moment have curves with keys.
 */
#include "io/fbx/fbx_scene.h"
#include "testutil.h"
#include "fbx_writer.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <zlib.h>

/* ---------------------------------------------------------------- checks of a read scene */

static int find_object(const FbxScene *s, const char *kind, const char *name)
{
    for (int i = 0; i < s->object_count; i++)
        if (strcmp(s->objects[i].kind, kind) == 0 && strcmp(s->objects[i].name, name) == 0) return i;
    return -1;
}

/* Whether src -> dst is a connection (with this property, or none when NULL). */
static bool connected(const FbxScene *s, int src, int dst, const char *property)
{
    for (int i = 0; i < s->connection_count; i++) {
        const FbxConnection *c = &s->connections[i];
        if (c->src != src || c->dst != dst) continue;
        if (property ? c->property && strcmp(c->property, property) == 0 : c->property == NULL) return true;
    }
    return false;
}

static bool near(double a, double b)
{
    return fabs(a - b) <= 1e-6 * (1 + fabs(b));
}

/* The common test scene, from whichever file form. */
static void check_seven_scene(const FbxScene *s, const char *form)
{
    int hips = find_object(s, "Model", "Hips"), body = find_object(s, "Geometry", "Body");
    int stack = find_object(s, "AnimationStack", "Walk"), node = find_object(s, "AnimationCurveNode", "T");
    int curve = -1;
    for (int i = 0; i < s->object_count; i++)
        if (strcmp(s->objects[i].kind, "AnimationCurve") == 0) curve = i;
    CHECK(hips >= 0 && body >= 0 && stack >= 0 && node >= 0 && curve >= 0, "%s: objects found", form);
    if (hips < 0 || body < 0 || stack < 0 || node < 0 || curve < 0) return;
    CHECK(strcmp(s->objects[hips].subclass, "LimbNode") == 0, "%s: subclass '%s'", form, s->objects[hips].subclass);
    CHECK(s->objects[hips].id == 100 && fbx_object_by_id(s, 100) == hips, "%s: id 100", form);
    double v[4] = {0};
    CHECK(fbx_object_property_numbers(s, hips, "Lcl Translation", v, 4) == 3 && v[0] == 1 && v[1] == 2 && v[2] == 3,
          "%s: Lcl Translation %g %g %g", form, v[0], v[1], v[2]);
    CHECK(fbx_object_property_numbers(s, hips, "RotationOrder", v, 1) == 1 && v[0] == 4, "%s: template RotationOrder %g", form, v[0]);
    CHECK(fbx_object_property_numbers(s, hips, "NoSuchProperty", v, 1) == 0, "%s: absent property", form);
    CHECK(fbx_object_property_numbers(s, stack, "LocalStop", v, 1) == 1 && v[0] == 46186158000.0, "%s: LocalStop %g", form, v[0]);
    size_t n;
    FbxDocument *doc = (FbxDocument *)&s->doc;
    const double *vertices = fbx_record_reals(doc, fbx_record_child(s->objects[body].record, "Vertices"), &n);
    CHECK(n == 12 && vertices && vertices[9] == 0.5 && vertices[11] == -7, "%s: Vertices (%zu)", form, n);
    const int64_t *polygon = fbx_record_integers(doc, fbx_record_child(s->objects[body].record, "PolygonVertexIndex"), &n);
    CHECK(n == 4 && polygon && polygon[3] == -4, "%s: PolygonVertexIndex", form);
    CHECK(connected(s, hips, -1, NULL) && connected(s, body, hips, NULL) && connected(s, node, hips, "Lcl Translation") &&
              connected(s, curve, node, "d|X"),
          "%s: connections", form);
    const FbxCurve *c = &s->curves[curve];
    CHECK(c->key_count == 3, "%s: %d keys", form, c->key_count);
    if (c->key_count == 3) {
        CHECK(c->keys[0].time == 0 && c->keys[1].time == 23093079000 && c->keys[2].time == 46186158000, "%s: key times", form);
        CHECK(c->keys[0].value == 1 && c->keys[1].value == 2 && c->keys[2].value == 4, "%s: key values", form);
        CHECK(c->keys[0].interpolation == FBX_INTERPOLATION_CUBIC && c->keys[1].interpolation == FBX_INTERPOLATION_LINEAR &&
                  c->keys[2].interpolation == FBX_INTERPOLATION_LINEAR,
              "%s: interpolations (run-length attributes)", form);
        CHECK(c->keys[0].right_slope == 1.5 && c->keys[0].next_left_slope == -2.0, "%s: slopes %g %g", form,
              c->keys[0].right_slope, c->keys[0].next_left_slope);
        CHECK(near(c->keys[0].right_weight, 2500.0 / 9999.0) && near(c->keys[0].next_left_weight, 1.0 / 3.0),
              "%s: weights %g %g (right weighted only)", form, c->keys[0].right_weight, c->keys[0].next_left_weight);
    }
    CHECK(c->default_value == 0.5, "%s: Default %g", form, c->default_value);
    CHECK(c->post == FBX_EXTRAPOLATION_REPETITION && c->post_repetitions == 3 && c->pre == FBX_EXTRAPOLATION_CONSTANT,
          "%s: extrapolation %d x%d", form, (int)c->post, c->post_repetitions);
    CHECK(s->up_axis == 2 && s->unit_scale_factor == 2.54 && s->frame_rate == 12.5, "%s: GlobalSettings up %d unit %g fps %g",
          form, s->up_axis, s->unit_scale_factor, s->frame_rate);
}

static const char ascii_seven[] =
    "; FBX 7.4.0 project file\n"
    "FBXHeaderExtension:  {\n\tFBXVersion: 7400\n}\n"
    "GlobalSettings:  {\n\tProperties70:  {\n"
    "\t\tP: \"UpAxis\", \"int\", \"Integer\", \"\",2\n"
    "\t\tP: \"UnitScaleFactor\", \"double\", \"Number\", \"\",2.54\n"
    "\t\tP: \"TimeMode\", \"enum\", \"\", \"\",14\n"
    "\t\tP: \"CustomFrameRate\", \"double\", \"Number\", \"\",12.5\n\t}\n}\n"
    "Definitions:  {\n\tObjectType: \"Model\" {\n\t\tPropertyTemplate: \"FbxNode\" {\n\t\t\tProperties70:  {\n"
    "\t\t\t\tP: \"RotationOrder\", \"enum\", \"\", \"\",4\n\t\t\t}\n\t\t}\n\t}\n}\n"
    "Objects:  {\n"
    "\tModel: 100, \"Model::Hips\", \"LimbNode\" {\n\t\tProperties70:  {\n"
    "\t\t\tP: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",1,2,3\n\t\t}\n\t}\n"
    "\tGeometry: 200, \"Geometry::Body\", \"Mesh\" {\n"
    "\t\tVertices: *12 {\n\t\t\ta: 0,0,0,1,0,0,\n0,1,0,0.5,0.25,-7\n\t\t} \n"
    "\t\tPolygonVertexIndex: *4 {\n\t\t\ta: 0,1,2,-4\n\t\t} \n\t}\n"
    "\tAnimationStack: 300, \"AnimStack::Walk\", \"\" {\n\t\tProperties70:  {\n"
    "\t\t\tP: \"LocalStop\", \"KTime\", \"Time\", \"\",46186158000\n\t\t}\n\t}\n"
    "\tAnimationCurveNode: 400, \"AnimCurveNode::T\", \"\" {\n\t}\n"
    "\tAnimationCurve: 500, \"AnimCurve::\", \"\" {\n\t\tDefault: 0.5\n\t\tKeyVer: 4009\n"
    "\t\tKeyTime: *3 {\n\t\t\ta: 0,23093079000,46186158000\n\t\t} \n"
    "\t\tKeyValueFloat: *3 {\n\t\t\ta: 1,2,4\n\t\t} \n"
    "\t\t;KeyAttrFlags: Cubic|TangeantUser|WeightedRight, Linear\n"
    "\t\tKeyAttrFlags: *2 {\n\t\t\ta: 16777224,4\n\t\t} \n"
    /* 1.5f = 0x3FC00000 = 1069547520, -2.0f = 0xC0000000 = -1073741824, weights 2500 | 4999 << 16 */
    "\t\tKeyAttrDataFloat: *8 {\n\t\t\ta: 1069547520,-1073741824,327616964,0,0,0,0,0\n\t\t} \n"
    "\t\tKeyAttrRefCount: *2 {\n\t\t\ta: 1,2\n\t\t} \n"
    "\t\tPost-Extrapolation:  {\n\t\t\tType: R\n\t\t\tRepetition: 3\n\t\t}\n\t}\n"
    "}\n"
    "Connections:  {\n\t;Model::Hips, Model::RootNode\n\tC: \"OO\",100,0\n\tC: \"OO\",200,100\n"
    "\tC: \"OP\",400,100, \"Lcl Translation\"\n\tC: \"OP\",500,400, \"d|X\"\n}\n";

/* FBX 6.1 ASCII: Properties60, inline geometry, a skin connected to the Model, Takes with keys. */
static const char ascii_six[] =
    "; FBX 6.1.0 project file\n"
    "FBXHeaderExtension:  {\n    FBXVersion: 6100\n}\n"
    "Objects:  {\n"
    "    Model: \"Model::Box\", \"Mesh\" {\n        Version: 232\n        Properties60:  {\n"
    "            Property: \"Lcl Translation\", \"Lcl Translation\", \"A+\",1,2,3\n"
    "            Property: \"RotationOrder\", \"enum\", \"\",2\n        }\n"
    "        Vertices: 0,0,0,1,0,0,1,1,0,0,1,0,0,0,1,1,0,1,1,1,1,0,1,1,0,0,2,1,0,2,1,1,2,0,1,2,0,0,3,1,0,3,1,1,3,0,1,3,\n"
    "0,0,4,1,0,4,1,1,4,0,1,4,0,0,5,1,0,5,1,1,5,0,1,5\n"
    "         ,9,9,9\n"
    "        PolygonVertexIndex: 0,1,2,-4\n    }\n"
    "    Model: \"Model::Bone\", \"Limb\" {\n        Properties60:  {\n        }\n    }\n"
    "    Deformer: \"Deformer::Skin Box\", \"Skin\" {\n    }\n"
    "    Deformer: \"SubDeformer::Cluster Bone\", \"Cluster\" {\n        Indexes: 0,1\n        Weights: 1,0.5\n    }\n"
    "}\n"
    "Connections:  {\n"
    "    Connect: \"OO\", \"Model::Box\", \"Model::Scene\"\n"
    "    Connect: \"OO\", \"Model::Bone\", \"Model::Box\"\n"
    "    Connect: \"OO\", \"Deformer::Skin Box\", \"Model::Box\"\n"
    "    Connect: \"OO\", \"SubDeformer::Cluster Bone\", \"Deformer::Skin Box\"\n"
    "    Connect: \"OO\", \"Model::Bone\", \"SubDeformer::Cluster Bone\"\n"
    "}\n"
    ";Takes and animation section\n"
    "Takes:  {\n    Current: \"Take 001\"\n    Take: \"Take 001\" {\n        LocalTime: 1000,46186158000\n"
    "        Model: \"Model::Bone\" {\n            Channel: \"Transform\" {\n                Channel: \"T\" {\n"
    "                    Channel: \"X\" {\n                        Default: 7\n                        KeyCount: 3\n"
    "                        Key: \n                            0,1,L,23093079000,3,C,s,46186158000,5,C,n\n"
    "                    }\n"
    "                    Channel: \"Y\" {\n                        Default: 0\n                        KeyCount: 2\n"
    "                        Key: 0,0,U,s,2,-1,a,0.25,0.5,46186158000\n                            ,1,U,s,0,0,n\n"
    "                    }\n"
    "                    LayerType: 1\n                }\n            }\n        }\n    }\n}\n";

static void check_six_scene(const FbxScene *s)
{
    const char *form = "ASCII 6100";
    CHECK(s->doc.version == 6100 && !s->doc.binary, "%s: version %d", form, s->doc.version);
    int box = find_object(s, "Model", "Box"), bone = find_object(s, "Model", "Bone");
    int geometry = find_object(s, "Geometry", "Box"), skin = find_object(s, "Deformer", "Skin Box");
    int cluster = find_object(s, "Deformer", "Cluster Bone");
    CHECK(box >= 0 && bone >= 0 && geometry >= 0 && skin >= 0 && cluster >= 0, "%s: objects (geometry made from the Model)", form);
    if (box < 0 || bone < 0 || geometry < 0 || skin < 0 || cluster < 0) return;
    double v[4] = {0};
    CHECK(fbx_object_property_numbers(s, box, "Lcl Translation", v, 4) == 3 && v[2] == 3, "%s: Properties60", form);
    CHECK(fbx_object_property_numbers(s, box, "RotationOrder", v, 1) == 1 && v[0] == 2, "%s: enum property", form);
    size_t n;
    const double *vertices = fbx_record_reals((FbxDocument *)&s->doc, fbx_record_child(s->objects[geometry].record, "Vertices"), &n);
    CHECK(n == 75 && vertices && vertices[72] == 9, "%s: a 75-number plain list over 3 lines (%zu)", form, n);
    CHECK(connected(s, box, -1, NULL) && connected(s, bone, box, NULL) && connected(s, geometry, box, NULL), "%s: hierarchy", form);
    CHECK(connected(s, skin, geometry, NULL) && !connected(s, skin, box, NULL), "%s: the skin goes to the Geometry", form);
    CHECK(connected(s, cluster, skin, NULL) && connected(s, bone, cluster, NULL), "%s: cluster connections by name", form);
    int stack = find_object(s, "AnimationStack", "Take 001");
    CHECK(stack >= 0, "%s: the Take as a stack", form);
    if (stack < 0) return;
    CHECK(fbx_object_property_numbers(s, stack, "LocalStart", v, 1) == 1 && v[0] == 1000, "%s: LocalStart %g", form, v[0]);
    CHECK(fbx_object_property_numbers(s, stack, "LocalStop", v, 1) == 1 && v[0] == 46186158000.0, "%s: LocalStop", form);
    int layer = -1, node = -1, curve_x = -1, curve_y = -1;
    for (int i = 0; i < s->connection_count; i++) {
        const FbxConnection *c = &s->connections[i];
        if (c->dst == stack && strcmp(s->objects[c->src].kind, "AnimationLayer") == 0) layer = c->src;
        if (c->dst == bone && c->property && strcmp(c->property, "Lcl Translation") == 0) node = c->src;
    }
    for (int i = 0; node >= 0 && i < s->connection_count; i++) {
        const FbxConnection *c = &s->connections[i];
        if (c->dst == node && c->property && strcmp(c->property, "d|X") == 0) curve_x = c->src;
        if (c->dst == node && c->property && strcmp(c->property, "d|Y") == 0) curve_y = c->src;
    }
    CHECK(layer >= 0 && node >= 0 && connected(s, node, layer, NULL) && curve_x >= 0 && curve_y >= 0, "%s: layer, curve node, curves", form);
    if (node < 0 || curve_x < 0 || curve_y < 0) return;
    CHECK(fbx_object_property_numbers(s, node, "d|X", v, 1) == 1 && v[0] == 7, "%s: d|X default %g", form, v[0]);
    const FbxCurve *x = &s->curves[curve_x], *y = &s->curves[curve_y];
    CHECK(x->key_count == 3 && y->key_count == 2, "%s: key counts %d %d", form, x->key_count, y->key_count);
    if (x->key_count == 3) {
        CHECK(x->keys[0].interpolation == FBX_INTERPOLATION_LINEAR && x->keys[1].interpolation == FBX_INTERPOLATION_CONSTANT &&
                  !x->keys[1].constant_next && x->keys[2].constant_next,
              "%s: L, C s (standard), C n (next)", form);
        CHECK(x->keys[1].time == 23093079000 && x->keys[1].value == 3 && x->keys[2].value == 5, "%s: key values", form);
    }
    if (y->key_count == 2) {
        CHECK(y->keys[0].interpolation == FBX_INTERPOLATION_CUBIC && y->keys[0].right_slope == 2 && y->keys[0].next_left_slope == -1,
              "%s: cubic slopes", form);
        CHECK(y->keys[0].right_weight == 0.25 && y->keys[0].next_left_weight == 0.5, "%s: weights", form);
        CHECK(y->keys[1].time == 46186158000 && y->keys[1].value == 1 && near(y->keys[1].right_weight, 1.0 / 3.0),
              "%s: second key across a line break", form);
    }
}

/* A refused file: a one-line cause. A read one: fine too (a truncation may still be a file). */
static void check_damaged(const void *bytes, size_t size, bool must_fail, const char *what)
{
    FbxScene s;
    char error[256] = "";
    bool ok = fbx_scene_read(&s, bytes, size, error, sizeof error);
    if (ok) fbx_scene_free(&s);
    if (must_fail) CHECK(!ok, "%s: refused", what);
    if (!ok) CHECK(error[0] != '\0' && strchr(error, '\n') == NULL, "%s: one-line error '%s'", what, error);
}

static void tokens(void)
{
    for (int form = 0; form < 4; form++) {   /* 7400 plain, 7400 zlib, 7500 plain, 7500 zlib */
        Writer w;
        int version = form < 2 ? 7400 : 7500;
        write_binary_scene(&w, version, form % 2 == 1);
        char name[64], error[256];
        snprintf(name, sizeof name, "binary %d %s", version, form % 2 ? "zlib" : "plain");
        FbxScene s;
        bool ok = fbx_scene_read(&s, w.bytes, w.size, error, sizeof error);
        CHECK(ok, "%s: read (%s)", name, error);
        if (ok) {
            CHECK(s.doc.version == version && s.doc.binary, "%s: version %d", name, s.doc.version);
            check_seven_scene(&s, name);
            fbx_scene_free(&s);
        }
        if (form == 1) {
            /* damaged: every truncation */
            for (size_t cut = 0; cut < w.size; cut++) check_damaged(w.bytes, cut, cut < 27, "truncated binary");
            /* a record end past its parent */
            uint8_t *bad = malloc(w.size + 64);
            memcpy(bad, w.bytes, w.size);
            memcpy(bad + 27, "\xff\xff\xff\x7f", 4);
            check_damaged(bad, w.size, true, "record end past the file");
            free(bad);
            /* every byte flipped in turn: no crash */
            uint8_t *flip = malloc(w.size);
            for (size_t at = 27; at < w.size; at++) {
                memcpy(flip, w.bytes, w.size);
                flip[at] ^= 0xa5;
                check_damaged(flip, w.size, false, "flipped byte");
            }
            free(flip);
        }
        free(w.bytes);
    }
    /* absurd array counts: plain with too few bytes; zlib claiming 2^28 doubles from a few bytes */
    for (int zip = 0; zip < 2; zip++) {
        Writer w;
        writer_start(&w, 7400);
        begin(&w, "Vertices");
        uint8_t *zeros = calloc(1, 16 << 20);
        if (zip) {
            uLongf length = compressBound(16 << 20);
            uint8_t *packed = malloc(length);
            compress(packed, &length, zeros, 16 << 20);
            put(&w, "d", 1);
            put_u32(&w, 1u << 28);   /* 2 GiB of doubles claimed from ~16 KiB */
            put_u32(&w, 1);
            put_u32(&w, (uint32_t)length);
            put(&w, packed, length);
            free(packed);
        } else {
            put(&w, "d", 1);
            put_u32(&w, 0x7fffffff);
            put_u32(&w, 0);
            put_u32(&w, 64);
            put(&w, zeros, 64);
        }
        value_done(&w);
        end(&w);
        header_zeros(&w);
        check_damaged(w.bytes, w.size, true, zip ? "zip bomb" : "absurd plain array count");
        free(zeros);
        free(w.bytes);
    }
    {   /* a zlib array whose data is not zlib */
        Writer w;
        writer_start(&w, 7500);
        begin(&w, "KeyTime");
        put(&w, "l", 1);
        put_u32(&w, 4);
        put_u32(&w, 1);
        put_u32(&w, 8);
        put(&w, "notzlib!", 8);
        value_done(&w);
        end(&w);
        header_zeros(&w);
        check_damaged(w.bytes, w.size, true, "bad zlib data");
        free(w.bytes);
    }
    {   /* nesting 200 deep, binary */
        Writer w;
        writer_start(&w, 7400);
        for (int i = 0; i < 63; i++) begin(&w, "A");
        for (int i = 0; i < 63; i++) end(&w);
        header_zeros(&w);
        check_damaged(w.bytes, w.size, false, "binary nesting 63");
        FbxScene s;
        char error[256];
        CHECK(fbx_scene_read(&s, w.bytes, w.size, error, sizeof error), "binary nesting 63 deep is read (%s)", error);
        fbx_scene_free(&s);
        free(w.bytes);
        /* deeper than the limit: the writer holds 64 levels; nest by hand */
        size_t depth = 5000, header = 13;
        size_t size = 27 + depth * (header + 1 + header) + header;
        uint8_t *deep = calloc(1, size);
        memcpy(deep, "Kaydara FBX Binary  \0\x1a\0", 23);
        deep[23] = 0xe8, deep[24] = 0x1c;   /* 7400 */
        for (size_t i = 0; i < depth; i++) {
            size_t at = 27 + i * (header + 1), end_at = size - header - i * header;
            for (int b = 0; b < 4; b++) deep[at + (size_t)b] = (uint8_t)(end_at >> (8 * b));
            deep[at + 12] = 1;
            deep[at + 13] = 'A';
        }
        check_damaged(deep, size, true, "binary nesting 5000 deep");
        free(deep);
    }
    /* ASCII forms */
    FbxScene s;
    char error[256];
    bool ok = fbx_scene_read(&s, ascii_seven, strlen(ascii_seven), error, sizeof error);
    CHECK(ok, "ASCII 7400: read (%s)", error);
    if (ok) {
        CHECK(s.doc.version == 7400 && !s.doc.binary, "ASCII 7400: version %d", s.doc.version);
        check_seven_scene(&s, "ASCII 7400");
        fbx_scene_free(&s);
    }
    ok = fbx_scene_read(&s, ascii_six, strlen(ascii_six), error, sizeof error);
    CHECK(ok, "ASCII 6100: read (%s)", error);
    if (ok) {
        check_six_scene(&s);
        fbx_scene_free(&s);
    }
    for (size_t cut = 0; cut < strlen(ascii_seven); cut += 7) check_damaged(ascii_seven, cut, cut == 0, "truncated ASCII");
    static const char *const broken[] = {
        "Model: \"Model::A\n", "Objects: {\n}\n}\n", "Objects: {\n Model: 1, \"a\" {\n", "A: *3 {\n a: 1,2,x\n}\n",
        "A: * {\n}\n", "\x01\x02\x03 not text", ": 1\n", "A: 1 $\n", "; only a comment\n"};
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) check_damaged(broken[i], strlen(broken[i]), true, broken[i]);
    /* 10 000 nested braces */
    size_t depth = 10000;
    char *nested = malloc(depth * 6 + depth * 2 + 1);
    size_t at = 0;
    for (size_t i = 0; i < depth; i++) memcpy(nested + at, "A: {\n", 5), at += 5;
    for (size_t i = 0; i < depth; i++) memcpy(nested + at, "}\n", 2), at += 2;
    check_damaged(nested, at, true, "ASCII nesting 10000 deep");
    free(nested);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "tokens";
    if (strcmp(mode, "tokens") == 0) tokens();
    else if (strcmp(mode, "files") == 0) files();
    else {
        fprintf(stderr, "usage: test_fbx_doc tokens|files\n");
        return 2;
    }
    return test_finish();
}
