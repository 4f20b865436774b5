#pragma once
// tickfsm::Text: the owned text that tickfsm's queries and errors return
// (ActivePath(), a Description's names, WriteDot, a ConfigError's message).
// Written here, as List is, so that no header of the core includes <string>:
// every translation unit that includes tickfsm pays for parsing what its
// headers include. A Text reads as a std::string_view (it converts to one)
// and converts to a std::string, so `std::string s = text`,
// `text == "Combat/Attack"`, `"path: " + text`, `std::cout << text`,
// `text.c_str()` and `text.view()` all do what they say.

#include <compare>
#include <cstddef>
#include <string_view>
#include <type_traits>

namespace tickfsm {
namespace detail {

/// Text that views as a std::string_view: a Text, a std::string, "Run"...
template <class String>
concept ViewsAsText = std::is_convertible_v<const String&, std::string_view>;
/// A string of the user's that a printer appends to: any type with
/// append(const char*, size) (a std::string...).
template <class String>
concept AppendableText = requires(String& s, const char* p, std::size_t n) { s.append(p, n); };

} // namespace detail

/// An owned, null-terminated piece of text (see above).
class Text {
public:
    Text() noexcept = default;
    Text(std::string_view text) { Assign(text.data(), text.size()); }
    Text(const char* text) : Text(std::string_view(text)) {}
    /// A copy of any text that converts to a std::string_view (a std::string...).
    template <class String>
        requires(detail::ViewsAsText<String> && !std::is_convertible_v<const String&, const char*> &&
                 !std::is_same_v<String, Text>)
    Text(const String& text) : Text(std::string_view(text)) {}
    Text(const Text& other) : Text(other.view()) {}
    Text(Text&& other) noexcept : chars(other.chars), count(other.count) {
        other.chars = nullptr;
        other.count = 0;
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

    std::string_view view() const noexcept { return {c_str(), count}; }
    operator std::string_view() const noexcept { return view(); }
    /// A copy as any owning string built from (characters, size) that has a
    /// c_str(): a std::string...
    template <class String>
        requires(std::is_constructible_v<String, const char*, std::size_t> &&
                 requires(const String& s) { s.c_str(); })
    operator String() const {
        return String(c_str(), count);
    }
    /// The text, null-terminated ("" for an empty Text).
    const char* c_str() const noexcept { return chars != nullptr ? chars : ""; }
    const char* data() const noexcept { return c_str(); }
    std::size_t size() const noexcept { return count; }
    bool empty() const noexcept { return count == 0; }
    const char* begin() const noexcept { return c_str(); }
    const char* end() const noexcept { return c_str() + count; }
    char operator[](std::size_t i) const noexcept { return c_str()[i]; }

    // The searches std::string has, with its meaning.
    static constexpr std::size_t npos = std::string_view::npos;
    std::size_t length() const noexcept { return count; }
    bool starts_with(std::string_view prefix) const noexcept { return view().starts_with(prefix); }
    bool starts_with(char c) const noexcept { return view().starts_with(c); }
    bool ends_with(std::string_view suffix) const noexcept { return view().ends_with(suffix); }
    bool ends_with(char c) const noexcept { return view().ends_with(c); }
    std::size_t find(std::string_view part, std::size_t from = 0) const noexcept { return view().find(part, from); }
    std::size_t find(char c, std::size_t from = 0) const noexcept { return view().find(c, from); }
    std::size_t rfind(std::string_view part, std::size_t from = npos) const noexcept {
        return view().rfind(part, from);
    }
    std::size_t rfind(char c, std::size_t from = npos) const noexcept { return view().rfind(c, from); }
    /// The characters [from, from + n) as a Text of their own (a copy, as
    /// std::string's substr makes), clipped to the end.
    Text substr(std::size_t from, std::size_t n = npos) const { return Text(view().substr(from, n)); }

    /// Appends `more`.
    Text& operator+=(std::string_view more) {
        Text joined;
        joined.chars = new char[count + more.size() + 1];
        std::char_traits<char>::copy(joined.chars, c_str(), count);
        std::char_traits<char>::copy(joined.chars + count, more.data(), more.size());
        joined.count = count + more.size();
        joined.chars[joined.count] = '\0';
        Swap(joined);
        return *this;
    }

    friend bool operator==(const Text& a, const Text& b) noexcept { return a.view() == b.view(); }
    /// Equal to any text that converts to a std::string_view (a std::string, "Run"...).
    template <class String>
        requires detail::ViewsAsText<String>
    friend bool operator==(const Text& a, const String& b) noexcept {
        return a.view() == std::string_view(b);
    }

    /// Writes the text to a character stream (a std::ostream...). Only a type
    /// with a stream's char_type and traits_type qualifies, so that a logger's
    /// own catch-all operator<< stays the only one it has.
    template <class Stream>
        requires requires(Stream& out, std::string_view text) {
            typename Stream::traits_type;
            requires std::is_same_v<typename Stream::char_type, char>;
            out << text;
        }
    friend Stream& operator<<(Stream& out, const Text& text) {
        out << text.view();
        return out;
    }

    /// Ordered as std::string orders (so a Text can key a std::map or std::set).
    friend auto operator<=>(const Text& a, const Text& b) noexcept { return a.view() <=> b.view(); }
    template <class String>
        requires detail::ViewsAsText<String>
    friend auto operator<=>(const Text& a, const String& b) noexcept {
        return a.view() <=> std::string_view(b);
    }

    friend Text operator+(const Text& a, const Text& b) {
        Text joined(a);
        joined += b;
        return joined;
    }
    /// Joined with any text that converts to a std::string_view.
    template <class String>
        requires(detail::ViewsAsText<String> && !std::is_same_v<String, Text>)
    friend Text operator+(const Text& a, const String& b) {
        Text joined(a);
        joined += std::string_view(b);
        return joined;
    }
    template <class String>
        requires(detail::ViewsAsText<String> && !std::is_same_v<String, Text>)
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
        count = size;
    }
    void Swap(Text& other) noexcept {
        char* c = chars;
        chars = other.chars;
        other.chars = c;
        const std::size_t n = count;
        count = other.count;
        other.count = n;
    }

    char* chars = nullptr; // null while empty
    std::size_t count = 0;
};

namespace detail {

/// Where a printer appends its text: a string of the user's, kept by
/// reference, of any type with append(const char*, size) (a std::string...).
class AppendTo {
public:
    AppendTo() noexcept = default;
    template <class String>
        requires AppendableText<String>
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
