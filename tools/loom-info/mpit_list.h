/* tools/loom-info/mpit_list.h — `loom-info --mpit` (mpit_list.c). */
#ifndef LOOM_INFO_MPIT_LIST_H
#define LOOM_INFO_MPIT_LIST_H
#include <stdio.h>

/* List every MPI_T variable and category on f through the MPI_T calls. 0, or 1 on failure. */
int loom_info_mpit_list(FILE *f);
#endif
