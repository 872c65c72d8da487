# Passive-target synchronization (MPI 4.1 sections 12.5.3-12.5.5, 12.7): locks, lock_all and
# the flushes, request-based operations, atomicity of the accumulate family, threads, and the
# randomized stress test. Every program runs at 1 2 3 4 8 ranks (alone, a rank targets
# itself) under each progress policy (rma_test). The thread-labelled small variants are the
# ones run under ThreadSanitizer.

# exclusive locks exclude (a counter read-modify-written under them ends exact, every value
# read once), shared locks coexist, several targets at once, NOCHECK, locks on oneself
rma_test(rma_lock SOURCES lock.c)
# flush makes a put visible to a later get; flush_local(_all) frees the origin buffer;
# MPI_Win_sync with a barrier for one's own window; unlock_all completes unflushed puts
rma_test(rma_lock_all SOURCES lock_all.c)
# Rput/Rget/Raccumulate/Rget_accumulate under lock_all and lock: Rget data there when the
# request completes, Rput data at the target after the flush or the epoch
rma_test(rma_request SOURCES request.c)
# concurrent sums, tickets (fetch_and_op), compare-and-swap increments, MAX/MIN/BOR/BAND exact;
# no torn 8-, 16- or 32-byte element under concurrent replace and no-op reads
rma_test(rma_atomics SOURCES atomics.c)
# fetch-and-op of every predefined operation and compare-and-swap on every type with a word
# fast path (4- and 8-byte integers, doubles), aligned and not, against the standard's results;
# undefined operations fail with MPI_ERR_OP and change nothing
rma_test(rma_word_ops SOURCES word_ops.c NP 1 2 3)
# threads of each rank issue puts, flushes, accumulates, fetch_and_ops in one lock_all epoch,
# then lock different targets at once; every slot and counter checked after the join
rma_test(rma_threads SOURCES threads.c ARGS 100)
rma_test(rma_threads_small SOURCES threads.c ARGS 10 LABELS thread)
# random puts, gets, accumulates, fetch_and_ops, CAS, replace/no-op on all ranks' windows
# under lock_all with random flushes: puts land, counters add up, no torn element
rma_test(rma_stress SOURCES stress.c ARGS 2000 1)
rma_test(rma_stress_small SOURCES stress.c ARGS 200 2 LABELS thread)
