# The big-count datatype and pack calls (MPI_Type_xxx_c, MPI_Pack_c, ...): the same types and
# bytes as their int twins, decoding of the types they make, sizes beyond INT_MAX, their
bigcount_test(bigcount_dt_twins SOURCES dt_twins.c NP 1 2)
bigcount_test(bigcount_dt_decode SOURCES dt_decode.c NP 1 2)
bigcount_test(bigcount_dt_huge_types SOURCES dt_huge_types.c NP 1 2)
