/* api/layers.h — per-rank start of the layers (MPI_Init); see layers.c. */
#ifndef LOOM_API_LAYERS_H
#define LOOM_API_LAYERS_H
/* Set up the calling rank's state in every layer. 0 or a negative loom code. */
int loom__layers_rank_init(void);
#endif
