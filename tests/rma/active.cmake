# Active-target one-sided communication and windows (MPI 4.1 chapter 12): plain MPI programs,
# each checking one behaviour against values computed from the rank numbers, at 1 to 8 ranks
# (partners wrap around, so one rank alone targets itself). rma_test() is in CMakeLists.txt.

# The four window flavors and their queries: attributes, group, name, info, split comms, free.
rma_test(rma_win_create SOURCES win_create.c)
# Window keyvals (delete callback on delete, replace, free) and window error handlers.
rma_test(rma_win_attr SOURCES win_attr.c)
# Fence epochs: puts and gets of predefined and derived types, asserts, null target, zero count.
rma_test(rma_fence SOURCES fence.c)
# Every accumulate op from all ranks into the same places, fetching ops' atomicity, CAS, NO_OP.
rma_test(rma_fence_acc SOURCES fence_acc.c)
# Post/start/complete/wait and MPI_Win_test on subset groups, with puts, gets and accumulates.
rma_test(rma_pscw SOURCES pscw.c)
# Shared windows: contiguous segments, noncontig hint, shared_query, loads and stores in sync.
rma_test(rma_shared SOURCES shared.c)
# Dynamic windows: two attached regions at absolute addresses, detach, attach again.
rma_test(rma_dynamic SOURCES dynamic.c)
# 3 MiB + 7 bytes and a 1 MiB strided vector under fence and lock/unlock, every byte checked.
rma_test(rma_large SOURCES large.c NP 1 2 4 8)
# The _c forms of window creation, shared_query, put, get and the accumulates vs. int twins.
rma_test(rma_bigcount SOURCES bigcount.c)
