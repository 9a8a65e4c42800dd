/* key_order.h — sorting one channel's keys by time, stably: every reader's key clean-up (Assimp's
 * channels, glTF samplers, validation) sorts (time, index) pairs with key_order_compare and then
 * keeps one key per distinct time. */
#ifndef SKINVIEW_IO_KEY_ORDER_H
#define SKINVIEW_IO_KEY_ORDER_H

/* A key's time and its index in the file. */
typedef struct KeyOrder {
    double time;
    int    index;
} KeyOrder;

/* qsort comparator: by time, then by index (file order among equal times: a stable sort). */
static inline int key_order_compare(const void *a, const void *b)
{
    const KeyOrder *x = a, *y = b;
    if (x->time != y->time) return x->time < y->time ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

#endif
