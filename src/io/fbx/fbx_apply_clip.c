/* fbx_apply_clip.c — stage 8, the clip step: one clip per AnimationStack.
 *
 * Rules of this step:
 *   - Clips: one per AnimationStack, in file order, named like it, covering LocalStart ..
 *     LocalStop (a key a float rounding past an edge widens it: the take-edge rule of
 *     import_fbx.c). The base layer's curve nodes drive the Models' transform properties; the
 *     curves are evaluated exactly (fbx_curve.c: cubic, extrapolation) and every affected joint
 *     gets LINEAR keys at every frame of the file's frame rate and at every key time: at those
 *     times the pose is the FBX pose exactly, between them the TRS is interpolated (why, and the
 *     error: docs/accuracy.md). Morph tracks Assimp made for a clip of the same name are kept.
 */
#include "fbx_apply_common.h"

#define MAX_SAMPLES_PER_CLIP 200000      /* frames + key times of one stack */
#define MAX_SAMPLE_VALUES (16u << 20)    /* samples x animated joints of one stack (x 10 floats) */

/* ---- clips ------------------------------------------------------------------------------- */


static int component_of(const char *property)
{
    if (!property) return -1;
    const char *bar = strrchr(property, '|');
    const char *c = bar ? bar + 1 : property;
    if (c[0] && !c[1]) return c[0] == 'X' ? 0 : c[0] == 'Y' ? 1 : c[0] == 'Z' ? 2 : -1;
    return -1;
}

/* The curve nodes of the stack's base layer that drive a Model's transform property. */
static bool collect_channels(const Apply *a, int stack_object, Stack *stack)
{
    const FbxScene *scene = a->scene;
    int base_layer = -1;
    stack->layer_count = 0;
    for (int k = 0;; k++) {
        int c = fbx_connection_to(scene, stack_object, k);
        if (c < 0) break;
        int layer = scene->connections[c].src;
        if (!fbx_is_kind(scene, layer, "AnimationLayer")) continue;
        if (base_layer < 0) base_layer = layer;
        stack->layer_count++;
    }
    stack->channel_count = 0;
    stack->channels = NULL;
    stack->morph_count = 0;
    stack->morphs = NULL;
    if (base_layer < 0) return true;
    int capacity = 0;
    for (int k = 0;; k++) {
        int c = fbx_connection_to(scene, base_layer, k);
        if (c < 0) break;
        int curve_node = scene->connections[c].src;
        if (!fbx_is_kind(scene, curve_node, "AnimationCurveNode")) continue;
        for (int d = 0;; d++) {   /* what the curve node drives */
            int cd = fbx_connection_from(scene, curve_node, d);
            if (cd < 0) break;
            const FbxConnection *drive = &scene->connections[cd];
            int node = drive->dst >= 0 && drive->dst < scene->object_count ? a->node_of_object[drive->dst] : -1;
            if (node < 0 && drive->property && strcmp(drive->property, "DeformPercent") == 0 &&
                fbx_is_subclass(scene, drive->dst, "BlendShapeChannel")) {   /* a blend shape weight */
                const FbxCurve *curve = NULL;
                for (int u = 0; !curve; u++) {
                    int cu = fbx_connection_to(scene, curve_node, u);
                    if (cu < 0) break;
                    if (fbx_is_kind(scene, scene->connections[cu].src, "AnimationCurve")) curve = &scene->curves[scene->connections[cu].src];
                }
                if (!curve || curve->key_count == 0) continue;
                MorphChannel *grown = realloc(stack->morphs, sizeof *grown * (size_t)(stack->morph_count + 1));
                if (!grown) return false;
                stack->morphs = grown;
                stack->morphs[stack->morph_count++] = (MorphChannel){drive->dst, curve};
                continue;
            }
            if (node < 0 || !drive->property) continue;
            int property = -1;
            for (int p = 0; p < FBX_ANIMATED_PROPERTY_COUNT && property < 0; p++)
                if (strcmp(drive->property, fbx_node_vec3_properties[p].name) == 0) property = p;
            if (property < 0) continue;
            Channel channel = {.node = node, .offset = fbx_node_vec3_properties[property].offset};
            const double *current = (const double *)((const char *)&a->nodes[node].props + channel.offset);
            for (int i = 0; i < 3; i++) channel.defaults[i] = current[i];
            double d3[3];
            const char *names[3][2] = {{"d|X", "X"}, {"d|Y", "Y"}, {"d|Z", "Z"}};
            for (int i = 0; i < 3; i++)
                for (int n = 0; n < 2; n++)
                    if (fbx_object_property_numbers(scene, curve_node, names[i][n], d3, 1) == 1 && isfinite(d3[0])) {
                        channel.defaults[i] = d3[0];
                        break;
                    }
            bool any = false;
            for (int u = 0;; u++) {
                int cu = fbx_connection_to(scene, curve_node, u);
                if (cu < 0) break;
                int curve = scene->connections[cu].src;
                int component = component_of(scene->connections[cu].property);
                if (!fbx_is_kind(scene, curve, "AnimationCurve") || component < 0) continue;
                channel.curves[component] = &scene->curves[curve];
                any = true;
            }
            /* a curve node without curves holds its d|X d|Y d|Z for the whole stack (the FBX SDK's
             * value of an animated property without a curve): a channel only where that differs from
             * the static value (FBX 5.8 / 6.1 takes: a channel's Default without keys) */
            bool differs = false;
            for (int i = 0; i < 3; i++) differs = differs || channel.defaults[i] != current[i];
            if (!any && !differs) continue;
            if (stack->channel_count == capacity) {
                capacity = capacity ? 2 * capacity : 16;
                Channel *grown = realloc(stack->channels, sizeof *grown * (size_t)capacity);
                if (!grown) return false;
                stack->channels = grown;
            }
            stack->channels[stack->channel_count++] = channel;
        }
    }
    return true;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sample times of a stack: the frames of the file's rate in [start, stop] and every key time
 * inside, sorted, one per distinct float. Returns the count (times malloc'ed), -1 out of memory. */
static int sample_times(const Apply *a, Stack *stack, double **out)
{
    double fps = a->scene->frame_rate > 0 && a->scene->frame_rate < 10000 ? a->scene->frame_rate : 0.0;   /* 0: unknown */
    int keys = 0;
    for (int c = 0; c < stack->channel_count; c++)
        for (int i = 0; i < 3; i++)
            if (stack->channels[c].curves[i]) keys += stack->channels[c].curves[i]->key_count;
    for (int c = 0; c < stack->morph_count; c++) keys += stack->morphs[c].curve->key_count;
    double span = stack->stop - stack->start;
    double frames = fps > 0 ? span * fps + 3 : 0;      /* no frame rate in the file: key times only */
    if (!(frames < MAX_SAMPLES_PER_CLIP)) frames = 0;   /* too long to sample every frame: key times only */
    size_t capacity = (size_t)keys + (size_t)frames + 2;
    double *times = malloc(sizeof(double) * capacity);
    if (!times) return -1;
    size_t n = 0;
    times[n++] = stack->start;
    times[n++] = stack->stop;
    if (frames > 0)
        for (double f = ceil(stack->start * fps - 1e-6); f / fps <= stack->stop + 1e-9 && n < capacity; f++)
            times[n++] = f / fps;
    for (int c = 0; c < stack->channel_count; c++)
        for (int i = 0; i < 3; i++) {
            const FbxCurve *curve = stack->channels[c].curves[i];
            for (int k = 0; curve && k < curve->key_count && n < capacity; k++) {
                double t = (double)curve->keys[k].time / FBX_TICKS_PER_SECOND;
                if (t >= stack->start && t <= stack->stop) times[n++] = t;
            }
        }
    for (int c = 0; c < stack->morph_count; c++)
        for (int k = 0; k < stack->morphs[c].curve->key_count && n < capacity; k++) {
            double t = (double)stack->morphs[c].curve->keys[k].time / FBX_TICKS_PER_SECOND;
            if (t >= stack->start && t <= stack->stop) times[n++] = t;
        }
    qsort(times, n, sizeof(double), compare_doubles);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (kept > 0 && (float)times[i] == (float)times[kept - 1]) continue;
        times[kept++] = times[i];
    }
    if (kept > MAX_SAMPLES_PER_CLIP) kept = MAX_SAMPLES_PER_CLIP;
    *out = times;
    return (int)kept;
}

/* The stack's time window: LocalStart .. LocalStop (ReferenceStart/Stop, then the keys, when
 * those are empty), each widened onto a key that lies on it in float seconds. */
static void stack_window(const Apply *a, Stack *stack)
{
    const FbxScene *scene = a->scene;
    double start = fbx_read_number(scene, stack->object, "LocalStart", 0) / FBX_TICKS_PER_SECOND;
    double stop = fbx_read_number(scene, stack->object, "LocalStop", 0) / FBX_TICKS_PER_SECOND;
    if (!(stop > start)) {
        start = fbx_read_number(scene, stack->object, "ReferenceStart", 0) / FBX_TICKS_PER_SECOND;
        stop = fbx_read_number(scene, stack->object, "ReferenceStop", 0) / FBX_TICKS_PER_SECOND;
    }
    double first = HUGE_VAL, last = -HUGE_VAL;
    for (int c = 0; c < stack->channel_count; c++)
        for (int i = 0; i < 3; i++) {
            const FbxCurve *curve = stack->channels[c].curves[i];
            for (int k = 0; curve && k < curve->key_count; k++) {
                double t = (double)curve->keys[k].time / FBX_TICKS_PER_SECOND;
                first = fmin(first, t);
                last = fmax(last, t);
                if ((float)t == (float)stop && t > stop) stop = t;    /* the take-edge rule */
                if ((float)t == (float)start && t < start) start = t;
            }
        }
    for (int c = 0; c < stack->morph_count; c++)
        for (int k = 0; k < stack->morphs[c].curve->key_count; k++) {
            double t = (double)stack->morphs[c].curve->keys[k].time / FBX_TICKS_PER_SECOND;
            first = fmin(first, t);
            last = fmax(last, t);
        }
    if (!(stop > start) && last >= first) {
        start = first;
        stop = last;
    }
    stack->start = start;
    stack->stop = stop > start ? stop : start;
}

static bool alloc_channel(int count, float **times, void **values, size_t value_size)
{
    *times = malloc(sizeof(float) * (size_t)count);
    *values = malloc(value_size * (size_t)count);
    return *times && *values;
}

/* Builds one clip from a stack: samples every joint below an animated Model. */
static bool build_clip(Apply *a, Stack *stack, Clip *clip, double *scene_world)
{
    Skeleton *sk = &a->im->model->skeleton;
    int joints = sk->joint_count;
    snprintf(clip->name, sizeof clip->name, "%s", a->scene->objects[stack->object].name ? a->scene->objects[stack->object].name : "");
    clip->start = (float)stack->start;
    clip->duration = (float)stack->stop - clip->start;   /* in float, start + duration reaches the last key */
    while (clip->start + clip->duration < (float)stack->stop) clip->duration = nextafterf(clip->duration, HUGE_VALF);
    clip->source_ticks_per_second = (float)(a->scene->frame_rate > 0 ? a->scene->frame_rate : 0);
    for (int c = 0; c < stack->channel_count; c++)
        for (int i = 0; i < 3; i++)
            if (stack->channels[c].curves[i]) {
                clip->source_interpolations |= fbx_curve_interpolations(stack->channels[c].curves[i]);
                clip->source_extrapolations |= fbx_curve_extrapolations(stack->channels[c].curves[i]);
            }

    /* joints whose local transform can change: a Model with a channel, or below one */
    bool *animated_node = calloc((size_t)(a->node_count > 0 ? a->node_count : 1), sizeof(bool));
    bool *affected = calloc((size_t)(joints > 0 ? joints : 1), sizeof(bool));
    if (!animated_node || !affected) {
        free(animated_node);
        free(affected);
        return false;
    }
    for (int c = 0; c < stack->channel_count; c++) animated_node[stack->channels[c].node] = true;
    for (int i = 0; i < a->node_count; i++)
        if (a->nodes[i].parent >= 0 && animated_node[a->nodes[i].parent]) animated_node[i] = true;
    int affected_count = 0;
    for (int j = 0; j < joints; j++) {
        int node = a->joint_node[j], helper = a->helper_node[j];   /* a scale helper moves with its node */
        affected[j] = (node >= 0 && animated_node[node]) || (helper >= 0 && animated_node[helper]) ||
                      (sk->parent[j] >= 0 && affected[sk->parent[j]]);
        affected_count += affected[j];
    }
    const double *times = stack->times;
    int count = affected_count > 0 ? stack->time_count : 0;
    if (count > 0 && (size_t)count * (size_t)affected_count > MAX_SAMPLE_VALUES) {
        import_warn(a->im, "clip '%s': %d samples x %d joints is too much to resample; its joints keep the rest pose",
                    QUOTED(clip->name), count, affected_count);
        count = 0;
    }
    clip->tracks = calloc((size_t)(affected_count > 0 ? affected_count : 1), sizeof *clip->tracks);
    int *track_of = malloc(sizeof(int) * (size_t)(joints > 0 ? joints : 1));
    FbxNodeProperties *props = malloc(sizeof *props * (size_t)(a->node_count > 0 ? a->node_count : 1));
    FbxNodeWorld *world = malloc(sizeof *world * (size_t)(a->node_count > 0 ? a->node_count : 1));
    bool ok = clip->tracks && track_of && props && world;
    int tracks = 0;
    for (int j = 0; ok && j < joints; j++) {
        track_of[j] = -1;
        if (!affected[j] || count == 0) continue;
        JointTrack *track = &clip->tracks[tracks];
        track->joint = j;
        track->translation_count = track->rotation_count = track->scale_count = count;
        ok = alloc_channel(count, &track->translation_times, (void **)&track->translation_values, sizeof(vec3)) &&
             alloc_channel(count, &track->rotation_times, (void **)&track->rotation_values, sizeof(versor)) &&
             alloc_channel(count, &track->scale_times, (void **)&track->scale_values, sizeof(vec3));
        track_of[j] = tracks++;
    }
    clip->track_count = tracks;
    for (int s = 0; ok && s < count; s++) {
        double t = times[s];
        fbx_stack_properties(a, stack, t, props);
        fbx_nodes_world(a, props, world);
        fbx_joints_scene(a, world, scene_world);
        for (int j = 0; j < joints; j++) {
            if (track_of[j] < 0) continue;
            JointTrack *track = &clip->tracks[track_of[j]];
            double local[16];
            FbxTrs trs;
            JointTransform key;
            if (fbx_joint_local(a, world, scene_world, j, &trs, local)) fbx_trs_to_joint(&trs, &key);
            else key = sk->rest_trs[j];   /* under a singular joint no local reaches the pose: the rest one, finite */
            if (s > 0 && glm_vec4_dot(key.rotation, track->rotation_values[s - 1]) < 0)   /* stay on one hemisphere */
                glm_vec4_negate(key.rotation);
            track->translation_times[s] = track->rotation_times[s] = track->scale_times[s] = (float)t;
            glm_vec3_copy(key.translation, track->translation_values[s]);
            glm_vec4_copy(key.rotation, track->rotation_values[s]);
            glm_vec3_copy(key.scale, track->scale_values[s]);
        }
    }
    /* channels that never leave the rest value are dropped (they keep it anyway) — unless every
     * channel would go while the stack has keyed curves: a take that poses the rest pose on
     * purpose (Blender 2.79's FBX 6.1 "Base") is still a clip */
    bool keyed = false, all_rest = true;
    for (int c = 0; c < stack->channel_count && !keyed; c++)
        for (int i = 0; i < 3; i++) keyed = keyed || (stack->channels[c].curves[i] && stack->channels[c].curves[i]->key_count > 0);
    for (int pass = 0; pass < 2; pass++) {   /* pass 0: is every channel at rest? pass 1: drop them */
        for (int k = 0; ok && k < clip->track_count; k++) {
            JointTrack *track = &clip->tracks[k];
            const JointTransform *rest = &sk->rest_trs[track->joint];
            bool t_rest = true, r_rest = true, s_rest = true;
            for (int s = 0; s < count; s++) {
                t_rest = t_rest && glm_vec3_eqv_eps(track->translation_values[s], (float *)rest->translation);
                r_rest = r_rest && fabsf(fabsf(glm_vec4_dot(track->rotation_values[s], (float *)rest->rotation)) - 1.0f) < 1e-7f;
                s_rest = s_rest && glm_vec3_eqv_eps(track->scale_values[s], (float *)rest->scale);
            }
            if (pass == 0) {
                all_rest = all_rest && t_rest && r_rest && s_rest;
                continue;
            }
            if (all_rest && keyed) break;
            if (t_rest) {
                free(track->translation_times), free(track->translation_values);
                track->translation_times = NULL, track->translation_values = NULL, track->translation_count = 0;
            }
            if (r_rest) {
                free(track->rotation_times), free(track->rotation_values);
                track->rotation_times = NULL, track->rotation_values = NULL, track->rotation_count = 0;
            }
            if (s_rest) {
                free(track->scale_times), free(track->scale_values);
                track->scale_times = NULL, track->scale_values = NULL, track->scale_count = 0;
            }
        }
    }
    int kept = 0;
    for (int k = 0; ok && k < clip->track_count; k++) {
        JointTrack *track = &clip->tracks[k];
        if (track->translation_count + track->rotation_count + track->scale_count == 0) continue;
        clip->tracks[kept++] = *track;
    }
    if (ok) clip->track_count = kept;
    if (ok && a->blends) ok = fbx_build_morph_tracks(a, stack, clip);
    free(track_of);
    free(props);
    free(world);
    free(animated_node);
    free(affected);
    return ok;
}

void fbx_free_stacks(Stack *stacks, int count)
{
    for (int i = 0; stacks && i < count; i++) {
        free(stacks[i].channels);
        free(stacks[i].morphs);
        free(stacks[i].times);
    }
    free(stacks);
}

/* Every AnimationStack with its base layer's channels, window and sample times. -1: out of memory. */
int fbx_collect_stacks(const Apply *a, Stack **out)
{
    const FbxScene *scene = a->scene;
    int count = 0;
    for (int o = 0; o < scene->object_count; o++) count += fbx_is_kind(scene, o, "AnimationStack");
    *out = NULL;
    if (count == 0) return 0;
    Stack *stacks = calloc((size_t)count, sizeof *stacks);
    if (!stacks) return -1;
    int n = 0;
    for (int o = 0; o < scene->object_count; o++) {
        if (!fbx_is_kind(scene, o, "AnimationStack")) continue;
        Stack *stack = &stacks[n++];
        stack->object = o;
        if (!collect_channels(a, o, stack)) return fbx_free_stacks(stacks, n), -1;
        stack_window(a, stack);
        stack->time_count = sample_times(a, stack, &stack->times);
        if (stack->time_count < 0) return fbx_free_stacks(stacks, n), -1;
    }
    *out = stacks;
    return n;
}

bool fbx_apply_clips(Apply *a, Stack *stacks, int stack_count, double *scene_world)
{
    Model *model = a->im->model;
    if (stack_count == 0) return true;   /* no stacks: Assimp's clips (if any) stay */
    Clip *clips = calloc((size_t)stack_count, sizeof *clips);
    if (!clips) return false;
    int n = 0, extra_layers = 0;
    bool ok = true;
    for (int i = 0; ok && i < stack_count; i++) {
        ok = build_clip(a, &stacks[i], &clips[n], scene_world);
        if (stacks[i].layer_count > 1) extra_layers += stacks[i].layer_count - 1;
        if (!ok) {
            n++;
            break;
        }
        /* a stack that moves nothing is no clip (as Assimp has it), unless it has morph tracks
         * (from the file, or Assimp's for a mesh whose targets are still Assimp's: found by name below) */
        bool has_morph = clips[n].morph_track_count > 0;
        for (int old = 0; old < model->clip_count && !has_morph; old++)
            has_morph = model->clips[old].morph_track_count > 0 && strcmp(model->clips[old].name, clips[n].name) == 0;
        if (clips[n].track_count > 0 || has_morph) n++;
        else {
            free(clips[n].tracks);   /* no tracks: nothing else to free */
            memset(&clips[n], 0, sizeof clips[n]);
        }
    }
    if (!ok) {
        Model spare = {.clip_count = n, .clips = clips};
        model_free(&spare);
        return false;
    }
    if (extra_layers > 0)
        import_warn(a->im, "%d animation layers above the base layer are not applied (only the base layer plays)", extra_layers);
    /* Assimp's morph tracks of meshes whose targets are still Assimp's go with the clip of the same name */
    for (int c = 0; c < n; c++)
        for (int old = 0; old < model->clip_count; old++) {
            Clip *from = &model->clips[old];
            if (from->morph_track_count == 0 || strcmp(from->name, clips[c].name) != 0) continue;
            int keep = 0;
            for (int t = 0; t < from->morph_track_count; t++) {
                MorphTrack *track = &from->morph_tracks[t];
                bool replaced = track->mesh >= 0 && track->mesh < model->mesh_count && a->blends &&
                                a->blends[track->mesh].channel_count > 0;
                if (!replaced) keep++;
            }
            if (keep == 0) break;
            MorphTrack *merged = realloc(clips[c].morph_tracks, sizeof *merged * (size_t)(clips[c].morph_track_count + keep));
            if (!merged) return false;
            clips[c].morph_tracks = merged;
            for (int t = 0; t < from->morph_track_count; t++) {
                MorphTrack *track = &from->morph_tracks[t];
                bool replaced = track->mesh >= 0 && track->mesh < model->mesh_count && a->blends &&
                                a->blends[track->mesh].channel_count > 0;
                if (replaced) continue;
                clips[c].morph_tracks[clips[c].morph_track_count++] = *track;
                memset(track, 0, sizeof *track);   /* moved: the old clip's free sees NULL arrays */
            }
            break;
        }
    Model old = {.clip_count = model->clip_count, .clips = model->clips};
    model_free(&old);
    model->clips = clips;
    model->clip_count = n;
    for (int c = 0; c < n; c++) {   /* stack names as every reader gives them: valid UTF-8, no repeats */
        char stack_name[SV_NAME_MAX];
        memcpy(stack_name, clips[c].name, sizeof stack_name);
        clips[c].name[0] = '\0';
        model_name_clip(model, c, stack_name, strlen(stack_name));
    }
    return true;
}
