/* cli_check.c — which options go together (options.h): after cli_parse (cli.c) has read every
 * argument, a flag without the mode it belongs to, or two modes at once, is refused in one line
 * that names both; what one option implies for another is settled here too. */
#include "cli_check.h"

#include <stdio.h>

bool app_opens_window(const Options *options)
{
    return !options->export_gltf_path && !options->info && !options->json && !options->screenshot_path &&
           !options->export_pose_path && !options->verify && !options->vat_dir && !options->bake_vat_dir &&
           !options->thumbnail_in && !options->inspect_vertex && !options->record_path && !options->against_report &&
           !options->help && !options->version;
}

bool cli_check(Options *options, char *error, size_t error_size)
{
    options->aids.grid = !options->no_grid;
    if (options->view >= 0 && !options->screenshot_path && !options->record_path) {
        snprintf(error, error_size, "--view only goes with --screenshot or --record (the viewer has keypad 1 / 3 / 7)");
        return false;
    }
    if ((options->show_hud) && !options->screenshot_path && !options->record_path) {
        snprintf(error, error_size, "%s only goes with --screenshot or --record (the viewer shows them with its keys)",
                 options->show_browser ? "--show-browser" : options->show_help ? "--show-help" : "--show-hud");
        return false;
    }
    if (options->thumbnail_in && options->model_path) {
        snprintf(error, error_size, "--thumbnail names its model itself (IN); drop '%s'", options->model_path);
        return false;
    }
    if (options->inspect_vertex && options->screenshot_path) {   /* the panel in the picture */
        options->aids.inspect_vertex = options->inspect_vertex;
        options->aids.inspector = true;
        options->inspect_vertex = NULL;
    }
    if (options->json && !options->info && !options->inspect_vertex) {
        snprintf(error, error_size, "--json only goes with --info or --inspect-vertex");
        return false;
    }
    if (options->verbose && !options->info) {
        snprintf(error, error_size, "--verbose only goes with --info");
        return false;
    }
    if (options->fps_given && !options->bake_vat_dir && !options->record_path && !options->export_gltf_path) {
        snprintf(error, error_size, "--fps only goes with --bake-vat, --record or --export-gltf");
        return false;
    }
    if (options->duration_given && !options->record_path) {
        snprintf(error, error_size, "--duration only goes with --record");
        return false;
    }
    options->bake_option_set |= options->precision_or_texture;
    if (options->bake_option_set && !options->bake_vat_dir && !options->export_gltf_path) {
        snprintf(error, error_size, "--clips, --precision, --max-texture and --quiet only go with --bake-vat "
                                    "(--clips and --quiet also with --export-gltf)");
        return false;
    }
    if (options->check_export && !options->export_gltf_path) {
        snprintf(error, error_size, "--check-export only goes with --export-gltf");
        return false;
    }
    /* the window's Ctrl+E exports with them too */
    if ((options->compress_meshopt || options->max_influences) && !options->export_gltf_path && !app_opens_window(options)) {
        snprintf(error, error_size, "%s only goes with --export-gltf or the window (its Ctrl+E)",
                 options->compress_meshopt ? "--compress" : "--max-influences");
        return false;
    }
    if (options->export_gltf_path && options->precision_or_texture) {
        snprintf(error, error_size, "--precision and --max-texture only go with --bake-vat");
        return false;
    }
    if (options->export_gltf_path && (options->info || options->screenshot_path || options->export_pose_path ||
                                      options->verify || options->vat_dir || options->thumbnail_in ||
                                      options->bake_vat_dir || options->inspect_vertex || options->record_path)) {
        snprintf(error, error_size, "--export-gltf is a mode of its own: no --info, --screenshot, --export-pose, "
                                    "--verify, --vat, --bake-vat, --inspect-vertex, --record or --thumbnail with it");
        return false;
    }
    if (options->instances_given && !options->vat_dir) {
        snprintf(error, error_size, "--instances only goes with --vat");
        return false;
    }
    if (options->bake_vat_dir && (options->info || options->screenshot_path || options->export_pose_path ||
                                  options->verify || options->vat_dir || options->thumbnail_in)) {
        snprintf(error, error_size, "--bake-vat is a mode of its own: no --info, --screenshot, --export-pose, "
                                    "--verify, --vat or --thumbnail with it");
        return false;
    }
    if ((options->bone_map || options->retarget_given) && !options->animations) {
        snprintf(error, error_size, "--bone-map and --retarget only go with --animations");
        return false;
    }
    if (options->animations && (options->vat_dir || options->thumbnail_in)) {
        snprintf(error, error_size, "--animations adds clips to MODEL: not with --vat or --thumbnail");
        return false;
    }

    if ((options->against_report || options->tolerance_given) && !options->against_path) {
        snprintf(error, error_size, "%s only goes with --against OTHER", options->against_report ? "--report" : "--tolerance");
        return false;
    }
    if (options->tolerance_given && !options->against_report) {
        snprintf(error, error_size, "--tolerance is --report's limit: give --report with it");
        return false;
    }
    if (options->against_path && (options->aids.compare || options->info || options->export_pose_path || options->verify ||
                                  options->thumbnail_in || options->inspect_vertex || options->bake_vat_dir ||
                                  options->vat_dir || options->record_path || options->export_gltf_path)) {
        snprintf(error, error_size, "--against goes with the window, --screenshot or --report: no %s with it",
                 options->aids.compare ? "--compare (it is the difference view's other side)"
                 : options->info ? "--info" : options->export_pose_path ? "--export-pose" : options->verify ? "--verify"
                 : options->thumbnail_in ? "--thumbnail" : options->inspect_vertex ? "--inspect-vertex"
                 : options->bake_vat_dir ? "--bake-vat" : options->vat_dir ? "--vat"
                 : options->record_path ? "--record" : "--export-gltf");
        return false;
    }
    if (options->against_report && options->screenshot_path) {
        snprintf(error, error_size, "--report prints numbers and --screenshot a picture: give one");
        return false;
    }
    if (options->vat_dir && (options->model_path || options->info || options->max_bones || options->thumbnail_in)) {
        snprintf(error, error_size, "--vat plays a bake folder: no MODEL, --info, --max-bones or --thumbnail with it");
        return false;
    }
    return true;
}
