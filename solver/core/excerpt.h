// What a diagnostic quotes of the user's text (an attribute's value, an expression, a chain of ids), bounded: a
// message must stay readable when the deck holds a 10 MB value or a cycle of ten thousand variables.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lodestone {

// Long enough for any expression a person writes and reads in a message.
constexpr std::size_t kExcerptCharacters = 200;

// `text` itself when at most `limit` bytes; otherwise its start and its end around
// "...[<n> characters left out]...", cut between UTF-8 characters, about `limit` bytes in all.
std::string excerpt(std::string_view text, std::size_t limit = kExcerptCharacters);

}  // namespace lodestone
