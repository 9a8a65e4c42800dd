/* fbx_doc_binary.h — the binary form of an FBX file into the record tree (fbx_doc_binary.c). */
#ifndef SKINVIEW_FBX_DOC_BINARY_H
#define SKINVIEW_FBX_DOC_BINARY_H

#include "fbx_doc.h"
#include "fbx_doc_arena.h"

/* A little-endian uint32 at p. */
uint32_t fbx_doc_le_u32(const uint8_t *p);
/* The binary document at r->bytes into doc; false with r's error set. */
bool fbx_doc_read_binary(Reader *r, FbxDocument *doc);

#endif
