#include <tickfsm/detail/sharing.hpp>

#include <atomic>
#include <mutex>

namespace tickfsm::detail {

namespace {
// One lock for the registries of every character type: they are touched only
// while configuring, where contention between types does not matter.
std::mutex& RegistryMutex() {
    static std::mutex mutex;
    return mutex;
}
} // namespace

RegistryLock::RegistryLock() { RegistryMutex().lock(); }
RegistryLock::~RegistryLock() { RegistryMutex().unlock(); }

void AddOwner(std::size_t& owners) noexcept {
    std::atomic_ref<std::size_t>(owners).fetch_add(1, std::memory_order_relaxed);
}

bool DropOwner(std::size_t& owners) noexcept {
    return std::atomic_ref<std::size_t>(owners).fetch_sub(1, std::memory_order_acq_rel) == 1;
}

} // namespace tickfsm::detail
