/* animations.c — `--animations FILE[,FILE...]|DIR`: clips of other files on the character.
 *
 * Each file is imported the normal way (app_load_model's guarded import), its joints matched to
 * the character's and its clips retargeted (anim/retarget.h), then appended to the character's
 * Model as ordinary clips, so that everything that plays a clip plays these. Here: the file list,
 * the bone map file, clip names, the --info table. */
#include "commands.h"
#include "anim/retarget.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* A file whose clips go onto the character: imported as app_load_model does, guarded (a crash or
 * hang inside the importer ends with one line: io/import_guard.h), but quietly (its materials'
 * warnings do not matter), with no bone limit and without --animations (commands.h). */
bool app_load_animation_file(const char *path, const ImportOptions *import, Model *model)
{
    ImportOptions quiet = *import;
    quiet.max_bones_per_mesh = 0;
    quiet.quiet = true;
    quiet.guard = true;
    char error[512];
    if (!import_model(path, &quiet, model, error, sizeof error)) {
        fprintf(stderr, "skinview: %s: %s\n", path, error);
        return false;
    }
    return true;
}

/* --animations as main set it: added by app_load_model to the character each time it is imported
 * (start-up, a re-import for the bone limit, a reload, --bake-vat). */
static struct {
    char        character[4096];
    const char *list;
    const char *bone_map;
    bool        retarget_off;
    bool        print_table;
} settings;

void app_set_animations(const char *character_path, const char *list, const char *bone_map, bool retarget_off,
                        bool print_table)
{
    snprintf(settings.character, sizeof settings.character, "%s", character_path ? character_path : "");
    settings.list = list;
    settings.bone_map = bone_map;
    settings.retarget_off = retarget_off;
    settings.print_table = print_table;
}

bool app_animations_wanted(const char *path)
{
    return settings.list && strcmp(path, settings.character) == 0;
}

bool app_add_configured_animations(Model *character, const ImportOptions *import)
{
    char error[1400];
    if (app_add_animations(character, settings.list, settings.bone_map, settings.retarget_off, settings.print_table,
                           import, error, sizeof error))
        return true;
    if (error[0]) fprintf(stderr, "skinview: %s\n", error);   /* "" when the import said why itself */
    return false;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Files skinview reads clips from, by extension (what a folder of --animations contributes). */
static bool is_animation_file(const char *name)
{
    static const char *const extensions[] = {"fbx", "glb", "gltf", "bvh", "dae", "x", "smd", "md5anim", "b3d", "ms3d", NULL};
    const char *dot = strrchr(name, '.');
    if (!dot || name[0] == '.') return false;
    for (int i = 0; extensions[i]; i++)
        if (strcasecmp(dot + 1, extensions[i]) == 0) return true;
    return false;
}

static int compare_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The bone map file: one `source target` pair a line, '#' starts a comment, a name with spaces in
 * double quotes ("Bip01 L UpperArm"). *pairs is malloc'd. */
static bool read_bone_map(const char *path, BoneMapPair **pairs, int *count, char *error, size_t error_size)
{
    *pairs = NULL;
    *count = 0;
    FILE *file = fopen(path, "r");
    if (!file) {
        snprintf(error, error_size, "%s: cannot read the bone map", path);
        return false;
    }
    char line[1024];
    int number = 0, capacity = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, file)) {
        number++;
        char fields[3][SV_NAME_MAX];
        int n = 0;
        char *c = line;
        while (n < 3) {
            while (*c && isspace((unsigned char)*c)) c++;
            if (!*c || *c == '#') break;
            size_t length = 0;
            if (*c == '"') {
                for (c++; *c && *c != '"'; c++)
                    if (length + 1 < SV_NAME_MAX) fields[n][length++] = *c;
                if (*c == '"') c++;
            } else {
                for (; *c && !isspace((unsigned char)*c) && *c != '#'; c++)
                    if (length + 1 < SV_NAME_MAX) fields[n][length++] = *c;
            }
            fields[n++][length] = '\0';
        }
        if (n == 0) continue;
        if (n != 2) {
            snprintf(error, error_size, "%s: line %d: expected 'source target' (two joint names)", path, number);
            ok = false;
            break;
        }
        if (*count == capacity) {
            capacity = capacity ? 2 * capacity : 32;
            BoneMapPair *grown = realloc(*pairs, sizeof(BoneMapPair) * (size_t)capacity);
            if (!grown) {
                snprintf(error, error_size, "%s: out of memory", path);
                ok = false;
                break;
            }
            *pairs = grown;
        }
        BoneMapPair *pair = &(*pairs)[(*count)++];
        snprintf(pair->source, sizeof pair->source, "%s", fields[0]);
        snprintf(pair->target, sizeof pair->target, "%s", fields[1]);
        pair->line = number;
    }
    fclose(file);
    if (!ok) {
        free(*pairs);
        *pairs = NULL;
        *count = 0;
    }
    return ok;
}

/* Clip names that say nothing (Mixamo names every take "mixamo.com", BVH readers "Motion"): a file
 * with one such clip gives it the file's name ("Walking.fbx" -> "Walking"). */
static bool generic_clip_name(const char *name)
{
    static const char *const generic[] = {"", "mixamo.com", "Take 001", "Take 01", "Default Take", "Motion",
                                          "Animation", "Scene", "ArmatureAction", NULL};
    for (int i = 0; generic[i]; i++)
        if (strcasecmp(name, generic[i]) == 0) return true;
    return strstr(name, "mixamo.com") != NULL;   /* "Armature|mixamo.com|Layer0" */
}

/* The --info table: every character joint, its source joint and how it was matched. */
static void print_table(const char *file, const Model *anim, const Model *character, const RetargetMap *map)
{
    const Skeleton *target = &character->skeleton, *source = &anim->skeleton;
    printf("animations: %s: %d of %d joints matched (character: %s, file: %s)\n", file, map->matched,
           target->joint_count, joint_convention_name(map->target_convention), joint_convention_name(map->source_convention));
    printf("  %-32s %-32s %-8s %s\n", "character joint", "source joint", "match", "role");
    for (int t = 0; t < target->joint_count; t++) {
        int s = map->source_of_target[t];
        printf("  %-32s %-32s %-8s %s\n", target->names[t], s >= 0 ? source->names[s] : "-",
               retarget_match_kind_name((RetargetMatchKind)map->kind[t]), joint_role_name(map->target_roles[t]));
    }
    bool *used = calloc((size_t)source->joint_count + 1, sizeof(bool));
    if (!used) return;
    for (int t = 0; t < target->joint_count; t++)
        if (map->source_of_target[t] >= 0) used[map->source_of_target[t]] = true;
    int unmatched = 0;
    for (int s = 0; s < source->joint_count; s++) unmatched += !used[s];
    printf("  unmatched source joints: %d", unmatched);
    for (int s = 0, shown = 0; s < source->joint_count; s++)
        if (!used[s]) printf("%s%s", shown++ ? ", " : ": ", source->names[s]);
    printf("\n");
    free(used);
}

/* One file's clips onto the character. */
static bool add_file(Model *character, const char *path, const BoneMapPair *pairs, int pair_count, bool retarget_off,
                     bool table, bool from_folder, const ImportOptions *import, char *error, size_t error_size)
{
    Model anim;
    memset(&anim, 0, sizeof anim);
    if (!app_load_animation_file(path, import, &anim)) {   /* it printed its own line: error stays "" */
        if (error_size > 0) error[0] = '\0';
        return false;
    }
    if (anim.clip_count == 0) {
        model_free(&anim);
        if (from_folder) return true;   /* a folder may hold the character itself, textures' models... */
        snprintf(error, error_size, "%s: no clips to add (the file has no animation)", path);
        return false;
    }
    RetargetMap map;
    char cause[900];
    if (!retarget_match(&anim.skeleton, &character->skeleton, pairs, pair_count, &map, cause, sizeof cause)) {
        snprintf(error, error_size, "%s: %s", path, cause);
        model_free(&anim);
        return false;
    }
    if (table) print_table(base_name(path), &anim, character, &map);
    RetargetSetup setup;
    bool ok = retarget_check(&map, &character->skeleton, cause, sizeof cause);
    if (!ok) snprintf(error, error_size, "%s: %s", path, cause);
    if (ok && !retarget_setup(&setup, &anim.skeleton, &character->skeleton, &map)) {
        snprintf(error, error_size, "%s: out of memory", path);
        ok = false;
    }
    if (!ok) {
        retarget_map_free(&map);
        model_free(&anim);
        return false;
    }
    Clip *grown = realloc(character->clips, sizeof(Clip) * (size_t)(character->clip_count + anim.clip_count));
    if (grown) character->clips = grown;
    /* the file's skeleton and clips stay with the character, to be posed beside it (Shift+B) */
    SourceRig *rigs = grown ? realloc(character->source_rigs, sizeof(SourceRig) * (size_t)(character->source_rig_count + 1))
                            : NULL;
    if (rigs) character->source_rigs = rigs;
    Model *kept = rigs ? malloc(sizeof *kept) : NULL;
    ok = kept != NULL;
    int dropped_total = 0, morph_carried = 0, morph_dropped_total = 0;
    char stem[SV_NAME_MAX];
    snprintf(stem, sizeof stem, "%s", base_name(path));
    char *dot = strrchr(stem, '.');
    if (dot && dot != stem) *dot = '\0';
    for (int c = 0; ok && c < anim.clip_count; c++) {
        Clip *clip = &character->clips[character->clip_count];
        int dropped = 0;
        if (!retarget_clip(&setup, &anim.clips[c], retarget_off ? RETARGET_OFF : RETARGET_ON, clip, &dropped)) {
            snprintf(error, error_size, "%s: out of memory", path);
            ok = false;
            break;
        }
        dropped_total += dropped;
        int morph_dropped = 0;   /* the file's morph-weight tracks, onto the character's targets of those names */
        if (!retarget_morph_tracks(&anim, &anim.clips[c], character, clip, &morph_dropped)) {
            clip_free(clip);
            snprintf(error, error_size, "%s: out of memory", path);
            ok = false;
            break;
        }
        morph_carried += clip->morph_track_count;
        morph_dropped_total += morph_dropped;
        snprintf(clip->source_file, sizeof clip->source_file, "%s", base_name(path));
        clip->source_rig = character->source_rig_count + 1;
        clip->source_clip = c;
        const char *name = anim.clip_count == 1 && generic_clip_name(anim.clips[c].name) ? stem : anim.clips[c].name;
        character->clip_count++;
        model_name_clip(character, character->clip_count - 1, name, strlen(name));
    }
    if (table)
        printf("  clips added: %d, tracks of unmatched joints dropped: %d, morph tracks carried: %d (dropped, no target "
               "of that name: %d), retarget %s\n", ok ? anim.clip_count : 0, dropped_total, morph_carried, morph_dropped_total,
               retarget_off ? "off (local keys copied)" : "on");
    if (ok) {
        SourceRig *rig = &character->source_rigs[character->source_rig_count++];
        for (int i = 0; i < 4; i++) rig->align[i] = (float)setup.align[i];
        rig->scale = (float)setup.hip_scale;
        rig->hips = setup.source_hips;
        rig->target_hips = setup.target_hips;
        for (int m = 0; m < anim.mesh_count; m++) mesh_free(&anim.meshes[m]);   /* only the skeleton is drawn */
        anim.mesh_count = 0;
        for (int t = 0; t < anim.texture_count; t++) free(anim.textures[t].rgba);
        anim.texture_count = 0;
        *kept = anim;
        rig->model = kept;
        memset(&anim, 0, sizeof anim);
    } else {
        free(kept);
    }
    retarget_setup_free(&setup);
    retarget_map_free(&map);
    model_free(&anim);
    return ok;
}

bool app_add_animations(Model *character, const char *list, const char *bone_map_path, bool retarget_off,
                        bool print_match_table, const ImportOptions *import, char *error, size_t error_size)
{
    BoneMapPair *pairs = NULL;
    int pair_count = 0;
    if (bone_map_path && !read_bone_map(bone_map_path, &pairs, &pair_count, error, error_size)) return false;
    char *copy = strdup(list ? list : "");
    bool ok = copy != NULL, any = false;
    /* the items, one a line (cli.c parse_animations splits the command line's commas; a dropped
     * file's path is never split) */
    for (char *save = NULL, *item = copy ? strtok_r(copy, "\n", &save) : NULL; ok && item; item = strtok_r(NULL, "\n", &save)) {
        if (!*item) continue;
        struct stat st;
        if (stat(item, &st) != 0) {
            snprintf(error, error_size, "%s: no such file or folder (--animations; a comma in a name: \\,)", item);
            ok = false;
            break;
        }
        if (!S_ISDIR(st.st_mode)) {
            ok = add_file(character, item, pairs, pair_count, retarget_off, print_match_table, false, import, error,
                          error_size);
            any = true;
            continue;
        }
        DIR *dir = opendir(item);   /* a folder: its model files, sorted by name */
        if (!dir) {
            snprintf(error, error_size, "%s: cannot read the folder", item);
            ok = false;
            break;
        }
        char **names = NULL;
        int count = 0, capacity = 0;
        for (struct dirent *entry; ok && (entry = readdir(dir));) {
            if (!is_animation_file(entry->d_name)) continue;
            if (count == capacity) {
                capacity = capacity ? 2 * capacity : 16;
                char **grown = realloc(names, sizeof(char *) * (size_t)capacity);
                if (!grown) ok = false;
                else names = grown;
            }
            if (ok && !(names[count++] = strdup(entry->d_name))) ok = false, count--;
        }
        closedir(dir);
        if (names) qsort(names, (size_t)count, sizeof(char *), compare_names);
        int before = character->clip_count;
        for (int i = 0; i < count; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", item, names[i]);
            if (ok && strcmp(path, settings.character) != 0)
                ok = add_file(character, path, pairs, pair_count, retarget_off, print_match_table, true, import, error,
                              error_size);
            free(names[i]);
        }
        free(names);
        if (ok && character->clip_count == before) {
            snprintf(error, error_size, "%s: no file with clips in this folder (--animations)", item);
            ok = false;
        }
        any = true;
    }
    if (ok && !any) {
        snprintf(error, error_size, "--animations names no file");
        ok = false;
    }
    if (!copy) snprintf(error, error_size, "out of memory");
    free(copy);
    free(pairs);
    return ok;
}
