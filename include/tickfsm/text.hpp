#pragma once
// tickfsm::Text: the owned text that tickfsm's queries and errors return
// (ActivePath(), a Description's names, WriteDot, a ConfigError's message).
// Written here, as List is, so that no header of the core includes <string>:
// every translation unit that includes tickfsm pays for parsing what its
// headers include. A Text reads as a std::string_view (it converts to one)
// and converts to a std::string, so `std::string s = text`,
// `text == "Combat/Attack"`, `"path: " + text`, `text.c_str()` and
// `text.view()` all do what they say.

#include <cstddef>
#include <string_view>
#include <type_traits>

namespace tickfsm {

/// An owned, null-terminated piece of text (see above).
class Text {
public:
    Text() noexcept = default;
    Text(std::string_view text) { Assign(text.data(), text.size()); }
    Text(const char* text) : Text(std::string_view(text)) {}
    /// A copy of any text that converts to a std::string_view (a std::string...).
    template <class String>
        requires(std::is_convertible_v<const String&, std::string_view> &&
                 !std::is_convertible_v<const String&, const char*> && !std::is_same_v<String, Text>)
    Text(const String& text) : Text(std::string_view(text)) {}
    Text(const Text& other) : Text(other.view()) {}
    Text(Text&& other) noexcept : chars(other.chars), length(other.length) {
        other.chars = nullptr;
        other.length = 0;
    }
    Text& operator=(const Text& other) {
        if (this != &other) {
            Text copy(other);
            Swap(copy);
        }
        return *this;
    }
    Text& operator=(Text&& other) noexcept {
        Text moved(static_cast<Text&&>(other));
        Swap(moved);
        return *this;
    }
    ~Text() { delete[] chars; }

    std::string_view view() const noexcept { return {c_str(), length}; }
    operator std::string_view() const noexcept { return view(); }
    /// A copy as any owning string built from (characters, size) that has a
    /// c_str(): a std::string...
    template <class String>
        requires(std::is_constructible_v<String, const char*, std::size_t> &&
                 requires(const String& s) { s.c_str(); })
    operator String() const {
        return String(c_str(), length);
    }
    /// The text, null-terminated ("" for an empty Text).
    const char* c_str() const noexcept { return chars != nullptr ? chars : ""; }
    const char* data() const noexcept { return c_str(); }
    std::size_t size() const noexcept { return length; }
    bool empty() const noexcept { return length == 0; }
    const char* begin() const noexcept { return c_str(); }
    const char* end() const noexcept { return c_str() + length; }
    char operator[](std::size_t i) const noexcept { return c_str()[i]; }

    /// Appends `more`.
    Text& operator+=(std::string_view more) {
        Text joined;
        joined.chars = new char[length + more.size() + 1];
        std::char_traits<char>::copy(joined.chars, c_str(), length);
        std::char_traits<char>::copy(joined.chars + length, more.data(), more.size());
        joined.length = length + more.size();
        joined.chars[joined.length] = '\0';
        Swap(joined);
        return *this;
    }

    friend bool operator==(const Text& a, const Text& b) noexcept { return a.view() == b.view(); }
    /// Equal to any text that converts to a std::string_view (a std::string, "Run"...).
    template <class String>
        requires std::is_convertible_v<const String&, std::string_view>
    friend bool operator==(const Text& a, const String& b) noexcept {
        return a.view() == std::string_view(b);
    }

    friend Text operator+(const Text& a, const Text& b) {
        Text joined(a);
        joined += b;
        return joined;
    }
    /// Joined with any text that converts to a std::string_view.
    template <class String>
        requires(std::is_convertible_v<const String&, std::string_view> && !std::is_same_v<String, Text>)
    friend Text operator+(const Text& a, const String& b) {
        Text joined(a);
        joined += std::string_view(b);
        return joined;
    }
    template <class String>
        requires(std::is_convertible_v<const String&, std::string_view> && !std::is_same_v<String, Text>)
    friend Text operator+(const String& a, const Text& b) {
        Text joined(std::string_view{a});
        joined += b;
        return joined;
    }

private:
    void Assign(const char* text, std::size_t size) {
        if (size == 0) return;
        chars = new char[size + 1];
        std::char_traits<char>::copy(chars, text, size);
        chars[size] = '\0';
        length = size;
    }
    void Swap(Text& other) noexcept {
        char* c = chars;
        chars = other.chars;
        other.chars = c;
        const std::size_t n = length;
        length = other.length;
        other.length = n;
    }

    char* chars = nullptr; // null while empty
    std::size_t length = 0;
};

namespace detail {

/// Where a printer appends its text: a string of the user's, kept by
/// reference, of any type with append(const char*, size) (a std::string...).
class AppendTo {
public:
    AppendTo() noexcept = default;
    template <class String>
        requires requires(String& s, const char* p, std::size_t n) { s.append(p, n); }
    explicit AppendTo(String& out) noexcept
        : target(&out), append([](void* t, std::string_view more) {
              static_cast<String*>(t)->append(more.data(), more.size());
          }) {}
    void operator()(std::string_view more) const { append(target, more); }
    /// Whether it has a string to append to.
    explicit operator bool() const noexcept { return target != nullptr; }

private:
    void* target = nullptr;
    void (*append)(void* target, std::string_view more) = nullptr;
};

} // namespace detail
} // namespace tickfsm
