/* app_main.c — skinview's program: parse the command line, pick a command (main.c calls it; so
 * does the monkey test's program, tests/skinview_monkey.c, with its own window driver). */
#include "against.h"
#include "commands.h"
#include "gfx/gl_debug.h"
#include "io/hdr_image.h"

#include <stdio.h>
#include <string.h>

int app_main(int argc, char **argv, const PlayerDriver *driver)
{
    Options options;
    char error[512];
    if (!cli_parse(argc, argv, &options, error, sizeof error)) {
        fprintf(stderr, "skinview: %s (try --help)\n", error);
        return 2;
    }
    if (options.aids.environment && !hdr_image_check(options.aids.environment, error, sizeof error)) {
        fprintf(stderr, "skinview: %s\n", error);
        return 1;
    }
    if (options.gl_debug) gl_debug_request();
    if (options.help) {
        fputs(cli_usage(), stdout);
        return 0;
    }
    if (options.version) {
        printf("%s\n", cli_version());
        return 0;
    }

    int modes = (options.info ? 1 : 0) + (options.export_pose_path ? 1 : 0) +
                (options.screenshot_path ? 1 : 0) + (options.verify ? 1 : 0) + (options.thumbnail_in ? 1 : 0) +
                (options.inspect_vertex ? 1 : 0) + (options.record_path ? 1 : 0) + (options.against_report ? 1 : 0);
    if (modes > 1) {
        fprintf(stderr, "skinview: --info, --export-pose, --screenshot, --record, --verify, --thumbnail, "
                        "--inspect-vertex and --report are separate modes; give one\n");
        return 2;
    }
    if (options.vat_dir) return command_vat(&options, driver);

    char default_model[1024];
    const char *model_path = options.thumbnail_in ? options.thumbnail_in : options.model_path;
    if (!model_path) {
        if (!(model_path = app_model_or_demo(NULL, "skinview", default_model, sizeof default_model))) return 1;
        if (!options.clip) options.clip = "Walk";   /* the demo opens walking: something to look at */
    }

    if (options.animations)   /* every import of MODEL from here on adds these clips (animations.c) */
        app_set_animations(model_path, options.animations, options.bone_map, options.retarget_off,
                           options.info && !options.json);
    if (options.bake_vat_dir) return command_bake_vat(&options, model_path);
    if (options.export_gltf_path) return command_export_gltf(&options, model_path);
    if (options.info || options.export_pose_path || options.inspect_vertex || options.against_report) {
        Model model = {0};
        ImportOptions import = app_import_options(&options);
        if (!app_load_model(model_path, &import, &model)) return 1;
        int status;
        if (!options.skinning_given && model_asks_dual_quaternion(&model)) options.aids.skinning = SKINNING_GPU_DQ;
        if (options.info) {
            status = command_info(&model, options.json, options.verbose);
        } else {
            int clip;
            if (!app_resolve_clip(&model, options.clip, &clip, error, sizeof error)) {
                fprintf(stderr, "skinview: %s: %s\n", model_path, error);
                model_free(&model);
                return 2;
            }
            if (options.against_report) {
                import.max_bones_per_mesh = 0;   /* OTHER whole */
                status = command_against_report(&model, options.against_path, &import, options.aids.skinning,
                                                options.tolerance, options.clip ? clip : AGAINST_EVERY_CLIP);
            }
            else if (options.inspect_vertex)
                status = command_inspect_vertex(&model, clip, options.time, options.aids.skinning,
                                                options.aids.reference, options.inspect_vertex, options.json,
                                                options.aids.morph);
            else
                status = command_export_pose(&model, clip, options.time, options.aids.skinning,
                                             options.aids.reference, options.export_pose_path);
        }
        model_free(&model);
        return status;
    }
    if (options.thumbnail_in) return command_thumbnail(&options);
    /* Errors first: the file and --clip are checked before any window or GL context exists. */
    Model model;
    int clip = 0;
    int status = app_load_checked(&options, model_path, &model, &clip);
    if (status != 0) return status;
    /* the file's skinning method (FBX SkinningType DualQuaternion) unless --skinning says otherwise */
    if (!options.skinning_given && model_asks_dual_quaternion(&model)) options.aids.skinning = SKINNING_GPU_DQ;
    if (options.record_path) return command_record(&options, model_path, &model, clip);
    if (options.verify) return command_verify(&options, model_path, &model);
    /* --against: OTHER imported and paired now, before any window (its errors first too) */
    static Against against;
    Against *other = NULL;
    if (options.against_path) {
        ImportOptions import = app_import_options(&options);
        import.max_bones_per_mesh = 0;
        if (!against_open(&against, &model, options.against_path, &import, error, sizeof error)) {
            if (error[0]) fprintf(stderr, "skinview: %s: %s\n", options.against_path, error);
            model_free(&model);
            return 1;
        }
        other = &against;
        fprintf(stderr, "skinview: %s: %s\n", options.against_path, against.pairing_text);
        if (against.hint[0]) fprintf(stderr, "skinview: %s: hint: %s\n", options.against_path, against.hint);
    }
    status = options.screenshot_path ? command_screenshot(&options, model_path, &model, clip, other)
                                     : command_view(&options, model_path, &model, clip, other, driver);
    if (other) against_free(other);
    return status;
}
