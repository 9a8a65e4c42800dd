/* skinview_monkey — the monkey test's program (tests/view.cmake view_monkey, view_monkey_against):
 * skinview itself (app_main), whose windows are run not by a user but by a seeded random stream of
 * keys, characters, clicks, drags, wheel turns, resizes, drops (the files of SKINVIEW_MONKEY_DROPS,
 * ':'-separated) and reloads, sent through the player's public input handlers (view/player.h), with a
 * frame drawn after every few. SKINVIEW_MONKEY=SEED:EVENTS sets the stream (without it the program
 * is plain skinview). After each frame it checks that the camera, the projection and the clock are
 * finite and no GL error was reported; at the end that the frame read back is not blank and the
 * resident memory (now, not the peak) grew by less than SKINVIEW_MONKEY_MB (default 64) after the
 * warm-up. Prints the seed (to replay a failure) and the counts; a failed check makes the exit code 1. */
#include "app/commands.h"
#include "gfx/gl_debug.h"
#include "gfx/window_target.h"
#include "view/keys.h"
#include "view/player.h"

#include <GLFW/glfw3.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MONKEY_MAX_DROPS 8
#define MONKEY_EVENTS_PER_FRAME 24     /* on average: frames and imports take the time */
#define MONKEY_MAX_WIDTH 640            /* resizes stay below: software GL draws every frame */
#define MONKEY_MAX_HEIGHT 480

/* xorshift32: the whole stream follows from the seed (printed, so a failure replays). */
static unsigned next_random(unsigned *state)
{
    unsigned x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

static int below(unsigned *state, int n) { return (int)(next_random(state) % (unsigned)n); }

/* Resident memory now, MiB (Linux: /proc/self/statm, pages); 0 when unknown. */
static double resident_mib(void)
{
    FILE *file = fopen("/proc/self/statm", "r");
    long size = 0, resident = 0;
    if (file) {
        if (fscanf(file, "%ld %ld", &size, &resident) != 2) resident = 0;
        fclose(file);
    }
    return (double)resident * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}

static bool finite_matrix(const mat4 m)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            if (!isfinite(m[c][r])) return false;
    return true;
}

/* Every key of the table, plus keys the browser and mesh list take and a few unbound ones. */
static int pick_key(unsigned *state)
{
    static const int extra[] = {GLFW_KEY_ENTER, GLFW_KEY_UP, GLFW_KEY_DOWN, GLFW_KEY_PAGE_UP, GLFW_KEY_PAGE_DOWN,
                                GLFW_KEY_BACKSPACE, GLFW_KEY_ESCAPE, GLFW_KEY_TAB, GLFW_KEY_Z, GLFW_KEY_F1,
                                GLFW_KEY_KP_ENTER, GLFW_KEY_5, GLFW_KEY_9};
    int rows;
    const KeyRow *table = keys_table(&rows);
    if (below(state, 4) == 0) return extra[below(state, (int)(sizeof extra / sizeof extra[0]))];
    const KeyRow *row = &table[below(state, rows)];
    int bound = 0;
    while (bound < KEY_MAX_BINDINGS && row->bindings[bound].key) bound++;
    if (bound == 0) return GLFW_KEY_SPACE;
    return row->bindings[below(state, bound)].key;
}

/* The driver (view/player.h PlayerDriver): the stream of SKINVIEW_MONKEY=SEED:EVENTS (`spec`) instead of
 * a user; its failed checks plus the GL errors reported. */
static int monkey_run(Player *player, void *context)
{
    const char *spec = context;
    GLFWwindow *window = player->window;
    unsigned seed = 1;
    int events = 1000;
    sscanf(spec, "%u:%d", &seed, &events);
    if (seed == 0) seed = 1;   /* xorshift's one fixed point */
    unsigned state = seed;
    const char *mb_text = getenv("SKINVIEW_MONKEY_MB");
    double memory_limit = mb_text ? atof(mb_text) : 64.0;
    char drop_text[4096] = "";
    const char *drops[MONKEY_MAX_DROPS];
    int drop_count = 0;
    if (getenv("SKINVIEW_MONKEY_DROPS")) snprintf(drop_text, sizeof drop_text, "%s", getenv("SKINVIEW_MONKEY_DROPS"));
    for (char *p = strtok(drop_text, ":"); p && drop_count < MONKEY_MAX_DROPS; p = strtok(NULL, ":")) drops[drop_count++] = p;
    printf("monkey: seed %u, %d events (replay: SKINVIEW_MONKEY=%u:%d)\n", seed, events, seed, events);
    fflush(stdout);

    int failures = 0, frames = 0, counts[8] = {0};
    /* warm-up: every model of the drop list opened once (each leaves the allocator at its own high
     * water mark), then the one first opened again: what the stream may grow beyond that is a leak */
    for (int d = 0; d < drop_count; d++) {
        player_on_drop(window, 1, &drops[d]);
        player_frame(player, 0.0f);
    }
    if (drop_count > 0) {
        player_on_drop(window, 1, &drops[0]);
        player_frame(player, 0.0f);
    }
    double warm_mib = resident_mib();
    for (int e = 0; e < events; e++) {
        int width, height;
        glfwGetWindowSize(window, &width, &height);
        double x = below(&state, width > 0 ? width : 1), y = below(&state, height > 0 ? height : 1);
        int kind = below(&state, 100);
        if (kind < 45) {   /* a key: press (sometimes held: repeats), with random modifiers now and then */
            int key = pick_key(&state), mods = below(&state, 5) == 0 ? below(&state, 16) : 0;
            if (key == GLFW_KEY_F11 && below(&state, 8) != 0) key = GLFW_KEY_SPACE;   /* fullscreen: big frames */
            player_on_key(window, key, 0, GLFW_PRESS, mods);
            if (below(&state, 6) == 0) player_on_key(window, key, 0, GLFW_REPEAT, mods);
            player_on_key(window, key, 0, GLFW_RELEASE, mods);
            counts[0]++;
        } else if (kind < 55) {   /* typing (the clip browser filters) */
            player_on_char(window, (unsigned)(32 + below(&state, 95)));
            counts[1]++;
        } else if (kind < 75) {   /* a click or a drag with one of the buttons */
            int button = below(&state, 3);
            glfwSetCursorPos(window, x, y);
            player_on_cursor(window, x, y);
            player_on_mouse_button(window, button, GLFW_PRESS, 0);
            int steps = below(&state, 4);
            for (int k = 0; k < steps; k++) {
                x += below(&state, 81) - 40;
                y += below(&state, 81) - 40;
                player_on_cursor(window, x, y);
            }
            glfwSetCursorPos(window, x, y);
            player_on_mouse_button(window, button, GLFW_RELEASE, 0);
            counts[2]++;
        } else if (kind < 87) {   /* a wheel turn */
            glfwSetCursorPos(window, x, y);
            player_on_cursor(window, x, y);
            player_on_scroll(window, 0.0, below(&state, 2) ? 1.0 : -1.0);
            counts[3]++;
        } else if (kind < 99) {   /* a resize (down to 1 pixel) */
            glfwSetWindowSize(window, 1 + below(&state, MONKEY_MAX_WIDTH), 1 + below(&state, MONKEY_MAX_HEIGHT));
            counts[4]++;
        } else if (below(&state, 10) < 3) {   /* a drop (an import: rare, they take the time) */
            if (drop_count > 0) {
                const char *path = drops[below(&state, drop_count)];
                player_on_drop(window, 1, &path);
            }
            counts[5]++;
        } else if (below(&state, 10) < 3) {   /* a reload (Ctrl+R) */
            player_on_key(window, GLFW_KEY_R, 0, GLFW_PRESS, GLFW_MOD_CONTROL);
            counts[6]++;
        } else {   /* a moment with no input: time passes (below) */
            counts[7]++;
        }
        glfwSetWindowShouldClose(window, GLFW_FALSE);   /* Q and Esc are keys like any other here */
        glfwPollEvents();
        if ((e + 1) % 1000 == 0) {
            printf("monkey: %d events, resident memory %.1f MiB\n", e + 1, resident_mib());
            fflush(stdout);
        }
        if (below(&state, MONKEY_EVENTS_PER_FRAME) != 0) continue;
        float dt = (float)below(&state, 100) / 1000.0f;   /* 0 .. 0.1 s */
        if (player_frame(player, dt)) frames++;
        bool finite = finite_matrix(player->view) && finite_matrix(player->projection) &&
                      isfinite(player->playback.time) && isfinite(player->camera.distance);
        if (!finite) {
            failures++;
            fprintf(stderr, "monkey: event %d: a matrix, the clock or the camera is not finite (seed %u)\n", e, seed);
        }
    }
    /* the last frame, windowed at a known size, read back before it is shown: the HUD at least
     * is drawn (not a blank frame) */
    if (glfwGetWindowMonitor(window)) glfwSetWindowMonitor(window, NULL, 0, 0, 320, 240, 0);
    glfwSetWindowSize(window, 320, 240);
    glfwPollEvents();
    int fw, fh;
    glfwGetFramebufferSize(window, &fw, &fh);
    unsigned char *pixels = fw > 0 && fh > 0 ? malloc((size_t)fw * (size_t)fh * 4) : NULL;
    if (pixels) {
        player_draw(player, fw, fh);
        window_target_read_rgba(fw, fh, pixels);
        int differing = 0;
        for (size_t i = 0; i < (size_t)fw * (size_t)fh; i++)
            if (memcmp(pixels + 4 * i, pixels, 3) != 0) differing++;
        if (differing == 0) {
            failures++;
            fprintf(stderr, "monkey: the last frame (%dx%d) is one colour (seed %u)\n", fw, fh, seed);
        }
        free(pixels);
        glfwSwapBuffers(window);
    }
    double end_mib = resident_mib();
    if (end_mib - warm_mib > memory_limit) {
        failures++;
        fprintf(stderr, "monkey: resident memory grew from %.1f to %.1f MiB after every model was opened once (limit %g, seed %u)\n",
                warm_mib, end_mib, memory_limit, seed);
    }
    printf("monkey: %d events (%d keys, %d characters, %d clicks / drags, %d wheel turns, %d resizes, %d drops, "
           "%d reloads), %d frames, resident memory %.1f -> %.1f MiB, %d GL errors, %d failed checks\n",
           events, counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], counts[6], frames, warm_mib, end_mib,
           gl_debug_error_count(), failures);
    fflush(stdout);
    return failures + gl_debug_error_count();
}

int main(int argc, char **argv)
{
    const char *spec = getenv("SKINVIEW_MONKEY");
    PlayerDriver monkey = {monkey_run, (void *)spec};
    return app_main(argc, argv, spec && spec[0] ? &monkey : NULL);
}
