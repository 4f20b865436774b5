// The implementations the harness runs, in run order. To add one, define
//   extern const brawler::ImplInfo kMyImpl{"name", &MakeMine, true};
// in its own .cpp (listed in bench/CMakeLists.txt) and append X(kMyImpl) below.
// Ratios are taken against the implementation named "switch".
#include "impl.hpp"

#define BRAWLER_IMPLS(X) X(kSwitchImpl) X(kNaiveImpl) X(kTickfsmImpl) X(kTickfsmByStateImpl) X(kTickfsmCrowdImpl) \
  X(kTickfsmCrowdPerformImpl) X(kTickfsmCrowdByStateImpl) X(kTickfsmStaticImpl) X(kTickfsmStaticCrowdImpl) \
  X(kTickfsmStaticCrowdByStateImpl) X(kTickfsmCrowdThreadsImpl)

#define BRAWLER_DECLARE(impl) extern const brawler::ImplInfo impl;
#define BRAWLER_ADDRESS(impl) &::impl,

BRAWLER_IMPLS(BRAWLER_DECLARE)

namespace brawler {
namespace {
const ImplInfo* const kImpls[] = {BRAWLER_IMPLS(BRAWLER_ADDRESS)};
}  // namespace

std::span<const ImplInfo* const> AllImpls() { return kImpls; }
const char* BenchmarkName() { return "brawler"; }
const char* BaselineImpl() { return "switch"; }
}  // namespace brawler
