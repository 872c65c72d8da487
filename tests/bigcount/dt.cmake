# The big-count datatype and pack calls (MPI_Type_xxx_c, MPI_Pack_c, ...): the same types and
# bytes as their int twins, decoding of the types they make, sizes beyond INT_MAX, their
# errors, and (alone: gigabytes) packing at positions beyond INT_MAX.
bigcount_test(bigcount_dt_twins SOURCES dt_twins.c NP 1 2)
bigcount_test(bigcount_dt_decode SOURCES dt_decode.c NP 1 2)
bigcount_test(bigcount_dt_huge_types SOURCES dt_huge_types.c NP 1 2)
bigcount_test(bigcount_dt_errors SOURCES dt_errors.c NP 1 2)
bigcount_test(bigcount_dt_threads SOURCES dt_threads.c NP 1 2)
foreach(v "" .inline .thread)
  foreach(np 1 2)
    set_tests_properties(bigcount_dt_threads${v}.np${np} PROPERTIES LABELS "mpi;thread")
  endforeach()
endforeach()
bigcount_huge_test(bigcount_dt_pack_huge SOURCES dt_pack_huge.c NP 1)
