/*
 * Times one MPI collective under SimGrid SMPI, for Meshwork's reference cases.
 * Usage: coll <alltoall|allreduce|allgather|reduce|bcast|barrier|alltoall-barrier> <bytes>
 * <bytes> follows Meshwork's --size convention: one block for alltoall and allgather, the whole
 * buffer for allreduce, reduce and bcast. Every rank starts the collective at simulated time 0 (no
 * barrier before it, so no barrier skew enters the measurement); the printed time is the latest
 * finish minus the earliest start over all ranks, which is Meshwork's makespan.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *buffer(size_t bytes)
{
  /* One shared physical buffer for every rank: the data is never checked, only timed. */
  return SMPI_SHARED_MALLOC(bytes > 0 ? bytes : 1);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (argc != 3) {
    if (rank == 0) fprintf(stderr, "usage: coll <collective> <bytes>\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char *coll = argv[1];
  long bytes = atol(argv[2]);
  int ints = (int)(bytes / 4); /* reductions sum MPI_INT */
  double t0 = 0, t1 = 0;
  if (strcmp(coll, "alltoall") == 0) {
    char *s = buffer((size_t)bytes * n), *r = buffer((size_t)bytes * n);
    t0 = MPI_Wtime();
    MPI_Alltoall(s, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
    t1 = MPI_Wtime();
  } else if (strcmp(coll, "allgather") == 0) {
    char *s = buffer((size_t)bytes), *r = buffer((size_t)bytes * n);
    t0 = MPI_Wtime();
    MPI_Allgather(s, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
    t1 = MPI_Wtime();
  } else if (strcmp(coll, "allreduce") == 0) {
    int *s = buffer((size_t)bytes), *r = buffer((size_t)bytes);
    t0 = MPI_Wtime();
    MPI_Allreduce(s, r, ints, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    t1 = MPI_Wtime();
  } else if (strcmp(coll, "reduce") == 0) {
    int *s = buffer((size_t)bytes), *r = buffer((size_t)bytes);
    t0 = MPI_Wtime();
    MPI_Reduce(s, r, ints, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    t1 = MPI_Wtime();
  } else if (strcmp(coll, "bcast") == 0) {
    char *b = buffer((size_t)bytes);
    t0 = MPI_Wtime();
    MPI_Bcast(b, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    t1 = MPI_Wtime();
  } else if (strcmp(coll, "barrier") == 0) {
    t0 = MPI_Wtime();
    MPI_Barrier(MPI_COMM_WORLD);
    t1 = MPI_Wtime();
  } else if (strcmp(coll, "alltoall-barrier") == 0) {
    /* Meshwork's alltoall per-step-barrier:dir=shortest,pacing=false on a k x k x k torus (k odd, so
       no route ties): one offset per step in FIG. 9 order (counting down from k-1, last axis
       fastest), a sendrecv to rank + offset and from rank - offset, and an MPI_Barrier between steps. */
    int k = 1;
    while ((k + 1) * (k + 1) * (k + 1) <= n) k++;
    char *s = buffer((size_t)bytes), *r = buffer((size_t)bytes);
    int x = rank % k, y = (rank / k) % k, z = rank / (k * k);
    int steps = k * k * k - 1, step = 0;
    t0 = MPI_Wtime();
    for (int dx = k - 1; dx >= 0; dx--)
      for (int dy = k - 1; dy >= 0; dy--)
        for (int dz = k - 1; dz >= 0; dz--) {
          if (dx == 0 && dy == 0 && dz == 0) continue;
          int to = (x + dx) % k + k * ((y + dy) % k) + k * k * ((z + dz) % k);
          int from = (x - dx + k) % k + k * ((y - dy + k) % k) + k * k * ((z - dz + k) % k);
          MPI_Sendrecv(s, (int)bytes, MPI_BYTE, to, 0, r, (int)bytes, MPI_BYTE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          if (++step < steps) MPI_Barrier(MPI_COMM_WORLD);
        }
    t1 = MPI_Wtime();
  } else {
    if (rank == 0) fprintf(stderr, "coll: unknown collective %s\n", coll);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  double first = 0, last = 0;
  MPI_Reduce(&t0, &first, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(&t1, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("makespan_s=%.12e start_s=%.12e\n", last - first, first);
  MPI_Finalize();
  return 0;
}
