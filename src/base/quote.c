/* quote.c — text from a file made safe for a one-line message (quote.h). */
#include "quote.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s[0..left) and its code point in *code; 0 if s[0] does
 * not start one (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF). */
static size_t utf8_sequence(const unsigned char *s, size_t left, unsigned *code)
{
    unsigned char lead = s[0];
    size_t n;
    unsigned value, smallest;
    if (lead < 0x80) {
        *code = lead;
        return 1;
    }
    if (lead >= 0xC2 && lead <= 0xDF) n = 2, value = lead & 0x1Fu, smallest = 0x80;
    else if (lead >= 0xE0 && lead <= 0xEF) n = 3, value = lead & 0x0Fu, smallest = 0x800;
    else if (lead >= 0xF0 && lead <= 0xF4) n = 4, value = lead & 0x07u, smallest = 0x10000;
    else return 0;   /* a continuation byte, an overlong lead (C0, C1) or past U+10FFFF (F5..FF) */
    if (n > left) return 0;   /* cut short by the end of the text */
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0u) != 0x80u) return 0;
        value = value << 6 | (s[i] & 0x3Fu);
    }
    if (value < smallest || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return 0;
    *code = value;
    return n;
}

static size_t hex_escape(char piece[8], char kind, unsigned value, int digits)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = 0;
    piece[n++] = '\\';
    piece[n++] = kind;
    for (int d = digits - 1; d >= 0; d--) piece[n++] = hex[(value >> (4 * d)) & 0xFu];
    return n;
}

/* The printable form of the character at s[0..left) into piece (at most 6 bytes); its length.
 * *used = the input bytes it stands for. */
static size_t next_piece(const unsigned char *s, size_t left, char piece[8], size_t *used)
{
    unsigned code = 0;
    size_t n = utf8_sequence(s, left, &code);
    if (n == 0) {   /* not UTF-8: the byte itself, escaped */
        *used = 1;
        return hex_escape(piece, 'x', s[0], 2);
    }
    *used = n;
    if (code == '\n' || code == '\r' || code == '\t') {
        piece[0] = '\\';
        piece[1] = code == '\n' ? 'n' : code == '\r' ? 'r' : 't';
        return 2;
    }
    if (code < 0x20 || code == 0x7F) return hex_escape(piece, 'x', code, 2);
    if ((code >= 0x80 && code <= 0x9F) || code == 0x2028 || code == 0x2029) return hex_escape(piece, 'u', code, 4);
    memcpy(piece, s, n);
    return n;
}

size_t quote_bytes(char *out, size_t out_size, const void *bytes, size_t length, size_t limit)
{
    if (!out || out_size == 0) return 0;
    const unsigned char *s = bytes;
    if (!s) length = 0;
    size_t room = out_size - 1 < limit ? out_size - 1 : limit;
    /* does all of it fit? (stops counting once it does not: a megabyte name costs nothing) */
    char piece[8];
    size_t total = 0, used = 0;
    for (size_t at = 0; at < length && total <= room; at += used) total += next_piece(s + at, length - at, piece, &used);
    bool cut = total > room;
    size_t keep = !cut ? room : room >= 3 ? room - 3 : 0;
    size_t written = 0;
    for (size_t at = 0; at < length; at += used) {
        size_t n = next_piece(s + at, length - at, piece, &used);
        if (written + n > keep) break;
        memcpy(out + written, piece, n);
        written += n;
    }
    if (cut) {
        size_t dots = room - written < 3 ? room - written : 3;
        memcpy(out + written, "...", dots);
        written += dots;
    }
    out[written] = '\0';
    return written;
}

const char *quote_text(char *out, size_t out_size, const char *text)
{
    if (!text) text = "(none)";
    quote_bytes(out, out_size, text, strlen(text), QUOTE_LIMIT);
    return out;
}

int quote_is_clean(const char *text, size_t length)
{
    const unsigned char *s = (const unsigned char *)text;
    char piece[8];
    size_t used = 0;
    for (size_t at = 0; at < length; at += used) {
        size_t n = next_piece(s + at, length - at, piece, &used);
        if (n != used || memcmp(piece, s + at, n) != 0) return 0;   /* it had to be escaped */
    }
    return 1;
}

void quote_message(char *message, size_t size)
{
    if (!message || size == 0) return;
    size_t length = strnlen(message, size - 1);
    while (length > 0 && strchr(" \t\r\n", message[length - 1])) length--;
    message[length] = '\0';
    if (quote_is_clean(message, length)) return;   /* the usual case: nothing to escape */
    char stack_copy[1024];
    char *copy = length <= sizeof stack_copy ? stack_copy : malloc(length);
    if (!copy) {   /* no memory for the copy: blank out, in place, what would have been escaped */
        for (size_t i = 0; i < length; i++)
            if ((unsigned char)message[i] < 0x20 || (unsigned char)message[i] >= 0x7F) message[i] = '?';
        return;
    }
    memcpy(copy, message, length);
    quote_bytes(message, size, copy, length, size - 1);
    if (copy != stack_copy) free(copy);
}
