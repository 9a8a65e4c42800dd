/* model.h — skinview's own in-memory model: plain arrays, no Assimp, no GL.
 *
 * The importer (src/io/import*.c, one file per stage) fills these structs once; everything after
 * that (animation, rendering, export, tests) reads only these.
 *
 * Conventions (the same everywhere in skinview):
 *   - cglm, column vectors: p' = M * p, matrices compose right-to-left.
 *   - "scene space" = the space of the file's root node, before the camera.
 *   - joint  = one node of the transform hierarchy (bones AND the helper nodes
 *              between them: trap 4 in docs/skinning.md). Stored parents-before-children.
 *   - bone   = a joint that a mesh is skinned to; a mesh lists its bones and
 *              per bone the inverse bind ("offset") matrix.
 *   - clip   = one named animation; times are in SECONDS (converted at import).
 */
#ifndef SKINVIEW_MODEL_H
#define SKINVIEW_MODEL_H

#include <cglm/cglm.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SV_NAME_MAX 128          /* names longer than this are truncated */
#define SV_MAX_INFLUENCES 4      /* the design card: four (joint, weight) pairs */
#define SV_MAX_INFLUENCES_KEPT 8 /* what an import asked for more keeps (ImportOptions.max_influences): the
                                    4 above + 4 more in Mesh.joint_indices_more, for --export-gltf only */

/* Translation / rotation / scale of one joint relative to its parent. */
typedef struct JointTransform {
    vec3   translation;
    versor rotation;             /* unit quaternion, cglm order x, y, z, w */
    vec3   scale;
} JointTransform;

/* The joint hierarchy. parent[j] < j for every joint but the roots (-1). */
typedef struct Skeleton {
    int             joint_count;
    char          (*names)[SV_NAME_MAX];
    int            *parent;
    mat4           *rest_local;    /* node transform from the file (exact matrix) */
    JointTransform *rest_trs;      /* the same, decomposed; tracks override parts of it */
    bool           *is_bone;       /* true if some mesh is skinned to this joint */
    uint16_t       *source_features; /* [joint_count] JOINT_SOURCE_* bits: what the file's node uses
                                      beyond a plain TRS (FBX; --info lists them), NULL when none */
} Skeleton;

/* Transform features of a joint's node in the source file (FBX), for --info. */
enum {
    JOINT_SOURCE_PIVOTS          = 1 << 0,   /* rotation / scaling pivot or offset */
    JOINT_SOURCE_PRE_ROTATION    = 1 << 1,
    JOINT_SOURCE_POST_ROTATION   = 1 << 2,
    JOINT_SOURCE_ROTATION_ORDER  = 1 << 3,   /* an Euler order other than XYZ */
    JOINT_SOURCE_ROTATION_OFF    = 1 << 4,   /* RotationActive 0 / RotationSpaceForLimitOnly: pre/post, order ignored */
    JOINT_SOURCE_INHERIT_RrSs    = 1 << 5,   /* the parent's scale applied per axis in the child's frame */
    JOINT_SOURCE_INHERIT_Rrs     = 1 << 6,   /* the parent's scale not inherited (segment scale compensate) */
    JOINT_SOURCE_GEOMETRIC       = 1 << 7,   /* a geometric transform (geometry only, not inherited) */
    JOINT_SOURCE_SCALE_HELPER    = 1 << 8,   /* a joint skinview inserted: a parent's unscaled frame */
    JOINT_SOURCE_ANIMATED_PIVOTS = 1 << 9,   /* a pivot, offset or pre/post rotation is animated */
};
#define JOINT_SOURCE_FEATURE_COUNT 10

/* "pivots", "pre-rotation", ... for bit (1 << index). */
const char *joint_source_feature_name(int index);

/* How one channel goes from key k to key k+1 (glTF's sampler.interpolation; every other
 * format is LINEAR). */
typedef enum Interpolation {
    INTERPOLATION_LINEAR = 0,      /* lerp T and S, shortest-arc slerp R */
    INTERPOLATION_STEP,            /* hold key k until key k+1 */
    INTERPOLATION_CUBICSPLINE,     /* glTF cubic Hermite spline: per key an in- and an out-tangent */
} Interpolation;

#define INTERPOLATION_KINDS 3

/* "linear", "step", "cubicspline" (as --info prints them). */
const char *interpolation_name(Interpolation kind);

/* Keys of one joint in one clip. Each channel has its own key times (seconds in the
 * file's timeline, strictly increasing after import) and its own interpolation. A
 * channel with 0 keys keeps the joint's rest value for that component.
 * CUBICSPLINE channels also have tangents[2 * count]: tangents[2k] is key k's in-tangent,
 * tangents[2k + 1] its out-tangent, in value units per second (glTF's a_k, b_k); other
 * channels have tangents == NULL. */
typedef struct JointTrack {
    int     joint;
    int     translation_count;
    float  *translation_times;
    vec3   *translation_values;
    vec3   *translation_tangents;
    Interpolation translation_interpolation;
    int     rotation_count;
    float  *rotation_times;
    versor *rotation_values;
    versor *rotation_tangents;
    Interpolation rotation_interpolation;
    int     scale_count;
    float  *scale_times;
    vec3   *scale_values;
    vec3   *scale_tangents;
    Interpolation scale_interpolation;
} JointTrack;

/* Keys of one morph target's weight in one clip (glTF `weights` channels, FBX blend-shape
 * channels). Times in seconds, strictly increasing after import. The interpolation is the glTF
 * sampler's (every other format: LINEAR); CUBICSPLINE tracks also have tangents[2 * key_count]:
 * tangents[2k] is key k's in-tangent, tangents[2k + 1] its out-tangent (weight per second, glTF's
 * a_k, b_k); other tracks have tangents == NULL. */
typedef struct MorphTrack {
    int     mesh;                   /* index into Model.meshes */
    int     target;                 /* index into that mesh's morph targets */
    int     key_count;              /* >= 1 */
    float  *times;
    float  *weights;
    float  *tangents;
    Interpolation interpolation;
} MorphTrack;

/* A clip covers the file times [start, start + duration]: from its first key to its last
 * (or to the end the file states, if later). Playback time t (seconds from the clip's
 * start, what --time takes) samples the keys at file time start + t. */
typedef struct Clip {
    char        name[SV_NAME_MAX];  /* may be "" (unnamed glTF clips) */
    char        source_file[SV_NAME_MAX]; /* "" for the model's own clips; a clip added from another file
                                             (--animations, a Shift-drop: anim/retarget.h) has that file's name */
    float       start;              /* seconds: time of the clip's first key (0 for most files) */
    float       file_time_shift;    /* seconds the import added to every key time (a clip whose keys start
                                       before 0, e.g. an FBX take from -1 frame, is moved to 0 by validation):
                                       the file's time is key time - file_time_shift; 0 for most files */
    float       duration;           /* seconds */
    float       source_ticks_per_second; /* as read from the file (0 = unspecified) */
    int         track_count;
    JointTrack *tracks;
    int         morph_track_count;  /* targets the clip drives; the others keep their default weight */
    MorphTrack *morph_tracks;
    unsigned    source_interpolations;  /* FBX: bit (1 << k) for each curve key interpolation the clip was
                                           resampled from: 0 constant, 1 linear, 2 cubic; 0 otherwise */
    unsigned    source_extrapolations;  /* FBX: bit (1 << k) for each pre/post extrapolation other than
                                           constant: 1 repetition, 2 mirror, 3 keep slope, 4 relative repetition */
    int         source_rig;         /* a clip added from another file: 1 + its index in Model.source_rigs (the
                                       skeleton it was retargeted from, drawn beside the character: Shift+B);
                                       0 for the model's own clips */
    int         source_clip;        /* with source_rig: the clip of that rig's Model it was made from */
} Clip;

/* Bit (1 << kind) set for every Interpolation some channel of the clip uses, morph-weight
 * channels included; 0: no keys. */
unsigned clip_interpolation_kinds(const Clip *clip);

/* A mesh's skinning method as its file names it (FBX Skin SkinningType). */
enum { MESH_SKINNING_LINEAR = 0, MESH_SKINNING_DUAL_QUATERNION, MESH_SKINNING_BLEND };

/* What a mesh's indices draw (glTF primitive modes: strips, loops and fans are expanded into these
 * lists at import; every other format gives triangles). Zero = triangles, so a zeroed Mesh is one. */
typedef enum MeshPrimitive {
    MESH_TRIANGLES = 0,          /* 3 indices per triangle */
    MESH_LINES,                  /* 2 indices per line segment (glTF LINES, LINE_STRIP, LINE_LOOP) */
    MESH_POINTS,                 /* 1 index per point (glTF POINTS) */
} MeshPrimitive;

/* Indices per element of a primitive kind: 3, 2 or 1. */
static inline int mesh_primitive_corners(MeshPrimitive primitive)
{
    return primitive == MESH_LINES ? 2 : primitive == MESH_POINTS ? 1 : 3;
}

/* "triangles", "line segments", "points" (as --info and warnings name a kind's elements). */
static inline const char *mesh_primitive_plural(MeshPrimitive primitive)
{
    return primitive == MESH_LINES ? "line segments" : primitive == MESH_POINTS ? "points" : "triangles";
}

/* One drawable mesh: triangles (or line segments, or points: `primitive`), one material.
 * Skinned: joint_indices index the mesh's OWN bone list (bone_joint / inverse_bind),
 * which is also the order of the palette uploaded for this mesh. */
typedef struct Mesh {
    char      name[SV_NAME_MAX];
    int       vertex_count;
    int       index_count;         /* 3 per triangle, 2 per line segment, 1 per point */
    MeshPrimitive primitive;       /* what the indices draw; lines and points have normals (+Y where the
                                      file has none) but are drawn unlit, and no tangents */
    vec3     *positions;           /* in the mesh's own space (as stored in the file) */
    vec3     *normals;
    vec2     *uvs;                 /* zeros when the file has none */
    vec2     *uvs2;                /* the second UV set (TEXCOORD_1), NULL when the file has none;
                                      a VAT mesh.glb keeps each vertex's texture id in .x (vat_mesh.h) */
    vec4     *colors;              /* per vertex linear RGBA (glTF COLOR_0, Assimp colour set 0), NULL: none */
    vec4     *tangents;            /* per vertex xyz = tangent (mesh space, along +u), w = +-1: bitangent =
                                      w * cross(normal, tangent) points along +v_glTF's opposite, i.e. "up" in
                                      the image (glTF TANGENT); NULL: none in the file (the renderer
                                      generates them for normal-mapped meshes: anim/tangents.h) */
    uint32_t *indices;
    /* skinning (NULL / 0 when the mesh is static) */
    int       bone_count;
    int      *bone_joint;          /* bone i -> joint index in the skeleton. Vertices of a skinned
                                      mesh that no bone weights are bound (weight 1) to an extra bone
                                      = the mesh's node with an identity inverse bind: they move
                                      rigidly with that node, as FBX tools and three.js do. */
    mat4     *inverse_bind;        /* bone i: mesh space -> bone space at bind time (Assimp mOffsetMatrix) */
    uint16_t (*joint_indices)[SV_MAX_INFLUENCES]; /* per vertex: 4 bone indices (into bone_joint) */
    float    (*weights)[SV_MAX_INFLUENCES];       /* per vertex: 4 weights, sum 1 (0 for unused slots) */
    uint8_t  *influences_in_file;  /* per vertex: how many non-zero weights the file gave it (capped at 255),
                                      before the import kept the SV_MAX_INFLUENCES largest; a value above
                                      SV_MAX_INFLUENCES marks a vertex that lost influences (the
                                      influence view shows it). NULL when no vertex of the mesh lost one. */
    uint16_t (*joint_indices_more)[SV_MAX_INFLUENCES]; /* per vertex: the 5th..8th largest influences' bones,
                                      kept only when the import was asked (ImportOptions.max_influences 8:
                                      --export-gltf --max-influences 8 writes them as JOINTS_1); nothing per
                                      frame reads them: the renderer and the animator skin with the 4 above */
    float    (*weights_more)[SV_MAX_INFLUENCES];  /* their weights, divided by the same sum as `weights` (so the
                                      8 sum to 1 + the sum of these); NULL when no vertex has a 5th influence */
    mat4      bind_matrix;         /* skinned: N, where the mesh was bound in the scene = its node's rest
                                      scene matrix (glTF: identity, the spec ignores a skinned mesh node's
                                      transform; Collada: the root's rest matrix x the skin's
                                      bind_shape_matrix). Bind pose: stored vertices placed by N, every bone's
                                      joint at N * inverse(inverse_bind[i]) (trap 11 in docs/skinning.md). */
    bool      skinned;
    uint8_t   skinning_in_file;    /* MESH_SKINNING_*: the method the file asks for (FBX SkinningType);
                                      the default --skinning when every skinned mesh asks DQ */
    float    *dq_weight;           /* per vertex, FBX SkinningType Blend: the share of dual quaternion
                                      skinning (the Skin's BlendWeights; 0 where it lists none), the rest
                                      LBS, when the mesh is skinned by DQS (skin_dq.h); NULL: all DQS */
    bool      skin_follows_node;   /* FBX (Maya): the skinned mesh also follows its node's motion since
                                      binding (a mesh node moved or animated after binding): every palette
                                      entry is premultiplied by model[node_joint] * skin_bind_node_inverse */
    mat4      skin_bind_node_inverse; /* inverse of the mesh node's scene matrix at bind time */
    int       node_joint;          /* joint of the node that holds the mesh (static meshes follow it) */
    int       material;            /* index into Model.materials, or -1 */
    /* morph targets (blend shapes; 0 / NULL when the mesh has none). Applied before skinning,
     * in mesh space: p = p_stored + sum_t w_t * position_delta[t][v] (the same for normals). */
    int       morph_target_count;
    char    (*morph_target_names)[SV_NAME_MAX];  /* may be "" (glTF targets are often unnamed) */
    vec3     *morph_position_deltas; /* [target * vertex_count + vertex] */
    vec3     *morph_normal_deltas;   /* [target * vertex_count + vertex]; zeros where the file has none */
    float    *morph_default_weights; /* [target]: the weights without a clip (glTF: the node's
                                        `weights` if it has them, else mesh.weights) */
} Mesh;

/* A decoded texture: RGBA8, rows top to bottom. */
typedef struct Texture {
    char           source[SV_NAME_MAX]; /* file name or "*N" for embedded */
    int            width, height;
    unsigned char *rgba;
    unsigned char *encoded;       /* the file's own image bytes the rgba was decoded from, when they are PNG or
                                     JPEG (the formats glTF takes) and the import was asked to keep them
                                     (ImportOptions.keep_image_bytes: --export-gltf copies them byte for byte);
                                     NULL otherwise, and for a texture the import made (an opacity-combined
                                     diffuse, raw texels) */
    size_t         encoded_size;
} Texture;

/* One texture a material samples (glTF textureInfo), for the PBR maps below. */
typedef struct MaterialMap {
    int   texture;               /* index into Model.textures, or -1: none */
    int   texcoord;              /* which UV set: 0 = Mesh.uvs, 1 = Mesh.uvs2 */
    /* KHR_texture_transform: uv' = T(offset) * R(-rotation) * S(scale) * uv (the extension's order),
     * in glTF's UV space (v down: apply it to (u, 1 - v) of Mesh.uvs); identity when the file has none */
    bool  has_transform;
    vec2  offset;
    float rotation;              /* radians, counter-clockwise in UV space */
    vec2  scale;
} MaterialMap;

typedef enum MaterialAlphaMode {
    MATERIAL_ALPHA_OPAQUE = 0,   /* alpha ignored */
    MATERIAL_ALPHA_MASK,         /* fragment discarded where alpha < alpha_cutoff */
    MATERIAL_ALPHA_BLEND,        /* blended */
} MaterialAlphaMode;

typedef struct Material {
    char  name[SV_NAME_MAX];
    vec4  diffuse_color;         /* linear RGBA (glTF: baseColorFactor) */
    int   diffuse_texture;       /* index into Model.textures, or -1 (glTF: baseColorTexture) */
    /* What a PBR renderer needs (glTF metallic-roughness; other formats: the defaults that
     * material_init() sets, which are glTF's). The renderer of today uses only the two above. */
    MaterialMap diffuse_map;             /* texcoord / transform of diffuse_texture (.texture == diffuse_texture) */
    float       metallic_factor;         /* 1 */
    float       roughness_factor;        /* 1 */
    MaterialMap metallic_roughness_map;  /* B = metalness, G = roughness */
    MaterialMap normal_map;              /* tangent-space normals */
    float       normal_scale;            /* 1: scales the map's X and Y */
    MaterialMap occlusion_map;           /* R = occlusion */
    float       occlusion_strength;      /* 1 */
    vec3        emissive_factor;         /* 0, 0, 0 (linear RGB) */
    float       emissive_strength;       /* 1 (KHR_materials_emissive_strength) */
    MaterialMap emissive_map;
    MaterialAlphaMode alpha_mode;        /* OPAQUE */
    float       alpha_cutoff;            /* 0.5 (MASK only) */
    bool        double_sided;            /* false: back faces culled */
    bool        unlit;                   /* KHR_materials_unlit */
} Material;

/* A material with the defaults above: white, no textures, metallic = roughness = 1, opaque. */
void material_init(Material *material);

/* What the importer had to change, reported by --info. */
typedef struct ImportStats {
    int vertices_influences_cut;   /* vertices that had more than 4 influences */
    int vertices_renormalized;     /* vertices whose weight sum was not 1 (|sum-1| > 1e-4) */
    int vertices_unweighted;       /* skinned-mesh vertices with no weight: bound rigidly to the mesh node */
    int bones_without_node;        /* bones whose name matched no node (dropped) */
    int clips_renamed;             /* duplicate or empty clip names given a suffix */
    int channels_without_node;     /* animation channels that target no node (ignored) */
    int meshes_split_by_bones;     /* extra meshes created by the bone-count split */
    int textures_missing;          /* material textures that could not be found or decoded (colour only) */
    int repairs;                   /* absurd data repaired by validation (io/validate.h), one warning each */
    int skins_rebuilt;             /* FBX: meshes whose skin Assimp dropped, rebuilt from the clusters */
    int scale_helpers;             /* FBX: joints added for a parent's unscaled frame (RrSs / Rrs children) */
    int influence_runs_in_file;    /* runs of equal influence count over the skinned meshes, as stored */
    int influence_runs;            /* the same after the import sorted the vertices (mesh_layout.c) */
    int keys_in_file;              /* translation + rotation + scale keys over every clip, as read */
    int keys;                      /* the same after --optimize-keys (= keys_in_file when off) */
    float key_tolerance;           /* --optimize-keys tolerance, relative to the bbox diagonal; 0: off */
    float key_error;               /* measured worst pose change of the optimiser over every clip, relative
                                      to the diagonal (-1: not measured) */
    int blend_shapes_from_file;    /* FBX: meshes whose morph targets are the file's blend shapes, not Assimp's */
} ImportStats;

/* The file's axis system and length unit, where the file states them (FBX GlobalSettings). skinview shows
 * scene space as the file has it; the glTF export converts it to glTF's (+Y up, +Z front, X right when
 * seen from the front, metres) in one place (gltf_export_axes in io/gltf_write.h). */
typedef struct SceneAxes {
    bool   known;               /* false: the file states none (glTF's own frame, or a format Assimp converted) */
    int8_t right_axis, right_sign;   /* axis index 0..2 and sign +1 / -1 (FBX CoordAxis, CoordAxisSign) */
    int8_t up_axis, up_sign;         /* FBX UpAxis, UpAxisSign */
    int8_t front_axis, front_sign;   /* the way the model faces (FBX FrontAxis, FrontAxisSign) */
    double metres_per_unit;     /* FBX UnitScaleFactor / 100 (the factor is centimetres per unit) */
} SceneAxes;

struct Model;

/* The skeleton clips were retargeted from (--animations, a Shift-drop: anim/retarget.h), kept with the
 * character so that the viewer can pose it beside the character (Shift+B, --show-source-rig). */
typedef struct SourceRig {
    struct Model *model;          /* the animation file: its skeleton and clips (its meshes are dropped) */
    float  align[4];              /* quaternion (x y z w): its scene axes -> the character's (RetargetSetup.align) */
    float  scale;                 /* character hip height / its hip height (RetargetSetup.hip_scale) */
    int    hips;                  /* its joint whose translation the character's hips follow (-1: none) */
    int    target_hips;           /* that joint of the character (-1: none) */
} SourceRig;

typedef struct Model {
    char      source_path[1024];
    Skeleton  skeleton;
    int       mesh_count;
    Mesh     *meshes;
    int       material_count;
    Material *materials;
    int       texture_count;
    Texture  *textures;
    int       clip_count;
    Clip     *clips;
    ImportStats stats;
    /* glTF: the file's extensionsUsed / extensionsRequired, comma-separated ("" when none, and for
     * every other format) */
    char      extensions_used[512];
    char      extensions_required[512];
    SceneAxes axes;               /* the file's axes and unit (FBX), for --info and the glTF export */
    /* FBX: what the file uses that changes a pose, a skin or a shape and that the reader does not
     * apply, one '\n'-terminated line each ("" when nothing, and for every other format); --info
     * prints them (src/io/fbx/fbx_apply_unhandled.c) */
    char      source_unhandled[2048];
    int       source_rig_count;   /* skeletons the added clips came from (Clip.source_rig); owned */
    SourceRig *source_rigs;
} Model;

/* True if every skinned mesh's file asks for dual quaternion skinning, alone or blended per vertex
 * with LBS (FBX SkinningType DualQuaternion or Blend): the default method then. */
bool model_asks_dual_quaternion(const Model *model);

/* Frees everything a Model owns (safe on a zeroed Model). */
void model_free(Model *model);

/* Sets joint_count and allocates the skeleton's per-joint arrays, zeroed. False when out of
 * memory (what was allocated is left for model_free). */
bool skeleton_alloc(Skeleton *skeleton, int joint_count);

/* Frees a JointTrack's key arrays and zeroes it (safe on a zeroed JointTrack). */
void joint_track_free(JointTrack *track);

/* Frees what one mesh / one clip owns and zeroes it (model_free frees them all; the importer's
 * validation drops single ones). */
void mesh_free(Mesh *mesh);
void clip_free(Clip *clip);

/* Index of the clip with this exact name, or -1. (Used once, at start-up.) */
int model_find_clip(const Model *model, const char *name);

/* Names clip c from `source` (src_length bytes at most, made valid UTF-8) so that it repeats no
 * earlier clip's name: "Walk", "Walk (2)", "Walk (3)", ... (counted in stats.clips_renamed).
 * An empty name stays "". Every reader names its clips through this, in clip order. */
void model_name_clip(Model *model, int c, const char *source, size_t src_length);

/* Adds (joint, w) to one vertex's influence slots, keeping the SV_MAX_INFLUENCES largest
 * weights sorted descending; a weight no larger than the smallest kept one is dropped. Slots
 * start as weight 0. Every reader fills its vertices' bone0info..bone3info through this. */
void influence_keep_largest(uint16_t joint_index[SV_MAX_INFLUENCES], float weight[SV_MAX_INFLUENCES], int joint,
                            float w);

/* The same over 8 slots: the 4 largest in joint_index / weight (what influence_keep_largest keeps), the next 4
 * in more_index / more_weight (sorted descending too). A reader asked for more influences calls this instead. */
void influence_keep_largest_more(uint16_t joint_index[SV_MAX_INFLUENCES], float weight[SV_MAX_INFLUENCES],
                                 uint16_t more_index[SV_MAX_INFLUENCES], float more_weight[SV_MAX_INFLUENCES], int joint,
                                 float w);

/* The rule every reader ends a skin with, once its kept weights are in: each vertex's weights
 * renormalised to sum 1 (a slot left at weight 0 points at palette entry 0; weights_more, when
 * kept, divided by the same sum, and freed when no vertex has a 5th), and a vertex with no weight
 * at all bound with weight 1 to one extra bone — the mesh's own node, identity inverse bind — so it
 * moves rigidly with that node (bone_joint / inverse_bind need room for it).
 * Counts stats->vertices_unweighted and vertices_renormalized (|sum - 1| > 1e-4; not for a
 * vertex whose 5th+ influences were cut, Mesh.influences_in_file > 4, counted as cut already);
 * stats may be NULL. Returns the bone count with the extra bone, if one was added. */
int mesh_normalize_weights(Mesh *mesh, int bone_count, ImportStats *stats);

/* "image/png" or "image/jpeg" when `bytes` start as that format (the two glTF 2.0 takes), else NULL. */
const char *image_bytes_mime(const unsigned char *bytes, size_t size);

/* Keeps a copy of the image bytes `texture` was decoded from when they are PNG or JPEG (Texture.encoded); false
 * only when out of memory. */
bool texture_keep_encoded(Texture *texture, const unsigned char *bytes, size_t size);

/* Triangles, segments or points of one mesh: index_count / corners of its primitive. */
static inline int mesh_element_count(const Mesh *mesh)
{
    return mesh->index_count / mesh_primitive_corners(mesh->primitive);
}

/* Total vertex / triangle counts over all meshes. */
int model_total_vertices(const Model *model);

/* Copies at most src_length bytes of src (stopping at a NUL) into dst as valid UTF-8:
 * every byte that does not start a well-formed sequence (Latin-1 or Shift-JIS names
 * from old exporters, overlong forms, surrogates) becomes U+FFFD, and the copy is cut
 * at a character boundary so that it fits dst_size - 1 bytes. dst is always
 * NUL-terminated (dst_size >= 1). Returns the bytes written, without the NUL. */
size_t utf8_copy_valid(char *dst, size_t dst_size, const char *src, size_t src_length);

#endif
