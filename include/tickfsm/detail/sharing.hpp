#pragma once
// What the characters of one kind share across threads: the configuration
// registries' lock and a shared table's count of owners. Compiled in
// lib/sharing.cpp, so that no header of tickfsm includes <mutex> or <atomic>.

#include <cstddef>

namespace tickfsm::detail {

/// Holds the lock of the configuration registries for its scope. Taken while
/// configuring and on a machine's first tick, never on the tick path.
class RegistryLock {
public:
    RegistryLock();
    ~RegistryLock();
    RegistryLock(const RegistryLock&) = delete;
    RegistryLock& operator=(const RegistryLock&) = delete;
};

/// One more owner of a shared table (atomically: machines of one kind may be
/// made and destroyed on several threads).
void AddOwner(std::size_t& owners) noexcept;
/// One owner fewer; true if it was the last, which then destroys the table.
bool DropOwner(std::size_t& owners) noexcept;

} // namespace tickfsm::detail
