// Ring allreduce chunking.
#include <cstddef>

// The last chunk takes whatever is left, so uneven splits (ranks not a power of two) stay aligned.
size_t ChunkSize(size_t count, int ranks, int i) {
  size_t base = count / ranks;
  size_t offset = base * i;
  return i == ranks - 1 ? count - offset : base;
}
