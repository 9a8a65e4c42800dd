/* test_browser.c — the clip browser and timeline logic without a window: filtering,
 * highlighting, scrolling, hit-testing, key times, frame rate, pixel <-> time. */
#include "view/browser.h"
#include "view/timeline.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CLIPS 76

static Clip clips[CLIPS];

static void type_text(ClipBrowser *b, const char *text)
{
    for (const char *c = text; *c; c++) browser_type(b, clips, (unsigned char)*c);
}

static void test_filter(void)
{
    for (int c = 0; c < CLIPS; c++) snprintf(clips[c].name, sizeof clips[c].name, "Clip_%02d_%s", c, c % 3 ? "Walk" : "Run");
    snprintf(clips[40].name, sizeof clips[40].name, "Sword Slash");
    ClipBrowser b;
    CHECK(browser_init(&b, clips, CLIPS), "init");
    CHECK(b.row_count == CLIPS && b.selected == 0 && !b.open, "all rows, first highlighted");

    CHECK(browser_matches("sword", 40, "Sword Slash"), "case-insensitive name match");
    CHECK(browser_matches("4", 40, "x") && browser_matches("40", 40, "x") && !browser_matches("41", 40, "x"),
          "index prefix match");
    CHECK(browser_matches("", 3, "x"), "empty query matches everything");

    type_text(&b, "SLASH");
    CHECK(b.row_count == 1 && browser_selected_clip(&b) == 40, "typing finds clip 40 (%d rows, clip %d)", b.row_count,
          browser_selected_clip(&b));
    browser_backspace(&b, clips);
    CHECK(strcmp(b.query, "SLAS") == 0 && b.row_count == 1, "backspace removes one character");
    while (b.query[0]) browser_backspace(&b, clips);
    CHECK(b.row_count == CLIPS && browser_selected_clip(&b) == 40, "clearing keeps the highlight on clip 40");

    type_text(&b, "40");
    CHECK(browser_selected_clip(&b) == 40, "typing a number highlights that clip, got %d", browser_selected_clip(&b));
    /* names containing "40" do not exist here: rows are index 40 only */
    CHECK(b.row_count == 1, "'40' matches 1 row, got %d", b.row_count);
    while (b.query[0]) browser_backspace(&b, clips);
    type_text(&b, "run");
    CHECK(b.row_count == 26, "every third clip is a Run (26 of 76), got %d", b.row_count);
    for (int r = 1; r < b.row_count; r++) CHECK(b.rows[r] > b.rows[r - 1], "rows keep clip order");
    type_text(&b, "zzz");
    CHECK(b.row_count == 0 && b.selected == -1 && browser_selected_clip(&b) == -1, "no match: nothing highlighted");
    browser_move(&b, 1, 10);
    CHECK(b.selected == -1, "moving in an empty list does nothing");
    while (b.query[0]) browser_backspace(&b, clips);

    /* UTF-8 typing and backspace over a multi-byte character */
    browser_type(&b, clips, 0xe9);   /* é */
    CHECK(strcmp(b.query, "\xc3\xa9") == 0, "é typed as UTF-8");
    browser_backspace(&b, clips);
    CHECK(b.query[0] == '\0', "backspace removes both bytes of é");
    browser_type(&b, clips, 0x08);
    CHECK(b.query[0] == '\0', "control characters are not typed");
    browser_free(&b);
}

static void test_scroll_and_hit(void)
{
    ClipBrowser b;
    browser_init(&b, clips, CLIPS);
    const int visible = 10;
    browser_move(&b, 15, visible);
    CHECK(b.selected == 15 && b.scroll == 6, "moving past the view scrolls it (selected %d scroll %d)", b.selected,
          b.scroll);
    browser_move(&b, -100, visible);
    CHECK(b.selected == 0 && b.scroll == 0, "moving before the first clamps (selected %d scroll %d)", b.selected,
          b.scroll);
    browser_move(&b, 1000, visible);
    CHECK(b.selected == CLIPS - 1 && b.scroll == CLIPS - visible, "to the last (selected %d scroll %d)", b.selected,
          b.scroll);
    browser_scroll(&b, 1000, visible);
    CHECK(b.scroll == CLIPS - visible, "wheel past the end clamps: %d", b.scroll);
    browser_scroll(&b, -3, visible);
    CHECK(b.scroll == CLIPS - visible - 3 && b.selected == CLIPS - 1, "wheel scrolls without moving the highlight");
    browser_scroll(&b, -1000, visible);
    CHECK(b.scroll == 0, "wheel before the start clamps: %d", b.scroll);
    browser_highlight_clip(&b, 50, visible);
    CHECK(b.selected == 50 && b.scroll <= 50 && b.scroll + visible > 50, "highlighting clip 50 brings it into view");

    BrowserLayout layout = {.x = 10, .y = 40, .width = 300, .height = 400, .list_y = 60, .row_height = 20,
                            .visible_rows = visible};
    b.scroll = 5;
    CHECK(browser_row_at(&b, &layout, 20, 61) == 5, "first visible row");
    CHECK(browser_row_at(&b, &layout, 20, 60 + 3 * 20 + 19.9f) == 8, "fourth visible row");
    CHECK(browser_row_at(&b, &layout, 20, 59) == -1, "above the list (the title)");
    CHECK(browser_row_at(&b, &layout, 5, 70) == -1 && browser_row_at(&b, &layout, 310, 70) == -1, "left / right of it");
    CHECK(browser_row_at(&b, &layout, 20, 60 + visible * 20 + 1) == -1, "below the visible rows");
    type_text(&b, "Sword");
    CHECK(browser_row_at(&b, &layout, 20, 60 + 20 + 5) == -1, "past the last filtered row");
    CHECK(browser_row_at(&b, &layout, 20, 65) == 0, "the one filtered row");
    browser_free(&b);
}

static void test_timeline(void)
{
    float t_times[3] = {0.0f, 0.5f, 1.0f};
    vec3 t_values[3] = {{0}};
    float r_times[5] = {0.0f, 0.25f, 0.50002f, 0.75f, 1.0f};
    versor r_values[5] = {{0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}};
    JointTrack tracks[2] = {
        {.joint = 0, .translation_count = 3, .translation_times = t_times, .translation_values = t_values},
        {.joint = 1, .rotation_count = 5, .rotation_times = r_times, .rotation_values = r_values},
    };
    Clip clip = {.name = "c", .duration = 1.0f, .track_count = 2, .tracks = tracks};
    Model model = {.clip_count = 1, .clips = &clip};
    CHECK(timeline_max_keys(&model) == 8, "8 keys in all, got %d", timeline_max_keys(&model));
    float keys[8];
    int n = timeline_collect_keys(&clip, -1, keys, 8);
    CHECK(n == 5, "5 distinct key times (0.5 and 0.50002 are one mark), got %d", n);
    for (int i = 1; i < n; i++) CHECK(keys[i] > keys[i - 1], "sorted");
    CHECK(timeline_collect_keys(&clip, 0, keys, 8) == 3, "joint 0 has 3 keys");
    CHECK(timeline_collect_keys(&clip, 7, keys, 8) == 0, "joint 7 has none");
    CHECK(timeline_collect_keys(&clip, -1, keys, 2) <= 2, "capacity respected");

    n = timeline_collect_keys(&clip, -1, keys, 8);
    CHECK(timeline_next_key(keys, n, 0.0f) == 0.25f, "next key after 0");
    CHECK(timeline_next_key(keys, n, 0.25f) == 0.5f, "next key after a key skips it");
    CHECK(timeline_next_key(keys, n, 1.0f) < 0.0f, "no key after the last");
    CHECK(timeline_prev_key(keys, n, 0.6f) == 0.5f, "previous key");
    CHECK(timeline_prev_key(keys, n, 0.0f) < 0.0f, "no key before the first");

    CHECK(timeline_frame_rate(&clip) == 4.0f, "5 keys over 1 s = 4 fps, got %g", timeline_frame_rate(&clip));
    Clip pose = {.name = "p", .duration = 0.0f};
    CHECK(timeline_frame_rate(&pose) == 30.0f, "no keys: 30 fps");
    CHECK(timeline_frame_number(0.5f, 30.0f) == 15 && timeline_frame_number(1.0f / 60.0f, 30.0f) == 1, "frame numbers");

    TimelineLayout bar = {.x = 100, .y = 500, .width = 400, .height = 10};
    CHECK(fabsf(timeline_time_at(&bar, 300, 2.0f) - 1.0f) < 1e-6f, "the middle is half the clip");
    CHECK(timeline_time_at(&bar, 0, 2.0f) == 0.0f && timeline_time_at(&bar, 900, 2.0f) == 2.0f, "clamped at the ends");
    CHECK(fabsf(timeline_x_of(&bar, 0.5f, 2.0f) - 200.0f) < 1e-4f, "time -> pixel");
    CHECK(fabsf(timeline_time_at(&bar, timeline_x_of(&bar, 1.3f, 2.0f), 2.0f) - 1.3f) < 1e-5f, "round trip");
    CHECK(timeline_hit(&bar, 150, 505, 0) && !timeline_hit(&bar, 150, 480, 0) && timeline_hit(&bar, 150, 495, 8),
          "hit test with slack");
    CHECK(timeline_time_at(&bar, 300, 0.0f) == 0.0f, "a pose has time 0 everywhere");
}

int main(void)
{
    test_filter();
    test_scroll_and_hit();
    test_timeline();
    return test_finish();
}
