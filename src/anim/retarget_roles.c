/* retarget_roles.c — what each joint is in a humanoid: the naming conventions of the common rigs,
 * by role (retarget.h). Names are compared as joint_name_key() folds them: without the namespace
 * or pack prefix, lower case, no ' ', '_', '-', '.'. In a pattern "%L" stands for "left" / "right"
 * and "%l" for "l" / "r" (Unreal's "upperarm_l", Rigify's "upper_arm.L", Biped's "L UpperArm"). */
#include "retarget.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct RolePattern {
    const char   *key;      /* folded name, with %L / %l for the side */
    unsigned char role;     /* ROLE_* or, for sided patterns, ROLE_FIRST_SIDED + SIDED_* (left) */
} RolePattern;

#define S(sided) (ROLE_FIRST_SIDED + (sided))
#define FINGERS(thumb, index, middle, ring, pinky)                                                            \
    {thumb "1", S(SIDED_THUMB1)}, {thumb "2", S(SIDED_THUMB2)}, {thumb "3", S(SIDED_THUMB3)},                 \
    {index "1", S(SIDED_INDEX1)}, {index "2", S(SIDED_INDEX2)}, {index "3", S(SIDED_INDEX3)},                 \
    {middle "1", S(SIDED_MIDDLE1)}, {middle "2", S(SIDED_MIDDLE2)}, {middle "3", S(SIDED_MIDDLE3)},           \
    {ring "1", S(SIDED_RING1)}, {ring "2", S(SIDED_RING2)}, {ring "3", S(SIDED_RING3)},                       \
    {pinky "1", S(SIDED_PINKY1)}, {pinky "2", S(SIDED_PINKY2)}, {pinky "3", S(SIDED_PINKY3)}

/* Mixamo ("mixamorig:LeftForeArm") and Autodesk HumanIK ("Character1_LeftForeArm"). */
static const RolePattern mixamo[] = {
    {"hips", ROLE_HIPS}, {"spine", ROLE_SPINE}, {"spine1", ROLE_SPINE}, {"spine2", ROLE_SPINE},
    {"spine3", ROLE_SPINE}, {"spine4", ROLE_SPINE}, {"spine5", ROLE_SPINE}, {"neck", ROLE_NECK},
    {"neck1", ROLE_NECK}, {"neck2", ROLE_NECK}, {"head", ROLE_HEAD},
    {"%Lshoulder", S(SIDED_SHOULDER)}, {"%Larm", S(SIDED_UPPER_ARM)}, {"%Lforearm", S(SIDED_FOREARM)},
    {"%Lhand", S(SIDED_HAND)},
    FINGERS("%Lhandthumb", "%Lhandindex", "%Lhandmiddle", "%Lhandring", "%Lhandpinky"),
    {"%Lupleg", S(SIDED_UPPER_LEG)}, {"%Lleg", S(SIDED_LOWER_LEG)}, {"%Lfoot", S(SIDED_FOOT)},
    {"%Ltoebase", S(SIDED_TOES)},
    {NULL, 0}};

/* The CMU motion capture database as BVH (cgspeed.com conversion, assimp-testmodels' BVH/01_01.bvh):
 * Mixamo's limb names, with LowerBack in the spine and one-joint thumbs. */
static const RolePattern cmu[] = {
    {"hips", ROLE_HIPS}, {"lowerback", ROLE_SPINE}, {"spine", ROLE_SPINE}, {"spine1", ROLE_SPINE},
    {"neck", ROLE_NECK}, {"neck1", ROLE_NECK}, {"head", ROLE_HEAD},
    {"%Lshoulder", S(SIDED_SHOULDER)}, {"%Larm", S(SIDED_UPPER_ARM)}, {"%Lforearm", S(SIDED_FOREARM)},
    {"%Lhand", S(SIDED_HAND)}, {"%lthumb", S(SIDED_THUMB1)},
    {"%Lupleg", S(SIDED_UPPER_LEG)}, {"%Lleg", S(SIDED_LOWER_LEG)}, {"%Lfoot", S(SIDED_FOOT)},
    {"%Ltoebase", S(SIDED_TOES)},
    {NULL, 0}};

/* Unreal Engine's mannequin (UE4 "spine_03", UE5 up to "spine_05"). */
static const RolePattern unreal[] = {
    {"pelvis", ROLE_HIPS}, {"spine01", ROLE_SPINE}, {"spine02", ROLE_SPINE}, {"spine03", ROLE_SPINE},
    {"spine04", ROLE_SPINE}, {"spine05", ROLE_SPINE}, {"neck01", ROLE_NECK}, {"neck02", ROLE_NECK},
    {"head", ROLE_HEAD},
    {"clavicle%l", S(SIDED_SHOULDER)}, {"upperarm%l", S(SIDED_UPPER_ARM)}, {"lowerarm%l", S(SIDED_FOREARM)},
    {"hand%l", S(SIDED_HAND)},
    {"thumb01%l", S(SIDED_THUMB1)}, {"thumb02%l", S(SIDED_THUMB2)}, {"thumb03%l", S(SIDED_THUMB3)},
    {"index01%l", S(SIDED_INDEX1)}, {"index02%l", S(SIDED_INDEX2)}, {"index03%l", S(SIDED_INDEX3)},
    {"middle01%l", S(SIDED_MIDDLE1)}, {"middle02%l", S(SIDED_MIDDLE2)}, {"middle03%l", S(SIDED_MIDDLE3)},
    {"ring01%l", S(SIDED_RING1)}, {"ring02%l", S(SIDED_RING2)}, {"ring03%l", S(SIDED_RING3)},
    {"pinky01%l", S(SIDED_PINKY1)}, {"pinky02%l", S(SIDED_PINKY2)}, {"pinky03%l", S(SIDED_PINKY3)},
    {"thigh%l", S(SIDED_UPPER_LEG)}, {"calf%l", S(SIDED_LOWER_LEG)}, {"foot%l", S(SIDED_FOOT)},
    {"ball%l", S(SIDED_TOES)},
    {NULL, 0}};

/* Blender's human metarig and the Rigify rig made from it ("DEF-upper_arm.L"): "spine" is the hips. */
static const RolePattern rigify[] = {
    {"spine", ROLE_HIPS}, {"spine001", ROLE_SPINE}, {"spine002", ROLE_SPINE}, {"spine003", ROLE_SPINE},
    {"spine004", ROLE_NECK}, {"spine005", ROLE_NECK}, {"spine006", ROLE_HEAD},
    {"shoulder%l", S(SIDED_SHOULDER)}, {"upperarm%l", S(SIDED_UPPER_ARM)}, {"forearm%l", S(SIDED_FOREARM)},
    {"hand%l", S(SIDED_HAND)},
    {"thumb01%l", S(SIDED_THUMB1)}, {"thumb02%l", S(SIDED_THUMB2)}, {"thumb03%l", S(SIDED_THUMB3)},
    {"findex01%l", S(SIDED_INDEX1)}, {"findex02%l", S(SIDED_INDEX2)}, {"findex03%l", S(SIDED_INDEX3)},
    {"fmiddle01%l", S(SIDED_MIDDLE1)}, {"fmiddle02%l", S(SIDED_MIDDLE2)}, {"fmiddle03%l", S(SIDED_MIDDLE3)},
    {"fring01%l", S(SIDED_RING1)}, {"fring02%l", S(SIDED_RING2)}, {"fring03%l", S(SIDED_RING3)},
    {"fpinky01%l", S(SIDED_PINKY1)}, {"fpinky02%l", S(SIDED_PINKY2)}, {"fpinky03%l", S(SIDED_PINKY3)},
    {"thigh%l", S(SIDED_UPPER_LEG)}, {"shin%l", S(SIDED_LOWER_LEG)}, {"foot%l", S(SIDED_FOOT)},
    {"toe%l", S(SIDED_TOES)},
    {NULL, 0}};

/* VRM humanoid bone names ("leftUpperArm"; VRM 0 finger names) and VRoid's own ("J_Bip_L_UpperArm"). */
static const RolePattern vrm[] = {
    {"hips", ROLE_HIPS}, {"spine", ROLE_SPINE}, {"chest", ROLE_SPINE}, {"upperchest", ROLE_SPINE},
    {"neck", ROLE_NECK}, {"head", ROLE_HEAD},
    {"%Lshoulder", S(SIDED_SHOULDER)}, {"%Lupperarm", S(SIDED_UPPER_ARM)}, {"%Llowerarm", S(SIDED_FOREARM)},
    {"%Lhand", S(SIDED_HAND)},
    {"%Lthumbproximal", S(SIDED_THUMB1)}, {"%Lthumbintermediate", S(SIDED_THUMB2)},
    {"%Lthumbdistal", S(SIDED_THUMB3)},
    {"%Lindexproximal", S(SIDED_INDEX1)}, {"%Lindexintermediate", S(SIDED_INDEX2)},
    {"%Lindexdistal", S(SIDED_INDEX3)},
    {"%Lmiddleproximal", S(SIDED_MIDDLE1)}, {"%Lmiddleintermediate", S(SIDED_MIDDLE2)},
    {"%Lmiddledistal", S(SIDED_MIDDLE3)},
    {"%Lringproximal", S(SIDED_RING1)}, {"%Lringintermediate", S(SIDED_RING2)}, {"%Lringdistal", S(SIDED_RING3)},
    {"%Llittleproximal", S(SIDED_PINKY1)}, {"%Llittleintermediate", S(SIDED_PINKY2)},
    {"%Llittledistal", S(SIDED_PINKY3)},
    {"%Lupperleg", S(SIDED_UPPER_LEG)}, {"%Llowerleg", S(SIDED_LOWER_LEG)}, {"%Lfoot", S(SIDED_FOOT)},
    {"%Ltoes", S(SIDED_TOES)},
    /* VRoid: J_Bip_C_Hips, J_Bip_L_UpperArm, ... (J_Bip_ removed by joint_name_without_prefix) */
    {"chips", ROLE_HIPS}, {"cspine", ROLE_SPINE}, {"cchest", ROLE_SPINE}, {"cupperchest", ROLE_SPINE},
    {"cneck", ROLE_NECK}, {"chead", ROLE_HEAD},
    {"%lshoulder", S(SIDED_SHOULDER)}, {"%lupperarm", S(SIDED_UPPER_ARM)}, {"%llowerarm", S(SIDED_FOREARM)},
    {"%lhand", S(SIDED_HAND)},
    FINGERS("%lthumb", "%lindex", "%lmiddle", "%lring", "%llittle"),
    {"%lupperleg", S(SIDED_UPPER_LEG)}, {"%llowerleg", S(SIDED_LOWER_LEG)}, {"%lfoot", S(SIDED_FOOT)},
    {"%ltoebase", S(SIDED_TOES)},
    {NULL, 0}};

/* 3ds Max Biped ("Bip01 L UpperArm", the "Bip01 " removed): Finger0 is the thumb, Finger01 its
 * second joint. */
static const RolePattern biped[] = {
    {"pelvis", ROLE_HIPS}, {"spine", ROLE_SPINE}, {"spine1", ROLE_SPINE}, {"spine2", ROLE_SPINE},
    {"spine3", ROLE_SPINE}, {"neck", ROLE_NECK}, {"neck1", ROLE_NECK}, {"head", ROLE_HEAD},
    {"%lclavicle", S(SIDED_SHOULDER)}, {"%lupperarm", S(SIDED_UPPER_ARM)}, {"%lforearm", S(SIDED_FOREARM)},
    {"%lhand", S(SIDED_HAND)},
    {"%lfinger0", S(SIDED_THUMB1)}, {"%lfinger01", S(SIDED_THUMB2)}, {"%lfinger02", S(SIDED_THUMB3)},
    {"%lfinger1", S(SIDED_INDEX1)}, {"%lfinger11", S(SIDED_INDEX2)}, {"%lfinger12", S(SIDED_INDEX3)},
    {"%lfinger2", S(SIDED_MIDDLE1)}, {"%lfinger21", S(SIDED_MIDDLE2)}, {"%lfinger22", S(SIDED_MIDDLE3)},
    {"%lfinger3", S(SIDED_RING1)}, {"%lfinger31", S(SIDED_RING2)}, {"%lfinger32", S(SIDED_RING3)},
    {"%lfinger4", S(SIDED_PINKY1)}, {"%lfinger41", S(SIDED_PINKY2)}, {"%lfinger42", S(SIDED_PINKY3)},
    {"%lthigh", S(SIDED_UPPER_LEG)}, {"%lcalf", S(SIDED_LOWER_LEG)}, {"%lfoot", S(SIDED_FOOT)},
    {"%ltoe0", S(SIDED_TOES)},
    {NULL, 0}};

/* Older BVH and Poser / DAZ skeletons: the collar is the clavicle, "Shoulder" the upper arm
 * (assimp-testmodels' BVH/Boxing_Toes.bvh). */
static const RolePattern bvh_collar[] = {
    {"hips", ROLE_HIPS}, {"ab", ROLE_SPINE}, {"abdomen", ROLE_SPINE}, {"chest", ROLE_SPINE},
    {"chest2", ROLE_SPINE}, {"neck", ROLE_NECK}, {"head", ROLE_HEAD},
    {"%Lcollar", S(SIDED_SHOULDER)}, {"%Lshoulder", S(SIDED_UPPER_ARM)}, {"%Lelbow", S(SIDED_FOREARM)},
    {"%Lwrist", S(SIDED_HAND)}, {"%Lhip", S(SIDED_UPPER_LEG)}, {"%Lknee", S(SIDED_LOWER_LEG)},
    {"%Lankle", S(SIDED_FOOT)}, {"%Ltoes", S(SIDED_TOES)},
    {"%lcollar", S(SIDED_SHOULDER)}, {"%lshldr", S(SIDED_UPPER_ARM)}, {"%lforearm", S(SIDED_FOREARM)},
    {"%lhand", S(SIDED_HAND)}, {"%lthigh", S(SIDED_UPPER_LEG)}, {"%lshin", S(SIDED_LOWER_LEG)},
    {"%lfoot", S(SIDED_FOOT)},
    {NULL, 0}};

static const struct {
    const char        *name;
    const RolePattern *patterns;
} conventions[] = {
    {"Mixamo / HumanIK", mixamo}, {"CMU BVH", cmu}, {"Unreal mannequin", unreal}, {"Blender Rigify / metarig", rigify},
    {"VRM humanoid / VRoid", vrm}, {"3ds Max Biped", biped}, {"BVH collar / Poser", bvh_collar},
};
#define CONVENTION_COUNT ((int)(sizeof conventions / sizeof conventions[0]))

const char *joint_convention_name(int convention)
{
    return convention >= 0 && convention < CONVENTION_COUNT ? conventions[convention].name : "none";
}

const char *joint_role_name(int role)
{
    static const char *unsided[] = {"-", "hips", "spine", "neck", "head"};
    static const char *sided[RETARGET_SIDED_ROLES] = {
        "shoulder", "upper arm", "forearm", "hand", "thumb 1", "thumb 2", "thumb 3", "index 1", "index 2", "index 3",
        "middle 1", "middle 2", "middle 3", "ring 1", "ring 2", "ring 3", "pinky 1", "pinky 2", "pinky 3",
        "upper leg", "lower leg", "foot", "toes"};
    static char names[2 * RETARGET_SIDED_ROLES][32];
    if (role < ROLE_FIRST_SIDED) return role >= 0 ? unsided[role] : "-";
    if (role >= ROLE_COUNT) return "-";
    int k = role - ROLE_FIRST_SIDED;
    if (!names[k][0])   /* built once: "left upper arm" */
        snprintf(names[k], sizeof names[k], "%s %s", k < RETARGET_SIDED_ROLES ? "left" : "right",
                 sided[k % RETARGET_SIDED_ROLES]);
    return names[k];
}

bool joint_role_is_body(int role)
{
    if (role <= ROLE_NONE || role >= ROLE_COUNT) return false;
    if (role < ROLE_FIRST_SIDED) return true;
    int sided = (role - ROLE_FIRST_SIDED) % RETARGET_SIDED_ROLES;
    return sided < SIDED_THUMB1 || sided > SIDED_PINKY3;
}

/* Case-insensitive: does `text` start with `prefix`? */
static bool starts_with(const char *text, const char *prefix)
{
    for (; *prefix; text++, prefix++)
        if (tolower((unsigned char)*text) != *prefix) return false;
    return true;
}

const char *joint_name_without_prefix(const char *name)
{
    const char *p = name;
    for (const char *c = name; *c; c++)   /* a namespace: "mixamorig1:", "Armature|" */
        if (*c == ':' || *c == '|') p = c + 1;
    for (bool again = true; again;) {
        again = false;
        const char *rest = p;
        if (starts_with(rest, "mixamorig")) {   /* Blender's import drops the colon: "mixamorigHips" */
            rest += 9;
            while (isdigit((unsigned char)*rest)) rest++;
        } else if (starts_with(rest, "character") && isdigit((unsigned char)rest[9])) {   /* HumanIK */
            rest += 9;
            while (isdigit((unsigned char)*rest)) rest++;
            if (*rest != '_') rest = p;
            else rest++;
        } else if (starts_with(rest, "bip") && isdigit((unsigned char)rest[3])) {   /* Biped */
            rest += 3;
            while (isdigit((unsigned char)*rest)) rest++;
            if (*rest != ' ' && *rest != '_') rest = p;
            else rest++;
        } else if (starts_with(rest, "def-") || starts_with(rest, "org-")) {   /* Rigify's deform / original bones */
            rest += 4;
        } else if (starts_with(rest, "j_bip_")) {   /* VRoid */
            rest += 6;
        }
        if (rest != p && *rest) {
            p = rest;
            again = true;
        }
    }
    return p;
}

void joint_name_key(const char *name, char *key, size_t key_size)
{
    size_t n = 0;
    for (const char *c = joint_name_without_prefix(name); *c && n + 1 < key_size; c++)
        if (*c != ' ' && *c != '_' && *c != '-' && *c != '.') key[n++] = (char)tolower((unsigned char)*c);
    if (key_size > 0) key[n] = '\0';
}

/* The pattern for one side: %L -> left / right, %l -> l / r. */
static void expand(const char *pattern, int side, char *out, size_t out_size)
{
    size_t n = 0;
    for (const char *c = pattern; *c && n + 6 < out_size; c++) {
        if (c[0] == '%' && (c[1] == 'L' || c[1] == 'l')) {
            const char *word = c[1] == 'L' ? (side ? "right" : "left") : (side ? "r" : "l");
            for (; *word; word++) out[n++] = *word;
            c++;
        } else {
            out[n++] = *c;
        }
    }
    out[n] = '\0';
}

/* The role `key` has in one convention, or ROLE_NONE. */
static int lookup(const RolePattern *patterns, const char *key)
{
    char expanded[64];
    for (const RolePattern *p = patterns; p->key; p++) {
        bool sided = strchr(p->key, '%') != NULL;
        for (int side = 0; side < (sided ? 2 : 1); side++) {
            expand(p->key, side, expanded, sizeof expanded);
            if (strcmp(expanded, key) == 0) return sided ? p->role + side * RETARGET_SIDED_ROLES : p->role;
        }
    }
    return ROLE_NONE;
}

static bool chain_role(int role) { return role == ROLE_SPINE || role == ROLE_NECK; }

int joint_role_assign(const Skeleton *skeleton, int *roles)
{
    int best = -1, best_count = 0;
    char key[SV_NAME_MAX];
    for (int c = 0; c < CONVENTION_COUNT; c++) {   /* the convention that names most joints */
        int count = 0;
        for (int j = 0; j < skeleton->joint_count; j++) {
            joint_name_key(skeleton->names[j], key, sizeof key);
            count += lookup(conventions[c].patterns, key) != ROLE_NONE;
        }
        if (count > best_count) best = c, best_count = count;
    }
    bool taken[ROLE_COUNT] = {false};
    for (int j = 0; j < skeleton->joint_count; j++) roles[j] = ROLE_NONE;
    for (int pass = 0; pass < CONVENTION_COUNT + 1 && best >= 0; pass++) {
        /* pass 0: the best convention; then the others, in table order, for the joints left */
        int c = pass == 0 ? best : pass - 1;
        if (pass > 0 && c == best) continue;
        for (int j = 0; j < skeleton->joint_count; j++) {
            if (roles[j] != ROLE_NONE) continue;
            joint_name_key(skeleton->names[j], key, sizeof key);
            int role = lookup(conventions[c].patterns, key);
            if (role == ROLE_NONE || (taken[role] && !chain_role(role))) continue;
            roles[j] = role;
            taken[role] = true;
        }
    }
    return best;
}
