#pragma once
// tickfsm::List: the growable array of tickfsm's tables and of what its
// queries return (Description, Finding, Snapshot). Written here, as
// detail::Owned is, so that no header of the core includes <vector>: every
// translation unit that includes tickfsm pays for parsing what its headers
// include, and <vector> is a large part of that. It keeps the part of
// std::vector's interface that code reading a list uses, with the same
// meaning (size, [], begin and end, push_back...); its elements are
// contiguous, so a List converts to std::span, and
// std::vector<T>(list.begin(), list.end()) copies it.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <new>
#include <type_traits>
#include <utility>

namespace tickfsm {

/// A growable array with std::vector's common interface (see above).
template <class T>
class List {
public:
    using value_type = T;
    using size_type = std::size_t;
    using iterator = T*;
    using const_iterator = const T*;

    // Each constructor that fills the list delegates to the default one first,
    // so that if an element's constructor throws, the destructor frees those
    // made before it.
    List() noexcept = default;
    explicit List(std::size_t n) : List() { resize(n); }
    List(std::size_t n, const T& value) : List() { assign(n, value); }
    List(std::initializer_list<T> list) : List() {
        reserve(list.size());
        for (const T& value : list) Append(value);
    }
    /// A copy of the elements of [first, last).
    template <class It>
        requires(!std::is_integral_v<It>)
    List(It first, It last) : List() {
        for (; first != last; ++first) emplace_back(*first);
    }
    List(const List& other) : List() {
        reserve(other.count);
        for (const T& value : other) Append(value);
    }
    List(List&& other) noexcept
        : items(std::exchange(other.items, nullptr)), count(std::exchange(other.count, 0)),
          room(std::exchange(other.room, 0)) {}
    List& operator=(const List& other) {
        if (this != &other) {
            List copy(other);
            swap(copy);
        }
        return *this;
    }
    List& operator=(List&& other) noexcept {
        List moved(std::move(other));
        swap(moved);
        return *this;
    }
    ~List() {
        clear();
        Free(items);
    }

    std::size_t size() const noexcept { return count; }
    std::size_t capacity() const noexcept { return room; }
    bool empty() const noexcept { return count == 0; }
    T* data() noexcept { return items; }
    const T* data() const noexcept { return items; }
    T* begin() noexcept { return items; }
    T* end() noexcept { return items + count; }
    const T* begin() const noexcept { return items; }
    const T* end() const noexcept { return items + count; }
    T& operator[](std::size_t i) noexcept { return items[i]; }
    const T& operator[](std::size_t i) const noexcept { return items[i]; }
    T& front() noexcept { return items[0]; }
    const T& front() const noexcept { return items[0]; }
    T& back() noexcept { return items[count - 1]; }
    const T& back() const noexcept { return items[count - 1]; }

    void push_back(const T& value) { emplace_back(value); }
    void push_back(T&& value) { emplace_back(std::move(value)); }
    /// Appends a T built from `args` (which may name an element of this List).
    template <class... Args>
    T& emplace_back(Args&&... args) {
        if (count == room) {
            T value(std::forward<Args>(args)...); // built before the elements move
            Relocate(Grown(count + 1));
            return Append(std::move(value));
        }
        return Append(std::forward<Args>(args)...);
    }
    void pop_back() noexcept { items[--count].~T(); }
    void clear() noexcept {
        while (count > 0) items[--count].~T();
    }
    void reserve(std::size_t wanted) {
        if (wanted > room) Relocate(wanted);
    }
    /// Grows with value-initialized elements (zeros for numbers), or shrinks.
    void resize(std::size_t n) {
        reserve(n);
        while (count < n) Append();
        while (count > n) items[--count].~T();
    }
    void resize(std::size_t n, const T& value) {
        if (n > room) {
            T copy(value); // `value` may be an element
            reserve(n);
            while (count < n) Append(copy);
        }
        while (count < n) Append(value);
        while (count > n) items[--count].~T();
    }
    void assign(std::size_t n, const T& value) {
        T copy(value);
        clear();
        resize(n, copy);
    }
    /// Replaces the elements with copies of [first, last).
    template <class It>
        requires(!std::is_integral_v<It>)
    void assign(It first, It last) {
        List copy(first, last);
        swap(copy);
    }
    /// Inserts `value` before `at`; returns where it now is.
    T* insert(const T* at, T value) {
        const std::size_t i = static_cast<std::size_t>(at - items);
        emplace_back(std::move(value));
        Rotate(i, count - 1);
        return items + i;
    }
    /// Inserts copies of [first, last) before `at`; returns where the first now is.
    /// The range may be this list's own elements (which std::vector forbids).
    template <class It>
        requires(!std::is_integral_v<It>)
    T* insert(const T* at, It first, It last) {
        const std::size_t i = static_cast<std::size_t>(at - items);
        const std::size_t before = count;
        if constexpr (std::is_convertible_v<It, const T*>) {
            if (Holds(first)) { // read by index: growing moves the elements
                const T* const begin_at = first;
                const std::size_t from = static_cast<std::size_t>(begin_at - items);
                const std::size_t n = static_cast<std::size_t>(static_cast<const T*>(last) - begin_at);
                reserve(count + n);
                for (std::size_t k = 0; k < n; ++k) Append(items[from + k]);
                Rotate(i, before);
                return items + i;
            }
        }
        if constexpr (!std::is_convertible_v<It, const T*>) {
            // Another kind of iterator may read this list too (a reverse
            // iterator): growing would free what it reads, so the range is
            // copied first (this form is for configuration, not the tick).
            List copied;
            for (; first != last; ++first) copied.emplace_back(*first);
            reserve(count + copied.count);
            for (std::size_t k = 0; k < copied.count; ++k) Append(std::move(copied.items[k]));
            Rotate(i, before);
            return items + i;
        }
        for (; first != last; ++first) emplace_back(*first);
        Rotate(i, before);
        return items + i;
    }
    /// Removes the elements in [first, last); returns where the next one now is.
    T* erase(const T* first, const T* last) {
        const std::size_t from = static_cast<std::size_t>(first - items);
        const std::size_t gone = static_cast<std::size_t>(last - first);
        for (std::size_t j = from; j + gone < count; ++j) items[j] = std::move(items[j + gone]);
        for (std::size_t k = 0; k < gone; ++k) items[--count].~T();
        return items + from;
    }
    T* erase(const T* at) { return erase(at, at + 1); }
    void swap(List& other) noexcept {
        std::swap(items, other.items);
        std::swap(count, other.count);
        std::swap(room, other.room);
    }

    friend bool operator==(const List& a, const List& b) {
        if (a.count != b.count) return false;
        for (std::size_t i = 0; i < a.count; ++i)
            if (!(a.items[i] == b.items[i])) return false;
        return true;
    }

    /// Equal to another sized range (a std::vector, a std::span...) of as many
    /// elements, each equal to this list's at its place.
    template <class Range>
        requires(!std::is_same_v<Range, List>) && requires(const Range& r) {
            r.size();
            r.begin();
        }
    friend bool operator==(const List& a, const Range& b) {
        if (a.count != b.size()) return false;
        auto other = b.begin();
        for (std::size_t i = 0; i < a.count; ++i, ++other)
            if (!(a.items[i] == *other)) return false;
        return true;
    }

private:
    /// Builds the next element in room already there; counts it once it is built.
    template <class... Args>
    T& Append(Args&&... args) {
        T* made = ::new (static_cast<void*>(items + count)) T(std::forward<Args>(args)...);
        ++count;
        return *made;
    }
    /// Whether `p` points at one of this list's elements.
    bool Holds(const T* p) const noexcept {
        const auto address = reinterpret_cast<std::uintptr_t>(p);
        return address >= reinterpret_cast<std::uintptr_t>(items) &&
               address < reinterpret_cast<std::uintptr_t>(items + count);
    }
    /// Moves the elements from `tail` on to `at`, those in [at, tail) after them.
    void Rotate(std::size_t at, std::size_t tail) noexcept {
        for (std::size_t moved = tail; moved < count; ++moved)
            for (std::size_t j = moved; j > at + (moved - tail); --j) std::swap(items[j], items[j - 1]);
    }

    static constexpr bool kOverAligned = alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__;

    std::size_t Grown(std::size_t needed) const noexcept {
        const std::size_t doubled = room * 2;
        return doubled > needed ? doubled : (needed < 4 ? 4 : needed);
    }
    static T* Allocate(std::size_t n) {
        if constexpr (kOverAligned) return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{alignof(T)}));
        else return static_cast<T*>(::operator new(n * sizeof(T)));
    }
    static void Free(T* block) noexcept {
        if (block == nullptr) return;
        if constexpr (kOverAligned) ::operator delete(block, std::align_val_t{alignof(T)});
        else ::operator delete(block);
    }
    /// Moves the elements to a new block with room for `n`, and frees the
    /// old one. The library's element types move without throwing.
    void Relocate(std::size_t n) {
        T* fresh = Allocate(n);
        for (std::size_t i = 0; i < count; ++i) {
            ::new (static_cast<void*>(fresh + i)) T(std::move(items[i]));
            items[i].~T();
        }
        Free(items);
        items = fresh;
        room = n;
    }

    T* items = nullptr;
    std::size_t count = 0;
    std::size_t room = 0;
};

} // namespace tickfsm
