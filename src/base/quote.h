/* quote.h — text copied from a file into a one-line message, made safe to print.
 *
 * A model file can hold anything in a name, a type, a URI or an extension name: a newline, a
 * tab, an escape sequence that recolours or clears the terminal, bytes that are not UTF-8, a
 * megabyte of text. Every message that quotes such text (the readers' refusals and repair
 * warnings, src/io/report.h) passes it through here, so that the message stays one readable line
 * whatever the file holds:
 *   - \n, \r and \t are written as those two characters; every other control character (below
 *     0x20, 0x7f, and the C1 controls U+0080..U+009F, which some terminals obey like ESC) as
 *     \xNN or \u00NN; U+2028 / U+2029 (line and paragraph separators) as \u2028 / \u2029;
 *   - a byte that does not start or continue a valid UTF-8 sequence (a stray continuation byte,
 *     an overlong form, a surrogate, past U+10FFFF, a sequence cut short) is written as \xNN;
 *     valid UTF-8 (a Japanese joint name) is kept as it is;
 *   - the output is at most `limit` bytes; text that does not fit is cut (never inside a UTF-8
 *     sequence or an escape) and ends with "..." (counted in the limit).
 * A backslash is kept as it is (Windows texture paths are common in FBX files), so an escape
 * in the output cannot be told from the same characters in the file: the message is for a
 * person, not a parser. Plain C, no other dependency. */
#ifndef SKINVIEW_QUOTE_H
#define SKINVIEW_QUOTE_H

#include <stddef.h>

/* Most bytes a quoted name, type or URI takes in a message, "..." included (QUOTED). */
#define QUOTE_LIMIT 64
/* Room for QUOTE_LIMIT bytes and the NUL. */
#define QUOTE_SIZE (QUOTE_LIMIT + 1)
/* Most bytes a library's free-text message (Assimp's error string) takes, "..." included. */
#define QUOTE_SENTENCE_LIMIT 160

/* Writes bytes[0..length) into out[out_size] made printable as above, at most `limit` bytes
 * (and at most out_size - 1), ending "..." when cut; always NUL-terminated when out_size > 0.
 * Returns the bytes written (without the NUL). NUL bytes inside `length` are escaped too. */
size_t quote_bytes(char *out, size_t out_size, const void *bytes, size_t length, size_t limit);

/* quote_bytes() of a NUL-terminated text with QUOTE_LIMIT; NULL quotes as "(none)". Returns out. */
const char *quote_text(char *out, size_t out_size, const char *text);

/* quote_text() into a buffer that lives until the end of the enclosing block (a compound
 * literal), for a printf argument:  fail(g, "accessor %d has type '%s'", i, QUOTED(type)). */
#define QUOTED(text) quote_text((char[QUOTE_SIZE]){0}, QUOTE_SIZE, (text))

/* The last line of defence, for a whole message in message[size] (the reporters call it on
 * every message, whatever its parts): trailing white space dropped (Assimp ends some messages
 * with a newline), then quote_bytes() over it in place with no limit but `size`. */
void quote_message(char *message, size_t size);

/* True if text[0..length) holds no control character and is valid UTF-8 (what quote_bytes()
 * and quote_message() produce); the tests and fuzz targets check messages with it. */
int quote_is_clean(const char *text, size_t length);

#endif
