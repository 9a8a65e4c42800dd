/* options.h — what the command line asks for (Options): filled by cli_parse (cli.c), checked for
 * options that do not go together by cli_check (cli_check.c), read by every command. */
#ifndef SKINVIEW_OPTIONS_H
#define SKINVIEW_OPTIONS_H

#include "teach/aids.h"   /* AidOptions, AxesMode, SkinningMethod */

#include <stdbool.h>
#include <stddef.h>

typedef struct Options {
    const char *model_path;      /* NULL: the bundled demo model */
    const char *clip;            /* name or index as text; NULL = first clip */
    float       time;            /* seconds from the clip start */
    bool        time_set;
    float       speed;           /* playback speed factor, default 1; < 0 plays backwards;
                                    |speed| in [PLAYBACK_SPEED_MIN, PLAYBACK_SPEED_MAX] (view/playback.h) */
    int         loop_mode;       /* --loop: a PlaybackLoopMode (view/playback.h), default loop */
    float       blend_seconds;   /* --blend: cross-fade time between clips, default 0.25, 0 = cut */
    bool        show_hud;        /* --show-hud: --screenshot draws the status line and timeline */
    bool        show_browser;    /* --show-browser: --screenshot also draws the clip list (implies show_hud) */
    bool        show_help;       /* --show-help: --screenshot also draws the help panel (implies show_hud) */
    int         view;            /* --view: a CameraView (camera.h) for --screenshot; -1 = the first view */
    bool        watch;           /* --watch: the viewer reloads the file when it changes on disk */
    bool        info;
    bool        json;
    bool        verbose;         /* --verbose: --info lists each FBX joint's node features */
    const char *screenshot_path;
    int         width, height;   /* --size WxH, default 1280x720 */
    const char *export_pose_path;
    bool        verify;
    int         max_bones;       /* --max-bones N; 0 = from the GL limit */
    float       optimize_keys;   /* --optimize-keys [TOLERANCE]: relative tolerance; 0 = off (the default) */
    bool        no_extrapolation; /* --no-extrapolation: FBX curves hold their end keys (ImportOptions.hold_end_keys) */
    bool        gl_debug;        /* --gl-debug: report every OpenGL error (KHR_debug), exit 1 if any */
    const char *thumbnail_in;    /* --thumbnail IN OUT SIZE */
    const char *thumbnail_out;
    int         thumbnail_size;  /* pixels, square */
    float       thumbnail_budget; /* --thumbnail-budget SECONDS, default 5 */
    /* vertex animation textures (docs/vat.md) */
    const char *bake_vat_dir;    /* --bake-vat OUTDIR */
    float       fps;             /* --fps N, default 30 */
    const char *clips;           /* --clips A,B|all (names or indices); NULL = all */
    bool        float_precision; /* --precision float (EXR positions) instead of 16 */
    int         max_texture;     /* --max-texture N; 0 = GL_MAX_TEXTURE_SIZE (16384 without GL) */
    bool        quiet;           /* --quiet: no progress bar */
    const char *vat_dir;         /* --vat OUTDIR: play a bake */
    int         instances;       /* --instances N (with --vat), default 1 */
    bool        instances_given; /* --instances was on the command line */
    bool        bake_option_set; /* one of --clips/--precision/--max-texture/--quiet was given */
    bool        fps_given;       /* --fps: --bake-vat's rate, --record's, or --export-gltf's resampling */
    const char *record_path;     /* --record OUT.mp4|.webm|.gif|OUT-%04d.png */
    float       duration;        /* --duration: seconds --record covers (duration_given) */
    bool        duration_given;
    /* glTF export (docs/export.md) */
    const char *export_gltf_path; /* --export-gltf OUT.glb|OUT.gltf */
    bool        check_export;    /* --check-export: read the export back and compare every clip */
    bool        compress_meshopt; /* --compress meshopt: EXT_meshopt_compression */
    int         max_influences;  /* --max-influences 4|8 (0: not given = 4): with 8, JOINTS_1 / WEIGHTS_1 where a
                                    vertex has more than four (ImportOptions.max_influences) */
    bool        precision_or_texture; /* --precision or --max-texture was given (bake only) */
    bool        help;
    bool        version;         /* --version */
    const char *inspect_vertex;  /* --inspect-vertex MESH:INDEX: one vertex through the formula, printed (a mode) */
    const char *against_path;    /* --against OTHER: MODEL coloured by its distance to OTHER (app/against.h) */
    bool        against_report;  /* --report: with --against, the distances per clip printed, exit */
    float       tolerance;       /* --tolerance X: --report's limit, of MODEL's diagonal (default 1e-3) */
    bool        tolerance_given;
    AidOptions  aids;            /* aids.grid = !no_grid */
    bool        no_grid;         /* --no-grid */
    bool        flat_lighting;   /* --lighting flat: the old Lambert look (LIGHTING_FLAT); default: PBR */
    const char *animations;      /* --animations FILE[,FILE...]|DIR: clips of other files added to MODEL */
    const char *bone_map;        /* --bone-map FILE: 'source target' joint pairs */
    bool        retarget_off;    /* --retarget off: local keys copied as they are */
    bool        retarget_given;
    bool        skinning_given;  /* --skinning was on the command line (else the file's method, if it names DQ) */
} Options;

#endif
