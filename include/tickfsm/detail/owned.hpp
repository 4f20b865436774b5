#pragma once
// The two owning pointers tickfsm's configuration needs: Owned (one owner,
// like std::unique_ptr) and Shared (shared owners, like std::shared_ptr,
// convertible to Shared<const void> for type-erased data). Written here so
// that no header of tickfsm includes <memory>, whose unique_ptr alone brings
// in <ostream>: every translation unit that includes tickfsm pays for what
// its headers include. Neither is on the tick path.

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

#include "sharing.hpp"

namespace tickfsm::detail {

/// Deletes with `delete`.
struct DeleteObject {
    template <class T>
    void operator()(T* object) const noexcept {
        static_assert(sizeof(T) > 0, "tickfsm: Owned of an incomplete type");
        delete object;
    }
};

/// Deletes an object whose type the public headers only declare (a table's
/// or a registry's parts that only the library reads): defined where the type
/// is complete, and instantiated there for each such type (lib/owned_parts.hpp).
struct DeleteInLibrary {
    template <class T>
    void operator()(T* object) const noexcept;
};

/// The one owner of an object made with `new` (or whatever `Delete` undoes).
template <class T, class Delete = DeleteObject>
class Owned {
public:
    Owned() noexcept = default;
    Owned(std::nullptr_t) noexcept {}
    explicit Owned(T* owned) noexcept : object(owned) {}
    Owned(Owned&& other) noexcept : object(other.release()) {}
    template <class U>
        requires std::is_convertible_v<U*, T*>
    Owned(Owned<U, Delete>&& other) noexcept : object(other.release()) {}
    Owned& operator=(Owned&& other) noexcept {
        reset(other.release());
        return *this;
    }
    Owned(const Owned&) = delete;
    Owned& operator=(const Owned&) = delete;
    ~Owned() { reset(); }

    T* get() const noexcept { return object; }
    T* operator->() const noexcept { return object; }
    T& operator*() const noexcept { return *object; }
    explicit operator bool() const noexcept { return object != nullptr; }
    /// Gives the object up without deleting it.
    T* release() noexcept { return std::exchange(object, nullptr); }
    /// Deletes the object held (if any) and holds `owned`.
    void reset(T* owned = nullptr) noexcept {
        if (T* old = std::exchange(object, owned)) Delete{}(old);
    }

private:
    T* object = nullptr;
};

/// A new T owned by an Owned.
template <class T, class... Args>
Owned<T> MakeOwned(Args&&... args) {
    return Owned<T>(new T(std::forward<Args>(args)...));
}

/// What the owners of one Shared object share: their count and how to destroy it.
struct SharedBlock {
    std::size_t owners = 1;
    void (*destroy)(SharedBlock*) noexcept = nullptr;
};
template <class T>
struct SharedBox final : SharedBlock {
    T value;
    template <class... Args>
    explicit SharedBox(Args&&... args) : value(std::forward<Args>(args)...) {}
};

/// One of the owners of an object made by MakeShared; the last one destroys
/// it. Copies may be made and dropped on several threads (the count is atomic).
template <class T>
class Shared {
public:
    Shared() noexcept = default;
    Shared(std::nullptr_t) noexcept {}
    Shared(const Shared& other) noexcept : block(other.block), object(other.object) { Own(); }
    Shared(Shared&& other) noexcept
        : block(std::exchange(other.block, nullptr)), object(std::exchange(other.object, nullptr)) {}
    template <class U>
        requires std::is_convertible_v<U*, T*>
    Shared(const Shared<U>& other) noexcept : block(other.block), object(other.object) {
        Own();
    }
    template <class U>
        requires std::is_convertible_v<U*, T*>
    Shared(Shared<U>&& other) noexcept
        : block(std::exchange(other.block, nullptr)), object(std::exchange(other.object, nullptr)) {}
    Shared& operator=(Shared other) noexcept {
        std::swap(block, other.block);
        std::swap(object, other.object);
        return *this;
    }
    ~Shared() {
        if (block && DropOwner(block->owners)) block->destroy(block);
    }

    T* get() const noexcept { return object; }
    T* operator->() const noexcept { return object; }
    template <class U = T>
        requires(!std::is_void_v<U>)
    U& operator*() const noexcept {
        return *object;
    }
    explicit operator bool() const noexcept { return object != nullptr; }

private:
    template <class U>
    friend class Shared;
    template <class U, class... Args>
    friend Shared<U> MakeShared(Args&&... args);

    void Own() noexcept {
        if (block) AddOwner(block->owners);
    }

    SharedBlock* block = nullptr;
    T* object = nullptr;
};

/// A new T with shared owners.
template <class T, class... Args>
Shared<T> MakeShared(Args&&... args) {
    using Value = std::remove_const_t<T>;
    auto* box = new SharedBox<Value>(std::forward<Args>(args)...);
    box->destroy = [](SharedBlock* b) noexcept { delete static_cast<SharedBox<Value>*>(b); };
    Shared<T> shared;
    shared.block = box;
    shared.object = &box->value;
    return shared;
}

} // namespace tickfsm::detail
