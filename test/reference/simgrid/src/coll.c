/*
 * Times one MPI collective under SimGrid SMPI, for Meshwork's reference cases.
 * Usage: coll <alltoall|allreduce|allgather|reduce|bcast|reduce_scatter|scatter|gather|alltoallv|
 *             barrier|alltoall-barrier> <bytes> [barriers] [alltoallv sizes file]
 * <bytes> follows Meshwork's --size convention: one block for alltoall, allgather, scatter and
 * gather, the whole buffer for allreduce, reduce, bcast and reduce_scatter. Every rank starts the
 * collective at simulated time 0 (no barrier before it, so no barrier skew enters the measurement);
 * the printed time is the latest finish minus the earliest start over all ranks, which is
 * Meshwork's makespan. With `barriers` the collective is bracketed as MPI benchmarks time it:
 * MPI_Barrier, t0 = MPI_Wtime, the collective, MPI_Barrier, t1 = MPI_Wtime (Meshwork --barriers).
 * alltoallv reads an n x n matrix of bytes (row = sender, whitespace separated) from the file
 * named last (Meshwork's --sizes file); <bytes> is then ignored.
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
  if (argc < 3 || argc > 5) {
    if (rank == 0) fprintf(stderr, "usage: coll <collective> <bytes> [barriers] [sizes file]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char *coll = argv[1];
  long bytes = atol(argv[2]);
  int barriers = argc >= 4 && strcmp(argv[3], "barriers") == 0;
  const char *sizes = argc == 5 ? argv[4] : argc == 4 && !barriers ? argv[3] : NULL;
  int ints = (int)(bytes / 4); /* reductions sum MPI_INT */
  double t0 = 0, t1 = 0;
#define TIMED(call) do { if (barriers) MPI_Barrier(MPI_COMM_WORLD); t0 = MPI_Wtime(); call; if (barriers) MPI_Barrier(MPI_COMM_WORLD); t1 = MPI_Wtime(); } while (0)
  if (strcmp(coll, "reduce_scatter") == 0) {
    int *s = buffer((size_t)bytes), *r = buffer((size_t)bytes / n);
    int *counts = malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++) counts[i] = ints / n;
    TIMED(MPI_Reduce_scatter(s, r, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  } else if (strcmp(coll, "scatter") == 0) {
    char *s = buffer((size_t)bytes * n), *r = buffer((size_t)bytes);
    TIMED(MPI_Scatter(s, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD));
  } else if (strcmp(coll, "gather") == 0) {
    char *s = buffer((size_t)bytes), *r = buffer((size_t)bytes * n);
    TIMED(MPI_Gather(s, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD));
  } else if (strcmp(coll, "alltoallv") == 0) {
    FILE *f = sizes ? fopen(sizes, "r") : NULL;
    if (!f) {
      if (rank == 0) fprintf(stderr, "coll alltoallv: cannot read the sizes file\n");
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int *scounts = malloc(sizeof(int) * n), *rcounts = malloc(sizeof(int) * n);
    int *sdispls = malloc(sizeof(int) * n), *rdispls = malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        long v = 0;
        if (fscanf(f, "%ld", &v) != 1) MPI_Abort(MPI_COMM_WORLD, 2);
        if (i == rank) scounts[j] = (int)v;
        if (j == rank) rcounts[i] = (int)v;
      }
    fclose(f);
    long st = 0, rt = 0;
    for (int i = 0; i < n; i++) {
      sdispls[i] = (int)st;
      rdispls[i] = (int)rt;
      st += scounts[i];
      rt += rcounts[i];
    }
    char *s = buffer((size_t)st), *r = buffer((size_t)rt);
    TIMED(MPI_Alltoallv(s, scounts, sdispls, MPI_BYTE, r, rcounts, rdispls, MPI_BYTE, MPI_COMM_WORLD));
  } else if (strcmp(coll, "alltoall") == 0 && barriers) {
    char *s = buffer((size_t)bytes * n), *r = buffer((size_t)bytes * n);
    TIMED(MPI_Alltoall(s, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE, MPI_COMM_WORLD));
  } else if (strcmp(coll, "allreduce") == 0 && barriers) {
    int *s = buffer((size_t)bytes), *r = buffer((size_t)bytes);
    TIMED(MPI_Allreduce(s, r, ints, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  } else if (strcmp(coll, "bcast") == 0 && barriers) {
    char *b = buffer((size_t)bytes);
    TIMED(MPI_Bcast(b, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD));
  } else if (strcmp(coll, "allgather") == 0 && barriers) {
    char *s = buffer((size_t)bytes), *r = buffer((size_t)bytes * n);
    TIMED(MPI_Allgather(s, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE, MPI_COMM_WORLD));
  } else if (strcmp(coll, "reduce") == 0 && barriers) {
    int *s = buffer((size_t)bytes), *r = buffer((size_t)bytes);
    TIMED(MPI_Reduce(s, r, ints, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
  } else if (strcmp(coll, "alltoall") == 0) {
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
