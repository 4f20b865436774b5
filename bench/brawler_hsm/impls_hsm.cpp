// The hierarchical brawler's implementations, in run order, for the harness in
// bench/brawler/main.cpp; ratios are taken against "switch-hsm".
#include "impl.hpp"

#define BRAWLER_HSM_IMPLS(X) X(kSwitchHsmImpl) X(kTickfsmHsmImpl) X(kTickfsmHsmCrowdImpl) X(kTickfsmHsmTableImpl) \
  X(kTickfsmHsmTableCrowdImpl) X(kTickfsmHsmStaticImpl) X(kTickfsmHsmStaticCrowdImpl)
#define BRAWLER_HSM_DECLARE(impl) extern const brawler::ImplInfo impl;
#define BRAWLER_HSM_ADDRESS(impl) &::impl,

BRAWLER_HSM_IMPLS(BRAWLER_HSM_DECLARE)

namespace brawler {
namespace {
const ImplInfo* const kHsmImpls[] = {BRAWLER_HSM_IMPLS(BRAWLER_HSM_ADDRESS)};
}  // namespace

std::span<const ImplInfo* const> AllImpls() { return kHsmImpls; }
const char* BenchmarkName() { return "brawler-hsm"; }
const char* BaselineImpl() { return "switch-hsm"; }
}  // namespace brawler
