// The heap that the brawler kind's shared table holds once built: the
// registry keeps it (and the configuration path that finds it) for every
// machine and crowd of the kind, so the harness builds it before counting any
// implementation's bytes. Counted by heap_counter.cpp, as the harness counts.
#include <cstdio>

#include "brawler.hpp"
#include "tickfsm_brawler.hpp"

int main() {
  const std::size_t bytes = brawler::HeapCounter::bytes();
  const std::size_t count = brawler::HeapCounter::count();
  brawler::tickfsm_impl::BuildSharedTable();
  std::printf("RESULT shared_table live_bytes=%zu allocations=%zu\n", brawler::HeapCounter::bytes() - bytes,
              brawler::HeapCounter::count() - count);
}
