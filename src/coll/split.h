/* coll/split.h — the validator of LOOM_SPLIT_TREE, for the configuration table (the rest of
 * split-tree is in coll/coll.h). */
#ifndef LOOM_COLL_SPLIT_H
#define LOOM_COLL_SPLIT_H
#include <stddef.h>

/* LOOM_SPLIT_TREE accepts auto, off, or S: an integer 0-64. 0, or -1 and a reason in err. */
int loom__coll_split_check(const char *value, char *err, size_t errlen);
#endif
